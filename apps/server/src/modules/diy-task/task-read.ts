import type {
  FormTask,
  GridCell,
  MyTaskRow,
  myTaskPageInputSchema,
  TaskDetail,
  TaskEvent,
  TaskFormRef,
  TaskGrid,
  TaskReceiver,
  TaskRow,
  taskPageInputSchema,
} from '@shuzhi/contracts/diy-task';
import type {
  DeletedTaskRow,
  deletedTaskPageInputSchema,
  TaskGridQuery,
} from '@shuzhi/contracts/diy-task-lifecycle';
import { type PageResult, pageResult, STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import { type Selectable, sql } from 'kysely';
import type { z } from 'zod';
import type { DiyTaskTable } from '../../db/schema.ts';
import { orgInScope, rowOrgIds } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { type Caller, loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { periodNames } from '../diy-period/diy-period.service.ts';
import { countsFiling, type ReceiverRow, receiverDone, receiverFiled, taskCells } from './task-progress.ts';
import { receiverDepths } from './task-review-state.ts';
import { loadOrgs, type TaskOrg } from './task-units.ts';
import { planOf } from './task-urge.job.ts';

/** Task lists, the detail with its tree and history, the completeness grid and a form's tasks. */

type Task = Selectable<DiyTaskTable>;

export async function formsOf(
  db: Db,
  taskIds: readonly number[],
  locale: Locale,
): Promise<Map<number, TaskFormRef[]>> {
  const out = new Map<number, TaskFormRef[]>();
  if (taskIds.length === 0) return out;
  const rows = await db
    .selectFrom('diy_task_form as tf')
    .leftJoin('diy_table as t', 't.id', 'tf.table_id')
    .select(['tf.task_id', 'tf.table_id', 'tf.period_id', 't.title', 't.is_delete', 't.version', 't.status'])
    .where('tf.task_id', 'in', taskIds)
    .orderBy('tf.order_no')
    .execute();
  const names = await periodNames(
    db,
    rows.flatMap((r) => (r.period_id === null ? [] : [r.period_id])),
    locale,
  );
  for (const r of rows) {
    const list = out.get(r.task_id) ?? [];
    list.push({
      tableId: r.table_id,
      title: r.title ?? '',
      // Taken off while the task was open: deleted, unpublished (version 0) or disabled.
      active: r.is_delete === 0 && Number(r.version) > 0 && r.status === STATUS.enabled,
      periodId: r.period_id,
      periodName: r.period_id === null ? null : (names.get(r.period_id) ?? null),
    });
    out.set(r.task_id, list);
  }
  return out;
}

export const receiversOf = (db: Db, taskId: number) =>
  db.selectFrom('diy_task_receiver').selectAll().where('task_id', '=', taskId).orderBy('id').execute();

type Progress = { forms: TaskFormRef[]; receivers: ReceiverRow[]; cells: Map<number, GridCell[]> };

async function progressOf(
  db: Db,
  task: Task,
  forms: TaskFormRef[],
  orgs: Map<number, TaskOrg>,
): Promise<Progress> {
  const receivers = await receiversOf(db, task.id);
  const cells = await taskCells(db, task, forms, receivers, orgs);
  return { forms, receivers, cells };
}

function rowOf(task: Task, p: Progress): TaskRow {
  const filers = p.receivers.filter((r) => countsFiling(r.state as 'received'));
  return {
    id: task.id,
    title: task.title,
    dueTime: task.due_time,
    createTime: task.create_time,
    createUserName: task.create_user_name,
    createOrgName: task.create_org_name,
    state: task.state === 'closed' ? 'closed' : 'open',
    forms: p.forms,
    receiverCount: filers.length,
    doneCount: filers.filter((r) => receiverDone(p.cells.get(r.id) ?? [])).length,
  };
}

/** Tasks a caller sees through their data scope: made in it, by them, or with a receiver in it. */
function scopedTasks(db: Db, caller: Caller, created: boolean) {
  let query = db
    .selectFrom('diy_task as t')
    .selectAll('t')
    .where('t.tenant_id', '=', caller.user.tenantId)
    .where('t.is_delete', '=', 0);
  if (created) return query.where('t.create_user_id', '=', caller.user.userId);
  if (caller.view.all) return query;
  const orgIds = rowOrgIds(caller.view);
  query = query.where((eb) =>
    eb.or([
      eb('t.create_user_id', '=', caller.user.userId),
      ...(orgIds.length > 0
        ? [
            eb('t.create_org_id', 'in', orgIds),
            eb(
              't.id',
              'in',
              eb.selectFrom('diy_task_receiver as r').select('r.task_id').where('r.org_id', 'in', orgIds),
            ),
          ]
        : []),
    ]),
  );
  return query;
}

/** The rows of a page of tasks, with their forms and progress. */
async function taskRows(ctx: AppContext, user: AuthUser, tasks: readonly Task[], locale: Locale) {
  const forms = await formsOf(
    ctx.db,
    tasks.map((t) => t.id),
    locale,
  );
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const items: TaskRow[] = [];
  for (const task of tasks)
    items.push(rowOf(task, await progressOf(ctx.db, task, forms.get(task.id) ?? [], orgs)));
  return items;
}

/** `POST /api/diyTask/page`: created by the caller, or all in their scope, newest first, with progress. */
export async function taskPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof taskPageInputSchema>,
  locale: Locale,
): Promise<PageResult<TaskRow>> {
  const caller = await loadCaller(ctx, user);
  let query = scopedTasks(ctx.db, caller, input.scope === 'created');
  if (input.keyword) query = query.where('t.title', 'like', likeContaining(input.keyword));
  const page = await paged(query, input, { sortable: {}, defaultOrder: 't.id' });
  return { ...page, items: await taskRows(ctx, user, page.items, locale) };
}

/**
 * `POST /api/diyTask/deletedPage` (diyTask:delete): deleted tasks the caller may manage — made by them or by a
 * unit in their data scope, as for delete itself — last deleted first, with who deleted them and when.
 */
export async function deletedTaskPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof deletedTaskPageInputSchema>,
  locale: Locale,
): Promise<PageResult<DeletedTaskRow>> {
  const caller = await loadCaller(ctx, user);
  let query = ctx.db
    .selectFrom('diy_task as t')
    .selectAll('t')
    .where('t.tenant_id', '=', user.tenantId)
    .where('t.is_delete', '=', 1);
  if (!caller.view.all) {
    const orgIds = rowOrgIds(caller.view);
    query = query.where((eb) =>
      eb.or([
        eb('t.create_user_id', '=', user.userId),
        ...(orgIds.length > 0 ? [eb('t.create_org_id', 'in', orgIds)] : []),
      ]),
    );
  }
  if (input.keyword) query = query.where('t.title', 'like', likeContaining(input.keyword));
  const page = await paged(query, input, { sortable: {}, defaultOrder: 't.update_time' });
  const rows = await taskRows(ctx, user, page.items, locale);
  return {
    ...page,
    items: rows.map((row, i) => ({
      ...row,
      deleteTime: page.items[i]?.update_time ?? null,
      deleteUserName: page.items[i]?.update_user_name ?? null,
    })),
  };
}

/** `POST /api/diyTask/mine` (我的任务): the parts the caller's own units received, newest first. */
export async function myTaskPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof myTaskPageInputSchema>,
  locale: Locale,
): Promise<PageResult<MyTaskRow>> {
  const caller = await loadCaller(ctx, user);
  if (caller.orgIds.length === 0) return pageResult([], 0, input.page, input.pageSize);
  let query = ctx.db
    .selectFrom('diy_task_receiver as r')
    .innerJoin('diy_task as t', 't.id', 'r.task_id')
    .selectAll('t')
    .select(['r.id as receiver_id', 'r.org_id', 'r.org_name', 'r.due_time as my_due', 'r.state as my_state'])
    .where('r.org_id', 'in', caller.orgIds)
    .where('t.tenant_id', '=', user.tenantId)
    .where('t.is_delete', '=', 0);
  if (input.keyword) query = query.where('t.title', 'like', likeContaining(input.keyword));
  if (input.open) query = query.where('r.state', '!=', 'transferred').where('t.state', '=', 'open');
  const page = await paged(query, input, { sortable: {}, defaultOrder: 'r.id' });
  const forms = await formsOf(ctx.db, [...new Set(page.items.map((t) => t.id))], locale);
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const items: MyTaskRow[] = [];
  for (const row of page.items) {
    const p = await progressOf(ctx.db, row, forms.get(row.id) ?? [], orgs);
    const mine = p.cells.get(row.receiver_id) ?? [];
    items.push({
      ...rowOf(row, p),
      receiverId: row.receiver_id,
      orgId: row.org_id,
      orgName: row.org_name,
      myDueTime: row.my_due,
      state: row.my_state as MyTaskRow['state'],
      submittedForms: mine.filter((c) => receiverFiled([c])).length,
      overdue: mine.some((c) => c.state === 'overdue'),
    });
  }
  return { ...page, items };
}

/**
 * The task as the caller may see it (T1000 otherwise): `manage` when they made it or its making unit or
 * every unit is in their scope — the whole tree; else the receivers of their own units or in their scope, with
 * everything handed on below those (a street sees its own subtree of a district task).
 */
export async function visibleTask(ctx: AppContext, caller: Caller, id: number) {
  const task = await ctx.db
    .selectFrom('diy_task')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', caller.user.tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!task) throw new AppError('T1000');
  const receivers = await receiversOf(ctx.db, task.id);
  const manage = task.create_user_id === caller.user.userId || orgInScope(caller.view, task.create_org_id);
  const mine = (r: ReceiverRow) => caller.orgIds.includes(r.org_id) || orgInScope(caller.view, r.org_id);
  let visible = receivers;
  if (!manage) {
    const keep = new Set<number>();
    // Rows come in creation order: a row handed on (or transferred) comes after the row it came from.
    for (const r of receivers) {
      if (mine(r) || (r.parent_id !== null && keep.has(r.parent_id)) || keep.has(r.transfer_from_id ?? 0))
        keep.add(r.id);
    }
    visible = receivers.filter((r) => keep.has(r.id));
    if (visible.length === 0) throw new AppError('T1000');
  }
  return { task, receivers, visible, manage, mine };
}

/** `GET /api/diyTask/detail?id=`. */
export async function taskDetail(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  locale: Locale,
): Promise<TaskDetail> {
  const caller = await loadCaller(ctx, user);
  const { task, receivers, visible, manage, mine } = await visibleTask(ctx, caller, id);
  const forms = (await formsOf(ctx.db, [task.id], locale)).get(task.id) ?? [];
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const cells = await taskCells(ctx.db, task, forms, receivers, orgs);
  const p = { forms, receivers: visible, cells };
  const events = await ctx.db
    .selectFrom('diy_task_event')
    .selectAll()
    .where('task_id', '=', task.id)
    .orderBy('id')
    .execute();
  const visibleIds = new Set(visible.map((r) => r.id));
  return {
    ...rowOf(task, p),
    instructions: task.instructions,
    attachments: parseJson(task.attachments, []),
    receivers: visible.map((r) => receiverOf(r, orgs, mine(r))),
    events: events
      .filter((e) => manage || e.receiver_id === null || visibleIds.has(e.receiver_id))
      .map((e): TaskEvent => {
        const targets = parseJson<{ names?: string[]; count?: number }>(e.targets, {});
        return {
          id: e.id,
          action: e.action as TaskEvent['action'],
          orgName: e.org_name,
          targets: targets.names ?? [],
          targetCount: targets.count ?? 0,
          comment: e.comment,
          userName: e.user_name,
          createTime: e.create_time,
        };
      }),
    manage,
    levelReview: task.level_review === 1,
    urge: planOf(task.urge_plan),
  };
}

function receiverOf(r: ReceiverRow, orgs: Map<number, TaskOrg>, mine: boolean): TaskReceiver {
  return {
    id: r.id,
    parentId: r.parent_id,
    orgId: r.org_id,
    orgName: r.org_name,
    orgType: orgs.get(r.org_id)?.type ?? '',
    dueTime: r.due_time,
    state: r.state as TaskReceiver['state'],
    transferFromId: r.transfer_from_id,
    transferReason: r.transfer_reason,
    mine,
  };
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/**
 * `GET /api/diyTask/grid?id=`: the visible receivers × the task's forms; optionally only receivers of an org
 * type, at a depth of the tree, or with a cell in a state (`TaskGridQuery`).
 */
export async function taskGrid(
  ctx: AppContext,
  user: AuthUser,
  query: TaskGridQuery,
  locale: Locale,
): Promise<TaskGrid> {
  const caller = await loadCaller(ctx, user);
  const { task, receivers, visible } = await visibleTask(ctx, caller, query.id);
  const forms = (await formsOf(ctx.db, [task.id], locale)).get(task.id) ?? [];
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const cells = await taskCells(ctx.db, task, forms, receivers, orgs);
  const depth = receiverDepths(receivers);
  const rows = visible
    .map((r) => ({
      receiverId: r.id,
      parentId: r.parent_id,
      orgId: r.org_id,
      orgName: r.org_name,
      orgType: orgs.get(r.org_id)?.type ?? '',
      depth: depth.get(r.id) ?? 1,
      dueTime: r.due_time,
      cells: cells.get(r.id) ?? [],
    }))
    .filter(
      (row) =>
        (query.orgType === undefined || row.orgType === query.orgType) &&
        (query.depth === undefined || row.depth === Number(query.depth)) &&
        (query.state === undefined || row.cells.some((c) => c.state === query.state)),
    );
  return { forms, rows };
}

/**
 * `GET /api/diyTable/task/{id}`: open tasks asking for form `id` of which the caller's own units hold a part,
 * with that part (its period, due time and where it stands), soonest due first.
 */
export async function formTasks(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  locale: Locale,
): Promise<FormTask[]> {
  const caller = await loadCaller(ctx, user);
  if (caller.orgIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('diy_task_form as tf')
    .innerJoin('diy_task as t', 't.id', 'tf.task_id')
    .innerJoin('diy_task_receiver as r', 'r.task_id', 't.id')
    .selectAll('t')
    .select(['tf.period_id', 'r.id as receiver_id', sql<number>`r.org_id`.as('r_org_id')])
    .where('tf.table_id', '=', tableId)
    .where('t.tenant_id', '=', user.tenantId)
    .where('t.is_delete', '=', 0)
    .where('t.state', '=', 'open')
    .where('r.org_id', 'in', caller.orgIds)
    .orderBy('r.due_time')
    .orderBy('r.id')
    .limit(50)
    .execute();
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const names = await periodNames(
    ctx.db,
    rows.flatMap((r) => (r.period_id === null ? [] : [r.period_id])),
    locale,
  );
  const out: FormTask[] = [];
  for (const row of rows) {
    const receivers = await receiversOf(ctx.db, row.id);
    const form = { tableId, periodId: row.period_id };
    const cells = await taskCells(ctx.db, row, [form], receivers, orgs);
    const mine = receivers.find((r) => r.id === row.receiver_id) as ReceiverRow;
    out.push({
      taskId: row.id,
      title: row.title,
      receiverId: mine.id,
      orgId: mine.org_id,
      orgName: mine.org_name,
      periodId: row.period_id,
      periodName: row.period_id === null ? null : (names.get(row.period_id) ?? null),
      dueTime: mine.due_time,
      state: mine.state as FormTask['state'],
      cell: cells.get(mine.id)?.[0]?.state ?? 'notStarted',
    });
  }
  return out;
}
