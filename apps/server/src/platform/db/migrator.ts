import { type Kysely, sql } from 'kysely';
import type { Dialect } from './db.ts';
import { formatDateTime } from './time.ts';

// biome-ignore lint/suspicious/noExplicitAny: migrations and their bookkeeping table are outside the app schema type.
type AnyDb = Kysely<any>;

/** One schema step. It must run on SQLite and PostgreSQL alike. */
export type Migration = {
  name: string;
  /** Sees the schema as it was at that step, not as it is now. */
  up(db: AnyDb): Promise<void>;
};

export class MigrationError extends Error {
  constructor(
    readonly migration: string,
    cause: unknown,
  ) {
    super(
      `Migration ${migration} failed, the database is unchanged: ${(cause as Error)?.message ?? String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'MigrationError';
  }
}

const TABLE = 'shuzhi_migration';
// Arbitrary constant key: serialises migrations of several processes starting at once on PostgreSQL.
const PG_LOCK_KEY = 5005_2026;

/**
 * Applies pending migrations in order, each in its own transaction together with its bookkeeping row, so a
 * failing migration leaves the database as it was (both dialects have transactional DDL).
 */
export async function migrate(
  db: AnyDb,
  dialect: Dialect,
  migrations: readonly Migration[],
): Promise<string[]> {
  await db.schema
    .createTable(TABLE)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('applied_time', 'timestamp', (c) => c.notNull())
    .execute();
  const applied: string[] = [];
  for (const migration of migrations) {
    try {
      await db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PG_LOCK_KEY})`.execute(trx);
        const done = await trx
          .selectFrom(TABLE)
          .select('name')
          .where('name', '=', migration.name)
          .executeTakeFirst();
        if (done) return;
        await migration.up(trx);
        await trx
          .insertInto(TABLE)
          .values({ name: migration.name, applied_time: formatDateTime() })
          .execute();
        applied.push(migration.name);
      });
    } catch (error) {
      throw new MigrationError(migration.name, error);
    }
  }
  return applied;
}
