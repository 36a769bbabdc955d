import { type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import { JOB_CREATE_TYPE, type JobDetailRow } from '@shuzhi/contracts/job';
import { own } from '@shuzhi/contracts/own';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters } from '../../platform/crud/filters.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { jobEngineOf } from '../../platform/jobs/engine.ts';
import { isHttpUrl } from '../../platform/jobs/http-call.ts';
import {
  type DetailAddInput,
  type DetailPageInput,
  type DetailRow,
  type DetailUpdateInput,
  fieldError,
  isUniqueViolation,
  JOB_LABEL,
  liveJob,
  liveRowById,
  toTrigger,
} from './job-rows.ts';

/** Job details: the page with their triggers, add, update and delete (built-in jobs stay). */

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
  const row = await liveRowById(ctx.db, 'sys_job_detail', input.id);
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
