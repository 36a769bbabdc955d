import { SPECIAL_ROLE_NAMES } from '@shuzhi/contracts/auth';
import type { UrgeOutcome } from '@shuzhi/contracts/diy-task-urge';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { SMS_TASK_URGE_TEMPLATE, smsSenderFor } from '../../platform/sms/sms.ts';
import { type NoticeSender, publishToUsers } from '../notice/notice.service.ts';
import type { ReceiverRow } from './task-progress.ts';

/**
 * Sending reminders (docs/tasks.md "Urging"), by hand or by the ladder: inside the caller's transaction, one
 * in-app notice to the people of the units reminded and an SMS row (`pending`) per person with a phone, each
 * recorded in `diy_task_urge`; after the commit the caller announces the notice and `deliverSms` hands the
 * texts to the SMS sender, recording `sent` or `failed`.
 */

type Trx = Transaction<Database>;

/** The leaders' roles (区领导, 部门和街镇领导, 社区领导): a unit's leaders are its users holding one. */
const LEADER_ROLES = [
  SPECIAL_ROLE_NAMES.areaLeader,
  SPECIAL_ROLE_NAMES.deptTownLeader,
  SPECIAL_ROLE_NAMES.communityLeader,
];

export type UnitPerson = { id: number; name: string; phone: string | null; orgId: number; leader: boolean };

/** The live, enabled users of the units (own org or extra org), each with whether they lead it. */
export async function unitPeople(
  trx: Trx,
  tenantId: number,
  orgIds: readonly number[],
): Promise<UnitPerson[]> {
  const out: UnitPerson[] = [];
  for (let i = 0; i < orgIds.length; i += 1000) {
    const chunk = orgIds.slice(i, i + 1000);
    const own = await trx
      .selectFrom('sys_user as u')
      .select(['u.id', 'u.real_name', 'u.phone', 'u.org_id as unit'])
      .where('u.org_id', 'in', chunk)
      .execute();
    const extra = await trx
      .selectFrom('sys_user as u')
      .innerJoin('sys_user_ext_org as x', 'x.user_id', 'u.id')
      .select(['u.id', 'u.real_name', 'u.phone', 'x.org_id as unit'])
      .where('x.org_id', 'in', chunk)
      .execute();
    const rows = [...own, ...extra];
    if (rows.length === 0) continue;
    const ids = [...new Set(rows.map((r) => r.id))];
    const users = await trx
      .selectFrom('sys_user')
      .select('id')
      .where('id', 'in', ids)
      .where('tenant_id', '=', tenantId)
      .where('is_delete', '=', 0)
      .where('status', '=', STATUS.enabled)
      .execute();
    const live = new Set(users.map((u) => u.id));
    const leaders = new Set(
      (
        await trx
          .selectFrom('sys_user_role as ur')
          .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
          .select('ur.user_id')
          .where('ur.user_id', 'in', ids)
          .where('r.name', 'in', LEADER_ROLES)
          .where('r.is_delete', '=', 0)
          .execute()
      ).map((r) => r.user_id),
    );
    for (const r of rows)
      if (live.has(r.id))
        out.push({
          id: r.id,
          name: r.real_name,
          phone: r.phone?.trim() || null,
          orgId: Number(r.unit),
          leader: leaders.has(r.id),
        });
  }
  return out;
}

/**
 * Who a reminder reaches in a unit: before the due time its fillers (its people who lead nothing; everyone
 * when all of them lead), after it everyone, leaders included.
 */
export function recipients(people: readonly UnitPerson[], withLeaders: boolean): UnitPerson[] {
  if (withLeaders) return [...people];
  const fillers = people.filter((p) => !p.leader);
  return fillers.length > 0 ? fillers : [...people];
}

export type UrgeSender = NoticeSender & { manual: boolean };

export type Reminder = {
  taskId: number;
  tenantId: number;
  receivers: readonly ReceiverRow[];
  step: string;
  title: string;
  content: string;
  /** The text of the SMS. */
  sms: string;
  message: string | null;
  withLeaders: boolean;
  /** The ladder: each receiver's notice row was inserted first as its claim (`receiver:step`); it is updated. */
  claimed?: boolean;
};

export type Sent = {
  notice: Awaited<ReturnType<typeof publishToUsers>>;
  people: number;
  smsIds: number[];
};

/** The claim of a ladder step: unique, so that one process alone sends it. */
export const claimOf = (receiverId: number, step: string) => `${receiverId}:${step}`;

export const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** 138****0001; a number already masked stays as it is. */
export const maskPhone = (phone: string) =>
  phone.length >= 7 && !phone.includes('*') ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : phone;

/** One notice to the people of the reminder's receivers and a pending SMS row per phone, all recorded. */
export async function sendReminder(
  ctx: AppContext,
  trx: Trx,
  sender: UrgeSender,
  reminder: Reminder,
  stamp: string,
): Promise<Sent> {
  const units = reminder.receivers.map((r) => r.org_id);
  const byUnit = new Map<number, UnitPerson[]>();
  for (const p of await unitPeople(trx, reminder.tenantId, units)) {
    const list = byUnit.get(p.orgId) ?? [];
    list.push(p);
    byUnit.set(p.orgId, list);
  }
  const reached = new Map<number, UnitPerson>();
  const perReceiver = reminder.receivers.map((r) => {
    const people = recipients(byUnit.get(r.org_id) ?? [], reminder.withLeaders);
    for (const p of people) reached.set(p.id, p);
    return { receiver: r, people };
  });
  const notice = await publishToUsers(
    ctx,
    trx,
    sender,
    {
      tenantId: reminder.tenantId,
      title: reminder.title,
      content: reminder.content,
      userIds: [...reached.keys()],
    },
    stamp,
  );
  const base = {
    tenant_id: reminder.tenantId,
    task_id: reminder.taskId,
    step: reminder.step,
    message: reminder.message,
    sender_id: sender.manual ? sender.userId : null,
    sender_name: sender.manual ? sender.realName : null,
    create_time: stamp,
    update_time: null,
    attempts: 0,
    last_error: null,
    retry_at: null,
  };
  const smsIds: number[] = [];
  const rows: Database['diy_task_urge'][] = [];
  const sentClaims: string[] = [];
  const nobody: string[] = [];
  for (const { receiver, people } of perReceiver) {
    const outcome: UrgeOutcome = people.length > 0 ? 'sent' : 'nobody';
    const noticeId = people.length > 0 ? (notice?.id ?? null) : null;
    if (reminder.claimed)
      (outcome === 'sent' ? sentClaims : nobody).push(claimOf(receiver.id, reminder.step));
    else
      rows.push({
        ...base,
        id: ctx.newId(),
        receiver_id: receiver.id,
        org_name: receiver.org_name,
        channel: 'notice',
        outcome,
        user_id: null,
        user_name: null,
        phone: null,
        notice_id: noticeId,
        claim: null,
      });
    for (const p of people) {
      if (!p.phone) continue;
      const id = ctx.newId();
      smsIds.push(id);
      rows.push({
        ...base,
        id,
        receiver_id: receiver.id,
        org_name: receiver.org_name,
        channel: 'sms',
        outcome: 'pending' satisfies UrgeOutcome,
        user_id: p.id,
        user_name: p.name,
        phone: p.phone,
        notice_id: null,
        message: reminder.sms,
        claim: null,
      });
    }
  }
  for (const [claims, set] of [
    [sentClaims, { outcome: 'sent', notice_id: notice?.id ?? null }],
    [nobody, { outcome: 'nobody', notice_id: null }],
  ] as const)
    for (let i = 0; i < claims.length; i += 500)
      await trx
        .updateTable('diy_task_urge')
        .set({ ...set, message: reminder.message })
        .where('claim', 'in', claims.slice(i, i + 500))
        .execute();
  for (let i = 0; i < rows.length; i += 200)
    await trx
      .insertInto('diy_task_urge')
      .values(rows.slice(i, i + 200))
      .execute();
  return { notice, people: reached.size, smsIds };
}

/** Attempts in all for one text, and the wait before each retry (after the 1st and the 2nd failure). */
export const SMS_MAX_ATTEMPTS = 3;
export const SMS_RETRY_AFTER_MS = [5 * 60_000, 30 * 60_000] as const;

/**
 * Hands the pending texts to the SMS sender (after the commit), one at a time, counting the attempt and
 * recording `sent` or `failed`. A failed text keeps its phone and gets a `retry_at` (5, then 30 minutes on)
 * while it has attempts left; the phone is masked once it went or when no attempt is left. Answers how many
 * went and how many did not.
 */
export async function deliverSms(
  ctx: AppContext,
  ids: readonly number[],
  now = new Date(),
): Promise<{ sent: number; failed: number }> {
  const sender = smsSenderFor(ctx.config, ctx.log);
  let sent = 0;
  let failed = 0;
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await ctx.db
      .selectFrom('diy_task_urge')
      .select(['id', 'phone', 'message', 'attempts'])
      .where('id', 'in', ids.slice(i, i + 500))
      .where('outcome', '=', 'pending')
      .execute();
    for (const row of rows) {
      const phone = row.phone ?? '';
      const attempts = row.attempts + 1;
      let error: string | null = null;
      try {
        await sender.send({ phone, template: SMS_TASK_URGE_TEMPLATE, text: row.message ?? '' });
        sent++;
      } catch (err) {
        error = (err instanceof Error ? err.message : String(err)).slice(0, 500) || 'unknown';
        failed++;
        ctx.log.warn({ err, urgeId: row.id, attempts }, 'task reminder SMS not sent');
      }
      const retry = error !== null && attempts < SMS_MAX_ATTEMPTS;
      const wait = SMS_RETRY_AFTER_MS[attempts - 1] ?? SMS_RETRY_AFTER_MS[SMS_RETRY_AFTER_MS.length - 1];
      await ctx.db
        .updateTable('diy_task_urge')
        .set({
          outcome: error === null ? 'sent' : 'failed',
          phone: retry ? phone : maskPhone(phone),
          attempts,
          ...(error === null ? {} : { last_error: error }),
          retry_at: retry ? formatDateTime(new Date(now.getTime() + wait)) : null,
          update_time: formatDateTime(),
        })
        .where('id', '=', row.id)
        .execute();
    }
  }
  return { sent, failed };
}

/**
 * The failed texts whose retry time has come (by hand or by the ladder), claimed by this process: one UPDATE
 * sets them back to `pending` only while they are still `failed` with a retry time, so a row another process
 * claimed first (its update committed, or waited for on PostgreSQL) is not taken again. Then they are sent.
 * A text whose task is no longer open (closed, finished or deleted) is not tried again: the same guarded UPDATE
 * gives it up as `taskClosed` (its phone masked, its attempts and last error kept), and the claim takes only
 * texts whose task is still open, so a task closed between the two is given up by the next run.
 */
export async function retryFailedSms(
  ctx: AppContext,
  now: Date,
): Promise<{ retried: number; sent: number; failed: number; givenUp: number }> {
  const due = formatDateTime(now);
  const candidates = await ctx.db
    .selectFrom('diy_task_urge')
    .select('id')
    .where('retry_at', '<=', due)
    .where('channel', '=', 'sms')
    .where('outcome', '=', 'failed')
    .orderBy('retry_at')
    .limit(500)
    .execute();
  if (candidates.length === 0) return { retried: 0, sent: 0, failed: 0, givenUp: 0 };
  const ids = candidates.map((c) => c.id);
  const openTasks = ctx.db
    .selectFrom('diy_task')
    .select('id')
    .where('state', '=', 'open')
    .where('is_delete', '=', 0);
  const givenUp = await ctx.db
    .updateTable('diy_task_urge')
    .set({ outcome: 'taskClosed' satisfies UrgeOutcome, retry_at: null, update_time: due })
    .where('id', 'in', ids)
    .where('outcome', '=', 'failed')
    .where('retry_at', '<=', due)
    .where('task_id', 'not in', openTasks)
    .returning(['id', 'phone'])
    .execute();
  for (const row of givenUp)
    await ctx.db
      .updateTable('diy_task_urge')
      .set({ phone: maskPhone(row.phone ?? '') })
      .where('id', '=', row.id)
      .execute();
  const claimed = await ctx.db
    .updateTable('diy_task_urge')
    .set({ outcome: 'pending', retry_at: null, update_time: due })
    .where('id', 'in', ids)
    .where('outcome', '=', 'failed')
    .where('retry_at', '<=', due)
    .where('task_id', 'in', openTasks)
    .returning('id')
    .execute();
  const result = await deliverSms(
    ctx,
    claimed.map((c) => c.id),
    now,
  );
  return { retried: claimed.length, ...result, givenUp: givenUp.length };
}
