import { taskAddInputSchema } from '@shuzhi/contracts/diy-task';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { BusinessErrorCode } from '@shuzhi/contracts/errors';
import { loadPermissions } from '../../platform/access/permissions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate, formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError, type MessageParams } from '../../platform/errors/app-error.ts';
import { addDays, ensurePeriods, type PeriodDbRow } from '../diy-period/diy-period.service.ts';
import { announcePublished } from '../notice/notice.service.ts';
import { type Schedule, tableIdsOf } from './task-schedule.ts';
import { createTaskIn } from './task-write.ts';

/**
 * The built-in job `taskSchedule` (docs/tasks.md "Scheduled tasks"): for every active schedule, each period of
 * its first form that has started and that the schedule has not seen gets one run row — the task made through
 * the create code (the row is claimed in the task's transaction, unique per schedule and period, so several
 * processes make it once), or the reason none was (past its due offset: T1044; refused: the error's code).
 */

/** Periods looked at per schedule and run: a long outage is caught up, each period once. */
const PERIODS_PER_RUN = 40;

export type ScheduleRunCounts = { created: number; skipped: number; failed: number };

/** The task's due time for a period: N days after its first day, or N days before its due date, at HH:mm. */
export function scheduleDue(s: Pick<Schedule, 'due_anchor' | 'due_days' | 'due_at'>, p: PeriodDbRow): string {
  const day = s.due_anchor === 'start' ? addDays(p.start_date, s.due_days) : addDays(p.due_date, -s.due_days);
  return `${day} ${s.due_at}:00`;
}

/** The schedule's creator as the task's author: enabled, of the tenant, still holding diyTask:add (T1043). */
async function creatorOf(ctx: AppContext, s: Schedule): Promise<AuthUser> {
  const row = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select([
      'u.id',
      'u.tenant_id',
      'u.account',
      'u.real_name',
      'u.account_type',
      'u.org_id',
      'o.name as org_name',
    ])
    .where('u.id', '=', s.create_user_id)
    .where('u.tenant_id', '=', s.tenant_id)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .executeTakeFirst();
  if (!row) throw new AppError('T1043');
  const grantee = { userId: row.id, tenantId: row.tenant_id, accountType: row.account_type };
  const permissions = new Set(await loadPermissions(ctx, grantee));
  if (!permissions.has('diyTask:add')) throw new AppError('T1043');
  return {
    ...grantee,
    account: row.account,
    realName: row.real_name,
    orgId: row.org_id ?? 0,
    orgName: row.org_name ?? '',
    sessionId: 0,
    permissions,
  };
}

type Outcome = { outcome: 'skipped' | 'failed'; code: BusinessErrorCode; params?: MessageParams };

/** Records a period without a task (once: a period another process already recorded stays as it is). */
async function record(ctx: AppContext, s: Schedule, p: PeriodDbRow, due: string, o: Outcome): Promise<void> {
  await ctx.db
    .insertInto('diy_task_schedule_run')
    .values({
      id: ctx.newId(),
      tenant_id: s.tenant_id,
      schedule_id: s.id,
      period_key: p.period_key,
      period_name: p.name,
      outcome: o.outcome,
      task_id: null,
      due_time: due,
      code: o.code,
      params: o.params ? JSON.stringify(o.params) : null,
      create_time: formatDateTime(),
    })
    .onConflict((oc) => oc.columns(['schedule_id', 'period_key']).doNothing())
    .execute();
}

/**
 * One period: claims (schedule, period) and creates the task in one transaction. Answers false when another
 * run had claimed it. Every form of the schedule is asked for its period of the same key (T1042 when missing).
 */
async function createFor(
  ctx: AppContext,
  s: Schedule,
  p: PeriodDbRow,
  due: string,
  now: Date,
): Promise<boolean> {
  const user = await creatorOf(ctx, s);
  const made = await ctx.db.transaction().execute(async (trx) => {
    const runId = ctx.newId();
    const claimed = await trx
      .insertInto('diy_task_schedule_run')
      .values({
        id: runId,
        tenant_id: s.tenant_id,
        schedule_id: s.id,
        period_key: p.period_key,
        period_name: p.name,
        outcome: 'created',
        task_id: null,
        due_time: due,
        code: null,
        params: null,
        create_time: formatDateTime(now),
      })
      .onConflict((oc) => oc.columns(['schedule_id', 'period_key']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return null;
    const forms = [];
    for (const tableId of tableIdsOf(s)) {
      const period = await trx
        .selectFrom('diy_table_period as p')
        .innerJoin('diy_table as t', 't.id', 'p.table_id')
        .select(['p.id', 't.title'])
        .where('p.table_id', '=', tableId)
        .where('p.period_key', '=', p.period_key)
        .executeTakeFirst();
      if (!period) {
        const form = await trx
          .selectFrom('diy_table')
          .select('title')
          .where('id', '=', tableId)
          .executeTakeFirst();
        throw new AppError('T1042', { form: form?.title ?? String(tableId), period: p.name });
      }
      forms.push({ tableId, periodId: period.id });
    }
    const input = taskAddInputSchema.parse({
      title: `${s.title}（${p.name}）`.slice(0, 128),
      forms,
      dueTime: due,
      instructions: s.instructions,
      receivers: JSON.parse(s.receivers),
    });
    const task = await createTaskIn(ctx, trx, user, input, now);
    await trx
      .updateTable('diy_task_schedule_run')
      .set({ task_id: task.id })
      .where('id', '=', runId)
      .execute();
    return task;
  });
  if (made?.notice) announcePublished(ctx, made.notice);
  return made !== null;
}

/** One schedule at `now`: the started periods of its first form since `since_date` that have no run yet. */
export async function runSchedule(ctx: AppContext, s: Schedule, now: Date): Promise<ScheduleRunCounts> {
  const counts: ScheduleRunCounts = { created: 0, skipped: 0, failed: 0 };
  const ids = tableIdsOf(s);
  const forms = await ctx.db
    .selectFrom('diy_table')
    .select(['id', 'tenant_id', 'period', 'version'])
    .where('id', 'in', ids)
    .where('is_delete', '=', 0)
    .execute();
  for (const form of forms) await ensurePeriods(ctx, ctx.db, form, now);
  const lead = forms.find((f) => f.id === ids[0]);
  if (!lead) return counts;
  const today = formatDate(now);
  const periods = await ctx.db
    .selectFrom('diy_table_period')
    .selectAll()
    .where('table_id', '=', lead.id)
    .where('start_date', '<=', today)
    .where('end_date', '>=', s.since_date)
    .where('period_key', 'not in', (eb) =>
      eb.selectFrom('diy_task_schedule_run').select('period_key').where('schedule_id', '=', s.id),
    )
    .orderBy('start_date')
    .limit(PERIODS_PER_RUN)
    .execute();
  for (const p of periods) {
    const due = scheduleDue(s, p);
    if (parseDateTime(due).getTime() <= now.getTime()) {
      await record(ctx, s, p, due, { outcome: 'skipped', code: 'T1044', params: { due: due.slice(0, 16) } });
      counts.skipped++;
      continue;
    }
    try {
      if (await createFor(ctx, s, p, due, now)) counts.created++;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      await record(ctx, s, p, due, { outcome: 'failed', code: error.code, params: error.params });
      counts.failed++;
    }
  }
  return counts;
}

/** Every active schedule (the job's work); a schedule whose run breaks is logged and the others go on. */
export async function runSchedules(
  ctx: AppContext,
  now: Date = new Date(),
  signal?: AbortSignal,
): Promise<ScheduleRunCounts> {
  const total: ScheduleRunCounts = { created: 0, skipped: 0, failed: 0 };
  const schedules = await ctx.db
    .selectFrom('diy_task_schedule')
    .selectAll()
    .where('state', '=', 'active')
    .where('is_delete', '=', 0)
    .orderBy('id')
    .execute();
  for (const s of schedules) {
    signal?.throwIfAborted();
    try {
      const counts = await runSchedule(ctx, s, now);
      total.created += counts.created;
      total.skipped += counts.skipped;
      total.failed += counts.failed;
    } catch (error) {
      ctx.log.error({ err: error, scheduleId: s.id }, 'scheduled task run failed');
    }
  }
  return total;
}
