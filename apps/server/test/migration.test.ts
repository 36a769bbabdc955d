import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/db/migrations/migrations.ts';
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

/**
 * The tables of this file's own database: on PostgreSQL, of its own schema (introspection lists every schema,
 * and the test files running beside it make tables in theirs).
 */
async function ownTables() {
  const own =
    dialect === 'postgres'
      ? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name
      : undefined;
  return (await db.introspection.getTables()).filter((t) => own === undefined || t.schema === own);
}

async function tables(): Promise<string[]> {
  return (await ownTables()).map((t) => t.name).sort();
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
      '0012-diy-periods-rollups-import',
      '0013-platform-wide-pages',
      '0014-service-sessions',
      '0015-text-search',
      '0016-tasks',
      '0017-task-urge',
      '0018-task-lifecycle',
      '0019-task-schedules',
      '0021-no-login-links',
      '0022-query-reports',
      '0023-task-review',
      '0025-cockpit',
      '0026-word-templates',
      '0027-public-statements-scenes',
      '0028-task-urge-retry',
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

  it('0012 gives the data tables of forms published before it their period columns, in this schema only', async () => {
    const env2 = await createTestEnv();
    const opened = openDatabase(loadConfig(env2.env).database);
    // biome-ignore lint/suspicious/noExplicitAny: the test writes a data table the static schema does not know.
    const old = opened.db as Kysely<any>;
    try {
      const before = MIGRATIONS.findIndex((m) => m.name === '0012-diy-periods-rollups-import');
      await migrate(old, opened.dialect, MIGRATIONS.slice(0, before));
      // A form published by the previous release, with its data table as that release made it.
      await old
        .insertInto('diy_table')
        .values({
          id: 77,
          tenant_id: 1,
          title: '旧表单',
          fillers: '{}',
          viewers: '{}',
          reviewer_ids: '[]',
          version: 1,
          create_time: '2026-11-01 00:00:00',
        })
        .execute();
      await old.schema
        .createTable('diy_data_77')
        .addColumn('id', 'bigint', (c) => c.primaryKey())
        .addColumn('tenant_id', 'bigint', (c) => c.notNull())
        .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
        .addColumn('create_org_id', 'bigint')
        .execute();
      await old
        .insertInto('diy_data_77')
        .values({ id: 1, tenant_id: 1, is_delete: 0, create_org_id: 5 })
        .execute();
      expect(await migrate(old, opened.dialect, MIGRATIONS)).toEqual([
        '0012-diy-periods-rollups-import',
        '0013-platform-wide-pages',
        '0014-service-sessions',
        '0015-text-search',
        '0016-tasks',
        '0017-task-urge',
        '0018-task-lifecycle',
        '0019-task-schedules',
        '0021-no-login-links',
        '0022-query-reports',
        '0023-task-review',
        '0025-cockpit',
        '0026-word-templates',
        '0027-public-statements-scenes',
        '0028-task-urge-retry',
      ]);
      const row = await old.selectFrom('diy_data_77').selectAll().executeTakeFirstOrThrow();
      expect(row).toMatchObject({ period_id: null, is_zero: 0, late: 0 });
    } finally {
      await old.destroy();
      await env2.cleanup();
    }
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
    const userColumns = (await ownTables()).find((t) => t.name === 'sys_user')?.columns.map((c) => c.name);
    expect(userColumns).not.toContain('probe_col');
    const row = await db.selectFrom('sys_config').select('name').where('id', '=', 1).executeTakeFirst();
    expect(row?.name).toBe('probe');
    const applied = (await db.selectFrom('shuzhi_migration').select('name').execute()).map((r) => r.name);
    expect(applied).toEqual([...MIGRATIONS.map((m) => m.name), '9001-good']);
  });
});
