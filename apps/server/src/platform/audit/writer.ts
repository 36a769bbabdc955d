import type { AppContext } from '../context.ts';
import { outsideTransaction, sqliteHandle } from '../db/db.ts';
import {
  LOG_TABLES,
  type LogRow,
  type LogTable,
  postgresLogInserter,
  type Row,
  sqliteLogInserter,
  Unwritten,
} from './log-insert.ts';

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

type Entry = { table: LogTable; row: Row };

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
  const writeSqlite = sqlite ? sqliteLogInserter(sqlite, refused) : null;
  const writePostgres = postgresLogInserter(ctx.db, refused);

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
      if (writeSqlite) {
        // Kysely's connection lock: no request transaction is open on the connection while the logs go in.
        await ctx.db.connection().execute(async () => {
          for (const table of LOG_TABLES) {
            const rows = byTable.get(table);
            if (rows) writeSqlite(table, rows);
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
