import { configInt } from '../config/sys-config.ts';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import type { LogTable } from './log-insert.ts';

const LOG_TABLES: readonly LogTable[] = ['sys_log_vis', 'sys_log_op', 'sys_log_ex', 'sys_log_diff'];
const DAY_MS = 86_400_000;
/** Rows per DELETE, so that a long backlog never holds a long write lock (SQLite) or a huge transaction. */
const CHUNK = 5000;

/**
 * Deletes log rows older than `sys_log_retention_days` (0 keeps them forever) from the four log tables, in
 * chunks; answers how many rows went. Run daily by the built-in job `logRetention` (modules/job).
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
