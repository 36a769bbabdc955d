import type { PeriodBrief } from '@shuzhi/contracts/diy-period';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { parsePeriodSettings } from '../../platform/diy/form-access.ts';
import {
  addDays,
  type CalendarKind,
  calendarName,
  calendarPeriodAt,
  displayName,
  isCalendarKind,
  MAX_PERIODS_BACK,
  periodState,
  shiftPeriod,
} from './period-calendar.ts';
import {
  type Actor,
  type Db,
  inTransaction,
  type PeriodForm,
  SYSTEM_ACTOR,
  writeLog,
} from './period-store.ts';

/**
 * Making calendar periods lazily, when a reader or writer of the form first needs them (insert-or-ignore on
 * the unique (table_id, period_key)); every period made is logged in the same transaction.
 */

/** The calendar periods a form should have on `today` that are not there yet. */
async function missingPeriods(db: Db, form: PeriodForm, kind: CalendarKind, today: string) {
  const current = calendarPeriodAt(kind, today);
  const first = await db
    .selectFrom('diy_table_version')
    .select((eb) => eb.fn.min('publish_time').as('t'))
    .where('table_id', '=', form.id)
    .executeTakeFirst();
  const firstDay = first?.t ? String(first.t).slice(0, 10) : today;
  const last = await db
    .selectFrom('diy_table_period')
    .select((eb) => eb.fn.max('end_date').as('e'))
    .where('table_id', '=', form.id)
    .executeTakeFirst();
  const lastEnd = (last?.e as string | null | undefined) ?? null;
  const oldest = shiftPeriod(kind, current, -(MAX_PERIODS_BACK - 1));
  let p = calendarPeriodAt(kind, firstDay < today ? firstDay : today);
  if (p.start < oldest.start) p = oldest;
  const out: { key: string; name: string; start: string; end: string }[] = [];
  for (; p.start <= current.start; p = shiftPeriod(kind, p, 1)) {
    // Periods already made keep their dates (a change of kind starts after the last of them).
    if (lastEnd && p.end <= lastEnd) continue;
    const start = lastEnd && p.start <= lastEnd ? addDays(lastEnd, 1) : p.start;
    out.push({ key: p.key, name: calendarName(kind, p.year, p.index, 'zh-CN'), start, end: p.end });
  }
  return out;
}

/**
 * Makes the calendar periods of a periodic, published form up to the one holding `now` (from its first
 * publish, at most MAX_PERIODS_BACK). Idempotent and safe under concurrency: rows are inserted or ignored on
 * the unique (table_id, period_key), and only the rows actually inserted are logged.
 */
export async function ensurePeriods(
  ctx: AppContext,
  db: Db,
  form: PeriodForm,
  now: Date = new Date(),
  actor: Actor = SYSTEM_ACTOR,
): Promise<void> {
  const settings = parsePeriodSettings(form.period);
  if (!isCalendarKind(settings.kind) || form.version <= 0) return;
  const kind = settings.kind;
  const today = formatDate(now);
  const current = calendarPeriodAt(kind, today);
  const has = await db
    .selectFrom('diy_table_period')
    .select('id')
    .where('table_id', '=', form.id)
    .where('period_key', '=', current.key)
    .executeTakeFirst();
  if (has) return;
  await inTransaction(db, async (trx) => {
    const stamp = formatDateTime(now);
    for (const p of await missingPeriods(trx, form, kind, today)) {
      const due = addDays(p.end, settings.dueDays);
      const inserted = await trx
        .insertInto('diy_table_period')
        .values({
          id: ctx.newId(),
          tenant_id: form.tenant_id,
          table_id: form.id,
          period_key: p.key,
          name: p.name,
          start_date: p.start,
          end_date: p.end,
          due_date: due,
          grace_until: settings.graceDays > 0 ? addDays(due, settings.graceDays) : null,
          reopen_until: null,
          version: form.version,
          closed: 0,
          close_time: null,
          close_user_name: null,
          create_time: stamp,
          create_user_id: actor.userId,
          create_user_name: actor.userName,
          update_time: null,
        })
        .onConflict((oc) => oc.columns(['table_id', 'period_key']).doNothing())
        .returning('id')
        .executeTakeFirst();
      if (inserted) {
        await writeLog(
          ctx,
          trx,
          { id: Number(inserted.id), tenant_id: form.tenant_id, table_id: form.id },
          'create',
          actor,
          stamp,
        );
      }
    }
  });
}

/**
 * The current periods of many forms at once (form lists): the periods each form needs are made first (only
 * forms whose current calendar period is missing are touched), then every started period of the forms is
 * read in one query. A form's current period is its newest started period that is open or in grace.
 */
export async function currentPeriods(
  ctx: AppContext,
  forms: readonly (PeriodForm & Partial<Pick<DiyTableTable, 'is_delete'>>)[],
  locale: Locale,
  now: Date = new Date(),
): Promise<Map<number, PeriodBrief | null>> {
  const out = new Map<number, PeriodBrief | null>();
  const periodic = forms.filter((f) => parsePeriodSettings(f.period).kind !== 'none' && f.version > 0);
  if (periodic.length === 0) return out;
  const today = formatDate(now);
  const wanted = new Map<number, string>();
  for (const form of periodic) {
    const { kind } = parsePeriodSettings(form.period);
    if (isCalendarKind(kind)) wanted.set(form.id, calendarPeriodAt(kind, today).key);
  }
  if (wanted.size > 0) {
    const present = await ctx.db
      .selectFrom('diy_table_period')
      .select(['table_id', 'period_key'])
      .where('table_id', 'in', [...wanted.keys()])
      .where('period_key', 'in', [...new Set(wanted.values())])
      .execute();
    const have = new Set(present.map((r) => `${r.table_id}:${r.period_key}`));
    for (const form of periodic) {
      const key = wanted.get(form.id);
      if (key && !have.has(`${form.id}:${key}`)) await ensurePeriods(ctx, ctx.db, form, now);
    }
  }
  const rows = await ctx.db
    .selectFrom('diy_table_period')
    .selectAll()
    .where(
      'table_id',
      'in',
      periodic.map((f) => f.id),
    )
    .where('start_date', '<=', today)
    .orderBy('table_id')
    .orderBy('start_date', 'desc')
    .execute();
  for (const form of periodic) out.set(form.id, null);
  for (const row of rows) {
    if (out.get(row.table_id)) continue;
    const state = periodState(row, today);
    if (state === 'open' || state === 'grace') {
      out.set(row.table_id, { id: row.id, name: displayName(row, locale), dueDate: row.due_date, state });
    }
  }
  return out;
}
