import { TRIGGER_STATUS } from '@shuzhi/contracts/job';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError } from '../errors/app-error.ts';
import { acquireLease, closeOrphans, type JobRunner, releaseLease } from './runner.ts';
import { nextRunTime } from './timing.ts';

export const SCHEDULER_LEASE = 'scheduler';
/** How often the leader looks for due triggers (cron expressions have seconds). */
const TICK_MS = 1_000;
/** Due triggers handled per tick. */
const BATCH = 50;
/** Cluster rows of processes gone for longer than this are removed. */
const CLUSTER_KEEP_MS = 86_400_000;

/**
 * The scheduler of one process: a heartbeat in `sys_job_cluster`, the lease row 'scheduler' taken or
 * renewed every `renewMs` (so when the leader stops or dies another process holds it within the lease time
 * and one renewal period), and — while this process holds it — the triggers that are due, fired every second.
 */
export class Scheduler {
  private heartbeat: NodeJS.Timeout | null = null;
  private ticker: NodeJS.Timeout | null = null;
  /** Until when this process may act as the leader, by its own clock (the lease it last took). */
  private leaderUntil = 0;
  private busy: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly startTime = formatDateTime();

  constructor(
    private readonly ctx: AppContext,
    private readonly runner: JobRunner,
    private readonly version: string | null,
  ) {}

  get nodeId(): string {
    return this.runner.nodeId;
  }

  isLeader(): boolean {
    return Date.now() < this.leaderUntil;
  }

  async start(): Promise<void> {
    await this.beat();
    this.heartbeat = setInterval(() => {
      this.busy = this.busy.then(() => this.beat());
    }, this.ctx.config.jobs.renewMs);
    this.heartbeat.unref();
    this.ticker = setInterval(() => {
      if (!this.isLeader()) return;
      this.busy = this.busy.then(() => this.tick());
    }, TICK_MS);
    this.ticker.unref();
  }

  /** Heartbeat, lease, and on taking the lead the triggers that run on start. */
  private async beat(): Promise<void> {
    if (this.stopped) return;
    const ttl = this.ctx.config.jobs.leaseTtlMs;
    const now = Date.now();
    try {
      await this.writeHeartbeat();
      const wasLeader = this.isLeader();
      const leader = await acquireLease(this.ctx, SCHEDULER_LEASE, this.nodeId, ttl);
      // A little margin: the lease counts from before the statement, the others see it run out later still.
      this.leaderUntil = leader ? now + ttl - Math.min(1_000, ttl / 4) : 0;
      if (leader && !wasLeader) {
        this.ctx.log.info({ nodeId: this.nodeId }, 'this process now runs the scheduled jobs');
        await this.takeOver();
      } else if (!leader && wasLeader) {
        this.ctx.log.warn({ nodeId: this.nodeId }, 'the scheduler lease went to another process');
      }
      if (leader) await this.sweep();
    } catch (error) {
      this.ctx.log.error({ err: error }, 'job scheduler heartbeat failed');
    }
  }

  private async writeHeartbeat(): Promise<void> {
    const now = formatDateTime();
    const updated = await this.ctx.db
      .updateTable('sys_job_cluster')
      .set({ heartbeat_time: now, status: 1 })
      .where('node_id', '=', this.nodeId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return;
    await this.ctx.db
      .insertInto('sys_job_cluster')
      .values({
        id: this.ctx.newId(),
        node_id: this.nodeId,
        host: hostOf(this.nodeId),
        pid: process.pid,
        version: this.version,
        start_time: this.startTime,
        heartbeat_time: now,
        status: 1,
      })
      .execute();
  }

  /** The new leader: triggers that run on start are due now; those without a next run time get one. */
  private async takeOver(): Promise<void> {
    const now = formatDateTime();
    await this.ctx.db
      .updateTable('sys_job_trigger')
      .set({ next_run_time: now })
      .where('status', '=', TRIGGER_STATUS.running)
      .where('run_on_start', '=', 1)
      .where('is_delete', '=', 0)
      .where((eb) => eb.or([eb('start_time', 'is', null), eb('start_time', '<=', now)]))
      .where((eb) => eb.or([eb('end_time', 'is', null), eb('end_time', '>', now)]))
      .execute();
  }

  /**
   * The leader's housekeeping: processes without a heartbeat for three lease times are marked stopped, their
   * running records closed as failed; long-gone processes leave the list.
   */
  private async sweep(): Promise<void> {
    const { db } = this.ctx;
    const ttl = this.ctx.config.jobs.leaseTtlMs;
    const stale = formatDateTime(new Date(Date.now() - 3 * ttl));
    await db
      .updateTable('sys_job_cluster')
      .set({ status: 0 })
      .where('status', '=', 1)
      .where('heartbeat_time', '<', stale)
      .execute();
    const orphans = await db
      .selectFrom('sys_job_record as r')
      .innerJoin('sys_job_cluster as c', 'c.node_id', 'r.node_id')
      .select('r.id')
      .where('r.status', '=', 'running')
      .where('c.status', '=', 0)
      .execute();
    await closeOrphans(
      this.ctx,
      orphans.map((o) => o.id),
      'failed',
      'The server process running it stopped',
    );
    await db
      .deleteFrom('sys_job_cluster')
      .where('status', '=', 0)
      .where('heartbeat_time', '<', formatDateTime(new Date(Date.now() - CLUSTER_KEEP_MS)))
      .execute();
  }

  /** Fires the due triggers (while the lease is ours) and fills in next run times that are missing. */
  private async tick(): Promise<void> {
    if (this.stopped || !this.isLeader()) return;
    const { db } = this.ctx;
    const nowDate = new Date();
    const now = formatDateTime(nowDate);
    try {
      const unscheduled = await db
        .selectFrom('sys_job_trigger')
        .selectAll()
        .where('status', '=', TRIGGER_STATUS.running)
        .where('next_run_time', 'is', null)
        .where('is_delete', '=', 0)
        .limit(BATCH)
        .execute();
      for (const t of unscheduled) {
        const next = nextRunTime(t, nowDate);
        await db
          .updateTable('sys_job_trigger')
          .set(next ? { next_run_time: next } : { status: TRIGGER_STATUS.ended })
          .where('id', '=', t.id)
          .where('status', '=', TRIGGER_STATUS.running)
          .where('next_run_time', 'is', null)
          .execute();
      }

      const due = await db
        .selectFrom('sys_job_trigger as t')
        .innerJoin('sys_job_detail as d', (join) =>
          join.onRef('d.job_id', '=', 't.job_id').on('d.is_delete', '=', 0),
        )
        .selectAll('t')
        .where('t.status', '=', TRIGGER_STATUS.running)
        .where('t.next_run_time', '<=', now)
        .where('t.is_delete', '=', 0)
        .orderBy('t.next_run_time')
        .limit(BATCH)
        .execute();
      for (const t of due) {
        if (!this.isLeader() || this.stopped) return;
        const next = nextRunTime({ ...t, number_of_runs: t.number_of_runs + 1 }, nowDate);
        const expected = t.next_run_time;
        // Claimed with a conditional update, so a firing is taken once even if two processes were to try.
        const claim = async () => {
          const claimed = await db
            .updateTable('sys_job_trigger')
            .set((eb) => ({
              last_run_time: now,
              next_run_time: next,
              number_of_runs: eb('number_of_runs', '+', 1),
              status: next ? TRIGGER_STATUS.running : TRIGGER_STATUS.ended,
            }))
            .where('id', '=', t.id)
            .where('status', '=', TRIGGER_STATUS.running)
            .where('next_run_time', '=', expected)
            .executeTakeFirst();
          return Number(claimed.numUpdatedRows) === 1;
        };
        try {
          await this.runner.start(t.job_id, { source: 'schedule', triggerId: t.trigger_id, claim });
        } catch (error) {
          if (error instanceof AppError && error.code === 'J1003') {
            // Still running from before: this firing is skipped, the trigger moves on to its next time.
            await db
              .updateTable('sys_job_trigger')
              .set(next ? { next_run_time: next } : { next_run_time: null, status: TRIGGER_STATUS.ended })
              .where('id', '=', t.id)
              .where('next_run_time', '=', expected)
              .execute();
          } else {
            this.ctx.log.error(
              { err: error, jobId: t.job_id, triggerId: t.trigger_id },
              'job trigger failed',
            );
            await db
              .updateTable('sys_job_trigger')
              .set((eb) => ({
                next_run_time: next,
                status: next ? TRIGGER_STATUS.running : TRIGGER_STATUS.ended,
                number_of_errors: eb('number_of_errors', '+', 1),
              }))
              .where('id', '=', t.id)
              .where('next_run_time', '=', expected)
              .execute();
          }
        }
      }

      // Past their end time without a firing left: ended.
      await db
        .updateTable('sys_job_trigger')
        .set({ status: TRIGGER_STATUS.ended, next_run_time: null })
        .where('status', '=', TRIGGER_STATUS.running)
        .where('end_time', 'is not', null)
        .where('end_time', '<', now)
        .where('is_delete', '=', 0)
        .execute();
    } catch (error) {
      this.ctx.log.error({ err: error }, 'job scheduler tick failed');
    }
  }

  /** Stops firing, releases the lease at once (another process takes over at its next renewal), signs off. */
  async close(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.ticker) clearInterval(this.ticker);
    await this.busy.catch(() => undefined);
    this.leaderUntil = 0;
    try {
      await releaseLease(this.ctx, SCHEDULER_LEASE, this.nodeId);
      await this.ctx.db
        .updateTable('sys_job_cluster')
        .set({ status: 0, heartbeat_time: formatDateTime() })
        .where('node_id', '=', this.nodeId)
        .execute();
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'could not sign the scheduler off');
    }
  }
}

/** The host part of a node id (`host-pid-random`). */
function hostOf(nodeId: string): string {
  return nodeId.replace(/-\d+-[0-9a-f]+$/, '');
}
