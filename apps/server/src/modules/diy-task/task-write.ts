import {
  type TaskAddInput,
  type TaskHandOnInput,
  type TaskTransferInput,
  taskAddInputSchema,
  taskHandOnInputSchema,
  taskTransferInputSchema,
} from '@shuzhi/contracts/diy-task';
import type { Selectable, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTaskReceiverTable, DiyTaskTable } from '../../db/schema.ts';
import { orgInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { type Caller, formAuth, loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { resolveFilingPeriod } from '../diy-period/diy-period.service.ts';
import { announcePublished, publishToOrgUsers, sanitizeNoticeHtml } from '../notice/notice.service.ts';
import { holdTaskFiles } from './task-files.ts';
import { activeTaskForms, assertReviewedForms } from './task-forms.ts';
import {
  type FillCheck,
  fillCheck,
  loadOrgs,
  peopleUnits,
  resolveReceivers,
  type TaskOrg,
} from './task-units.ts';

/** Creating a task and distributing it, handing it on, transferring a part (docs/tasks.md). */

type Trx = Transaction<Database>;
type ReceiverRow = Selectable<DiyTaskReceiverTable>;
type TaskRow = Selectable<DiyTaskTable>;

/** Rows per INSERT: 13 columns × 500 stays far below every driver's bound-parameter limit. */
const INSERT_BATCH = 500;
/** Unit names kept on a history step. */
const EVENT_NAMES = 20;

/** A due time as stored (`yyyy-MM-dd HH:mm:ss`), T1001 unless it lies ahead. */
export function futureDue(text: string, now: Date): string {
  const at = parseDateTime(text.length === 16 ? `${text}:00` : text);
  if (at.getTime() <= now.getTime()) throw new AppError('T1001');
  return formatDateTime(at);
}

type TaskForm = { tableId: number; periodId: number | null; check: FillCheck };

/** The task's forms: published, enabled, handed out by a caller who administers or views them (T1002). */
async function checkForms(
  ctx: AppContext,
  trx: Trx,
  caller: Caller,
  forms: { tableId: number; periodId?: number | null }[],
  orgs: Map<number, TaskOrg>,
  now: Date,
): Promise<TaskForm[]> {
  const out: TaskForm[] = [];
  const seen = new Set<number>();
  for (const f of forms) {
    if (seen.has(f.tableId)) continue;
    seen.add(f.tableId);
    const form = await trx
      .selectFrom('diy_table')
      .selectAll()
      .where('id', '=', f.tableId)
      .where('tenant_id', '=', caller.user.tenantId)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (form?.report_type !== 1) throw new AppError('T1002');
    const auth = formAuth(form, caller);
    if (!auth.published || !auth.enabled || !(auth.admin || auth.viewer || auth.reviewer))
      throw new AppError('T1002');
    const period = await resolveFilingPeriod(ctx, trx, form, f.periodId ?? undefined, now);
    out.push({ tableId: form.id, periodId: period?.id ?? null, check: await fillCheck(trx, form, orgs) });
  }
  return out;
}

async function insertBatched(trx: Trx, rows: DiyTaskReceiverTable[]): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_BATCH)
    await trx
      .insertInto('diy_task_receiver')
      .values(rows.slice(i, i + INSERT_BATCH))
      .execute();
}

export async function writeEvent(
  ctx: AppContext,
  trx: Trx,
  task: Pick<TaskRow, 'id' | 'tenant_id'>,
  step: { action: string; receiverId: number | null; orgName: string | null; comment: string | null },
  targets: readonly TaskOrg[],
  user: AuthUser,
  stamp: string,
): Promise<void> {
  await trx
    .insertInto('diy_task_event')
    .values({
      id: ctx.newId(),
      tenant_id: task.tenant_id,
      task_id: task.id,
      receiver_id: step.receiverId,
      action: step.action,
      org_name: step.orgName,
      targets: JSON.stringify({
        names: targets.slice(0, EVENT_NAMES).map((o) => o.name),
        count: targets.length,
      }),
      comment: step.comment || null,
      user_id: user.userId,
      user_name: user.realName,
      create_time: stamp,
    })
    .execute();
}

function noticeOf(task: Pick<TaskRow, 'id' | 'tenant_id' | 'title'>, due: string, orgs: readonly TaskOrg[]) {
  return {
    tenantId: task.tenant_id,
    title: `【任务】${task.title}`,
    content: `<p>您单位收到任务“${escapeHtml(task.title)}”，请于 ${due} 前完成填报。</p><p><a href="/diyTask/detail?id=${task.id}">查看任务</a></p>`,
    orgIds: orgs.map((o) => o.id),
  };
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** New receiver rows under `parent` (null: the top), each under its nearest ancestor among the new ones. */
function receiverRows(
  ctx: AppContext,
  task: Pick<TaskRow, 'id' | 'tenant_id'>,
  units: readonly TaskOrg[],
  parentId: number | null,
  due: string,
  user: AuthUser,
  stamp: string,
): DiyTaskReceiverTable[] {
  const idOfOrg = new Map<number, number>();
  const rows: DiyTaskReceiverTable[] = [];
  for (const org of units) {
    const id = ctx.newId();
    idOfOrg.set(org.id, id);
    let parent = parentId;
    for (let i = org.chain.length - 2; i >= 0; i--) {
      const above = idOfOrg.get(org.chain[i] as number);
      if (above !== undefined) {
        parent = above;
        break;
      }
    }
    rows.push({
      id,
      tenant_id: task.tenant_id,
      task_id: task.id,
      parent_id: parent,
      org_id: org.id,
      org_name: org.name,
      due_time: due,
      state: 'received',
      transfer_from_id: null,
      transfer_reason: null,
      create_time: stamp,
      create_user_id: user.userId,
      create_user_name: user.realName,
    });
  }
  const parents = new Set(rows.map((r) => r.parent_id));
  for (const row of rows) if (parents.has(row.id)) row.state = 'handedOn';
  return rows;
}

/** `POST /api/diyTask/add`: the task, its forms and receivers, history and notices, in one transaction. */
export async function addTask(ctx: AppContext, user: AuthUser, raw: TaskAddInput): Promise<number> {
  const input = taskAddInputSchema.parse(raw);
  const { id, notice } = await ctx.db
    .transaction()
    .execute((trx) => createTaskIn(ctx, trx, user, input, new Date()));
  if (notice) announcePublished(ctx, notice);
  return id;
}

/**
 * Creates a task inside the caller's transaction, as `user` at `now` (create and scheduled tasks share it);
 * the caller announces the notice after its commit.
 */
export async function createTaskIn(
  ctx: AppContext,
  trx: Trx,
  user: AuthUser,
  input: z.output<typeof taskAddInputSchema>,
  now: Date,
): Promise<{ id: number; notice: Awaited<ReturnType<typeof publishToOrgUsers>> }> {
  const stamp = formatDateTime(now);
  const due = futureDue(input.dueTime, now);
  const caller = await loadCaller(ctx, user, trx);
  const orgs = await loadOrgs(trx, user.tenantId);
  const forms = await checkForms(ctx, trx, caller, input.forms, orgs, now);
  if (input.levelReview)
    await assertReviewedForms(
      trx,
      forms.map((f) => f.tableId),
    );
  const units = resolveReceivers(
    input.receivers,
    orgs,
    { kind: 'scope', view: caller.view },
    forms.map((f) => f.check),
    await peopleUnits(trx, user.tenantId, input.receivers),
  );
  await checkAttachments(
    trx,
    user.tenantId,
    input.attachments.map((a) => a.fileId),
  );
  const task = { id: ctx.newId(), tenant_id: user.tenantId, title: input.title };
  await trx
    .insertInto('diy_task')
    .values({
      ...task,
      instructions: sanitizeNoticeHtml(input.instructions),
      attachments: JSON.stringify(input.attachments),
      due_time: due,
      state: 'open',
      create_time: stamp,
      update_time: null,
      create_user_id: user.userId,
      create_user_name: user.realName,
      update_user_id: null,
      update_user_name: null,
      create_org_id: caller.orgId,
      create_org_name: caller.orgName,
      is_delete: 0,
      urge_plan: input.urge.enabled ? JSON.stringify(input.urge) : null,
      level_review: input.levelReview ? 1 : 0,
    })
    .execute();
  await holdTaskFiles(
    trx,
    user,
    task.id,
    input.attachments.map((f) => f.fileId),
  );
  await trx
    .insertInto('diy_task_form')
    .values(
      forms.map((f, i) => ({
        id: ctx.newId(),
        task_id: task.id,
        table_id: f.tableId,
        period_id: f.periodId,
        order_no: i + 1,
      })),
    )
    .execute();
  await insertBatched(trx, receiverRows(ctx, task, units, null, due, user, stamp));
  const step = { action: 'create', receiverId: null, orgName: caller.orgName, comment: null };
  await writeEvent(ctx, trx, task, step, units, user, stamp);
  const sent = await publishToOrgUsers(ctx, trx, user, noticeOf(task, due, units), stamp);
  return { id: task.id, notice: sent };
}

/** Attachments are files of the tenant (D1002 otherwise). */
export async function checkAttachments(trx: Trx, tenantId: number, ids: readonly number[]): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const found = await trx
    .selectFrom('sys_file')
    .select('id')
    .where('id', 'in', wanted)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (found.length !== wanted.length) throw new AppError('D1002');
}

/**
 * A receiver the caller acts for: a part of an open task of their tenant, not transferred, whose unit is one
 * of the caller's or lies in their data scope (T1010; T1000 when there is no such receiver).
 */
export async function actingReceiver(
  trx: Trx,
  caller: Caller,
  receiverId: number,
): Promise<{ receiver: ReceiverRow; task: TaskRow }> {
  const receiver = await trx
    .selectFrom('diy_task_receiver')
    .selectAll()
    .where('id', '=', receiverId)
    .where('tenant_id', '=', caller.user.tenantId)
    .executeTakeFirst();
  const task = receiver
    ? await trx
        .selectFrom('diy_task')
        .selectAll()
        .where('id', '=', receiver.task_id)
        .where('is_delete', '=', 0)
        .executeTakeFirst()
    : undefined;
  if (!receiver || !task) throw new AppError('T1000');
  const ours = caller.orgIds.includes(receiver.org_id) || orgInScope(caller.view, receiver.org_id);
  if (!ours || receiver.state === 'transferred' || task.state !== 'open') throw new AppError('T1010');
  return { receiver, task };
}

/** Who can take each form of the task; a form taken off while the task was open refuses (T1033). */
async function taskFormChecks(trx: Trx, task: TaskRow, orgs: Map<number, TaskOrg>): Promise<FillCheck[]> {
  const forms = await activeTaskForms(trx, task.id);
  return Promise.all(forms.map((f) => fillCheck(trx, f, orgs)));
}

async function alreadyReceiving(trx: Trx, taskId: number, orgIds: readonly number[]): Promise<ReceiverRow[]> {
  const out: ReceiverRow[] = [];
  for (let i = 0; i < orgIds.length; i += 1000) {
    const chunk = orgIds.slice(i, i + 1000);
    out.push(
      ...(await trx
        .selectFrom('diy_task_receiver')
        .selectAll()
        .where('task_id', '=', taskId)
        .where('org_id', 'in', chunk)
        .execute()),
    );
  }
  return out;
}

/**
 * `POST /api/diyTask/handOn`: the receiving unit hands its part on to units below it (T1009 otherwise), with a
 * due time ahead (T1001) and not after its own (T1005); units already receiving the task → T1007.
 */
export async function handOnTask(ctx: AppContext, user: AuthUser, raw: TaskHandOnInput): Promise<number> {
  const input = taskHandOnInputSchema.parse(raw);
  const now = new Date();
  const stamp = formatDateTime(now);
  const due = futureDue(input.dueTime, now);
  const { count, notice } = await ctx.db.transaction().execute(async (trx) => {
    const caller = await loadCaller(ctx, user, trx);
    const { receiver, task } = await actingReceiver(trx, caller, input.receiverId);
    if (parseDateTime(due).getTime() > parseDateTime(receiver.due_time).getTime())
      throw new AppError('T1005', { due: receiver.due_time.slice(0, 16) });
    const orgs = await loadOrgs(trx, user.tenantId);
    const checks = await taskFormChecks(trx, task, orgs);
    const people = await peopleUnits(trx, user.tenantId, input.receivers);
    const units = resolveReceivers(
      input.receivers,
      orgs,
      { kind: 'below', orgId: receiver.org_id },
      checks,
      people,
    );
    const taken = await alreadyReceiving(
      trx,
      task.id,
      units.map((u) => u.id),
    );
    if (taken.length > 0)
      throw new AppError('T1007', {
        names: taken
          .slice(0, 10)
          .map((r) => r.org_name)
          .join('、'),
      });
    await insertBatched(trx, receiverRows(ctx, task, units, receiver.id, due, user, stamp));
    await trx
      .updateTable('diy_task_receiver')
      .set({ state: 'handedOn' })
      .where('id', '=', receiver.id)
      .execute();
    const step = {
      action: 'handOn',
      receiverId: receiver.id,
      orgName: receiver.org_name,
      comment: input.comment,
    };
    await writeEvent(ctx, trx, task, step, units, user, stamp);
    const sent = await publishToOrgUsers(ctx, trx, user, noticeOf(task, due, units), stamp);
    return { count: units.length, notice: sent };
  });
  if (notice) announcePublished(ctx, notice);
  return count;
}

/**
 * `POST /api/diyTask/transfer`: a receiver that files itself (not handed on) passes its part to another unit
 * of the tenant that can fill the forms (T1003 / T1004). A unit that passed this task on before cannot get it
 * back (T1006); a unit already receiving it otherwise → T1007. The old part stays, marked transferred.
 */
export async function transferTask(ctx: AppContext, user: AuthUser, raw: TaskTransferInput): Promise<number> {
  const input = taskTransferInputSchema.parse(raw);
  const stamp = formatDateTime();
  const { id, notice } = await ctx.db.transaction().execute(async (trx) => {
    const caller = await loadCaller(ctx, user, trx);
    const { receiver, task } = await actingReceiver(trx, caller, input.receiverId);
    if (receiver.state !== 'received') throw new AppError('T1010');
    const orgs = await loadOrgs(trx, user.tenantId);
    const target = orgs.get(input.orgId);
    if (!target?.enabled) throw new AppError('T1003');
    const checks = await taskFormChecks(trx, task, orgs);
    if (!checks.every((check) => check(target))) throw new AppError('T1004', { names: target.name });
    const [taken] = await alreadyReceiving(trx, task.id, [target.id]);
    if (taken)
      throw new AppError(taken.state === 'transferred' ? 'T1006' : 'T1007', { names: taken.org_name });
    const row: DiyTaskReceiverTable = {
      id: ctx.newId(),
      tenant_id: task.tenant_id,
      task_id: task.id,
      parent_id: receiver.parent_id,
      org_id: target.id,
      org_name: target.name,
      due_time: receiver.due_time,
      state: 'received',
      transfer_from_id: receiver.id,
      transfer_reason: input.reason,
      create_time: stamp,
      create_user_id: user.userId,
      create_user_name: user.realName,
    };
    await trx.insertInto('diy_task_receiver').values(row).execute();
    await trx
      .updateTable('diy_task_receiver')
      .set({ state: 'transferred' })
      .where('id', '=', receiver.id)
      .execute();
    const step = {
      action: 'transfer',
      receiverId: receiver.id,
      orgName: receiver.org_name,
      comment: input.reason,
    };
    await writeEvent(ctx, trx, task, step, [target], user, stamp);
    const sent = await publishToOrgUsers(
      ctx,
      trx,
      user,
      noticeOf(task, receiver.due_time.slice(0, 16), [target]),
      stamp,
    );
    return { id: row.id, notice: sent };
  });
  if (notice) announcePublished(ctx, notice);
  return id;
}
