import type { CellState, GridCell } from '@shuzhi/contracts/diy-task';
import type { TaskGridQuery, TaskMetrics } from '@shuzhi/contracts/diy-task-lifecycle';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type ExportColumn, sendXlsx } from '../../platform/crud/export.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import { TimelinessSum, taskTimeliness } from './task-metrics.ts';
import { formsOf, taskGrid, visibleTask } from './task-read.ts';
import { reviewTurnaround } from './task-review-metrics.ts';
import { reviewGate } from './task-review-state.ts';
import { loadOrgs } from './task-units.ts';

/** The task's timeliness (`GET /api/diyTask/metrics`) and the grid as an Excel file (`/export`). */

/** `GET /api/diyTask/metrics?id=`: per filing unit the caller may see, per level (org type), and in total. */
export async function taskMetrics(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  locale: Locale,
): Promise<TaskMetrics> {
  const caller = await loadCaller(ctx, user);
  const { task, receivers, visible } = await visibleTask(ctx, caller, id);
  const forms = (await formsOf(ctx.db, [task.id], locale)).get(task.id) ?? [];
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const waiting =
    task.level_review === 1 ? (await reviewGate(ctx.db, task, forms, receivers, orgs)).waiting : undefined;
  const units = await taskTimeliness(ctx.db, task, forms, visible, orgs, waiting);
  const total = new TimelinessSum();
  const levels = new Map<string, TimelinessSum>();
  for (const { receiver, sum } of units) {
    total.add(sum);
    const type = orgs.get(receiver.org_id)?.type ?? '';
    const level = levels.get(type) ?? new TimelinessSum();
    level.add(sum);
    levels.set(type, level);
  }
  const reviewLevels =
    task.level_review === 1
      ? await reviewTurnaround(ctx.db, task.id, new Set(units.map((u) => u.receiver.id)), receivers, orgs)
      : [];
  return {
    reviewLevels,
    total: total.timeliness(),
    levels: [...levels].map(([orgType, sum]) => ({ orgType, ...sum.timeliness() })),
    units: units.map(({ receiver, sum }) => ({
      receiverId: receiver.id,
      orgId: receiver.org_id,
      orgName: receiver.org_name,
      orgType: orgs.get(receiver.org_id)?.type ?? '',
      dueTime: receiver.due_time,
      ...sum.timeliness(),
    })),
  };
}

const CELL_LABELS: Record<CellState, Localized> = {
  notStarted: { 'zh-CN': '未开始', en: 'Not started', 'zh-TW': '未開始' },
  filling: { 'zh-CN': '填报中', en: 'Filling', 'zh-TW': '填報中' },
  submitted: { 'zh-CN': '已提交', en: 'Submitted', 'zh-TW': '已提交' },
  returned: { 'zh-CN': '已退回', en: 'Returned', 'zh-TW': '已退回' },
  approved: { 'zh-CN': '已通过', en: 'Approved', 'zh-TW': '已通過' },
  overdue: { 'zh-CN': '逾期', en: 'Overdue', 'zh-TW': '逾期' },
  transferred: { 'zh-CN': '已转办', en: 'Transferred', 'zh-TW': '已轉辦' },
  zero: { 'zh-CN': '零报告', en: 'Zero report', 'zh-TW': '零報告' },
  formOff: { 'zh-CN': '表单已停用', en: 'Form taken off', 'zh-TW': '表單已停用' },
  reviewing: { 'zh-CN': '待上级审核', en: 'Awaiting review above', 'zh-TW': '待上級審核' },
};

const LATE: Localized = { 'zh-CN': '{n} 天', en: '{n} d', 'zh-TW': '{n} 天' };

/** A cell as text: its state, days late, and done/total for a unit that handed on. */
export function cellText(cell: GridCell, locale: Locale): string {
  let text = CELL_LABELS[cell.state][locale];
  if (cell.state === 'overdue') text += ` ${LATE[locale].replace('{n}', String(cell.daysLate))}`;
  if (cell.total !== null) text += ` (${cell.done}/${cell.total})`;
  return text;
}

type GridRow = Awaited<ReturnType<typeof taskGrid>>['rows'][number];

/** Rows parents first, each followed by the rows below it (depth first), as the web grid nests them. */
function treeOrder(rows: readonly GridRow[]): GridRow[] {
  const ids = new Set(rows.map((r) => r.receiverId));
  const below = new Map<number, GridRow[]>();
  for (const r of rows) {
    if (r.parentId === null || !ids.has(r.parentId)) continue;
    below.set(r.parentId, [...(below.get(r.parentId) ?? []), r]);
  }
  const out: GridRow[] = [];
  const visit = (r: GridRow) => {
    out.push(r);
    for (const c of below.get(r.receiverId) ?? []) visit(c);
  };
  for (const r of rows) if (r.parentId === null || !ids.has(r.parentId)) visit(r);
  return out;
}

const same = (text: string): Localized => ({ 'zh-CN': text, en: text, 'zh-TW': text });
const TITLE: Localized = { 'zh-CN': '任务完成情况', en: 'Task completeness', 'zh-TW': '任務完成情況' };

/** `GET /api/diyTask/export?id=`: the grid as the caller sees it, with the same filters, one sheet. */
export async function exportTaskGrid(
  ctx: AppContext,
  user: AuthUser,
  reply: FastifyReply,
  query: TaskGridQuery,
  locale: Locale,
): Promise<FastifyReply> {
  const grid = await taskGrid(ctx, user, query, locale);
  const columns: ExportColumn[] = [
    { field: 'orgName', label: { 'zh-CN': '单位', en: 'Unit', 'zh-TW': '單位' }, width: 30 },
    {
      field: 'orgType',
      label: { 'zh-CN': '单位类型', en: 'Unit type', 'zh-TW': '單位類型' },
      dict: 'org_type',
    },
    { field: 'depth', label: { 'zh-CN': '层级', en: 'Level', 'zh-TW': '層級' } },
    { field: 'dueTime', label: { 'zh-CN': '截止时间', en: 'Due', 'zh-TW': '截止時間' }, width: 20 },
    ...grid.forms.map((f, i) => ({
      field: `f${i}`,
      label: same(f.periodName ? `${f.title}（${f.periodName}）` : f.title),
      width: 24,
    })),
  ];
  const rows = treeOrder(grid.rows).map((r) => ({
    orgName: r.orgName,
    orgType: r.orgType,
    depth: r.depth,
    dueTime: r.dueTime.slice(0, 16),
    ...Object.fromEntries(r.cells.map((c, i) => [`f${i}`, cellText(c, locale)])),
  }));
  async function* batches() {
    yield rows;
  }
  return sendXlsx(ctx, reply, { title: TITLE, locale, columns, batches: batches() });
}
