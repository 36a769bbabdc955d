import { CamelCasePlugin, type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/platform/config/config.ts';
import { type Db, openDatabase, sqliteHandle } from '../src/platform/db/db.ts';
import { createTestEnv, type TestEnv } from './helpers.ts';

// A query that waits for SQLite's only connection while the transaction holding it waits for the query never
// answers: a query counts as hung after this time.
const ANSWER_MS = 3000;

function within<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_MS} ms`)), ANSWER_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

let env: TestEnv;
let db: Db;
let dialect: string;

/** The database typed with the scratch table only. */
const probe = (handle: Db = db) => handle as unknown as Kysely<{ probe: { name: string } }>;
const insert = (handle: Db, name: string) =>
  sql`insert into probe (name) values (${name})`.execute(handle).then(() => undefined);
const names = async (handle: Db = db) =>
  (await sql<{ name: string }>`select name from probe order by name`.execute(handle)).rows.map((r) => r.name);
const count = async (handle: Db = db) =>
  Number(
    (
      await probe(handle)
        .selectFrom('probe')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const rollback = new Error('roll back');
/** Runs fn in a transaction that is then rolled back. */
async function rolledBack(fn: () => Promise<void>): Promise<void> {
  await expect(
    db.transaction().execute(async () => {
      await fn();
      throw rollback;
    }),
  ).rejects.toBe(rollback);
}

beforeAll(async () => {
  env = await createTestEnv();
  const opened = openDatabase(loadConfig(env.env).database);
  db = opened.db;
  dialect = opened.dialect;
  await db.schema.createTable('probe').addColumn('name', 'varchar(32)').execute();
});

afterAll(async () => {
  await db.destroy();
  await env.cleanup();
});

beforeEach(async () => {
  await sql`delete from probe`.execute(db);
});

describe('ctx.db inside a transaction', () => {
  it("sees the transaction's uncommitted row, and after a rollback the row is gone", async () => {
    let inside: string[] = [];
    await rolledBack(async () => {
      await insert(db, 'uncommitted');
      inside = await within(names());
    });
    expect(inside).toEqual(['uncommitted']);
    expect(await names()).toEqual([]);
  });

  it('routes query builders, sql`…`.execute(ctx.db) and handles derived before the transaction', async () => {
    const camel = db.withPlugin(new CamelCasePlugin());
    let seen: unknown[] = [];
    await rolledBack(async () => {
      await db.transaction().execute((trx) => insert(trx, 'a'));
      seen = await within(Promise.all([count(), names(), count(camel)]));
    });
    expect(seen).toEqual([1, ['a'], 1]);
    expect(await count()).toBe(0);
  });

  it('joins a nested transaction(): its writes roll back with the outer one', async () => {
    let nestedIsOuter = false;
    await rolledBack(async () => {
      await db.transaction().execute(async (outer) => {
        await db.transaction().execute(async (inner) => {
          nestedIsOuter = inner === outer;
          await insert(inner, 'nested');
        });
        expect(await within(names(outer))).toEqual(['nested']);
      });
    });
    expect(nestedIsOuter).toBe(true);
    expect(await names()).toEqual([]);
  });

  it('lets work a finished transaction left behind use the root handle', async () => {
    let later: Promise<string[]> | undefined;
    await rolledBack(async () => {
      await insert(db, 'gone');
      later = new Promise((resolve, reject) => {
        setTimeout(() => names().then(resolve, reject), 50);
      });
    });
    // On the transaction it would fail (already rolled back) or still see the row.
    expect(await within(later as Promise<string[]>)).toEqual([]);
  });

  it('routes ctx.db to a held connection, and a transaction begun on it', async () => {
    const seen = await within(
      db.connection().execute(async (connection) => {
        await insert(connection, 'held');
        const beside = await names();
        const inTransaction = await db.transaction().execute(async () => {
          await insert(db, 'in transaction');
          return names();
        });
        return { beside, inTransaction };
      }),
    );
    expect(seen).toEqual({ beside: ['held'], inTransaction: ['held', 'in transaction'] });
  });

  it('refuses startTransaction(), whose queries it could not route', () => {
    expect(() => db.startTransaction()).toThrow('use transaction().execute(fn)');
  });

  it('keeps the SQLite handle of the routed database', () => {
    if (dialect === 'sqlite') expect(sqliteHandle(db)?.open).toBe(true);
    else expect(sqliteHandle(db)).toBeNull();
  });
});
