import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/db/migrations/index.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { openDatabase } from '../src/platform/db/db.ts';
import { type Migration, MigrationError, migrate } from '../src/platform/db/migrator.ts';
import { createTestEnv, type TestEnv } from './helpers.ts';

let env: TestEnv;
// biome-ignore lint/suspicious/noExplicitAny: the test creates tables outside the app schema.
let db: Kysely<any>;
let dialect: 'sqlite' | 'postgres';

beforeAll(async () => {
  env = await createTestEnv();
  const opened = openDatabase(loadConfig(env.env).database);
  db = opened.db;
  dialect = opened.dialect;
});
afterAll(async () => {
  await db?.destroy();
  await env?.cleanup();
});

async function tables(): Promise<string[]> {
  return (await db.introspection.getTables()).map((t) => t.name).sort();
}

describe('migrations', () => {
  it('apply once and are recorded', async () => {
    expect(await migrate(db, dialect, MIGRATIONS)).toEqual(MIGRATIONS.map((m) => m.name));
    expect(MIGRATIONS.map((m) => m.name)).toEqual([
      '0001-platform',
      '0002-config-dict-admin',
      '0003-logs',
      '0004-log-pages',
      '0005-cache-server-pages',
      '0006-regions',
      '0007-identity',
      '0008-notice-file-job',
      '0009-diy-forms',
      '0010-diy-pages',
      '0011-diy-collect-confirm',
    ]);
    expect(await migrate(db, dialect, MIGRATIONS)).toEqual([]);
    expect(await tables()).toEqual(
      expect.arrayContaining([
        'sys_user',
        'sys_org',
        'sys_menu',
        'sys_session',
        'sys_config',
        'shuzhi_migration',
      ]),
    );
  });

  it('a failing migration leaves the database as it was', async () => {
    const before = await tables();
    await db
      .insertInto('sys_config')
      .values({ id: 1, code: 'probe', name: 'probe', create_time: '2026-01-01 00:00:00' })
      .execute();
    const good: Migration = {
      name: '9001-good',
      async up(trx) {
        await trx.schema
          .createTable('probe_good')
          .addColumn('id', 'bigint', (c) => c.primaryKey())
          .execute();
      },
    };
    const bad: Migration = {
      name: '9002-bad',
      async up(trx) {
        await trx.schema
          .createTable('probe_bad')
          .addColumn('id', 'bigint', (c) => c.primaryKey())
          .execute();
        await trx.schema.alterTable('sys_user').addColumn('probe_col', 'varchar(10)').execute();
        await trx.updateTable('sys_config').set({ name: 'changed' }).where('id', '=', 1).execute();
        await trx.schema.createTable('sys_user').addColumn('id', 'bigint').execute();
      },
    };
    const error = await migrate(db, dialect, [...MIGRATIONS, good, bad]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MigrationError);
    expect((error as MigrationError).migration).toBe('9002-bad');
    expect((error as MigrationError).message).toContain('the database is unchanged');

    expect(await tables()).toEqual([...before, 'probe_good'].sort());
    const userColumns = (await db.introspection.getTables())
      .find((t) => t.name === 'sys_user')
      ?.columns.map((c) => c.name);
    expect(userColumns).not.toContain('probe_col');
    const row = await db.selectFrom('sys_config').select('name').where('id', '=', 1).executeTakeFirst();
    expect(row?.name).toBe('probe');
    const applied = (await db.selectFrom('shuzhi_migration').select('name').execute()).map((r) => r.name);
    expect(applied).toEqual([...MIGRATIONS.map((m) => m.name), '9001-good']);
  });
});
