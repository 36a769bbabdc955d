import { configInt } from '../config/sys-config.ts';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import type { LogTable } from './writer.ts';

const LOG_TABLES: readonly LogTable[] = ['sys_log_vis', 'sys_log_op', 'sys_log_ex', 'sys_log_diff'];
const DAY_MS = 86_400_000;
/** Rows per DELETE, so that a long backlog never holds a long write lock (SQLite) or a huge transaction. */
const CHUNK = 5000;

/**
 * Deletes log rows older than `sys_log_retention_days` (0 keeps them forever) from the four log tables, in
 * chunks; answers how many rows went.
 */
export async function pruneLogs(ctx: AppContext, now: Date = new Date()): Promise<number> {
  const days = await configInt(ctx, 'sys_log_retention_days');
  if (days <= 0) return 0;
  const cutoff = formatDateTime(new Date(now.getTime() - days * DAY_MS));
  let removed = 0;
  for (const table of LOG_TABLES) {
    for (;;) {
      const result = await ctx.db
        .deleteFrom(table)
        .where('id', 'in', (eb) =>
          eb.selectFrom(table).select('id').where('create_time', '<', cutoff).limit(CHUNK),
        )
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      removed += n;
      if (n < CHUNK) break;
    }
  }
  return removed;
}

/**
 * Runs `pruneLogs` at start-up and then every 24 h on an unref'd timer; answers a stop function that clears
 * the timer and waits for a run in progress. The scheduled-jobs feature (issue 4 §8, built-in job "log
 * retention") takes this over; this timer then goes.
 */
export function scheduleRetention(ctx: AppContext, intervalMs = DAY_MS): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const run = () => {
    running = running
      .then(() => pruneLogs(ctx))
      .then(
        (removed) => {
          if (removed > 0) ctx.log.info({ removed }, 'old log rows pruned');
        },
        (error: unknown) => ctx.log.error({ err: error }, 'log retention failed'),
      );
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  // At start-up, but after the current tick so that building the app is not held up.
  const first = setTimeout(run, 0);
  first.unref();
  return async () => {
    clearInterval(timer);
    clearTimeout(first);
    await running;
  };
}
