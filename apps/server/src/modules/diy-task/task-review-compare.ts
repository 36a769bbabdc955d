import { NUMBER_TYPES, valueFields } from '@shuzhi/contracts/diy-form';
import type { TaskReviewCompare, TaskReviewStepQuery } from '@shuzhi/contracts/diy-task-review';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type DataRow, fromRow } from '../../platform/diy/data-table.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { designOf, openForm } from '../diy-data/diy-data.service.ts';
import { periodNames } from '../diy-period/diy-period.service.ts';
import { taskForms } from './task-forms.ts';
import { visibleTask } from './task-read.ts';
import { loadOrgs } from './task-units.ts';

/**
 * What changed against the last period (docs/tasks.md "Level-by-level review"): beside each figure of a record
 * of the task, the same unit's figure in its newest live record (not a zero report) of the form's previous
 * period — the period that started last before the record's own — with the change and its ratio.
 */

const asNumber = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};

/** Rounded to 6 places: a difference of decimals reads as the figures do (0.3 − 0.1 = 0.2). */
const round = (n: number) => Math.round(n * 1e6) / 1e6;

/**
 * `GET /api/diyTask/reviewCompare?id=&tableId=&recordId=`: for whoever sees the task and the record's unit (a
 * receiver they see or a unit below it; manage: any) — T1036 for a form not of the task, T1050 for a record that
 * is not one of the task's.
 */
export async function taskReviewCompare(
  ctx: AppContext,
  user: AuthUser,
  q: TaskReviewStepQuery,
  locale: Locale,
): Promise<TaskReviewCompare> {
  const caller = await loadCaller(ctx, user);
  const { task, visible, manage } = await visibleTask(ctx, caller, q.id);
  const form = (await taskForms(ctx.db, task.id)).find((f) => f.tableId === q.tableId);
  if (!form) throw new AppError('T1036');
  const row = await recordsOf(ctx.db, q.tableId)
    .selectAll()
    .$castTo<DataRow>()
    .where('id', '=', q.recordId)
    .where('tenant_id', '=', task.tenant_id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  const taskPeriod = form.periodId;
  const orgId = row?.create_org_id === null || row === undefined ? null : Number(row.create_org_id);
  if (!row || orgId === null || (taskPeriod !== null && Number(row.period_id) !== taskPeriod))
    throw new AppError('T1050');
  if (!manage) {
    const chain = (await loadOrgs(ctx.db, user.tenantId)).get(orgId)?.chain ?? [orgId];
    if (!visible.some((r) => chain.includes(r.org_id))) throw new AppError('T1050');
  }
  const open = await openForm(ctx, user, q.tableId);
  const design = await designOf(ctx, ctx.db, open, Number(row.version));
  const values = fromRow(design, open.columns, row);
  const last =
    taskPeriod === null ? undefined : await lastRecord(ctx, q.tableId, task.tenant_id, taskPeriod, orgId);
  const lastValues = last
    ? fromRow(await designOf(ctx, ctx.db, open, Number(last.row.version)), open.columns, last.row)
    : {};
  const names = await periodNames(
    ctx.db,
    [taskPeriod, last?.periodId].filter((id): id is number => typeof id === 'number'),
    locale,
  );
  const figures = valueFields(design).filter((f) => NUMBER_TYPES.includes(f.type) || f.type === 'formula');
  return {
    periodName: taskPeriod === null ? null : (names.get(taskPeriod) ?? null),
    lastRecordId: last ? Number(last.row.id) : null,
    lastPeriodName: last ? (names.get(last.periodId) ?? null) : null,
    fields: figures.flatMap((f) => {
      const value = asNumber(values[f.id]);
      const lastValue = asNumber(lastValues[f.id]);
      // A formula that yields text is not a figure.
      if (f.type === 'formula' && value === null && lastValue === null) return [];
      const change = value !== null && lastValue !== null ? round(value - lastValue) : null;
      return [
        {
          field: f.id,
          label: f.label,
          value,
          lastValue,
          change,
          ratio: change !== null && lastValue ? round(change / lastValue) : null,
        },
      ];
    }),
  };
}

/** The unit's newest live, non-zero record of the period that started last before `periodId`. */
async function lastRecord(
  ctx: AppContext,
  tableId: number,
  tenantId: number,
  periodId: number,
  orgId: number,
) {
  const current = await ctx.db
    .selectFrom('diy_table_period')
    .select('start_date')
    .where('id', '=', periodId)
    .executeTakeFirst();
  if (!current) return undefined;
  const previous = await ctx.db
    .selectFrom('diy_table_period')
    .select('id')
    .where('table_id', '=', tableId)
    .where('start_date', '<', current.start_date)
    .orderBy('start_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!previous) return undefined;
  const row = await recordsOf(ctx.db, tableId)
    .selectAll()
    .$castTo<DataRow>()
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('is_zero', '=', 0)
    .where('period_id', '=', previous.id)
    .where('create_org_id', '=', orgId)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { row, periodId: previous.id } : undefined;
}
