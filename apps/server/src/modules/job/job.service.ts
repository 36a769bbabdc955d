import { type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { CheckCronResult, JobClusterRow, JobRecordRow } from '@shuzhi/contracts/job';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters } from '../../platform/crud/filters.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { jobEngineOf } from '../../platform/jobs/engine.ts';
import { SCHEDULER_LEASE } from '../../platform/jobs/scheduler.ts';
import { nextCronRuns, parseCron } from '../../platform/jobs/timing.ts';
import { requireSuperAdmin } from '../tenant/tenant.service.ts';
import { liveJob, type RecordPageInput } from './job-rows.ts';

/**
 * Scheduled jobs: running and cancelling a job, run records, the cluster and the cron check. Job details are
 * in `job-details.ts`, triggers in `job-triggers.ts`, what both share in `job-rows.ts`.
 */

/** Jobs belong to the installation: besides the permission, only the super admin reaches them. */
export const guard = requireSuperAdmin;

/** Runs the job now in this process; answers the run record (J1003 while a non-concurrent run goes on). */
export async function runJob(ctx: AppContext, user: AuthUser, jobId: string): Promise<{ recordId: number }> {
  await liveJob(ctx.db, jobId);
  const started = await jobEngineOf(ctx).runner.start(jobId, { source: 'manual', userName: user.account });
  if (!started) throw new AppError('J1003');
  return { recordId: started.recordId };
}

export async function cancelJob(ctx: AppContext, jobId: string): Promise<null> {
  await liveJob(ctx.db, jobId);
  await jobEngineOf(ctx).runner.cancel(jobId);
  return null;
}

const RECORD_FILTERS = {
  jobId: { like: 'job_id' },
  triggerId: { like: 'trigger_id' },
  status: { eq: 'status' },
  startTime: { range: 'start_time' },
} as const;

/** Run records, newest first. */
export async function jobRecordPage(
  ctx: AppContext,
  input: RecordPageInput,
): Promise<PageResult<JobRecordRow>> {
  const base = applyFilters(ctx.db.selectFrom('sys_job_record'), RECORD_FILTERS, input, ctx.dialect);
  const countRow = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(countRow?.total ?? 0);
  const rows = await base
    .selectAll()
    .orderBy('start_time', 'desc')
    .orderBy('id', 'desc')
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute();
  const items = rows.map(
    (r): JobRecordRow => ({
      id: r.id,
      jobId: r.job_id,
      triggerId: r.trigger_id,
      source: r.source === 'manual' ? 'manual' : 'schedule',
      status: r.status,
      startTime: r.start_time,
      endTime: r.end_time,
      elapsedMs: r.elapsed_ms,
      result: r.result,
      error: r.error,
      nodeId: r.node_id,
      createUserName: r.create_user_name,
    }),
  );
  return pageResult(items, total, input.page, input.pageSize);
}

/** The server processes, online first, with the one holding the scheduler lease marked. */
export async function clusterList(ctx: AppContext): Promise<JobClusterRow[]> {
  const lease = await ctx.db
    .selectFrom('sys_job_lease')
    .select(['holder', 'expires_at'])
    .where('name', '=', SCHEDULER_LEASE)
    .executeTakeFirst();
  const leader = lease && Number(lease.expires_at) > Date.now() ? lease.holder : null;
  const self = jobEngineOf(ctx).nodeId;
  const rows = await ctx.db
    .selectFrom('sys_job_cluster')
    .selectAll()
    .orderBy('status', 'desc')
    .orderBy('start_time', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    nodeId: r.node_id,
    host: r.host,
    pid: r.pid,
    version: r.version,
    startTime: r.start_time,
    heartbeatTime: r.heartbeat_time,
    status: r.status,
    isLeader: r.node_id === leader,
    isSelf: r.node_id === self,
  }));
}

/** The next five run times, or why the expression is refused (J1000's message with the parser's reason). */
export function checkCron(cron: string, locale: Locale): CheckCronResult {
  const parsed = parseCron(cron);
  if (!parsed.cron) {
    return {
      valid: false,
      message: businessMessage('J1000', locale, { reason: parsed.reason }),
      nextRuns: [],
    };
  }
  return { valid: true, message: null, nextRuns: nextCronRuns(parsed.cron, 5) };
}
