import { REPORT_TYPE } from '@shuzhi/contracts/diy-form';
import {
  EFFICIENCY_DEFAULT_MONTHS,
  EFFICIENCY_MAX_MONTHS,
  type Efficiency,
  type EfficiencyFigures,
  type efficiencyQuerySchema,
} from '@shuzhi/contracts/efficiency';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import { rowOrgIds } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { RecordTrails, TimelinessSum, taskTimeliness } from '../diy-task/task-metrics.ts';
import { formsOf } from '../diy-task/task-read.ts';
import { loadOrgs, type TaskOrg } from '../diy-task/task-units.ts';

type Query = z.output<typeof efficiencyQuerySchema>;

/** Sums of a group: the tasks module's timeliness sums, late cells and the tasks counted. */
class Group {
  readonly sum = new TimelinessSum();
  late = 0;
  readonly tasks = new Set<number>();

  add(cell: TimelinessSum, late: boolean, taskId: number): void {
    this.sum.add(cell);
    if (late) this.late += 1;
    this.tasks.add(taskId);
  }

  figures(): EfficiencyFigures {
    const t = this.sum.timeliness();
    const fillers = this.sum.fillers.size;
    return {
      expected: t.expected,
      submitted: t.submitted,
      onTime: t.onTime,
      late: this.late,
      onTimeRate: t.onTimeRate,
      avgDaysBeforeDue:
        t.avgHoursBeforeDue === null ? null : Math.round((t.avgHoursBeforeDue / 24) * 10) / 10,
      returnsPerRecord: t.returnsPerRecord,
      avgReviewHours: t.avgReviewHours,
      records: this.sum.records,
      fillers,
      recordsPerFiller: fillers > 0 ? Math.round((this.sum.records / fillers) * 100) / 100 : null,
    };
  }
}

function groupOf<K>(map: Map<K, Group>, key: K): Group {
  let group = map.get(key);
  if (!group) {
    group = new Group();
    map.set(key, group);
  }
  return group;
}

/** `YYYY-MM` plus `n` months. */
function addMonths(month: string, n: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/**
 * The months asked (default: 12 months ending with next month, so that the parts due soon count too); B1010 when
 * reversed or longer than 36 months.
 */
export function monthRange(query: Pick<Query, 'from' | 'to'>): string[] {
  const to = query.to ?? addMonths(formatDateTime().slice(0, 7), 1);
  const from = query.from ?? addMonths(to, 1 - EFFICIENCY_DEFAULT_MONTHS);
  const months: string[] = [];
  for (let m = from; m <= to && months.length <= EFFICIENCY_MAX_MONTHS; m = addMonths(m, 1)) months.push(m);
  if (months.length === 0 || months.length > EFFICIENCY_MAX_MONTHS)
    throw new AppError('B1010', { max: EFFICIENCY_MAX_MONTHS });
  return months;
}

/**
 * `GET /api/dashboard/efficiency` (issue 20 §3, docs/dashboards.md). The parts counted: task receivers of the
 * tenant's live tasks whose own due time falls in the months asked and whose unit is the caller's own or in
 * their data scope (optionally of one org level), on the tasks' live forms (optionally one). Each part × form is
 * one cell, measured by `taskTimeliness` — the same code as the task's 及时性 tab — and the cells are summed per
 * unit, level, form and month of the due time.
 */
export async function efficiency(
  ctx: AppContext,
  user: AuthUser,
  query: Query,
  locale: Locale,
): Promise<Efficiency> {
  const months = monthRange(query);
  const from = months[0] as string;
  const to = months.at(-1) as string;
  if (query.tableId !== undefined) {
    const form = await ctx.db
      .selectFrom('diy_table')
      .select('report_type')
      .where('id', '=', query.tableId)
      .where('tenant_id', '=', user.tenantId)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (form?.report_type !== REPORT_TYPE.form) throw new AppError('B1011');
  }
  const caller = await loadCaller(ctx, user);
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  let parts = ctx.db
    .selectFrom('diy_task_receiver as r')
    .innerJoin('diy_task as t', 't.id', 'r.task_id')
    // The columns the figures use only: a year's parts are tens of thousands of rows.
    .select(['r.id', 'r.task_id', 'r.org_id', 'r.org_name', 'r.state', 'r.due_time'])
    .select(['t.tenant_id', 't.create_time as task_create_time'])
    .where('t.tenant_id', '=', user.tenantId)
    .where('t.is_delete', '=', 0)
    .where('r.state', '=', 'received')
    .where('r.due_time', '>=', `${from}-01 00:00:00`)
    .where('r.due_time', '<', `${addMonths(to, 1)}-01 00:00:00`);
  if (!caller.view.all) {
    const inScope = [...new Set([...caller.orgIds, ...rowOrgIds(caller.view)])];
    if (inScope.length === 0) return empty(months);
    parts = parts.where('r.org_id', 'in', inScope);
  }
  const rows = (await parts.orderBy('r.id').execute()).filter(
    (r) => !query.orgType || orgs.get(r.org_id)?.type === query.orgType,
  );
  const byTask = new Map<number, typeof rows>();
  for (const r of rows) {
    const list = byTask.get(r.task_id);
    if (list) list.push(r);
    else byTask.set(r.task_id, [r]);
  }
  const forms = await formsOf(ctx.db, [...byTask.keys()], locale);

  const total = new Group();
  const levels = new Map<string, Group>();
  const byForm = new Map<number, Group>();
  const byMonth = new Map<string, Group>();
  const units = new Map<number, Group>();
  const titles = new Map<number, string>();
  const now = Date.now();
  const dueMs = new Map<string, number>();
  // Every record trail is read once for the call: one records query per form across the tasks asking it.
  const trails = new RecordTrails(ctx.db, user.tenantId, unitsUnder(rows, orgs));
  await trails.prefetch(
    [...forms.values()]
      .flat()
      .filter((f) => f.active && (query.tableId === undefined || f.tableId === query.tableId)),
  );
  for (const [taskId, receivers] of byTask) {
    const first = receivers[0] as (typeof receivers)[number];
    const task = { id: taskId, tenant_id: first.tenant_id, create_time: first.task_create_time };
    for (const form of forms.get(taskId) ?? []) {
      if (form.active) titles.set(form.tableId, form.title);
      if (!form.active || (query.tableId !== undefined && form.tableId !== query.tableId)) continue;
      const cells = await taskTimeliness(ctx.db, task, [form], receivers, orgs, undefined, trails);
      const formGroup = cells.length > 0 ? groupOf(byForm, form.tableId) : total;
      for (const { receiver, sum } of cells) {
        let due = dueMs.get(receiver.due_time);
        if (due === undefined) {
          due = parseDateTime(receiver.due_time).getTime();
          dueMs.set(receiver.due_time, due);
        }
        const late = sum.submitted > sum.onTime || (sum.submitted === 0 && due < now);
        const org = orgs.get(receiver.org_id);
        total.add(sum, late, taskId);
        formGroup.add(sum, late, taskId);
        groupOf(levels, org?.type ?? '').add(sum, late, taskId);
        groupOf(byMonth, receiver.due_time.slice(0, 7)).add(sum, late, taskId);
        groupOf(units, receiver.org_id).add(sum, late, taskId);
      }
    }
  }
  const names = new Map(rows.map((r) => [r.org_id, r.org_name]));
  return {
    from,
    to,
    tasks: total.tasks.size,
    total: total.figures(),
    levels: [...levels].map(([orgType, g]) => ({ orgType, ...g.figures() })),
    forms: [...byForm].map(([tableId, g]) => ({ tableId, title: titles.get(tableId) ?? '', ...g.figures() })),
    trend: months.map((month) => ({ month, ...(byMonth.get(month) ?? new Group()).figures() })),
    units: [...units]
      .map(([orgId, g]) => ({
        orgId,
        orgName: orgs.get(orgId)?.name ?? names.get(orgId) ?? '',
        orgType: orgs.get(orgId)?.type ?? '',
        tasks: g.tasks.size,
        ...g.figures(),
      }))
      .sort((a, b) => (b.onTimeRate ?? -1) - (a.onTimeRate ?? -1) || a.late - b.late || a.orgId - b.orgId),
    formOptions: [...titles].map(([tableId, title]) => ({ tableId, title })),
  };
}

/** Ids per records query at most when reading the units' records only (else all of the period's are read). */
const UNITS_FILTER_MAX = 2000;

/**
 * The units whose records can reach a cell counted — the receivers' units and every unit below them — when they
 * are few (a leader's scope, one level) and at most half of the tenant's; null: read every record of the periods.
 */
function unitsUnder(rows: readonly { org_id: number }[], orgs: Map<number, TaskOrg>): number[] | null {
  const counted = new Set(rows.map((r) => r.org_id));
  const under = new Set(counted);
  for (const org of orgs.values()) if (org.chain.some((id) => counted.has(id))) under.add(org.id);
  return under.size <= UNITS_FILTER_MAX && under.size * 2 <= orgs.size ? [...under] : null;
}

function empty(months: string[]): Efficiency {
  const none = new Group().figures();
  return {
    from: months[0] as string,
    to: months.at(-1) as string,
    tasks: 0,
    total: none,
    levels: [],
    forms: [],
    trend: months.map((month) => ({ month, ...none })),
    units: [],
    formOptions: [],
  };
}
