import type {
  JobTriggerRow,
  jobDetailAddInputSchema,
  jobDetailPageInputSchema,
  jobDetailUpdateInputSchema,
  jobRecordPageInputSchema,
  jobTriggerAddInputSchema,
  jobTriggerUpdateInputSchema,
} from '@shuzhi/contracts/job';
import type { Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, SysJobDetailTable, SysJobTriggerTable } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';

/** The rows of jobs and triggers, and what the job and trigger steps share. */

export type DetailRow = Selectable<SysJobDetailTable>;
export type TriggerRow = Selectable<SysJobTriggerTable>;
export type Trx = Transaction<Database>;

export type DetailPageInput = z.output<typeof jobDetailPageInputSchema>;
export type DetailAddInput = z.output<typeof jobDetailAddInputSchema>;
export type DetailUpdateInput = z.output<typeof jobDetailUpdateInputSchema>;
export type TriggerAddInput = z.output<typeof jobTriggerAddInputSchema>;
export type TriggerUpdateInput = z.output<typeof jobTriggerUpdateInputSchema>;
export type RecordPageInput = z.output<typeof jobRecordPageInputSchema>;

export function fieldError(path: string, message: string, input: unknown): never {
  throw new ValidationError([{ code: 'custom', path: [path], message, input }], 'body');
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export const JOB_LABEL = { 'zh-CN': '作业编号', en: 'Job id', 'zh-TW': '作業編號' };
export const TRIGGER_LABEL = { 'zh-CN': '触发器编号', en: 'Trigger id', 'zh-TW': '觸發器編號' };

export function toTrigger(row: TriggerRow): JobTriggerRow {
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

type LiveRows = { sys_job_detail: DetailRow; sys_job_trigger: TriggerRow };

/** A job's or a trigger's row by id, not deleted; D1002 when there is none (updates start from it). */
export async function liveRowById<T extends keyof LiveRows>(
  db: AppContext['db'] | Trx,
  table: T,
  id: number,
): Promise<LiveRows[T]> {
  // Both tables share the id and is_delete columns; the query is typed on one of them.
  const row = await db
    .selectFrom(table as 'sys_job_detail')
    .selectAll()
    .where('id', '=', id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row as unknown as LiveRows[T];
}

export async function liveJob(db: AppContext['db'] | Trx, jobId: string): Promise<DetailRow> {
  const row = await db
    .selectFrom('sys_job_detail')
    .selectAll()
    .where('job_id', '=', jobId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}
