import type { BuiltInJob } from '@shuzhi/contracts/job';
import type { FastifyInstance } from 'fastify';
import { pruneLogs } from '../../platform/audit/retention.ts';
import { revokeSession } from '../../platform/auth/sessions.ts';
import { configInt } from '../../platform/config/sys-config.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { installJobEngine } from '../../platform/jobs/engine.ts';
import type { JobHandler } from '../../platform/jobs/runner.ts';
import { runSchedules } from '../diy-task/task-schedule.job.ts';
import { runTaskUrges } from '../diy-task/task-urge.job.ts';
import { publishDueNotices } from '../notice/notice.service.ts';
import { readAppVersion } from '../server/server.service.ts';

const DAY_MS = 86_400_000;
/** Rows per statement or batch, so that a long backlog never holds a long write lock. */
const CHUNK = 500;

/**
 * Sessions whose refresh token ran out are ended the way a forced sign-out ends them: revoked, their cached
 * principals dropped in every process, their browsers told, the online-user lists refreshed.
 */
async function cleanUpOnlineUsers(ctx: AppContext, signal: AbortSignal): Promise<string> {
  let ended = 0;
  for (;;) {
    signal.throwIfAborted();
    const expired = await ctx.db
      .selectFrom('sys_session')
      .select('id')
      .where('revoked', '=', 0)
      .where('refresh_expire_time', '<=', formatDateTime())
      .orderBy('id')
      .limit(CHUNK)
      .execute();
    for (const { id } of expired) {
      signal.throwIfAborted();
      await revokeSession(ctx, id, 'expired');
      ended++;
    }
    if (expired.length < CHUNK) break;
  }
  return JSON.stringify({ sessionsEnded: ended });
}

/** Run records older than `sys_job_record_retention_days` (0 keeps them); runs still going stay. */
async function pruneJobRecords(ctx: AppContext, signal: AbortSignal): Promise<string> {
  const days = await configInt(ctx, 'sys_job_record_retention_days');
  if (days <= 0) return JSON.stringify({ removed: 0, retentionDays: days });
  const cutoff = formatDateTime(new Date(Date.now() - days * DAY_MS));
  let removed = 0;
  for (;;) {
    signal.throwIfAborted();
    const result = await ctx.db
      .deleteFrom('sys_job_record')
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('sys_job_record')
          .select('id')
          .where('start_time', '<', cutoff)
          .where('status', '!=', 'running')
          .limit(CHUNK),
      )
      .executeTakeFirst();
    const n = Number(result.numDeletedRows);
    removed += n;
    if (n < CHUNK) break;
  }
  return JSON.stringify({ removed, retentionDays: days });
}

/** The built-in jobs by handler name (BUILT_IN_JOBS); each answers a short JSON result. */
export const JOB_HANDLERS: ReadonlyMap<BuiltInJob, JobHandler> = new Map<BuiltInJob, JobHandler>([
  ['logRetention', async (ctx) => JSON.stringify({ removed: await pruneLogs(ctx) })],
  ['onlineUserCleanup', cleanUpOnlineUsers],
  ['noticePublish', async (ctx) => JSON.stringify({ published: await publishDueNotices(ctx) })],
  ['jobRecordRetention', pruneJobRecords],
  ['taskSchedule', async (ctx, signal) => JSON.stringify(await runSchedules(ctx, new Date(), signal))],
  ['taskUrge', async (ctx, signal) => JSON.stringify(await runTaskUrges(ctx, signal))],
]);

/**
 * The jobs of this app: the runner with the built-in handlers always (run now), the scheduler (leader
 * election, scheduled triggers) when `scheduler` is on — real servers; tests ask for it.
 */
export async function installJobs(app: FastifyInstance, ctx: AppContext, scheduler: boolean): Promise<void> {
  await installJobEngine(app, ctx, { handlers: JOB_HANDLERS, scheduler, version: readAppVersion() });
}
