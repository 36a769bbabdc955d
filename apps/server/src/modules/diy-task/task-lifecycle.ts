import {
  type TaskEditInput,
  type TaskStepInput,
  type TaskZeroInput,
  type TaskZeroWithdrawInput,
  taskEditInputSchema,
  taskStepInputSchema,
  taskZeroInputSchema,
  taskZeroWithdrawInputSchema,
} from '@shuzhi/contracts/diy-task-lifecycle';
import type { TaskUrgePlan } from '@shuzhi/contracts/diy-task-urge';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { orgInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { announcePublished, publishToOrgUsers, sanitizeNoticeHtml } from '../notice/notice.service.ts';
import { holdTaskFiles } from './task-files.ts';
import { assertReviewedForms, taskForms } from './task-forms.ts';
import { taskCells } from './task-progress.ts';
import { loadOrgs } from './task-units.ts';
import { actingReceiver, checkAttachments, futureDue, writeEvent } from './task-write.ts';

/**
 * A task's lifecycle (docs/tasks.md "Lifecycle"): edit, close, reopen, delete — by whoever manages the task
 * (its creator, or a user with its creating unit in their data scope; T1037 otherwise) — and a receiving
 * unit's zero report for a form of the task, which it may withdraw while the task is open.
 */

type Trx = Transaction<Database>;

/** The live task of the caller's tenant (T1000) that the caller manages (T1037). */
async function managedTask(ctx: AppContext, trx: Trx, user: AuthUser, id: number, deleted = false) {
  const caller = await loadCaller(ctx, user, trx);
  const task = await trx
    .selectFrom('diy_task')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', deleted ? 1 : 0)
    .executeTakeFirst();
  if (!task) throw new AppError('T1000');
  if (task.create_user_id !== user.userId && !orgInScope(caller.view, task.create_org_id))
    throw new AppError('T1037');
  return { caller, task };
}

const stepOf = (action: string, orgName: string | null, comment: string | null, receiverId = null) => ({
  action,
  receiverId,
  orgName,
  comment,
});

/**
 * `POST /api/diyTask/edit`: title, instructions, attachments and due time of an open task (T1032 when closed).
 * The due time must lie ahead (T1001). Receivers whose own due time was the task's move with it; the others
 * keep theirs, which may then not be later than the new one (an earlier due time before a unit's own
 * handed-on one: T1030, naming them), so a unit's due time never passes its parent's. The units whose due time
 * moved are told by a notice (in the same transaction, announced after the commit).
 */
export async function editTask(ctx: AppContext, user: AuthUser, raw: TaskEditInput): Promise<void> {
  const input = taskEditInputSchema.parse(raw);
  const now = new Date();
  const stamp = formatDateTime(now);
  const due = futureDue(input.dueTime, now);
  const notice = await ctx.db.transaction().execute(async (trx) => {
    const { caller, task } = await managedTask(ctx, trx, user, input.id);
    if (task.state !== 'open') throw new AppError('T1032');
    await checkAttachments(
      trx,
      user.tenantId,
      input.attachments.map((a) => a.fileId),
    );
    if (input.levelReview === true && task.level_review !== 1)
      await assertReviewedForms(
        trx,
        (await taskForms(trx, task.id)).map((f) => f.tableId),
      );
    const old = task.due_time;
    let comment: string | null = null;
    let moved: number[] = [];
    if (due !== old) {
      const dueMs = parseDateTime(due).getTime();
      const receivers = await trx
        .selectFrom('diy_task_receiver')
        .select(['org_id', 'org_name', 'due_time', 'state'])
        .where('task_id', '=', task.id)
        .execute();
      const later = receivers.filter(
        (r) => r.due_time !== old && parseDateTime(r.due_time).getTime() > dueMs,
      );
      if (later.length > 0)
        throw new AppError('T1030', {
          names: later
            .slice(0, 10)
            .map((r) => `${r.org_name}（${r.due_time.slice(0, 16)}）`)
            .join('、'),
        });
      await trx
        .updateTable('diy_task_receiver')
        .set({ due_time: due })
        .where('task_id', '=', task.id)
        .where('due_time', '=', old)
        .execute();
      comment = `截止时间 ${old.slice(0, 16)} → ${due.slice(0, 16)}`;
      moved = receivers.filter((r) => r.due_time === old && r.state !== 'transferred').map((r) => r.org_id);
    }
    const review = input.levelReview === undefined ? task.level_review : input.levelReview ? 1 : 0;
    if (review !== task.level_review)
      comment = [comment, review === 1 ? '逐级审核：开启' : '逐级审核：关闭'].filter(Boolean).join('；');
    const files = filesComment(parseFiles(task.attachments), input.attachments);
    if (files) comment = [comment, files].filter(Boolean).join('；');
    const urgePlan = input.urge === undefined ? task.urge_plan : planText(input.urge);
    if (urgePlan !== task.urge_plan) comment = [comment, planComment(input.urge)].filter(Boolean).join('；');
    await trx
      .updateTable('diy_task')
      .set({
        title: input.title,
        instructions: sanitizeNoticeHtml(input.instructions),
        attachments: JSON.stringify(input.attachments),
        due_time: due,
        level_review: review,
        urge_plan: urgePlan,
        update_time: stamp,
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where('id', '=', task.id)
      .execute();
    await holdTaskFiles(
      trx,
      user,
      task.id,
      input.attachments.map((f) => f.fileId),
    );
    await writeEvent(ctx, trx, task, stepOf('edit', caller.orgName, comment), [], user, stamp);
    return publishToOrgUsers(ctx, trx, user, dueNotice(task, input.title, due, moved), stamp);
  });
  if (notice) announcePublished(ctx, notice);
}

type TaskFile = { fileId: number; name: string };

function parseFiles(text: string): TaskFile[] {
  try {
    const files = JSON.parse(text) as unknown;
    return Array.isArray(files) ? (files as TaskFile[]) : [];
  } catch {
    return [];
  }
}

/** The history's words for attachments added and taken off: 附件：新增 a.pdf；删除 b.docx (null: unchanged). */
function filesComment(before: readonly TaskFile[], after: readonly TaskFile[]): string | null {
  const had = new Set(before.map((f) => f.fileId));
  const has = new Set(after.map((f) => f.fileId));
  const added = after.filter((f) => !had.has(f.fileId)).map((f) => f.name);
  const removed = before.filter((f) => !has.has(f.fileId)).map((f) => f.name);
  if (added.length === 0 && removed.length === 0) return null;
  const parts = [
    added.length > 0 ? `新增 ${added.join('、')}` : null,
    removed.length > 0 ? `删除 ${removed.join('、')}` : null,
  ];
  return `附件：${parts.filter(Boolean).join('，')}`;
}

/** The stored ladder: its JSON, null when off. */
const planText = (plan: TaskUrgePlan) => (plan.enabled ? JSON.stringify(plan) : null);

/** The history's words for a changed ladder (zh-CN, like the other steps). */
function planComment(plan: TaskUrgePlan | undefined): string {
  if (!plan?.enabled) return '自动催办：关闭';
  const before = plan.beforeDays.length > 0 ? `到期前 ${plan.beforeDays.join('、')} 天` : '到期前不提醒';
  return `自动催办：${before}，逾期后每日提醒 ${plan.afterDays} 天`;
}

/** The notice to the units whose due time moved (zh-CN, like the task's other notices). */
function dueNotice(task: { id: number; tenant_id: number }, title: string, due: string, orgIds: number[]) {
  const escaped = title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    tenantId: task.tenant_id,
    title: `【任务】${title}：截止时间调整`,
    content: `<p>任务“${escaped}”的截止时间调整为 ${due.slice(0, 16)}。</p><p><a href="/diyTask/detail?id=${task.id}">查看任务</a></p>`,
    orgIds,
  };
}

/**
 * `POST /api/diyTask/close` (`reopen`): a closed task takes no more hand-on, transfer or zero report (T1010 /
 * T1032); its grid and records stay as they are. Closing a closed task → T1032, reopening an open one → T1034.
 */
export async function setTaskState(
  ctx: AppContext,
  user: AuthUser,
  raw: TaskStepInput,
  to: 'open' | 'closed',
): Promise<void> {
  const input = taskStepInputSchema.parse(raw);
  const stamp = formatDateTime();
  await ctx.db.transaction().execute(async (trx) => {
    const { caller, task } = await managedTask(ctx, trx, user, input.id);
    if (task.state === to) throw new AppError(to === 'closed' ? 'T1032' : 'T1034');
    await trx
      .updateTable('diy_task')
      .set({ state: to, update_time: stamp, update_user_id: user.userId, update_user_name: user.realName })
      .where('id', '=', task.id)
      .execute();
    const action = to === 'closed' ? 'close' : 'reopen';
    await writeEvent(ctx, trx, task, stepOf(action, caller.orgName, input.comment || null), [], user, stamp);
  });
}

/**
 * `POST /api/diyTask/delete`: soft delete (open or closed). The task leaves every list, detail and form's
 * task list (T1000 from then on, also through the links of the notices already sent, which stay as they
 * were); its receivers, zero reports and history stay in the database with a `delete` step; records filed
 * for it are the forms' own and are not touched.
 */
export async function deleteTask(ctx: AppContext, user: AuthUser, raw: TaskStepInput): Promise<void> {
  const input = taskStepInputSchema.parse(raw);
  const stamp = formatDateTime();
  await ctx.db.transaction().execute(async (trx) => {
    const { caller, task } = await managedTask(ctx, trx, user, input.id);
    await trx
      .updateTable('diy_task')
      .set({ is_delete: 1, update_time: stamp, update_user_id: user.userId, update_user_name: user.realName })
      .where('id', '=', task.id)
      .execute();
    await writeEvent(
      ctx,
      trx,
      task,
      stepOf('delete', caller.orgName, input.comment || null),
      [],
      user,
      stamp,
    );
  });
}

/**
 * `POST /api/diyTask/restore`: a deleted task comes back as it was (open or closed), with its receivers, zero
 * reports and history, and a `restore` step; by whoever may manage it (T1037), T1000 when it is not deleted.
 */
export async function restoreTask(ctx: AppContext, user: AuthUser, raw: TaskStepInput): Promise<void> {
  const input = taskStepInputSchema.parse(raw);
  const stamp = formatDateTime();
  await ctx.db.transaction().execute(async (trx) => {
    const { caller, task } = await managedTask(ctx, trx, user, input.id, true);
    await trx
      .updateTable('diy_task')
      .set({ is_delete: 0, update_time: stamp, update_user_id: user.userId, update_user_name: user.realName })
      .where('id', '=', task.id)
      .execute();
    await writeEvent(
      ctx,
      trx,
      task,
      stepOf('restore', caller.orgName, input.comment || null),
      [],
      user,
      stamp,
    );
  });
}

/** The receiver the caller acts for (T1010), filing itself, and the task's form `tableId` (T1036, T1033). */
async function zeroTarget(ctx: AppContext, trx: Trx, user: AuthUser, receiverId: number, tableId: number) {
  const caller = await loadCaller(ctx, user, trx);
  const { receiver, task } = await actingReceiver(trx, caller, receiverId);
  if (receiver.state !== 'received') throw new AppError('T1010');
  const form = (await taskForms(trx, task.id)).find((f) => f.tableId === tableId);
  if (!form) throw new AppError('T1036');
  if (!form.active) throw new AppError('T1033', { title: form.title });
  return { receiver, task, form };
}

/**
 * `POST /api/diyTask/zero`: the unit has nothing to report for the form — refused once it filed (a record
 * submitted, returned or approved: T1031); a draft does not count. Declaring again replaces the note. The
 * cell shows 零报告 and counts as done upward; a record filed later takes its place in the grid.
 */
export async function zeroReportTask(ctx: AppContext, user: AuthUser, raw: TaskZeroInput): Promise<void> {
  const input = taskZeroInputSchema.parse(raw);
  const stamp = formatDateTime();
  await ctx.db.transaction().execute(async (trx) => {
    const { receiver, task, form } = await zeroTarget(ctx, trx, user, input.receiverId, input.tableId);
    const orgs = await loadOrgs(trx, user.tenantId);
    const cells = await taskCells(trx, task, [form], [receiver], orgs);
    const state = cells.get(receiver.id)?.[0]?.state;
    if (state === 'submitted' || state === 'reviewing' || state === 'approved' || state === 'returned')
      throw new AppError('T1031');
    await trx
      .deleteFrom('diy_task_zero')
      .where('receiver_id', '=', receiver.id)
      .where('table_id', '=', form.tableId)
      .execute();
    await trx
      .insertInto('diy_task_zero')
      .values({
        id: ctx.newId(),
        tenant_id: task.tenant_id,
        task_id: task.id,
        receiver_id: receiver.id,
        table_id: form.tableId,
        note: input.note,
        user_id: user.userId,
        user_name: user.realName,
        create_time: stamp,
      })
      .execute();
    const comment = `${form.title}：${input.note}`;
    const step = { action: 'zero', receiverId: receiver.id, orgName: receiver.org_name, comment };
    await writeEvent(ctx, trx, task, step, [], user, stamp);
  });
}

/** `POST /api/diyTask/zeroWithdraw`: take the zero report back while the task is open (T1035: none). */
export async function withdrawZeroReport(
  ctx: AppContext,
  user: AuthUser,
  raw: TaskZeroWithdrawInput,
): Promise<void> {
  const input = taskZeroWithdrawInputSchema.parse(raw);
  const stamp = formatDateTime();
  await ctx.db.transaction().execute(async (trx) => {
    const { receiver, task, form } = await zeroTarget(ctx, trx, user, input.receiverId, input.tableId);
    const gone = await trx
      .deleteFrom('diy_task_zero')
      .where('receiver_id', '=', receiver.id)
      .where('table_id', '=', form.tableId)
      .executeTakeFirst();
    if (Number(gone.numDeletedRows) === 0) throw new AppError('T1035');
    const step = {
      action: 'zeroWithdraw',
      receiverId: receiver.id,
      orgName: receiver.org_name,
      comment: form.title,
    };
    await writeEvent(ctx, trx, task, step, [], user, stamp);
  });
}
