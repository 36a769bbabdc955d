import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import {
  type AccessMode,
  type ConnectionBuilder,
  type IsolationLevel,
  Kysely,
  type KyselyPlugin,
  PostgresDialect,
  type PostgresPool,
  SqliteDialect,
  sql,
  type Transaction,
  type TransactionBuilder,
} from 'kysely';
import pg from 'pg';
import type { Database } from '../../db/schema.ts';
import type { DatabaseConfig } from '../config/config.ts';

export type Db = Kysely<Database>;
export type Dialect = DatabaseConfig['kind'];

const PG_INT8 = 20;
const PG_TIMESTAMP = 1114;
const PG_TIMESTAMPTZ = 1184;

// Ids and counts are int8 in PostgreSQL; they stay below 2^53, so numbers are exact. Timestamps are
// written as `yyyy-MM-dd HH:mm:ss` text in the product's zone and read back unchanged, like SQLite does; the
// sessions run in that zone (`TimeZone`, see postgresPool), so a timestamptz (now(), an expression) reads
// as the same wall clock and its offset can be dropped.
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

/**
 * The database cannot be reached right now (refused, dropped, restarting, timed out): requests answer 503
 * and background writers keep their work for the next attempt instead of treating it as refused.
 */
export class DatabaseUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`database unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'DatabaseUnavailableError';
  }
}

/** Socket errors and SQLSTATEs of a lost or refused connection (class 08, admin/crash shutdown, starting up, full). */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
/** pg's own errors for a connection that ended or never came (they carry no code). */
const UNAVAILABLE_MESSAGES =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/** Whether an error (or one of its causes) means the database is unreachable rather than the query wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    if (current instanceof DatabaseUnavailableError) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
    if (UNAVAILABLE_MESSAGES.test(current.message)) return true;
    current = current.cause;
  }
  return false;
}

/** Waiting for a connection (a free one in the pool, or a new one to the server) fails after this long. */
const PG_CONNECT_TIMEOUT_MS = 5_000;
/** Idle connections close after this long, so a pooler or firewall that drops idle sockets finds none. */
const PG_IDLE_TIMEOUT_MS = 30_000;
/** TCP keepalive: a peer that vanished without closing (failover, cable) is noticed on idle sockets too. */
const PG_KEEPALIVE_DELAY_MS = 10_000;

export type DatabaseEvents = {
  /** A pooled connection broke (terminated, server gone); the pool drops it and opens a new one on demand. */
  onConnectionError?: (error: Error) => void;
};

/**
 * A pg pool that survives its server going away: an `error` listener on the pool (idle connections) and on
 * every connection handed out (one checked out between two queries), without which Node ends the process
 * on the first terminated backend; connect failures become DatabaseUnavailableError.
 */
function postgresPool(
  config: Extract<DatabaseConfig, { kind: 'postgres' }>,
  events: DatabaseEvents,
): PostgresPool {
  const timeout = config.statementTimeoutMs > 0 ? config.statementTimeoutMs : undefined;
  const pool = new pg.Pool({
    connectionString: config.url,
    max: config.poolMax,
    connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: PG_IDLE_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: PG_KEEPALIVE_DELAY_MS,
    statement_timeout: timeout,
    idle_in_transaction_session_timeout: timeout,
  });
  const onError = (error: Error) => events.onConnectionError?.(error);
  pool.on('error', onError);
  // Every new connection runs in the product's zone: queued before any statement of its first user, and
  // not through the startup `options`, which an `?options=` of DATABASE_URL (a search_path) would replace.
  pool.on('connect', (client) => {
    client.query(`select set_config('TimeZone', $1, false)`, [config.timeZone]).catch(onError);
  });
  const watched = new WeakSet<pg.PoolClient>();
  return {
    async connect() {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw new DatabaseUnavailableError(error);
      }
      if (!watched.has(client)) {
        watched.add(client);
        client.on('error', onError);
      }
      return client;
    },
    end: () => pool.end(),
  };
}

/** Whether the database answers a trivial query within `timeoutMs`. */
export async function pingDatabase(db: Db, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  const query = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

export function openDatabase(
  config: DatabaseConfig,
  events: DatabaseEvents = {},
): { db: Db; dialect: Dialect } {
  const { db, dialect } = openRoot(config, events);
  return { db: routeTransactions(db), dialect };
}

function openRoot(config: DatabaseConfig, events: DatabaseEvents): { db: Db; dialect: Dialect } {
  if (config.kind === 'postgres') {
    const pool = postgresPool(config, events);
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

/**
 * Where queries of a database go while a transaction or a held connection is open in this async context.
 * `finished` is set when its callback has settled: work it left behind (timers, unawaited promises) then uses
 * the root handle again instead of a transaction that is committing or gone.
 */
type Scope = { handle: Db; finished: boolean };

const scopesOf = new WeakMap<Db, AsyncLocalStorage<Scope>>();

/**
 * The database handle every service gets (ctx.db) is the root Kysely wrapped by this: the same, except that inside
 * `ctx.db.transaction().execute(fn)` (and `ctx.db.connection().execute(fn)`) every use of it, anywhere in fn's
 * async context, goes to that transaction (connection). Code inside a transaction cannot reach the database
 * through another connection, which on SQLite's single connection was a deadlock (issue 14 §2;
 * docs/database.md).
 */
export function routeTransactions(root: Db): Db {
  const scopes = new AsyncLocalStorage<Scope>();
  const db = routed(root, scopes, (handle) => handle);
  scopesOf.set(db, scopes);
  const sqlite = sqliteHandles.get(root);
  if (sqlite) sqliteHandles.set(db, sqlite);
  return db;
}

/** A live scope's handle, or null outside any (or after it finished). */
function active(scopes: AsyncLocalStorage<Scope>): Db | null {
  const scope = scopes.getStore();
  return scope && !scope.finished ? scope.handle : null;
}

/** Runs fn in a new scope of `handle`, marking it finished when fn settles. */
async function inScope<T>(scopes: AsyncLocalStorage<Scope>, handle: Db, fn: () => Promise<T>): Promise<T> {
  const scope: Scope = { handle, finished: false };
  return scopes.run(scope, async () => {
    try {
      return await fn();
    } finally {
      scope.finished = true;
    }
  });
}

/**
 * A handle routed to the current scope. `derive` turns the root or a scope's handle into this handle (the
 * root itself, or one with a plugin or schema added by withPlugin / withSchema / …), so derived handles route
 * too; scopes always hold the plain transaction or connection.
 */
function routed(root: Db, scopes: AsyncLocalStorage<Scope>, derive: (handle: Db) => Db): Db {
  const base = derive(root);
  const derived = (more: (handle: Db) => Db) => routed(root, scopes, (handle) => more(derive(handle)));
  const overrides: Partial<Record<PropertyKey, unknown>> = {
    transaction: () => transactionBuilder(scopes, root, derive, {}),
    connection: () =>
      ({
        async execute<T>(fn: (db: Db) => Promise<T>): Promise<T> {
          const handle = active(scopes);
          if (handle) return fn(derive(handle));
          return root
            .connection()
            .execute((connection) => inScope(scopes, connection, () => fn(derive(connection))));
        },
      }) as ConnectionBuilder<Database>,
    startTransaction: () => {
      throw new Error(
        'startTransaction() is not offered: use transaction().execute(fn), whose queries are routed',
      );
    },
    withPlugin: (plugin: KyselyPlugin) => derived((handle) => handle.withPlugin(plugin)),
    withoutPlugins: () => derived((handle) => handle.withoutPlugins()),
    withSchema: (schema: string) => derived((handle) => handle.withSchema(schema)),
    withTables: () => derived((handle) => handle.withTables()),
  };
  return new Proxy(base, {
    get(_, property) {
      if (Object.hasOwn(overrides, property)) return overrides[property];
      const scoped = active(scopes);
      const handle = scoped ? derive(scoped) : base;
      const value = Reflect.get(handle, property, handle);
      // Kysely's methods read private fields: they must run on the real object, not on the proxy.
      return typeof value === 'function' ? value.bind(handle) : value;
    },
  });
}

type TransactionSettings = { isolationLevel?: IsolationLevel; accessMode?: AccessMode };

/**
 * `transaction()` of a routed handle. Inside a live transaction it joins it (fn gets that transaction; a
 * failure rolls back the whole outer transaction): Kysely has no nested transactions, and no caller needs a
 * partial rollback. Inside a held connection it begins the transaction on that connection.
 */
function transactionBuilder(
  scopes: AsyncLocalStorage<Scope>,
  root: Db,
  derive: (handle: Db) => Db,
  settings: TransactionSettings,
): TransactionBuilder<Database> {
  const builder = {
    setIsolationLevel: (isolationLevel: IsolationLevel) =>
      transactionBuilder(scopes, root, derive, { ...settings, isolationLevel }),
    setAccessMode: (accessMode: AccessMode) =>
      transactionBuilder(scopes, root, derive, { ...settings, accessMode }),
    async execute<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
      const handle = active(scopes);
      if (handle?.isTransaction) return fn(derive(handle) as Transaction<Database>);
      let begin = (handle ?? root).transaction();
      if (settings.isolationLevel) begin = begin.setIsolationLevel(settings.isolationLevel);
      if (settings.accessMode) begin = begin.setAccessMode(settings.accessMode);
      return begin.execute((trx) => inScope(scopes, trx, () => fn(derive(trx) as Transaction<Database>)));
    },
  };
  return builder as unknown as TransactionBuilder<Database>;
}

/**
 * Runs fn outside any transaction of `db` begun in the caller's async context: for work that must not land
 * in (or roll back with) the caller's transaction, such as the audit log writer, and that the transaction
 * never awaits (on SQLite it waits for the transaction to end).
 */
export function outsideTransaction<T>(db: Db, fn: () => T): T {
  const scopes = scopesOf.get(db);
  return scopes ? scopes.exit(fn) : fn();
}
