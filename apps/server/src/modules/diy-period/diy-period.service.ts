import type { PeriodState } from '@shuzhi/contracts/diy-period';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDate } from '../../platform/db/time.ts';
import { parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { displayName, MAX_PERIODS_BACK, periodState } from './period-calendar.ts';
import { ensurePeriods } from './period-making.ts';
import type { Db, PeriodDbRow } from './period-store.ts';

/**
 * Reporting periods of report forms (issue 6 §1, docs/periods.md). Calendar periods are made lazily, when a
 * reader or writer of the form first needs them (`ensurePeriods`, insert-or-ignore on the unique
 * (table_id, period_key)); custom windows are added by staff. `resolveFilingPeriod` is the one gate every
 * writer of records passes. Every create, change, close and reopen of a period is logged in
 * `diy_table_period_log` in the same transaction.
 *
 * This file is the module's face to other modules: the filing gate below, and what they use of
 * `period-calendar.ts` (dates, keys, names, states) and `period-making.ts`. The routes' reads are in
 * `period-read.ts`, the staff steps in `period-staff.ts`, the rows and their log in `period-store.ts`.
 */

export {
  addDays,
  calendarName,
  calendarPeriodAt,
  displayName,
  isCalendarKind,
  MAX_PERIODS_BACK,
  periodState,
  shiftPeriod,
} from './period-calendar.ts';
export { currentPeriods, ensurePeriods } from './period-making.ts';
export type { PeriodDbRow } from './period-store.ts';

/** Where a record of a periodic form is filed: its period, the version it is filed with, and lateness. */
export type FilingPeriod = {
  id: number;
  name: string;
  /** First day, `YYYY-MM-DD` (本期 defaults of new records). */
  start: string;
  version: number;
  late: boolean;
  onePerOrg: boolean;
};

const STATE_ERROR = { upcoming: 'F1021', overdue: 'F1022', closed: 'F1023' } as const;

/** F1021 / F1022 / F1023 unless records may change in a period in this state. */
export function assertFilable(state: PeriodState): void {
  if (state === 'upcoming' || state === 'overdue' || state === 'closed')
    throw new AppError(STATE_ERROR[state]);
}

/**
 * The period a new record (or zero report, or import) of `form` goes to: null for a form without periods
 * (F1027 when a period is named anyway); the named period (F1025 when it is not one of the form's) or, by
 * default, the current one (the newest started period that is open or in grace); F1021 / F1022 / F1023 when
 * filing is not possible in it. `late` is true in the grace window.
 */
export async function resolveFilingPeriod(
  ctx: AppContext,
  db: Db,
  form: Pick<DiyTableTable, 'id' | 'tenant_id' | 'period' | 'version'>,
  periodId: number | undefined,
  now: Date = new Date(),
): Promise<FilingPeriod | null> {
  const settings = parsePeriodSettings(form.period);
  if (settings.kind === 'none') {
    if (periodId !== undefined) throw new AppError('F1027');
    return null;
  }
  await ensurePeriods(ctx, db, form, now);
  const today = formatDate(now);
  let row: PeriodDbRow | undefined;
  if (periodId !== undefined) {
    row = await periodOfForm(db, form, periodId);
  } else {
    const started = await db
      .selectFrom('diy_table_period')
      .selectAll()
      .where('table_id', '=', form.id)
      .where('start_date', '<=', today)
      .orderBy('start_date', 'desc')
      .limit(MAX_PERIODS_BACK + 1)
      .execute();
    row = started.find((p) => {
      const state = periodState(p, today);
      return state === 'open' || state === 'grace';
    });
    // No period takes filings now: say why by the newest one that started (none yet: not started).
    if (!row)
      throw new AppError(started[0] ? STATE_ERROR[periodState(started[0], today) as 'overdue'] : 'F1021');
  }
  const state = periodState(row, today);
  assertFilable(state);
  return {
    id: row.id,
    name: row.name,
    start: row.start_date,
    version: row.version,
    late: state === 'grace',
    onePerOrg: settings.onePerOrg,
  };
}

/** A period of the form, or F1025. */
export async function periodOfForm(
  db: Db,
  form: Pick<DiyTableTable, 'id' | 'tenant_id'>,
  periodId: number,
): Promise<PeriodDbRow> {
  const row = await db
    .selectFrom('diy_table_period')
    .selectAll()
    .where('id', '=', periodId)
    .where('table_id', '=', form.id)
    .where('tenant_id', '=', form.tenant_id)
    .executeTakeFirst();
  if (!row) throw new AppError('F1025');
  return row;
}

/**
 * The state of an existing record's period on `now` (null: the record has no period). Writers of existing
 * records (update, submit, delete, restore) refuse with F1021 / F1022 / F1023 through `assertFilable`.
 */
export async function recordPeriodState(
  db: Db,
  form: Pick<DiyTableTable, 'id' | 'tenant_id'>,
  periodId: number | null | undefined,
  now: Date = new Date(),
): Promise<{ period: PeriodDbRow; state: PeriodState } | null> {
  if (periodId === null || periodId === undefined) return null;
  const period = await db
    .selectFrom('diy_table_period')
    .selectAll()
    .where('id', '=', Number(periodId))
    .where('table_id', '=', form.id)
    .executeTakeFirst();
  if (!period) return null;
  return { period, state: periodState(period, formatDate(now)) };
}

/** Names of periods by id (records of a page), in the caller's language, and whether each is closed. */
export async function periodSummaries(
  db: Db,
  ids: readonly number[],
  locale: Locale,
): Promise<Map<number, { name: string; closed: boolean }>> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('diy_table_period')
    .select(['id', 'name', 'period_key', 'closed'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, { name: displayName(r, locale), closed: Number(r.closed) === 1 }]));
}

/** Names of periods by id (records of a page), in the caller's language. */
export async function periodNames(
  db: Db,
  ids: readonly number[],
  locale: Locale,
): Promise<Map<number, string>> {
  const summaries = await periodSummaries(db, ids, locale);
  return new Map([...summaries].map(([id, summary]) => [id, summary.name]));
}
