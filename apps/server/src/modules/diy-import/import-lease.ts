import type { AppContext } from '../../platform/context.ts';
import { acquireLease, newNodeId } from '../../platform/jobs/runner.ts';

/**
 * Which process is working on an import job. A job that is checking or importing holds the lease row
 * `import:<jobId>` in `sys_job_lease` (the scheduler's lease table, taken and renewed by one conditional
 * UPDATE on SQLite and PostgreSQL alike): taken before the job's state says it runs, renewed every
 * JOB_LEASE_RENEW_MS while this process works on it, deleted when the work ends. A running job whose lease
 * has run out lost its process (crash, kill, power cut). Nothing of it was written, since the records go in
 * one transaction, so it is failed (F1039) and the user starts it again. A lease per job rather than the
 * heartbeat in `sys_job_cluster`: that heartbeat only exists where the scheduler is switched on, and a lease
 * names the job's owner itself. A process never fails a job it holds, even when a long SQLite write
 * transaction (one connection) holds back its renewals.
 */
const PROCESS = newNodeId();
const held = new Map<number, NodeJS.Timeout>();
const leaseName = (jobId: number) => `import:${jobId}`;

/** Takes the job's lease for this process and keeps renewing it until `releaseJob`. */
export async function holdJob(ctx: AppContext, jobId: number): Promise<void> {
  const { leaseTtlMs, renewMs } = ctx.config.jobs;
  await acquireLease(ctx, leaseName(jobId), PROCESS, leaseTtlMs);
  const timer = setInterval(() => {
    acquireLease(ctx, leaseName(jobId), PROCESS, leaseTtlMs).catch((err: unknown) =>
      ctx.log.warn({ err, jobId }, 'import job lease renewal failed'),
    );
  }, renewMs);
  timer.unref();
  held.set(jobId, timer);
}

export async function releaseJob(ctx: AppContext, jobId: number): Promise<void> {
  clearInterval(held.get(jobId));
  held.delete(jobId);
  await ctx.db
    .deleteFrom('sys_job_lease')
    .where('name', '=', leaseName(jobId))
    .where('holder', '=', PROCESS)
    .execute();
}

/** Of these running jobs, those no live process holds: not this one, and no unexpired lease elsewhere. */
export async function orphanedJobs(ctx: AppContext, jobIds: number[]): Promise<number[]> {
  const candidates = jobIds.filter((id) => !held.has(id));
  if (candidates.length === 0) return [];
  const live = await ctx.db
    .selectFrom('sys_job_lease')
    .select('name')
    .where('name', 'in', candidates.map(leaseName))
    .where('expires_at', '>=', Date.now())
    .execute();
  const liveNames = new Set(live.map((row) => row.name));
  return candidates.filter((id) => !liveNames.has(leaseName(id)));
}
