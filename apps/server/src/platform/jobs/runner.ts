import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { JOB_CREATE_TYPE, type JobRecordStatus } from '@shuzhi/contracts/job';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError } from '../errors/app-error.ts';
import { callHttp, JobFailure } from './http-call.ts';

/** A built-in job: does its work, stops when the signal aborts, answers a short result text. */
export type JobHandler = (ctx: AppContext, signal: AbortSignal) => Promise<string | null | undefined>;

export type JobDetail = {
  job_id: string;
  create_type: number;
  handler: string | null;
  http_url: string | null;
  http_method: string | null;
  http_headers: string | null;
  http_body: string | null;
  timeout_seconds: number;
  concurrent: number;
};

export type StartOptions = {
  source: 'schedule' | 'manual';
  triggerId?: string | null;
  userName?: string | null;
  /**
   * Called once the job may start (a non-concurrent job holds its run lease) and before the record is
   * written; false drops the run (a scheduled firing that another process claimed first).
   */
  claim?: () => Promise<boolean>;
};

type LocalRun = {
  recordId: number;
  jobId: string;
  lease: string | null;
  controller: AbortController;
  /** Why the run stopped early: a cancel request or the server stopping. */
  stop: 'cancel' | 'shutdown' | null;
  done: Promise<void>;
};

/** Run leases of non-concurrent jobs: held while a run goes on, renewed by the poll; run out when a process dies. */
const RUN_LEASE_MS = 30_000;
const RUN_LEASE_RENEW_MS = 5_000;
/** How often a process looks for cancel requests of its runs (made in any process, through the cache). */
const CANCEL_POLL_MS = 1_000;
const CANCEL_TTL_SECONDS = 600;
const TEXT_LIMIT = 4_000;

const cancelKey = (recordId: number) => `job-cancel:${recordId}`;
/** The lease row's name for a job's runs (the column holds 64 characters). */
const runLeaseName = (jobId: string) =>
  jobId.length <= 60 ? `run:${jobId}` : `run:${createHash('sha1').update(jobId).digest('hex').slice(0, 40)}`;

const cut = (text: string | null | undefined) =>
  text === null || text === undefined
    ? null
    : text.length > TEXT_LIMIT
      ? `${text.slice(0, TEXT_LIMIT)}…`
      : text;

function parseHeaders(text: string | null): Record<string, string> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  } catch {
    return {};
  }
}

/** This process in the cluster list and as the lease holder: host, pid and a random part. */
export function newNodeId(): string {
  return `${hostname().slice(0, 40)}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * Runs jobs in this process: writes the run record (running → succeeded / failed / cancelled), keeps
 * non-concurrent jobs from overlapping across processes (a lease row per job), and stops runs when a cancel
 * request for them appears in the shared cache (any process may make it) or the server stops.
 */
export class JobRunner {
  private readonly runs = new Map<number, LocalRun>();
  private poll: NodeJS.Timeout | null = null;
  private lastRenew = 0;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    readonly nodeId: string,
    readonly handlers: ReadonlyMap<string, JobHandler>,
  ) {}

  /** Ids of the run records going on in this process. */
  localRecordIds(): number[] {
    return [...this.runs.keys()];
  }

  /**
   * Starts a run of the job and answers its record id once the record is written; the run goes on in the
   * background. J1003 when a non-concurrent job is already running anywhere; null when `claim` said no.
   */
  async start(
    jobId: string,
    options: StartOptions,
  ): Promise<{ recordId: number; done: Promise<void> } | null> {
    if (this.closed) throw new Error('the job runner is stopped');
    const { db } = this.ctx;
    const job = (await db
      .selectFrom('sys_job_detail')
      .select([
        'job_id',
        'create_type',
        'handler',
        'http_url',
        'http_method',
        'http_headers',
        'http_body',
        'timeout_seconds',
        'concurrent',
      ])
      .where('job_id', '=', jobId)
      .where('is_delete', '=', 0)
      .executeTakeFirst()) as JobDetail | undefined;
    if (!job) throw new AppError('D1002');
    if (job.create_type === JOB_CREATE_TYPE.builtIn && !this.handlers.has(job.handler ?? ''))
      throw new AppError('J1004', { handler: job.handler ?? '' });

    const recordId = this.ctx.newId();
    const holder = `${this.nodeId}/${recordId}`;
    let lease: string | null = null;
    if (job.concurrent !== 1) {
      lease = runLeaseName(jobId);
      if (!(await acquireLease(this.ctx, lease, holder, RUN_LEASE_MS))) throw new AppError('J1003');
    }
    try {
      if (options.claim && !(await options.claim())) {
        if (lease) await releaseLease(this.ctx, lease, holder);
        return null;
      }
      await db
        .insertInto('sys_job_record')
        .values({
          id: recordId,
          job_id: jobId,
          trigger_id: options.triggerId ?? null,
          source: options.source,
          status: 'running',
          start_time: formatDateTime(),
          end_time: null,
          elapsed_ms: null,
          result: null,
          error: null,
          node_id: this.nodeId,
          create_user_name: options.userName ?? null,
        })
        .execute();
    } catch (error) {
      if (lease) await releaseLease(this.ctx, lease, holder).catch(() => undefined);
      throw error;
    }

    const run: LocalRun = {
      recordId,
      jobId,
      lease,
      controller: new AbortController(),
      stop: null,
      done: Promise.resolve(),
    };
    this.runs.set(recordId, run);
    this.ensurePoll();
    run.done = this.execute(job, run, options.triggerId ?? null);
    return { recordId, done: run.done };
  }

  private async execute(job: JobDetail, run: LocalRun, triggerId: string | null): Promise<void> {
    const started = Date.now();
    const timeoutMs = Math.max(1, job.timeout_seconds) * 1000;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([run.controller.signal, timeout]);
    let status: JobRecordStatus = 'succeeded';
    let result: string | null = null;
    let error: string | null = null;
    try {
      const work =
        job.create_type === JOB_CREATE_TYPE.http
          ? callHttp(
              {
                url: job.http_url ?? '',
                method: job.http_method ?? 'GET',
                headers: parseHeaders(job.http_headers),
                body: job.http_body,
              },
              signal,
            )
          : (this.handlers.get(job.handler ?? '') as JobHandler)(this.ctx, signal);
      // A handler that does not watch its signal still ends the run at the timeout or a cancel.
      let onAbort: () => void = () => undefined;
      const stopped = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        if (signal.aborted) onAbort();
        signal.addEventListener('abort', onAbort, { once: true });
      });
      stopped.catch(() => undefined);
      try {
        result = (await Promise.race([work, stopped])) ?? null;
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    } catch (caught) {
      if (run.stop === 'cancel') {
        status = 'cancelled';
        error = 'Cancelled';
      } else if (run.stop === 'shutdown') {
        status = 'cancelled';
        error = 'The server stopped during the run';
      } else if (timeout.aborted) {
        status = 'failed';
        error = `Timed out after ${job.timeout_seconds} s`;
      } else {
        status = 'failed';
        error = caught instanceof JobFailure ? caught.message : describe(caught);
      }
    }
    const elapsed = Date.now() - started;
    try {
      await this.ctx.db
        .updateTable('sys_job_record')
        .set({
          status,
          end_time: formatDateTime(),
          elapsed_ms: elapsed,
          result: cut(result),
          error: cut(error),
        })
        .where('id', '=', run.recordId)
        .where('status', '=', 'running')
        .execute();
      if (status !== 'succeeded' && triggerId) {
        await this.ctx.db
          .updateTable('sys_job_trigger')
          .set((eb) => ({ number_of_errors: eb('number_of_errors', '+', 1) }))
          .where('job_id', '=', job.job_id)
          .where('trigger_id', '=', triggerId)
          .where('is_delete', '=', 0)
          .execute();
      }
      if (status === 'failed') this.ctx.log.warn({ jobId: job.job_id, error }, 'job run failed');
    } catch (writeError) {
      this.ctx.log.error({ err: writeError, jobId: job.job_id }, 'could not write the job run record');
    } finally {
      this.runs.delete(run.recordId);
      if (run.lease) {
        await releaseLease(this.ctx, run.lease, `${this.nodeId}/${run.recordId}`).catch((e: unknown) =>
          this.ctx.log.warn({ err: e }, 'could not release a job run lease'),
        );
      }
      await this.ctx.cache.del(cancelKey(run.recordId)).catch(() => undefined);
      if (this.runs.size === 0) this.stopPoll();
    }
  }

  /**
   * Asks every running run of the job to stop, wherever it runs: at once here, through the cache elsewhere
   * (their process polls it every second). Runs of a process known to have stopped are closed directly.
   * Answers how many runs were asked; J1002 when none is running.
   */
  async cancel(jobId: string): Promise<number> {
    const { db } = this.ctx;
    const running = await db
      .selectFrom('sys_job_record')
      .select(['id', 'node_id'])
      .where('job_id', '=', jobId)
      .where('status', '=', 'running')
      .execute();
    if (running.length === 0) throw new AppError('J1002');
    const gone = new Set(
      (
        await db
          .selectFrom('sys_job_cluster')
          .select('node_id')
          .where(
            'node_id',
            'in',
            running.map((r) => r.node_id),
          )
          .where('status', '=', 0)
          .execute()
      ).map((r) => r.node_id),
    );
    for (const record of running) {
      const local = this.runs.get(record.id);
      if (local) {
        this.abort(local, 'cancel');
      } else if (gone.has(record.node_id)) {
        await closeOrphans(this.ctx, [record.id], 'cancelled', 'Cancelled (its server process had stopped)');
      } else {
        await this.ctx.cache.set(cancelKey(record.id), 1, CANCEL_TTL_SECONDS);
      }
    }
    return running.length;
  }

  private abort(run: LocalRun, why: 'cancel' | 'shutdown'): void {
    if (run.stop) return;
    run.stop = why;
    run.controller.abort(new Error(why === 'cancel' ? 'Cancelled' : 'Server stopping'));
  }

  private ensurePoll(): void {
    if (this.poll) return;
    this.poll = setInterval(() => void this.check(), CANCEL_POLL_MS);
    this.poll.unref();
  }

  private stopPoll(): void {
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
  }

  /** Cancel requests for this process's runs, and the renewal of their run leases. */
  private async check(): Promise<void> {
    try {
      for (const run of [...this.runs.values()]) {
        if (!run.stop && (await this.ctx.cache.get(cancelKey(run.recordId)))) this.abort(run, 'cancel');
      }
      if (Date.now() - this.lastRenew >= RUN_LEASE_RENEW_MS) {
        this.lastRenew = Date.now();
        for (const run of [...this.runs.values()]) {
          if (run.lease)
            await acquireLease(this.ctx, run.lease, `${this.nodeId}/${run.recordId}`, RUN_LEASE_MS);
        }
      }
    } catch (error) {
      this.ctx.log.warn({ err: error }, 'job cancel check failed');
    }
  }

  /** Stops every run of this process (recorded as cancelled: the server stopped) and waits for them. */
  async close(): Promise<void> {
    this.closed = true;
    const runs = [...this.runs.values()];
    for (const run of runs) this.abort(run, 'shutdown');
    await Promise.allSettled(runs.map((r) => r.done));
    this.stopPoll();
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}

/** Closes run records left `running` by a process that stopped. */
export async function closeOrphans(
  ctx: AppContext,
  recordIds: number[],
  status: 'failed' | 'cancelled',
  error: string,
): Promise<void> {
  if (recordIds.length === 0) return;
  await ctx.db
    .updateTable('sys_job_record')
    .set({ status, end_time: formatDateTime(), error })
    .where('id', 'in', recordIds)
    .where('status', '=', 'running')
    .execute();
}

/** Makes sure a lease row exists (several processes may try at once: the first insert wins, the rest do nothing). */
export async function ensureLeaseRow(ctx: AppContext, name: string): Promise<void> {
  await ctx.db
    .insertInto('sys_job_lease')
    .values({ name, holder: null, expires_at: 0, acquired_time: null })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
}

/**
 * Takes or renews a lease with one conditional UPDATE — held by us already, or run out — and answers
 * whether this holder has it now. One statement, so atomic on SQLite and PostgreSQL alike.
 */
export async function acquireLease(
  ctx: AppContext,
  name: string,
  holder: string,
  ttlMs: number,
): Promise<boolean> {
  await ensureLeaseRow(ctx, name);
  const now = Date.now();
  const result = await ctx.db
    .updateTable('sys_job_lease')
    .set((eb) => ({
      holder,
      expires_at: now + ttlMs,
      acquired_time: eb
        .case()
        .when('holder', '=', holder)
        .then(eb.ref('acquired_time'))
        .else(formatDateTime(new Date(now)))
        .end(),
    }))
    .where('name', '=', name)
    .where((eb) => eb.or([eb('holder', '=', holder), eb('expires_at', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function releaseLease(ctx: AppContext, name: string, holder: string): Promise<void> {
  await ctx.db
    .updateTable('sys_job_lease')
    .set({ holder: null, expires_at: 0 })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
