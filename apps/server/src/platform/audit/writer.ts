import type { Insertable } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext } from '../context.ts';
import { sqliteHandle } from '../db/db.ts';

export type LogTable = 'sys_log_vis' | 'sys_log_op' | 'sys_log_ex' | 'sys_log_diff';
export type LogRow<T extends LogTable> = Insertable<Database[T]>;

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
  readonly queued: number;
  /** Stops the timer and writes what is left. */
  close(): Promise<void>;
};

const DEFAULTS = { intervalMs: 1000, batchSize: 500, maxQueue: 50_000 };
/** Rows per INSERT: well under SQLite's and PostgreSQL's bound-parameter limits for ~25 columns. */
const INSERT_CHUNK = 500;

type Entry = { table: LogTable; row: Record<string, unknown> };

/**
 * Logs are written off the request path (issue 4 §6): requests only push to an in-memory queue; a timer (or
 * a full batch) writes it with one multi-row INSERT per table and chunk. The queue is bounded so that a
 * database outage cannot exhaust memory: on overflow the oldest entries go and `dropped` counts them.
 * A failed write is logged and its entries are dropped, never retried into a loop.
 */
export function createAuditWriter(ctx: AppContext, options: AuditWriterOptions = {}): AuditWriter {
  const { intervalMs, batchSize, maxQueue } = { ...DEFAULTS, ...options };
  // A ring would avoid shift(); a simple array with a head index does the same with less code.
  let queue: Entry[] = [];
  let head = 0;
  let dropped = 0;
  let running: Promise<void> | null = null;
  let scheduled = false;
  let closed = false;

  const size = () => queue.length - head;

  const timer = setInterval(() => {
    if (size() > 0) void flush();
  }, intervalMs);
  timer.unref();

  // Embedded database: one prepared INSERT per table and column list, run per row inside one transaction.
  const sqlite = sqliteHandle(ctx.db);
  const statements = new Map<string, { run(...values: unknown[]): unknown }>();
  function writeSqlite(table: LogTable, rows: Record<string, unknown>[]): void {
    if (!sqlite) return;
    sqlite.transaction(() => {
      for (const row of rows) {
        const keys = Object.keys(row);
        const signature = `${table}:${keys.join(',')}`;
        let statement = statements.get(signature);
        if (!statement) {
          statement = sqlite.prepare(
            `insert into ${table} (${keys.join(', ')}) values (${keys.map(() => '?').join(', ')})`,
          );
          statements.set(signature, statement);
        }
        statement.run(...keys.map((key) => row[key] ?? null));
      }
    })();
  }

  async function writeAll(): Promise<void> {
    while (size() > 0) {
      const batch = queue.slice(head);
      queue = [];
      head = 0;
      const byTable = new Map<LogTable, Record<string, unknown>[]>();
      for (const { table, row } of batch) {
        const rows = byTable.get(table);
        if (rows) rows.push(row);
        else byTable.set(table, [row]);
      }
      for (const [table, rows] of byTable) {
        if (sqlite) {
          try {
            writeSqlite(table, rows);
          } catch (error) {
            ctx.log.error({ err: error, table, rows: rows.length }, 'audit log write failed; rows dropped');
          }
          continue;
        }
        for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
          const chunk = rows.slice(i, i + INSERT_CHUNK);
          try {
            // Rows were typed per table when they were queued.
            await ctx.db
              .insertInto(table)
              .values(chunk as LogRow<typeof table>[])
              .execute();
          } catch (error) {
            ctx.log.error({ err: error, table, rows: chunk.length }, 'audit log write failed; rows dropped');
          }
        }
      }
    }
  }

  function flush(): Promise<void> {
    if (running) {
      // Entries queued while a write runs are picked up by its loop; wait for it, then once more to be sure.
      return running.then(() => (size() > 0 ? flush() : undefined));
    }
    if (size() === 0) return Promise.resolve();
    running = writeAll().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    enqueue(table, row) {
      if (closed) return;
      queue.push({ table, row: row as Record<string, unknown> });
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
    get queued() {
      return size();
    },
    async close() {
      clearInterval(timer);
      await flush();
      closed = true;
    },
  };
}
