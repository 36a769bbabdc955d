import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../../db/schema.ts';
import type { DatabaseConfig } from '../config/config.ts';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['kind'];

const PG_INT8 = 20;
const PG_TIMESTAMP = 1114;
const PG_TIMESTAMPTZ = 1184;

// Ids and counts are int8 in PostgreSQL; they stay below 2^53, so numbers are exact. Timestamps are
// written as `yyyy-MM-dd HH:mm:ss` text and read back unchanged, like SQLite does.
pg.types.setTypeParser(PG_INT8, (text) => Number(text));
pg.types.setTypeParser(PG_TIMESTAMP, (text) => text.slice(0, 19));
pg.types.setTypeParser(PG_TIMESTAMPTZ, (text) => text.slice(0, 19));

const sqliteHandles = new WeakMap<Db, SqliteDatabase.Database>();

/**
 * The better-sqlite3 handle behind an embedded database, for the few hot bulk writers (audit logs) where
 * one prepared statement run per row in a transaction beats building a large multi-row INSERT. Null on
 * PostgreSQL.
 */
export function sqliteHandle(db: Db): SqliteDatabase.Database | null {
  return sqliteHandles.get(db) ?? null;
}

/** Prepared statements kept per connection, by SQL text (least recently used go first). */
const STATEMENT_CACHE_SIZE = 1000;

/**
 * The better-sqlite3 handle as Kysely's SQLite driver sees it, reusing prepared statements: the driver
 * prepares every query again, which cost 15–18 % of a simple write request. A statement still being iterated
 * (a streamed export) is busy; the same SQL then gets a fresh statement. SQLite re-prepares a cached
 * statement by itself when the schema changes (per-form data tables gain columns on publishing).
 */
function reusingStatements(sqlite: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string): SqliteDatabase.Statement {
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = sqlite.prepare(sql);
      if (!cached) {
        cache.set(sql, statement);
        if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      }
      return statement;
    },
  };
}

export function openDatabase(config: DatabaseConfig): { db: Db; dialect: Dialect } {
  if (config.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: config.url, max: 10 });
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: 'postgres' };
  }
  mkdirSync(dirname(config.file), { recursive: true });
  const sqlite = new SqliteDatabase(config.file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // WAL with NORMAL sync stays crash-safe for the database file and is much faster than FULL.
  sqlite.pragma('synchronous = NORMAL');
  // A 64 MB page cache (default 2 MB): the indexes of a form with a million records stay in memory; the
  // deadline-rush bench spent ~20% less CPU per submission with it. Pages are only held as they are read.
  sqlite.pragma('cache_size = -65536');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }) });
  sqliteHandles.set(db, sqlite);
  return { db, dialect: 'sqlite' };
}
