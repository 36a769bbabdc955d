import {
  type ScheduleAddInput,
  type ScheduleRow,
  type ScheduleRun,
  type ScheduleState,
  type ScheduleUpdateInput,
  scheduleAddInputSchema,
  type schedulePageInputSchema,
  scheduleUpdateInputSchema,
} from '@shuzhi/contracts/diy-task-schedule';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { BusinessErrorCode } from '@shuzhi/contracts/errors';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { Selectable } from 'kysely';
import type { z } from 'zod';
import type { DiyTaskScheduleRunTable, DiyTaskScheduleTable } from '../../db/schema.ts';
import { orgInScope, rowOrgIds } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { type Caller, formAuth, loadCaller, parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { paged } from '../../platform/http/paging.ts';
import { sanitizeNoticeHtml } from '../notice/notice.service.ts';
import { fillCheck, loadOrgs, peopleUnits, resolveReceivers } from './task-units.ts';

/** Scheduled tasks (计划任务, issue 19 §6, docs/tasks.md): add, edit, pause, resume, delete and the reads. */

export type Schedule = Selectable<DiyTaskScheduleTable>;
type RunRow = Selectable<DiyTaskScheduleRunTable>;

/** The schedule's forms as stored (ids in order; the first one's periods drive the runs). */
export const tableIdsOf = (s: Pick<Schedule, 'table_ids'>): number[] => JSON.parse(s.table_ids) as number[];

/**
 * The forms of a schedule: each live, a published and enabled report of the caller's tenant they administer,
 * view or review (T1002, as for a task), all periodic and of one period kind (T1041). Receivers must resolve as
 * for a task (T1003 / T1004 / T1008 / T1011), in the caller's data scope.
 */
async function checkSchedule(
  db: Db,
  caller: Caller,
  input: z.output<typeof scheduleAddInputSchema>,
): Promise<void> {
  const orgs = await loadOrgs(db, caller.user.tenantId);
  const checks = [];
  let kind: string | null = null;
  for (const tableId of new Set(input.tableIds)) {
    const form = await db
      .selectFrom('diy_table')
      .selectAll()
      .where('id', '=', tableId)
      .where('tenant_id', '=', caller.user.tenantId)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (form?.report_type !== 1) throw new AppError('T1002');
    const auth = formAuth(form, caller);
    if (!auth.published || !auth.enabled || !(auth.admin || auth.viewer || auth.reviewer))
      throw new AppError('T1002');
    const settings = parsePeriodSettings(form.period);
    if (settings.kind === 'none' || (kind !== null && kind !== settings.kind)) throw new AppError('T1041');
    kind = settings.kind;
    checks.push(await fillCheck(db, form, orgs));
  }
  const people = await peopleUnits(db, caller.user.tenantId, input.receivers);
  resolveReceivers(input.receivers, orgs, { kind: 'scope', view: caller.view }, checks, people);
}

function columnsOf(input: z.output<typeof scheduleAddInputSchema>) {
  return {
    title: input.title,
    table_ids: JSON.stringify([...new Set(input.tableIds)]),
    receivers: JSON.stringify(input.receivers),
    instructions: sanitizeNoticeHtml(input.instructions),
    due_anchor: input.due.anchor,
    due_days: input.due.days,
    due_at: input.due.at,
  };
}

/** `POST /api/diyTaskSchedule/add`: active from today (the period holding today is its first). */
export async function addSchedule(ctx: AppContext, user: AuthUser, raw: ScheduleAddInput): Promise<number> {
  const input = scheduleAddInputSchema.parse(raw);
  const caller = await loadCaller(ctx, user);
  await checkSchedule(ctx.db, caller, input);
  const id = ctx.newId();
  await ctx.db
    .insertInto('diy_task_schedule')
    .values({
      id,
      tenant_id: user.tenantId,
      ...columnsOf(input),
      state: 'active',
      since_date: formatDate(),
      create_time: formatDateTime(),
      update_time: null,
      create_user_id: user.userId,
      create_user_name: user.realName,
      update_user_id: null,
      update_user_name: null,
      create_org_id: caller.orgId,
      create_org_name: caller.orgName,
      is_delete: 0,
    })
    .execute();
  return id;
}

/** A live schedule of the caller's tenant made by them or by a unit in their data scope (T1040 otherwise). */
async function ownSchedule(db: Db, caller: Caller, id: number): Promise<Schedule> {
  const row = await db
    .selectFrom('diy_task_schedule')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', caller.user.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('T1040');
  if (row.create_user_id !== caller.user.userId && !orgInScope(caller.view, row.create_org_id))
    throw new AppError('T1040');
  return row;
}

const stampOf = (user: AuthUser) => ({
  update_time: formatDateTime(),
  update_user_id: user.userId,
  update_user_name: user.realName,
});

/** `POST /api/diyTaskSchedule/update`: the next periods follow the new settings; periods already run stay. */
export async function updateSchedule(
  ctx: AppContext,
  user: AuthUser,
  raw: ScheduleUpdateInput,
): Promise<void> {
  const input = scheduleUpdateInputSchema.parse(raw);
  const caller = await loadCaller(ctx, user);
  await ownSchedule(ctx.db, caller, input.id);
  await checkSchedule(ctx.db, caller, input);
  await ctx.db
    .updateTable('diy_task_schedule')
    .set({ ...columnsOf(input), ...stampOf(user) })
    .where('id', '=', input.id)
    .execute();
}

/**
 * Pause / resume. A resumed schedule starts again from the period holding today: periods that ended while it
 * was paused are not caught up.
 */
export async function setScheduleState(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  state: ScheduleState,
): Promise<void> {
  const caller = await loadCaller(ctx, user);
  const row = await ownSchedule(ctx.db, caller, id);
  if (row.state === state) return;
  await ctx.db
    .updateTable('diy_task_schedule')
    .set({ state, ...stampOf(user), ...(state === 'active' ? { since_date: formatDate() } : {}) })
    .where('id', '=', id)
    .execute();
}

/** `POST /api/diyTaskSchedule/delete`: no more runs; the tasks it made and its run history stay. */
export async function deleteSchedule(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const caller = await loadCaller(ctx, user);
  await ownSchedule(ctx.db, caller, id);
  await ctx.db
    .updateTable('diy_task_schedule')
    .set({ is_delete: 1, ...stampOf(user) })
    .where('id', '=', id)
    .execute();
}

function runOf(row: RunRow, locale: Locale): ScheduleRun {
  const params = row.params ? (JSON.parse(row.params) as Record<string, string | number>) : undefined;
  return {
    id: row.id,
    periodKey: row.period_key,
    periodName: row.period_name,
    outcome: row.outcome as ScheduleRun['outcome'],
    taskId: row.task_id,
    dueTime: row.due_time ? row.due_time.slice(0, 16) : null,
    code: row.code,
    reason: row.code ? businessMessage(row.code as BusinessErrorCode, locale, params) : null,
    createTime: row.create_time,
  };
}

/** `GET /api/diyTaskSchedule/runs?id=`: the schedule's periods, newest first. */
export async function scheduleRuns(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  locale: Locale,
): Promise<ScheduleRun[]> {
  const caller = await loadCaller(ctx, user);
  await ownSchedule(ctx.db, caller, id);
  const rows = await ctx.db
    .selectFrom('diy_task_schedule_run')
    .selectAll()
    .where('schedule_id', '=', id)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => runOf(r, locale));
}

/** `POST /api/diyTaskSchedule/page`: made by the caller or by a unit in their data scope, newest first. */
export async function schedulePage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof schedulePageInputSchema>,
  locale: Locale,
): Promise<PageResult<ScheduleRow>> {
  const caller = await loadCaller(ctx, user);
  let query = ctx.db
    .selectFrom('diy_task_schedule as s')
    .selectAll('s')
    .where('s.tenant_id', '=', user.tenantId)
    .where('s.is_delete', '=', 0);
  if (!caller.view.all) {
    const orgIds = rowOrgIds(caller.view);
    query = query.where((eb) =>
      eb.or([
        eb('s.create_user_id', '=', user.userId),
        ...(orgIds.length > 0 ? [eb('s.create_org_id', 'in', orgIds)] : []),
      ]),
    );
  }
  if (input.keyword) query = query.where('s.title', 'like', likeContaining(input.keyword));
  if (input.state) query = query.where('s.state', '=', input.state);
  const page = await paged(query, input, { sortable: {}, defaultOrder: 's.id' });
  return { ...page, items: await rowsOf(ctx.db, page.items, locale) };
}

async function rowsOf(db: Db, schedules: readonly Schedule[], locale: Locale): Promise<ScheduleRow[]> {
  if (schedules.length === 0) return [];
  const tableIds = [...new Set(schedules.flatMap(tableIdsOf))];
  const forms = new Map(
    (
      await db
        .selectFrom('diy_table')
        .select(['id', 'title', 'period', 'is_delete'])
        .where('id', 'in', tableIds)
        .execute()
    ).map((f) => [f.id, f]),
  );
  const receivers = schedules.map((s) => JSON.parse(s.receivers) as ScheduleRow['receivers']);
  const orgIds = [...new Set(receivers.flatMap((r) => r.orgIds))];
  const orgNames = new Map(
    orgIds.length
      ? (await db.selectFrom('sys_org').select(['id', 'name']).where('id', 'in', orgIds).execute()).map(
          (o) => [o.id, o.name],
        )
      : [],
  );
  const last = new Map<number, RunRow>();
  const runs = await db
    .selectFrom('diy_task_schedule_run')
    .selectAll()
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('diy_task_schedule_run')
        .select((e) => e.fn.max('id').as('id'))
        .where(
          'schedule_id',
          'in',
          schedules.map((s) => s.id),
        )
        .groupBy('schedule_id'),
    )
    .execute();
  for (const r of runs) last.set(r.schedule_id, r);
  return schedules.map((s, i) => {
    const own = tableIdsOf(s).map((id) => forms.get(id));
    const live = own.every((f) => f && f.is_delete === 0);
    const lastRun = last.get(s.id);
    const rec = receivers[i] as ScheduleRow['receivers'];
    return {
      id: s.id,
      title: s.title,
      forms: own.flatMap((f) => (f ? [{ tableId: f.id, title: f.title }] : [])),
      periodKind: live && own[0] ? parsePeriodSettings(own[0].period).kind : null,
      receivers: rec,
      orgNames: rec.orgIds.flatMap((id) => orgNames.get(id) ?? []),
      instructions: s.instructions,
      due: { anchor: s.due_anchor as 'start' | 'due', days: s.due_days, at: s.due_at },
      state: s.state as ScheduleState,
      createTime: s.create_time,
      createUserName: s.create_user_name,
      createOrgName: s.create_org_name,
      lastRun: lastRun ? runOf(lastRun, locale) : null,
    };
  });
}
