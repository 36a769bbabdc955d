import { CompiledQuery, type Insertable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { isDatabaseUnavailable, outsideTransaction, sqliteHandle } from '../db/db.ts';

export type LogTable = 'sys_log_vis' | 'sys_log_op' | 'sys_log_ex' | 'sys_log_diff';
export type LogRow<T extends LogTable> = Insertable<Database[T]>;

const BASE = [
  'id',
  'create_time',
  'update_time',
  'create_user_id',
  'create_user_name',
  'update_user_id',
  'update_user_name',
  'is_delete',
  'tenant_id',
  'user_id',
  'account',
  'real_name',
] as const;
const CLIENT = ['ip', 'browser', 'os', 'user_agent'] as const;

/** Every column of each log table, in one fixed order: the writer binds rows by these lists. */
export const LOG_COLUMNS = {
  sys_log_vis: [...BASE, ...CLIENT, 'action', 'status', 'code', 'message', 'elapsed'],
  sys_log_op: [
    ...BASE,
    ...CLIENT,
    'http_method',
    'route_url',
    'url',
    'controller',
    'action',
    'params',
    'code',
    'status',
    'message',
    'elapsed',
    'trace_id',
  ],
  sys_log_ex: [
    ...BASE,
    ...CLIENT,
    'trace_id',
    'http_method',
    'route_url',
    'url',
    'message',
    'stack',
    'params',
  ],
  sys_log_diff: [
    ...BASE,
    'table_name',
    'record_id',
    'operation',
    'before_data',
    'after_data',
    'changed_fields',
    'trace_id',
  ],
} as const satisfies { [T in LogTable]: readonly (keyof Database[T] & string)[] };

const LOG_TABLES = Object.keys(LOG_COLUMNS) as LogTable[];

export type AuditWriterOptions = {
  /** Flush at least this often (ms). */
  intervalMs?: number;
  /** Flush as soon as this many entries wait. */
  batchSize?: number;
  /** Entries kept at most; beyond it the oldest are dropped (and counted). */
  maxQueue?: number;
};

export type AuditWriter = {
  enqueue<T extends LogTable>(table: T, row: LogRow<T>): void;
  /** Writes everything queued so far; resolves once it is in the database (or failed and was logged). */
  flush(): Promise<void>;
  /** Entries dropped because the queue was full. */
  readonly dropped: number;
  /** Entries the database refused (each one logged with its table and error). */
  readonly failed: number;
  readonly queued: number;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
};

const DEFAULTS = { intervalMs: 1000, batchSize: 500, maxQueue: 50_000 };
/** Rows per PostgreSQL INSERT: 500 × ~27 columns stays far below its 65,535 bound parameters. */
const PG_CHUNK = 500;

type Row = Record<string, unknown>;
type Entry = { table: LogTable; row: Row };

/** Rows not written because the database could not be reached: they go back to the queue. */
class Unwritten extends Error {
  constructor(
    readonly rows: Row[],
    cause: unknown,
  ) {
    super('database unavailable', { cause });
  }
}

/** A column's value; `is_delete` is the one NOT NULL column with a default, which a NULL would break. */
const columnValue = (row: Row, column: string): unknown => row[column] ?? (column === 'is_delete' ? 0 : null);

/**
 * Logs are written off the request path (issue 4 §6): a request only pushes its row to an in-memory queue; a
 * timer (or a full batch) writes the queue per table in one transaction. The queue is bounded so that a
 * database outage cannot exhaust memory: on overflow the oldest entries go and `dropped` counts them. When
 * a batch is refused its rows are tried one by one, so one bad row costs only itself (`failed`, logged).
 * When the database cannot be reached at all (a lost connection, a restart) nothing is refused: the batch
 * goes back to the head of the queue and the next tick tries again.
 *
 * SQLite: the rows go through one prepared single-row INSERT per table, bound from a reused array, on the
 * app's own connection while Kysely's connection lock is held, so a write never lands inside (and never
 * rolls back with) a request's open transaction. A second connection in a worker would have to take
 * SQLite's single write lock too, and its commits would make the app's read-then-write transactions fail
 * with SQLITE_BUSY_SNAPSHOT (docs/decisions.md). PostgreSQL: one multi-row INSERT per chunk through the
 * pool, its SQL text built once per chunk size instead of compiled by Kysely row by row.
 */
export function createAuditWriter(ctx: AppContext, options: AuditWriterOptions = {}): AuditWriter {
  const { intervalMs, batchSize, maxQueue } = { ...DEFAULTS, ...options };
  // A ring would avoid shift(); a simple array with a head index does the same with less code.
  let queue: Entry[] = [];
  let head = 0;
  let dropped = 0;
  let failed = 0;
  let running: Promise<void> | null = null;
  let scheduled = false;
  let closed = false;
  /** Rows kept since the database became unreachable (logged when it starts and when it ends). */
  let waiting = 0;

  const size = () => queue.length - head;

  const timer = setInterval(() => {
    if (size() > 0) void flush();
  }, intervalMs);
  timer.unref();

  const refused = (table: LogTable, count: number, error: unknown) => {
    failed += count;
    ctx.log.error({ err: error, table, rows: count }, 'audit log rows refused by the database; rows lost');
  };

  const sqlite = sqliteHandle(ctx.db);
  const insertSql = (table: LogTable, rows: number, placeholder: (n: number) => string) => {
    const columns = LOG_COLUMNS[table];
    let n = 0;
    const tuples = Array.from({ length: rows }, () => `(${columns.map(() => placeholder(++n)).join(', ')})`);
    return `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`;
  };

  const sqliteInsert = new Map<LogTable, { run(values: unknown[]): unknown }>();
  const buffers = new Map<LogTable, unknown[]>();
  /** Inserts rows in one transaction; on failure the transaction is undone and the rows are tried alone. */
  function writeSqlite(db: NonNullable<typeof sqlite>, table: LogTable, rows: Row[]): void {
    let statement = sqliteInsert.get(table);
    if (!statement) {
      statement = db.prepare(insertSql(table, 1, () => '?'));
      sqliteInsert.set(table, statement);
      buffers.set(table, new Array(LOG_COLUMNS[table].length));
    }
    const columns = LOG_COLUMNS[table];
    const values = buffers.get(table) as unknown[];
    const insert = statement;
    const runOne = (row: Row) => {
      for (let c = 0; c < columns.length; c++) values[c] = columnValue(row, columns[c] as string);
      insert.run(values);
    };
    try {
      db.transaction(() => {
        for (const row of rows) runOne(row);
      })();
    } catch (error) {
      if (rows.length === 1) {
        refused(table, 1, error);
        return;
      }
      for (const row of rows) {
        try {
          runOne(row);
        } catch (rowError) {
          refused(table, 1, rowError);
        }
      }
    }
  }

  const pgSql = new Map<string, string>();
  async function writePostgres(table: LogTable, rows: Row[]): Promise<void> {
    const columns = LOG_COLUMNS[table];
    for (let i = 0; i < rows.length; i += PG_CHUNK) {
      const chunk = rows.slice(i, i + PG_CHUNK);
      const signature = `${table}:${chunk.length}`;
      let text = pgSql.get(signature);
      if (!text) {
        text = insertSql(table, chunk.length, (n) => `$${n}`);
        // Full batches and the odd remainder: keep the texts of the recent sizes only.
        if (pgSql.size > 64) pgSql.clear();
        pgSql.set(signature, text);
      }
      const values: unknown[] = [];
      for (const row of chunk) for (const column of columns) values.push(columnValue(row, column));
      try {
        await ctx.db.executeQuery(CompiledQuery.raw(text, values));
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw new Unwritten(rows.slice(i), error);
        if (chunk.length === 1) {
          refused(table, 1, error);
          continue;
        }
        for (let j = 0; j < chunk.length; j++) {
          try {
            await writePostgres(table, [chunk[j] as Row]);
          } catch (rowError) {
            if (rowError instanceof Unwritten) throw new Unwritten(rows.slice(i + j), rowError.cause);
            throw rowError;
          }
        }
      }
    }
  }

  async function writeAll(): Promise<void> {
    while (size() > 0) {
      const batch = queue.slice(head);
      queue = [];
      head = 0;
      const byTable = new Map<LogTable, Row[]>();
      for (const { table, row } of batch) {
        const rows = byTable.get(table);
        if (rows) rows.push(row);
        else byTable.set(table, [row]);
      }
      if (sqlite) {
        // Kysely's connection lock: no request transaction is open on the connection while the logs go in.
        await ctx.db.connection().execute(async () => {
          for (const table of LOG_TABLES) {
            const rows = byTable.get(table);
            if (rows) writeSqlite(sqlite, table, rows);
          }
        });
        continue;
      }
      const tables = [...byTable];
      for (let k = 0; k < tables.length; k++) {
        const [table, rows] = tables[k] as [LogTable, Row[]];
        try {
          await writePostgres(table, rows);
        } catch (error) {
          if (!(error instanceof Unwritten)) throw error;
          const kept: Entry[] = error.rows.map((row) => ({ table, row }));
          for (const [later, laterRows] of tables.slice(k + 1)) {
            for (const row of laterRows) kept.push({ table: later, row });
          }
          keep(kept, error.cause);
          return;
        }
      }
      if (waiting > 0) {
        ctx.log.info({ rows: waiting }, 'database reachable again; kept audit log rows written');
        waiting = 0;
      }
    }
  }

  /** Puts rows the database could not take back before those queued since, within the queue's bound. */
  function keep(kept: Entry[], cause: unknown): void {
    if (waiting === 0) {
      ctx.log.warn({ err: cause, rows: kept.length }, 'database unavailable; audit log rows kept for retry');
    }
    waiting = Math.max(waiting, kept.length);
    queue = kept.concat(queue.slice(head));
    head = 0;
    const over = queue.length - maxQueue;
    if (over > 0) {
      queue = queue.slice(over);
      dropped += over;
    }
  }

  function flush(): Promise<void> {
    if (running) {
      // Entries queued while a write runs are picked up by its loop; wait for it, then once more to be sure.
      return running.then(() => (size() > 0 ? flush() : undefined));
    }
    if (size() === 0) return Promise.resolve();
    // A flush started from inside a request's transaction (the batch-full setImmediate) writes beside it.
    running = outsideTransaction(ctx.db, writeAll)
      .catch((error: unknown) => ctx.log.error({ err: error }, 'audit log write failed'))
      .finally(() => {
        running = null;
      });
    return running;
  }

  return {
    enqueue(table, row) {
      if (closed) return;
      queue.push({ table, row: row as Row });
      if (size() > maxQueue) {
        head++;
        dropped++;
        // Compact now and then so that the dropped head does not pin memory.
        if (head > 4096 && head * 2 > queue.length) {
          queue = queue.slice(head);
          head = 0;
        }
      }
      if (size() >= batchSize && !scheduled && !running) {
        scheduled = true;
        setImmediate(() => {
          scheduled = false;
          void flush();
        });
      }
    },
    flush,
    get dropped() {
      return dropped;
    },
    get failed() {
      return failed;
    },
    get queued() {
      return size();
    },
    async close() {
      clearInterval(timer);
      await flush();
      closed = true;
      if (size() > 0) {
        ctx.log.error({ rows: size() }, 'database unavailable at shutdown; audit log rows not written');
      }
    },
  };
}
