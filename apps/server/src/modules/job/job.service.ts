import { type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import {
  type CheckCronResult,
  JOB_CREATE_TYPE,
  type JobClusterRow,
  type JobDetailRow,
  type JobRecordRow,
  type JobTriggerRow,
  type jobDetailAddInputSchema,
  type jobDetailPageInputSchema,
  type jobDetailUpdateInputSchema,
  type jobRecordPageInputSchema,
  type jobTriggerAddInputSchema,
  type jobTriggerUpdateInputSchema,
  TRIGGER_STATUS,
} from '@shuzhi/contracts/job';
import { own } from '@shuzhi/contracts/own';
import type { Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, SysJobDetailTable, SysJobTriggerTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters } from '../../platform/crud/filters.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { jobEngineOf } from '../../platform/jobs/engine.ts';
import { isHttpUrl } from '../../platform/jobs/http-call.ts';
import { SCHEDULER_LEASE } from '../../platform/jobs/scheduler.ts';
import { nextCronRuns, nextRunTime, parseCron } from '../../platform/jobs/timing.ts';
import { requireSuperAdmin } from '../tenant/tenant.service.ts';

type DetailRow = Selectable<SysJobDetailTable>;
type TriggerRow = Selectable<SysJobTriggerTable>;
type Trx = Transaction<Database>;

type DetailPageInput = z.output<typeof jobDetailPageInputSchema>;
type DetailAddInput = z.output<typeof jobDetailAddInputSchema>;
type DetailUpdateInput = z.output<typeof jobDetailUpdateInputSchema>;
type TriggerAddInput = z.output<typeof jobTriggerAddInputSchema>;
type TriggerUpdateInput = z.output<typeof jobTriggerUpdateInputSchema>;
type RecordPageInput = z.output<typeof jobRecordPageInputSchema>;

/** Jobs belong to the installation: besides the permission, only the super admin reaches them. */
export const guard = requireSuperAdmin;

function fieldError(path: string, message: string, input: unknown): never {
  throw new ValidationError([{ code: 'custom', path: [path], message, input }], 'body');
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

const JOB_LABEL = { 'zh-CN': '作业编号', en: 'Job id', 'zh-TW': '作業編號' };
const TRIGGER_LABEL = { 'zh-CN': '触发器编号', en: 'Trigger id', 'zh-TW': '觸發器編號' };

function toTrigger(row: TriggerRow): JobTriggerRow {
  return {
    id: row.id,
    jobId: row.job_id,
    triggerId: row.trigger_id,
    triggerType: row.trigger_type === 'period' ? 'period' : 'cron',
    cron: row.cron,
    periodSeconds: row.period_seconds,
    description: row.description,
    status: row.status,
    startTime: row.start_time,
    endTime: row.end_time,
    maxNumberOfRuns: row.max_number_of_runs,
    runOnStart: row.run_on_start === 1,
    lastRunTime: row.last_run_time,
    nextRunTime: row.next_run_time,
    numberOfRuns: row.number_of_runs,
    numberOfErrors: row.number_of_errors,
    createTime: row.create_time,
    updateTime: row.update_time,
  };
}

function parseHeaders(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  } catch {
    return null;
  }
}

async function withTriggers(ctx: AppContext, rows: DetailRow[]): Promise<JobDetailRow[]> {
  if (rows.length === 0) return [];
  const jobIds = rows.map((r) => r.job_id);
  const triggers = await ctx.db
    .selectFrom('sys_job_trigger')
    .selectAll()
    .where('job_id', 'in', jobIds)
    .where('is_delete', '=', 0)
    .orderBy('trigger_id')
    .execute();
  const running = new Set(
    (
      await ctx.db
        .selectFrom('sys_job_record')
        .select('job_id')
        .distinct()
        .where('job_id', 'in', jobIds)
        .where('status', '=', 'running')
        .execute()
    ).map((r) => r.job_id),
  );
  return rows.map((r) => ({
    id: r.id,
    jobId: r.job_id,
    groupName: r.group_name,
    description: r.description,
    createType: r.create_type,
    handler: r.handler,
    httpUrl: r.http_url,
    httpMethod: r.http_method,
    httpHeaders: parseHeaders(r.http_headers),
    httpBody: r.http_body,
    timeoutSeconds: r.timeout_seconds,
    concurrent: r.concurrent === 1,
    remark: r.remark,
    createTime: r.create_time,
    updateTime: r.update_time,
    running: running.has(r.job_id),
    triggers: triggers.filter((t) => t.job_id === r.job_id).map(toTrigger),
  }));
}

const DETAIL_FILTERS = {
  jobId: { like: 'job_id' },
  groupName: { eq: 'group_name' },
  description: { like: 'description' },
} as const;
const DETAIL_SORTABLE: Record<string, string> = {
  jobId: 'job_id',
  groupName: 'group_name',
  description: 'description',
  createType: 'create_type',
  createTime: 'create_time',
  updateTime: 'update_time',
};

/** Jobs with their triggers and whether a run is going on; by job id unless sorted otherwise. */
export async function jobDetailPage(
  ctx: AppContext,
  input: DetailPageInput,
): Promise<PageResult<JobDetailRow>> {
  const base = applyFilters(
    ctx.db.selectFrom('sys_job_detail').where('is_delete', '=', 0),
    DETAIL_FILTERS,
    input,
    ctx.dialect,
  );
  const countRow = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
  const total = Number(countRow?.total ?? 0);
  const column = input.field && input.order ? own(DETAIL_SORTABLE, input.field) : undefined;
  let query = base.selectAll();
  if (column) query = query.orderBy(column, input.order === input.descStr ? 'desc' : 'asc');
  const rows = (await query
    .orderBy('job_id')
    .limit(input.pageSize)
    .offset((input.page - 1) * input.pageSize)
    .execute()) as DetailRow[];
  return pageResult(await withTriggers(ctx, rows), total, input.page, input.pageSize);
}

async function liveJob(db: AppContext['db'] | Trx, jobId: string): Promise<DetailRow> {
  const row = await db
    .selectFrom('sys_job_detail')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}

/** The job's columns from an add/update request, checked per kind (J1004 unknown handler, J1005 URL). */
function jobColumns(ctx: AppContext, input: DetailAddInput) {
  const common = {
    group_name: input.groupName,
    description: input.description,
    timeout_seconds: input.timeoutSeconds,
    concurrent: input.concurrent ? 1 : 0,
    remark: input.remark,
  };
  if (input.createType === JOB_CREATE_TYPE.builtIn) {
    const handler = input.handler?.trim() ?? '';
    if (!jobEngineOf(ctx).runner.handlers.has(handler)) throw new AppError('J1004', { handler });
    return {
      ...common,
      handler,
      http_url: null,
      http_method: null,
      http_headers: null,
      http_body: null,
    };
  }
  const url = input.httpUrl?.trim() ?? '';
  if (!isHttpUrl(url)) throw new AppError('J1005');
  if (!input.httpMethod) fieldError('httpMethod', 'Choose the HTTP method', input.httpMethod);
  const headers = input.httpHeaders ?? null;
  for (const name of Object.keys(headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
      fieldError('httpHeaders', `"${name}" is not a header name`, name);
  }
  for (const value of Object.values(headers ?? {})) {
    if (/[\r\n\0]/.test(value)) fieldError('httpHeaders', 'A header value cannot contain line breaks', value);
  }
  return {
    ...common,
    handler: null,
    http_url: url,
    http_method: input.httpMethod,
    http_headers: headers && Object.keys(headers).length > 0 ? JSON.stringify(headers) : null,
    http_body: input.httpBody ? input.httpBody : null,
  };
}

export async function addJobDetail(ctx: AppContext, user: AuthUser, input: DetailAddInput): Promise<number> {
  const columns = jobColumns(ctx, input);
  const id = ctx.newId();
  const exists = await ctx.db
    .selectFrom('sys_job_detail')
    .select('id')
    .where('job_id', '=', input.jobId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (exists) throw new AppError('D1006', { field: JOB_LABEL, value: input.jobId });
  try {
    await ctx.db
      .insertInto('sys_job_detail')
      .values({
        id,
        job_id: input.jobId,
        create_type: input.createType,
        ...columns,
        create_time: formatDateTime(),
        update_time: null,
        create_user_id: user.userId,
        create_user_name: user.account,
        update_user_id: null,
        update_user_name: null,
        is_delete: 0,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('D1006', { field: JOB_LABEL, value: input.jobId });
    throw error;
  }
  return id;
}

/** By id; the job id and the kind stay as they are. */
export async function updateJobDetail(
  ctx: AppContext,
  user: AuthUser,
  input: DetailUpdateInput,
): Promise<null> {
  const row = await ctx.db
    .selectFrom('sys_job_detail')
    .selectAll()
    .where('id', '=', input.id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  if (input.jobId !== row.job_id) fieldError('jobId', 'The job id cannot change', input.jobId);
  if (input.createType !== row.create_type)
    fieldError('createType', 'The kind of job cannot change', input.createType);
  const columns = jobColumns(ctx, input);
  if (row.create_type === JOB_CREATE_TYPE.builtIn && columns.handler !== row.handler && isBuiltIn(row))
    fieldError('handler', 'The handler of a built-in job cannot change', input.handler);
  await ctx.db
    .updateTable('sys_job_detail')
    .set({
      ...columns,
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.account,
    })
    .where('id', '=', row.id)
    .where('is_delete', '=', 0)
    .execute();
  return null;
}

/** A seeded built-in job: the job id is its handler's name. */
function isBuiltIn(row: Pick<DetailRow, 'create_type' | 'handler' | 'job_id'>): boolean {
  return row.create_type === JOB_CREATE_TYPE.builtIn && row.handler === row.job_id;
}

/** Deletes a job with its triggers (J1001 for the built-in jobs); its run records stay. */
export async function deleteJobDetail(ctx: AppContext, user: AuthUser, jobId: string): Promise<null> {
  const row = await liveJob(ctx.db, jobId);
  if (isBuiltIn(row)) throw new AppError('J1001');
  const stamp = {
    is_delete: 1,
    update_time: formatDateTime(),
    update_user_id: user.userId,
    update_user_name: user.account,
  };
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sys_job_trigger')
      .set(stamp)
      .where('job_id', '=', jobId)
      .where('is_delete', '=', 0)
      .execute();
    await trx.updateTable('sys_job_detail').set(stamp).where('id', '=', row.id).execute();
  });
  return null;
}

export async function jobTriggerList(ctx: AppContext, jobId: string): Promise<JobTriggerRow[]> {
  await liveJob(ctx.db, jobId);
  const rows = await ctx.db
    .selectFrom('sys_job_trigger')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('is_delete', '=', 0)
    .orderBy('trigger_id')
    .execute();
  return rows.map(toTrigger);
}

/** J1000 with the parser's reason. */
function checkedCron(cron: string): string {
  const parsed = parseCron(cron);
  if (!parsed.cron) throw new AppError('J1000', { reason: parsed.reason });
  return cron.trim().split(/\s+/).join(' ');
}

/** The trigger's timing columns from a request: cron or period as its type says, start before end (J1006). */
function triggerColumns(input: TriggerAddInput) {
  let cron: string | null = null;
  let period: number | null = null;
  if (input.triggerType === 'cron') {
    if (!input.cron) throw new AppError('J1000', { reason: 'the expression is empty' });
    cron = checkedCron(input.cron);
  } else {
    if (!input.periodSeconds) fieldError('periodSeconds', 'Enter the period in seconds', input.periodSeconds);
    period = input.periodSeconds;
  }
  const start = input.startTime ? formatDateTime(parseDateTime(input.startTime)) : null;
  const end = input.endTime ? formatDateTime(parseDateTime(input.endTime)) : null;
  if (start && end && end <= start) throw new AppError('J1006');
  return {
    trigger_type: input.triggerType,
    cron,
    period_seconds: period,
    description: input.description,
    start_time: start,
    end_time: end,
    max_number_of_runs: input.maxNumberOfRuns,
    run_on_start: input.runOnStart ? 1 : 0,
  };
}

/** Status and next run time of a trigger that is (re)started now. */
function scheduled(timing: Parameters<typeof nextRunTime>[0], immediately: boolean) {
  const next = nextRunTime(timing, new Date(), immediately);
  return next
    ? { status: TRIGGER_STATUS.running, next_run_time: next }
    : { status: TRIGGER_STATUS.ended, next_run_time: null };
}

/** A new trigger runs from now on (run on start: at once). */
export async function addJobTrigger(
  ctx: AppContext,
  user: AuthUser,
  input: TriggerAddInput,
): Promise<number> {
  await liveJob(ctx.db, input.jobId);
  const columns = triggerColumns(input);
  const exists = await ctx.db
    .selectFrom('sys_job_trigger')
    .select('id')
    .where('job_id', '=', input.jobId)
    .where('trigger_id', '=', input.triggerId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (exists) throw new AppError('D1006', { field: TRIGGER_LABEL, value: input.triggerId });
  const id = ctx.newId();
  try {
    await ctx.db
      .insertInto('sys_job_trigger')
      .values({
        id,
        job_id: input.jobId,
        trigger_id: input.triggerId,
        ...columns,
        ...scheduled({ ...columns, number_of_runs: 0 }, columns.run_on_start === 1),
        last_run_time: null,
        number_of_runs: 0,
        number_of_errors: 0,
        create_time: formatDateTime(),
        update_time: null,
        create_user_id: user.userId,
        create_user_name: user.account,
        update_user_id: null,
        update_user_name: null,
        is_delete: 0,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError('D1006', { field: TRIGGER_LABEL, value: input.triggerId });
    throw error;
  }
  return id;
}

/** By id; the new timing applies from now (a paused trigger stays paused). */
export async function updateJobTrigger(
  ctx: AppContext,
  user: AuthUser,
  input: TriggerUpdateInput,
): Promise<null> {
  const row = await ctx.db
    .selectFrom('sys_job_trigger')
    .selectAll()
    .where('id', '=', input.id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  if (input.jobId !== row.job_id) fieldError('jobId', 'The job of a trigger cannot change', input.jobId);
  if (input.triggerId !== row.trigger_id)
    fieldError('triggerId', 'The trigger id cannot change', input.triggerId);
  const columns = triggerColumns(input);
  const timing =
    row.status === TRIGGER_STATUS.paused
      ? { status: TRIGGER_STATUS.paused, next_run_time: null }
      : scheduled({ ...columns, number_of_runs: row.number_of_runs }, false);
  await ctx.db
    .updateTable('sys_job_trigger')
    .set({
      ...columns,
      ...timing,
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.account,
    })
    .where('id', '=', row.id)
    .where('is_delete', '=', 0)
    .execute();
  return null;
}

async function liveTrigger(ctx: AppContext, jobId: string, triggerId: string): Promise<TriggerRow> {
  const row = await ctx.db
    .selectFrom('sys_job_trigger')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('trigger_id', '=', triggerId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}

export async function deleteJobTrigger(
  ctx: AppContext,
  user: AuthUser,
  jobId: string,
  triggerId: string,
): Promise<null> {
  const row = await liveTrigger(ctx, jobId, triggerId);
  await ctx.db
    .updateTable('sys_job_trigger')
    .set({
      is_delete: 1,
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.account,
    })
    .where('id', '=', row.id)
    .execute();
  return null;
}

/** Starts triggers (running, next run time from now) or pauses them (no next run time). */
async function setTriggers(
  ctx: AppContext,
  user: AuthUser,
  rows: TriggerRow[],
  start: boolean,
): Promise<void> {
  const stamp = {
    update_time: formatDateTime(),
    update_user_id: user.userId,
    update_user_name: user.account,
  };
  for (const row of rows) {
    const change = start
      ? scheduled(row, row.run_on_start === 1)
      : { status: TRIGGER_STATUS.paused, next_run_time: null };
    await ctx.db
      .updateTable('sys_job_trigger')
      .set({ ...change, ...stamp })
      .where('id', '=', row.id)
      .execute();
  }
}

export async function setTrigger(
  ctx: AppContext,
  user: AuthUser,
  jobId: string,
  triggerId: string,
  start: boolean,
): Promise<null> {
  await setTriggers(ctx, user, [await liveTrigger(ctx, jobId, triggerId)], start);
  return null;
}

/** Every trigger of a job (or of every job, `jobId` null). */
export async function setJob(
  ctx: AppContext,
  user: AuthUser,
  jobId: string | null,
  start: boolean,
): Promise<null> {
  if (jobId !== null) await liveJob(ctx.db, jobId);
  let query = ctx.db
    .selectFrom('sys_job_trigger as t')
    .innerJoin('sys_job_detail as d', (join) =>
      join.onRef('d.job_id', '=', 't.job_id').on('d.is_delete', '=', 0),
    )
    .selectAll('t')
    .where('t.is_delete', '=', 0);
  if (jobId !== null) query = query.where('t.job_id', '=', jobId);
  await setTriggers(ctx, user, await query.execute(), start);
  return null;
}

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
