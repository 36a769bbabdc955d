import { type TaskUrgePlan, taskUrgePlanSchema, type UrgeOutcome } from '@shuzhi/contracts/diy-task-urge';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Selectable } from 'kysely';
import type { DiyTaskTable } from '../../db/schema.ts';
import { configValue } from '../../platform/config/sys-config.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime, parseDateTime, wallClockAt } from '../../platform/db/time.ts';
import { announcePublished } from '../notice/notice.service.ts';
import { type ReceiverRow, receiverFiled, taskCells } from './task-progress.ts';
import {
  claimOf,
  deliverSms,
  escapeHtml,
  type Reminder,
  retryFailedSms,
  sendReminder,
} from './task-remind.ts';
import { loadOrgs, type TaskOrg } from './task-units.ts';

/**
 * The automatic urging ladder (docs/tasks.md "Urging"), run by the built-in job `taskUrge`: for each receiver
 * that files itself and has not filed every form, the latest step of its task's ladder that has fallen due
 * since it received the task — T−n days before its own due time (while it has not passed), T+n days after —
 * is sent once. The claim row (`receiver:step`, unique) is inserted first, in the transaction that writes the
 * notice, so two processes never both send a step. In quiet hours nothing goes out; the step goes at the
 * first run after them. A closed task, or a receiver whose forms still to file all have their periods closed,
 * records the step as `taskClosed` / `periodClosed` instead (once per receiver: no later steps follow).
 */

const DAY_MS = 86_400_000;
/** Rows per claiming INSERT. */
const CLAIM_BATCH = 200;

export type LadderStep = { name: string; daysLate: number };

/**
 * The step due at `now` for a receiver that got the task at `since` and is due at `due`: the latest step
 * time in (since, now]; a step before the due time only while it has not passed. Null: none.
 */
export function dueStep(plan: TaskUrgePlan, due: Date, since: Date, now: Date): LadderStep | null {
  let best: LadderStep | null = null;
  let bestAt = Number.NEGATIVE_INFINITY;
  const consider = (at: number, step: LadderStep) => {
    if (at > since.getTime() && at <= now.getTime() && at > bestAt) {
      best = step;
      bestAt = at;
    }
  };
  if (now.getTime() < due.getTime())
    for (const d of plan.beforeDays) consider(due.getTime() - d * DAY_MS, { name: `T-${d}`, daysLate: 0 });
  for (let n = 1; n <= plan.afterDays; n++)
    consider(due.getTime() + n * DAY_MS, { name: `T+${n}`, daysLate: n });
  return best;
}

/** `HH:mm-HH:mm` (over midnight when the end is earlier); empty or malformed: no quiet hours. */
export function inQuietHours(setting: string, now: Date): boolean {
  const m = /^\s*(\d{1,2}):(\d{2})\s*-\s*(\d{1,2}):(\d{2})\s*$/.exec(setting);
  if (!m) return false;
  const [start, end] = [Number(m[1]) * 60 + Number(m[2]), Number(m[3]) * 60 + Number(m[4])];
  const wall = wallClockAt(now);
  const minute = wall.hour * 60 + wall.minute;
  if (start === end) return false;
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

/** The ladder stored on a task (`urge_plan`); null when off or unreadable. */
export function planOf(text: string | null): TaskUrgePlan | null {
  if (!text) return null;
  try {
    const plan = taskUrgePlanSchema.safeParse(JSON.parse(text));
    return plan.success && plan.data.enabled ? plan.data : null;
  } catch {
    return null;
  }
}

type Task = Selectable<DiyTaskTable>;
type Group = { step: LadderStep; due: string; skip: UrgeOutcome | null; receivers: ReceiverRow[] };
export type UrgeRun = {
  quiet: boolean;
  reminded: number;
  skipped: number;
  smsSent: number;
  smsFailed: number;
  /** Failed texts tried again in this run. */
  smsRetried: number;
  /** Failed texts due another attempt whose task is no longer open: given up as `taskClosed`. */
  smsGivenUp: number;
};

/** The receivers of a task due a step now, grouped by step, due time and whether it is skipped. */
async function dueGroups(
  ctx: AppContext,
  task: Task,
  plan: TaskUrgePlan,
  orgs: Map<number, TaskOrg>,
  now: Date,
): Promise<Group[]> {
  const { db } = ctx;
  const receivers = await db
    .selectFrom('diy_task_receiver')
    .selectAll()
    .where('task_id', '=', task.id)
    .execute();
  const recorded = await db
    .selectFrom('diy_task_urge')
    .select(['receiver_id', 'claim', 'outcome'])
    .where('task_id', '=', task.id)
    .where('claim', 'is not', null)
    .execute();
  const claimed = new Set(recorded.map((r) => r.claim));
  const ended = new Set(
    recorded
      .filter((r) => r.outcome === 'taskClosed' || r.outcome === 'periodClosed')
      .map((r) => r.receiver_id),
  );
  // The steps due and not yet claimed, found before anything is counted: most runs find none.
  const due: { r: ReceiverRow; step: LadderStep }[] = [];
  for (const r of receivers) {
    if (r.state !== 'received' || ended.has(r.id)) continue;
    const step = dueStep(plan, parseDateTime(r.due_time), parseDateTime(r.create_time), now);
    if (step && !claimed.has(claimOf(r.id, step.name))) due.push({ r, step });
  }
  if (due.length === 0) return [];
  const forms = await db
    .selectFrom('diy_task_form')
    .select(['table_id as tableId', 'period_id as periodId'])
    .where('task_id', '=', task.id)
    .orderBy('order_no')
    .execute();
  const cells = await taskCells(db, task, forms, receivers, orgs, now);
  const periodIds = forms.flatMap((f) => (f.periodId === null ? [] : [f.periodId]));
  const closedPeriods = new Set(
    periodIds.length === 0
      ? []
      : (
          await db
            .selectFrom('diy_table_period')
            .select('id')
            .where('id', 'in', periodIds)
            .where('closed', '=', 1)
            .execute()
        ).map((p) => p.id),
  );
  const groups = new Map<string, Group>();
  for (const { r, step } of due) {
    const mine = cells.get(r.id) ?? [];
    if (receiverFiled(mine)) continue;
    const open = forms.filter((_, i) => {
      const cell = mine[i];
      return !cell || !receiverFiled([cell]);
    });
    const skip: UrgeOutcome | null =
      task.state !== 'open'
        ? 'taskClosed'
        : open.length > 0 && open.every((f) => f.periodId !== null && closedPeriods.has(f.periodId))
          ? 'periodClosed'
          : null;
    const key = `${step.name}|${r.due_time}|${skip ?? ''}`;
    const group = groups.get(key) ?? { step, due: r.due_time, skip, receivers: [] };
    group.receivers.push(r);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function reminderOf(task: Task, group: Group, receivers: ReceiverRow[]): Reminder {
  const due = group.due.slice(0, 16);
  const title = escapeHtml(task.title);
  const late = group.step.daysLate;
  const text =
    late > 0
      ? `任务“${title}”已于 ${due} 到期，您单位已逾期 ${late} 天尚未完成填报，请尽快补报。`
      : `任务“${title}”将于 ${due} 到期，您单位尚未完成填报，请抓紧办理。`;
  const sms =
    late > 0
      ? `【逾期催办】任务“${task.title}”已逾期 ${late} 天，请尽快完成填报。`
      : `【到期提醒】任务“${task.title}”将于 ${due} 到期，请及时完成填报。`;
  return {
    taskId: task.id,
    tenantId: task.tenant_id,
    receivers,
    step: group.step.name,
    title: `【${late > 0 ? '逾期催办' : '到期提醒'}】${task.title}`,
    content: `<p>${text}</p><p><a href="/diyTask/detail?id=${task.id}">查看任务</a></p>`,
    sms,
    message: sms,
    withLeaders: late > 0,
    claimed: true,
  };
}

/** Claims the group's steps (insert-first; a row another process inserted is skipped) and sends them. */
async function sendGroup(ctx: AppContext, task: Task, group: Group, run: UrgeRun, now: Date): Promise<void> {
  const stamp = formatDateTime();
  const outcome = await ctx.db.transaction().execute(async (trx) => {
    const mine: ReceiverRow[] = [];
    for (let i = 0; i < group.receivers.length; i += CLAIM_BATCH) {
      const chunk = group.receivers.slice(i, i + CLAIM_BATCH);
      const inserted = await trx
        .insertInto('diy_task_urge')
        .values(
          chunk.map((r) => ({
            id: ctx.newId(),
            tenant_id: task.tenant_id,
            task_id: task.id,
            receiver_id: r.id,
            org_name: r.org_name,
            step: group.step.name,
            channel: 'notice',
            outcome: group.skip ?? 'pending',
            user_id: null,
            user_name: null,
            phone: null,
            notice_id: null,
            message: null,
            claim: claimOf(r.id, group.step.name),
            sender_id: null,
            sender_name: null,
            create_time: stamp,
            update_time: null,
            attempts: 0,
            last_error: null,
            retry_at: null,
          })),
        )
        .onConflict((oc) => oc.column('claim').doNothing())
        .returning('receiver_id')
        .execute();
      const won = new Set(inserted.map((r) => r.receiver_id));
      mine.push(...chunk.filter((r) => won.has(r.id)));
    }
    if (group.skip || mine.length === 0) return { count: mine.length, sent: null };
    const sender = {
      userId: task.create_user_id ?? 0,
      realName: task.create_user_name ?? '',
      orgId: task.create_org_id ?? 0,
      orgName: task.create_org_name ?? '',
      manual: false,
    };
    return {
      count: mine.length,
      sent: await sendReminder(ctx, trx, sender, reminderOf(task, group, mine), stamp),
    };
  });
  if (group.skip) {
    run.skipped += outcome.count;
    return;
  }
  run.reminded += outcome.count;
  if (!outcome.sent) return;
  if (outcome.sent.notice) announcePublished(ctx, outcome.sent.notice);
  const sms = await deliverSms(ctx, outcome.sent.smsIds, now);
  run.smsSent += sms.sent;
  run.smsFailed += sms.failed;
}

/** The job's run: every task whose ladder may still have a step due. */
export async function runTaskUrges(ctx: AppContext, signal: AbortSignal, now = new Date()): Promise<UrgeRun> {
  const run: UrgeRun = {
    quiet: false,
    reminded: 0,
    skipped: 0,
    smsSent: 0,
    smsFailed: 0,
    smsRetried: 0,
    smsGivenUp: 0,
  };
  if (inQuietHours(await configValue(ctx, 'diy_task_urge_quiet_hours'), now)) return { ...run, quiet: true };
  // First the texts that failed earlier and are due another attempt (by hand or by the ladder).
  const retried = await retryFailedSms(ctx, now);
  run.smsRetried = retried.retried;
  run.smsGivenUp = retried.givenUp;
  run.smsSent += retried.sent;
  run.smsFailed += retried.failed;
  // Ladders reach 30 days either side of a due time.
  const tasks = await ctx.db
    .selectFrom('diy_task as t')
    .innerJoin('sys_tenant as n', 'n.id', 't.tenant_id')
    .selectAll('t')
    .where('t.is_delete', '=', 0)
    .where('t.urge_plan', 'is not', null)
    .where('t.due_time', '>=', formatDateTime(new Date(now.getTime() - 31 * DAY_MS)))
    .where('t.due_time', '<=', formatDateTime(new Date(now.getTime() + 31 * DAY_MS)))
    .where('t.create_time', '<=', formatDateTime(now))
    .where('n.status', '=', STATUS.enabled)
    .where('n.is_delete', '=', 0)
    .orderBy('t.id')
    .execute();
  const orgsOf = new Map<number, Map<number, TaskOrg>>();
  for (const task of tasks) {
    signal.throwIfAborted();
    const plan = planOf(task.urge_plan);
    if (!plan) continue;
    let orgs = orgsOf.get(task.tenant_id);
    if (!orgs) {
      orgs = await loadOrgs(ctx.db, task.tenant_id);
      orgsOf.set(task.tenant_id, orgs);
    }
    for (const group of await dueGroups(ctx, task, plan, orgs, now)) {
      signal.throwIfAborted();
      await sendGroup(ctx, task, group, run, now);
    }
  }
  return run;
}
