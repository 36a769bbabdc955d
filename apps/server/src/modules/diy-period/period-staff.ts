import type {
  periodAddInputSchema,
  periodCloseInputSchema,
  periodReopenInputSchema,
  periodUpdateInputSchema,
} from '@shuzhi/contracts/diy-period';
import type { Locale } from '@shuzhi/contracts/i18n';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import { formWithAuth, parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { periodState } from './period-calendar.ts';
import { type Actor, adminPeriod, writeLog } from './period-store.ts';

/** Staff steps on periods: add a custom window, change, close and reopen; each is logged. */

const FIELD_TEXTS: Record<string, Record<Locale, string>> = {
  dueBeforeStart: {
    'zh-CN': '截止日期不能早于开始日期',
    en: 'The due date cannot be before the start date',
    'zh-TW': '截止日期不能早於開始日期',
  },
  graceBeforeDue: {
    'zh-CN': '宽限截止日期不能早于截止日期',
    en: 'The end of the grace window cannot be before the due date',
    'zh-TW': '寬限截止日期不能早於截止日期',
  },
  untilRequired: {
    'zh-CN': '本期日期已过，请指定重新开启至哪一天',
    en: 'The period’s dates have passed: give the day filing stays open until',
    'zh-TW': '本期日期已過，請指定重新開啟至哪一天',
  },
  untilPast: {
    'zh-CN': '重新开启截止日期不能早于今天',
    en: 'The reopening cannot end before today',
    'zh-TW': '重新開啟截止日期不能早於今天',
  },
};

const fieldError = (field: string, text: string, locale: Locale) =>
  new FieldErrorsError({ [field]: [FIELD_TEXTS[text]?.[locale] ?? text] });

const actorOf = (user: AuthUser): Actor => ({ userId: user.userId, userName: user.realName });

/** `POST /add`: a custom window of a form of kind `custom` (F1027 otherwise); windows may not overlap (F1026). */
export async function addPeriod(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof periodAddInputSchema>,
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const { form, auth } = await formWithAuth(ctx, user, input.tableId, trx);
    if (!auth.admin) throw new AppError('F1000');
    if (parsePeriodSettings(form.period).kind !== 'custom') throw new AppError('F1027');
    // Windows of one form are added one at a time (PostgreSQL), so two overlapping ones cannot both pass.
    if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${form.id})`.execute(trx);
    const overlap = await trx
      .selectFrom('diy_table_period')
      .select('id')
      .where('table_id', '=', form.id)
      .where('start_date', '<=', input.endDate)
      .where('end_date', '>=', input.startDate)
      .executeTakeFirst();
    if (overlap) throw new AppError('F1026');
    const id = ctx.newId();
    const now = formatDateTime();
    await trx
      .insertInto('diy_table_period')
      .values({
        id,
        tenant_id: form.tenant_id,
        table_id: form.id,
        period_key: `C${input.startDate}`,
        name: input.name,
        start_date: input.startDate,
        end_date: input.endDate,
        due_date: input.dueDate,
        grace_until: input.graceUntil ?? null,
        reopen_until: null,
        version: form.version,
        closed: 0,
        close_time: null,
        close_user_name: null,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
        update_time: null,
      })
      .execute();
    await writeLog(
      ctx,
      trx,
      { id, tenant_id: form.tenant_id, table_id: form.id },
      'create',
      actorOf(user),
      now,
    );
    return id;
  });
}

/** `POST /update`: name, due date and grace window of a period; the changes are logged before and after. */
export async function updatePeriod(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof periodUpdateInputSchema>,
  locale: Locale,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { period } = await adminPeriod(ctx, trx, user, input.id);
    const next = {
      name: input.name ?? period.name,
      due_date: input.dueDate ?? period.due_date,
      grace_until: input.graceUntil === undefined ? period.grace_until : input.graceUntil,
    };
    if (next.due_date < period.start_date) throw fieldError('dueDate', 'dueBeforeStart', locale);
    if (next.grace_until && next.grace_until < next.due_date) {
      throw fieldError('graceUntil', 'graceBeforeDue', locale);
    }
    const fields = { name: 'name', due_date: 'dueDate', grace_until: 'graceUntil' } as const;
    const changes = (Object.keys(fields) as (keyof typeof fields)[])
      .filter((k) => next[k] !== period[k])
      .map((k) => ({ field: fields[k], before: period[k], after: next[k] }));
    if (changes.length === 0) return;
    const now = formatDateTime();
    await trx
      .updateTable('diy_table_period')
      .set({ ...next, update_time: now })
      .where('id', '=', period.id)
      .execute();
    await writeLog(ctx, trx, period, 'update', actorOf(user), now, null, changes);
  });
}

/** `POST /close`: locks the period; closing a closed period changes nothing. */
export async function closePeriod(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof periodCloseInputSchema>,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { period } = await adminPeriod(ctx, trx, user, input.id);
    const now = formatDateTime();
    // Conditional: of two simultaneous closings, one is logged.
    const done = await trx
      .updateTable('diy_table_period')
      .set({
        closed: 1,
        close_time: now,
        close_user_name: user.realName,
        reopen_until: null,
        update_time: now,
      })
      .where('id', '=', period.id)
      .where('closed', '=', 0)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1) return;
    await writeLog(ctx, trx, period, 'close', actorOf(user), now, input.comment || null);
  });
}

/**
 * `POST /reopen`: unlocks the period (a reason is required and logged); `until` lets filing run to that day
 * after the due date and grace window (filings then are late). A reopening that would leave the period
 * overdue asks for `until` (field error).
 */
export async function reopenPeriod(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof periodReopenInputSchema>,
  locale: Locale,
  now: Date = new Date(),
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { period } = await adminPeriod(ctx, trx, user, input.id);
    const today = formatDate(now);
    const until = input.until ?? null;
    if (until && until < today) throw fieldError('until', 'untilPast', locale);
    const after = { ...period, closed: 0, reopen_until: until };
    if (periodState(after, today) === 'overdue') throw fieldError('until', 'untilRequired', locale);
    const stamp = formatDateTime(now);
    await trx
      .updateTable('diy_table_period')
      .set({ closed: 0, close_time: null, close_user_name: null, reopen_until: until, update_time: stamp })
      .where('id', '=', period.id)
      .execute();
    const changes =
      until !== period.reopen_until
        ? [{ field: 'reopenUntil', before: period.reopen_until, after: until }]
        : [];
    await writeLog(ctx, trx, period, 'reopen', actorOf(user), stamp, input.comment, changes);
  });
}
