import {
  type TaskUrgeInput,
  type TaskUrgeRecord,
  type TaskUrgeResult,
  taskUrgeInputSchema,
} from '@shuzhi/contracts/diy-task-urge';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { announcePublished } from '../notice/notice.service.ts';
import { type ReceiverRow, receiverFiled, taskCells } from './task-progress.ts';
import { visibleTask } from './task-read.ts';
import { deliverSms, escapeHtml, maskPhone, sendReminder } from './task-remind.ts';
import { loadOrgs } from './task-units.ts';

/** Urging by hand (`POST /api/diyTask/urge`), the reminders' record, and the count of 我的任务 still to do. */

const NAMES = 10;
/** Texts sent before the answer; more go out after it (a gateway answers in up to 10 s each). */
const SMS_IN_ANSWER = 20;
const names = (rows: readonly ReceiverRow[]) =>
  rows
    .slice(0, NAMES)
    .map((r) => r.org_name)
    .join('、');

const taskForms = (ctx: AppContext, taskId: number) =>
  ctx.db
    .selectFrom('diy_task_form')
    .select(['table_id as tableId', 'period_id as periodId'])
    .where('task_id', '=', taskId)
    .orderBy('order_no')
    .execute();

/**
 * `POST /api/diyTask/urge` (diyTask:urge): reminds the receivers named that have not filed, with the caller's
 * message — an in-app notice to their people (the realtime toast with it) and an SMS to each with a phone.
 * Who may urge whom: whoever manages the task (its creator, or with the creating unit in their data scope)
 * any receiver; anyone else the receivers below a part of their own (handed on by it), else T1020. Receivers
 * that filed every form or passed their part on → T1021; a closed task → T1022.
 */
export async function urgeTask(ctx: AppContext, user: AuthUser, raw: TaskUrgeInput): Promise<TaskUrgeResult> {
  const input = taskUrgeInputSchema.parse(raw);
  const caller = await loadCaller(ctx, user);
  const { task, receivers, visible, manage, mine } = await visibleTask(ctx, caller, input.taskId);
  if (task.state !== 'open') throw new AppError('T1022');
  const byId = new Map(receivers.map((r) => [r.id, r]));
  const below = (r: ReceiverRow) => {
    for (let p = r.parent_id; p !== null; p = byId.get(p)?.parent_id ?? null) {
      const parent = byId.get(p);
      if (parent && mine(parent)) return true;
    }
    return false;
  };
  const visibleIds = new Set(visible.map((r) => r.id));
  const wanted = [...new Set(input.receiverIds)].map((id) => byId.get(id));
  const refused = wanted.filter((r) => !r || !visibleIds.has(r.id) || !(manage || below(r)));
  if (refused.length > 0)
    throw new AppError('T1020', { names: names(refused.filter((r) => r !== undefined)) || '—' });
  const targets = wanted as ReceiverRow[];
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  const cells = await taskCells(ctx.db, task, await taskForms(ctx, task.id), receivers, orgs);
  const done = targets.filter((r) => r.state === 'transferred' || receiverFiled(cells.get(r.id) ?? []));
  if (done.length > 0) throw new AppError('T1021', { names: names(done) });
  const stamp = formatDateTime();
  const link = `<p><a href="/diyTask/detail?id=${task.id}">查看任务</a></p>`;
  const sent = await ctx.db.transaction().execute((trx) =>
    sendReminder(
      ctx,
      trx,
      { ...user, manual: true },
      {
        taskId: task.id,
        tenantId: task.tenant_id,
        receivers: targets,
        step: 'manual',
        title: `【催办】${task.title}`,
        content: `<p>${escapeHtml(input.message)}</p><p>任务“${escapeHtml(task.title)}”尚未完成填报，请尽快办理。</p>${link}`,
        sms: `【催办】${task.title}：${input.message}`,
        message: input.message,
        withLeaders: true,
      },
      stamp,
    ),
  );
  if (sent.notice) announcePublished(ctx, sent.notice);
  const result = { units: targets.length, people: sent.people, smsSent: 0, smsFailed: 0, smsPending: 0 };
  if (sent.smsIds.length > SMS_IN_ANSWER) {
    deliverSms(ctx, sent.smsIds).catch((error: unknown) =>
      ctx.log.error({ err: error, taskId: task.id }, 'task reminder SMS stopped'),
    );
    return { ...result, smsPending: sent.smsIds.length };
  }
  const sms = await deliverSms(ctx, sent.smsIds);
  return { ...result, smsSent: sms.sent, smsFailed: sms.failed };
}

const RECORD_LIMIT = 2000;

/** `GET /api/diyTask/urges?id=`: the reminders of the receivers the caller sees, newest first. */
export async function taskUrges(ctx: AppContext, user: AuthUser, id: number): Promise<TaskUrgeRecord[]> {
  const caller = await loadCaller(ctx, user);
  const { task, visible, manage } = await visibleTask(ctx, caller, id);
  const visibleIds = new Set(visible.map((r) => r.id));
  const rows = await ctx.db
    .selectFrom('diy_task_urge')
    .selectAll()
    .where('task_id', '=', task.id)
    .orderBy('id', 'desc')
    .limit(RECORD_LIMIT)
    .execute();
  return rows
    .filter((r) => manage || visibleIds.has(r.receiver_id))
    .map((r) => ({
      id: r.id,
      receiverId: r.receiver_id,
      orgName: r.org_name,
      step: r.step,
      channel: r.channel as TaskUrgeRecord['channel'],
      outcome: r.outcome as TaskUrgeRecord['outcome'],
      userName: r.user_name,
      // A text waiting for another attempt keeps its whole number on the row, never in the answer.
      phone: r.phone === null ? null : maskPhone(r.phone),
      message: r.message,
      senderName: r.sender_name,
      createTime: r.create_time,
      attempts: r.attempts,
      lastError: r.last_error,
      retryAt: r.retry_at,
    }));
}

/** Parts counted for the top bar at most (a badge shows 99+ beyond). */
const COUNT_LIMIT = 500;

/**
 * `GET /api/diyTask/mineCount` (signed in): the caller's own parts of open tasks still to do — received or
 * handed on, not transferred, and not every form filed (by them or, handed on, by every unit below).
 */
export async function myOpenTaskCount(ctx: AppContext, user: AuthUser): Promise<number> {
  const caller = await loadCaller(ctx, user);
  if (caller.orgIds.length === 0) return 0;
  const parts = await ctx.db
    .selectFrom('diy_task_receiver as r')
    .innerJoin('diy_task as t', 't.id', 'r.task_id')
    .select(['r.id', 'r.task_id'])
    .where('r.org_id', 'in', caller.orgIds)
    .where('r.state', '!=', 'transferred')
    .where('t.tenant_id', '=', user.tenantId)
    .where('t.is_delete', '=', 0)
    .where('t.state', '=', 'open')
    .orderBy('r.id', 'desc')
    .limit(COUNT_LIMIT)
    .execute();
  if (parts.length === 0) return 0;
  const byTask = new Map<number, number[]>();
  for (const p of parts) byTask.set(p.task_id, [...(byTask.get(p.task_id) ?? []), p.id]);
  const orgs = await loadOrgs(ctx.db, user.tenantId);
  let open = 0;
  for (const [taskId, ids] of byTask) {
    const task = await ctx.db
      .selectFrom('diy_task')
      .select(['id', 'tenant_id', 'create_time'])
      .where('id', '=', taskId)
      .executeTakeFirstOrThrow();
    const receivers = await ctx.db
      .selectFrom('diy_task_receiver')
      .selectAll()
      .where('task_id', '=', taskId)
      .execute();
    const cells = await taskCells(ctx.db, task, await taskForms(ctx, taskId), receivers, orgs);
    open += ids.filter((id) => !receiverFiled(cells.get(id) ?? [])).length;
  }
  return open;
}
