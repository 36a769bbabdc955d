import { type JobTriggerRow, TRIGGER_STATUS } from '@shuzhi/contracts/job';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { nextRunTime, parseCron } from '../../platform/jobs/timing.ts';
import {
  fieldError,
  isUniqueViolation,
  liveJob,
  liveRowById,
  TRIGGER_LABEL,
  type TriggerAddInput,
  type TriggerRow,
  type TriggerUpdateInput,
  toTrigger,
} from './job-rows.ts';

/** Triggers of a job: list, add, update, delete, start and pause (of one trigger, a job or every job). */

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
export function checkedCron(cron: string): string {
  const parsed = parseCron(cron);
  if (!parsed.cron) throw new AppError('J1000', { reason: parsed.reason });
  return cron.trim().split(/\s+/).join(' ');
}

/** The trigger's timing columns from a request: cron or period as its type says, start before end (J1006). */
export function triggerColumns(input: TriggerAddInput) {
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
export function scheduled(timing: Parameters<typeof nextRunTime>[0], immediately: boolean) {
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
  const row = await liveRowById(ctx.db, 'sys_job_trigger', input.id);
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

export async function liveTrigger(ctx: AppContext, jobId: string, triggerId: string): Promise<TriggerRow> {
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
export async function setTriggers(
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
