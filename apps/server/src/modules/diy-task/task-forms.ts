import { STATUS } from '@shuzhi/contracts/envelope';
import type { Db } from '../../platform/db/db.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * The forms of a task as they stand now (docs/tasks.md "A form taken off"): a form disabled, unpublished
 * (version 0) or deleted while the task is open is `active: false`; its cells show 表单已停用 and nothing more
 * may be asked of it (hand-on, transfer, zero report: T1033).
 */
export type TaskFormState = {
  tableId: number;
  title: string;
  periodId: number | null;
  tenant_id: number;
  fillers: string;
  active: boolean;
};

export async function taskForms(db: Db, taskId: number): Promise<TaskFormState[]> {
  const rows = await db
    .selectFrom('diy_task_form as tf')
    .leftJoin('diy_table as t', 't.id', 'tf.table_id')
    .select([
      'tf.table_id',
      'tf.period_id',
      't.title',
      't.tenant_id',
      't.fillers',
      't.is_delete',
      't.version',
      't.status',
    ])
    .where('tf.task_id', '=', taskId)
    .orderBy('tf.order_no')
    .execute();
  return rows.map((r) => ({
    tableId: r.table_id,
    title: r.title ?? '',
    periodId: r.period_id,
    tenant_id: Number(r.tenant_id ?? 0),
    fillers: r.fillers ?? '',
    active: r.is_delete === 0 && Number(r.version) > 0 && r.status === STATUS.enabled,
  }));
}

/** The task's forms, every one still live (T1033 naming the first taken off). */
export async function activeTaskForms(db: Db, taskId: number): Promise<TaskFormState[]> {
  const forms = await taskForms(db, taskId);
  const off = forms.find((f) => !f.active);
  if (off) throw new AppError('T1033', { title: off.title });
  return forms;
}

/** 逐级审核 needs every form to need review (a record filed to a form without review is approved at once): T1053. */
export async function assertReviewedForms(db: Db, tableIds: readonly number[]): Promise<void> {
  if (tableIds.length === 0) return;
  const off = await db
    .selectFrom('diy_table')
    .select('title')
    .where('id', 'in', [...tableIds])
    .where('needs_review', '!=', 1)
    .orderBy('id')
    .executeTakeFirst();
  if (off) throw new AppError('T1053', { title: off.title });
}
