import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import type {
  PeriodBrief,
  PeriodKind,
  PeriodLog,
  PeriodPageRow,
  PeriodRow,
  PeriodState,
  periodAddInputSchema,
  periodCloseInputSchema,
  periodPageInputSchema,
  periodReopenInputSchema,
  periodUpdateInputSchema,
} from '@shuzhi/contracts/diy-period';
import { type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import { type ExpressionBuilder, type Selectable, type SqlBool, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTablePeriodTable, DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { type AnyDb, dataTableName } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  type Caller,
  formAuth,
  formWithAuth,
  loadCaller,
  loadForm,
  parsePeriodSettings,
  type RecordReach,
  recordReach,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';

/**
 * Reporting periods of report forms (issue 6 §1, docs/periods.md). Calendar periods are made lazily, when a
 * reader or writer of the form first needs them (`ensurePeriods`, insert-or-ignore on the unique
 * (table_id, period_key)); custom windows are added by staff. `resolveFilingPeriod` is the one gate every
 * writer of records passes. Every create, change, close and reopen of a period is logged in
 * `diy_table_period_log` in the same transaction.
 */

type Db = AppContext['db'] | Transaction<Database>;
export type PeriodDbRow = Selectable<DiyTablePeriodTable>;

/** Calendar periods are made from the form's first publish, at most this many back from the current one. */
export const MAX_PERIODS_BACK = 36;

type CalendarKind = 'month' | 'quarter' | 'halfYear' | 'year';
const CALENDAR_KINDS: readonly PeriodKind[] = ['month', 'quarter', 'halfYear', 'year'];
export const isCalendarKind = (kind: PeriodKind): kind is CalendarKind => CALENDAR_KINDS.includes(kind);

// ------------------------------------------------------------------------------------------------------
// Dates and states

const pad = (n: number) => String(n).padStart(2, '0');
export const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;

/** `YYYY-MM-DD` plus days (calendar arithmetic in UTC, so daylight saving never shifts a day). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d + days));
  return ymd(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

export const lastDayOfMonth = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();

/** The period's state on `today` (`YYYY-MM-DD`, the server's time zone): closed first, then the dates. */
export function periodState(
  p: Pick<PeriodDbRow, 'closed' | 'start_date' | 'due_date' | 'grace_until' | 'reopen_until'>,
  today: string,
): PeriodState {
  if (Number(p.closed) === 1) return 'closed';
  if (today < p.start_date) return 'upcoming';
  if (today <= p.due_date) return 'open';
  if ((p.grace_until && today <= p.grace_until) || (p.reopen_until && today <= p.reopen_until))
    return 'grace';
  return 'overdue';
}

/** A calendar period: its key, number within the year and first and last days. */
export type CalendarPeriod = { key: string; year: number; index: number; start: string; end: string };

const MONTHS_PER: Record<CalendarKind, number> = { month: 1, quarter: 3, halfYear: 6, year: 12 };

function calendarPeriod(kind: CalendarKind, year: number, index: number): CalendarPeriod {
  const months = MONTHS_PER[kind];
  const firstMonth = (index - 1) * months + 1;
  const lastMonth = firstMonth + months - 1;
  const key =
    kind === 'month'
      ? `${year}-${pad(index)}`
      : kind === 'quarter'
        ? `${year}-Q${index}`
        : kind === 'halfYear'
          ? `${year}-H${index}`
          : String(year);
  return {
    key,
    year,
    index,
    start: ymd(year, firstMonth, 1),
    end: ymd(year, lastMonth, lastDayOfMonth(year, lastMonth)),
  };
}

/** The calendar period of `kind` that holds `day`. */
export function calendarPeriodAt(kind: CalendarKind, day: string): CalendarPeriod {
  const [y, m] = day.split('-').map(Number) as [number, number];
  return calendarPeriod(kind, y, Math.floor((m - 1) / MONTHS_PER[kind]) + 1);
}

export function shiftPeriod(kind: CalendarKind, p: CalendarPeriod, by: number): CalendarPeriod {
  const perYear = 12 / MONTHS_PER[kind];
  const n = p.year * perYear + (p.index - 1) + by;
  return calendarPeriod(kind, Math.floor(n / perYear), (n % perYear) + 1);
}

const NAMES: Record<Locale, Record<CalendarKind, (y: number, i: number) => string>> = {
  'zh-CN': {
    month: (y, i) => `${y}年${i}月`,
    quarter: (y, i) => `${y}年第${i}季度`,
    halfYear: (y, i) => `${y}年${i === 1 ? '上' : '下'}半年`,
    year: (y) => `${y}年`,
  },
  'zh-TW': {
    month: (y, i) => `${y}年${i}月`,
    quarter: (y, i) => `${y}年第${i}季`,
    halfYear: (y, i) => `${y}年${i === 1 ? '上' : '下'}半年`,
    year: (y) => `${y}年`,
  },
  en: {
    month: (y, i) =>
      `${['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][i - 1]} ${y}`,
    quarter: (y, i) => `Q${i} ${y}`,
    halfYear: (y, i) => `H${i} ${y}`,
    year: (y) => String(y),
  },
};

export function calendarName(kind: CalendarKind, year: number, index: number, locale: Locale): string {
  return NAMES[locale][kind](year, index);
}

/** The calendar kind, year and number a key stands for (null: a custom window). */
function parseKey(key: string): { kind: CalendarKind; year: number; index: number } | null {
  let m = /^(\d{4})-(\d{2})$/.exec(key);
  if (m) return { kind: 'month', year: Number(m[1]), index: Number(m[2]) };
  m = /^(\d{4})-Q([1-4])$/.exec(key);
  if (m) return { kind: 'quarter', year: Number(m[1]), index: Number(m[2]) };
  m = /^(\d{4})-H([12])$/.exec(key);
  if (m) return { kind: 'halfYear', year: Number(m[1]), index: Number(m[2]) };
  m = /^(\d{4})$/.exec(key);
  if (m) return { kind: 'year', year: Number(m[1]), index: 1 };
  return null;
}

/**
 * A period's name in the request's language: names are stored in zh-CN; a calendar period still under its
 * generated name is shown in the caller's language, a name staff gave it is shown as given.
 */
export function displayName(row: Pick<PeriodDbRow, 'period_key' | 'name'>, locale: Locale): string {
  if (locale === 'zh-CN') return row.name;
  const parsed = parseKey(row.period_key);
  if (!parsed || row.name !== calendarName(parsed.kind, parsed.year, parsed.index, 'zh-CN')) return row.name;
  return calendarName(parsed.kind, parsed.year, parsed.index, locale);
}

// ------------------------------------------------------------------------------------------------------
// Making periods

type PeriodForm = Pick<DiyTableTable, 'id' | 'tenant_id' | 'period' | 'version'>;
type Actor = { userId: number | null; userName: string | null };
const SYSTEM_ACTOR: Actor = { userId: null, userName: null };

async function writeLog(
  ctx: AppContext,
  db: Db,
  period: Pick<PeriodDbRow, 'id' | 'tenant_id' | 'table_id'>,
  action: PeriodLog['action'],
  actor: Actor,
  now: string,
  comment: string | null = null,
  changes: PeriodLog['changes'] = [],
): Promise<void> {
  await db
    .insertInto('diy_table_period_log')
    .values({
      id: ctx.newId(),
      tenant_id: period.tenant_id,
      table_id: period.table_id,
      period_id: period.id,
      action,
      comment,
      changes: JSON.stringify(changes),
      user_id: actor.userId,
      user_name: actor.userName,
      create_time: now,
    })
    .execute();
}

/** Runs `work` in the given transaction, or in a new one. */
function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return (db as AppContext['db']).transaction().execute(work);
}

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

// ------------------------------------------------------------------------------------------------------
// The gate of every writer

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

// ------------------------------------------------------------------------------------------------------
// Reading periods

type Counts = { recordCount: number; submittedCount: number };

/** Live records and submitted-or-approved records per period of one form, within the caller's reach. */
async function periodCounts(
  db: Db,
  form: Pick<DiyTableTable, 'id' | 'tenant_id' | 'version'>,
  reach: RecordReach,
  periodIds: readonly number[],
): Promise<Map<number, Counts>> {
  const out = new Map<number, Counts>();
  if (periodIds.length === 0 || form.version <= 0) return out;
  let query = (db as AnyDb)
    .selectFrom(dataTableName(form.id))
    .select((eb) => [
      'period_id',
      eb.fn.countAll<number | string>().as('n'),
      sql<
        number | string
      >`sum(case when status in (${RECORD_STATUS.submitted}, ${RECORD_STATUS.approved}) then 1 else 0 end)`.as(
        's',
      ),
    ])
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id)
    .where('period_id', 'in', [...periodIds]);
  if (!reach.all) {
    // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
    query = query.where((eb: ExpressionBuilder<any, any>) => {
      const self = eb('create_user_id', '=', reach.userId);
      return reach.orgIds.length > 0 ? eb.or([eb('create_org_id', 'in', reach.orgIds), self]) : self;
    });
  }
  const rows = (await query.groupBy('period_id').execute()) as {
    period_id: number | string;
    n: number | string;
    s: number | string | null;
  }[];
  for (const r of rows) {
    out.set(Number(r.period_id), { recordCount: Number(r.n), submittedCount: Number(r.s ?? 0) });
  }
  return out;
}

function toPeriodRow(row: PeriodDbRow, today: string, counts: Counts | undefined, locale: Locale): PeriodRow {
  return {
    id: row.id,
    tableId: row.table_id,
    key: row.period_key,
    name: displayName(row, locale),
    startDate: row.start_date,
    endDate: row.end_date,
    dueDate: row.due_date,
    graceUntil: row.grace_until,
    reopenUntil: row.reopen_until,
    version: row.version,
    state: periodState(row, today),
    closeTime: row.close_time,
    closeUserName: row.close_user_name,
    recordCount: counts?.recordCount ?? 0,
    submittedCount: counts?.submittedCount ?? 0,
    createTime: row.create_time,
  };
}

/** `GET /list?tableId=`: the form's periods, newest first, for anyone who may query the form. */
export async function periodList(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  locale: Locale,
  now: Date = new Date(),
): Promise<PeriodRow[]> {
  const { form, auth, caller } = await formWithAuth(ctx, user, tableId);
  if (!auth.query) throw new AppError('F1001');
  await ensurePeriods(ctx, ctx.db, form, now);
  const rows = await ctx.db
    .selectFrom('diy_table_period')
    .selectAll()
    .where('table_id', '=', form.id)
    .where('tenant_id', '=', form.tenant_id)
    .orderBy('start_date', 'desc')
    .execute();
  const counts = await periodCounts(
    ctx.db,
    form,
    recordReach(auth, caller),
    rows.map((r) => r.id),
  );
  const today = formatDate(now);
  return rows.map((r) => toPeriodRow(r, today, counts.get(r.id), locale));
}

/** Live periodic forms the caller administers (their tenant, owner org in their data scope). */
async function adminPeriodicForms(ctx: AppContext, caller: Caller): Promise<DiyTableTable[]> {
  let query = ctx.db
    .selectFrom('diy_table')
    .selectAll()
    .where('is_delete', '=', 0)
    .where('period', 'is not', null);
  if (caller.user.accountType !== ACCOUNT_TYPE.superAdmin) {
    query = query.where('tenant_id', '=', caller.user.tenantId);
  }
  const forms = await query.orderBy('id').execute();
  return forms.filter(
    (form) => parsePeriodSettings(form.period).kind !== 'none' && formAuth(form, caller).admin,
  );
}

/** SQL of a computed state (the page's state filter), for `today`. */
function stateCondition(
  eb: ExpressionBuilder<Database, 'diy_table_period'>,
  state: PeriodState,
  today: string,
) {
  const open = eb('closed', '=', 0);
  const inGrace = eb.or([eb('grace_until', '>=', today), eb('reopen_until', '>=', today)]);
  switch (state) {
    case 'closed':
      return eb('closed', '=', 1);
    case 'upcoming':
      return eb.and([open, eb('start_date', '>', today)]);
    case 'open':
      return eb.and([open, eb('start_date', '<=', today), eb('due_date', '>=', today)]);
    case 'grace':
      return eb.and([open, eb('due_date', '<', today), inGrace]);
    default:
      return eb.and([open, eb('due_date', '<', today), eb.not(inGrace)]);
  }
}

const PAGE_SORT: Record<string, string> = {
  startDate: 'start_date',
  dueDate: 'due_date',
  name: 'name',
  createTime: 'create_time',
  tableId: 'table_id',
};

/** `POST /page` (填报周期): periods of the periodic forms the caller administers, newest first. */
export async function periodPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof periodPageInputSchema>,
  locale: Locale,
  now: Date = new Date(),
): Promise<PageResult<PeriodPageRow>> {
  const caller = await loadCaller(ctx, user);
  let forms = await adminPeriodicForms(ctx, caller);
  if (typeof input.tableId === 'number') forms = forms.filter((f) => f.id === input.tableId);
  const today = formatDate(now);
  if (forms.length === 0) return pageResult([], 0, input.page, input.pageSize);
  await currentPeriods(ctx, forms, locale, now);
  const byId = new Map(forms.map((f) => [f.id, f]));
  let query = ctx.db
    .selectFrom('diy_table_period')
    .selectAll()
    .where(
      'table_id',
      'in',
      forms.map((f) => f.id),
    );
  if (input.state) {
    const state = input.state;
    query = query.where((eb) => stateCondition(eb, state, today));
  }
  if (input.keyword) {
    const pattern = `%${input.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
    const titles = forms
      .filter((f) => f.title.toLowerCase().includes((input.keyword ?? '').toLowerCase()))
      .map((f) => f.id);
    query = query.where((eb) =>
      eb.or([
        sql<SqlBool>`${sql.ref('name')} ${op} ${pattern} escape '\\'`,
        ...(titles.length ? [eb('table_id', 'in', titles)] : []),
      ]),
    );
  }
  const page = await paged(query, input, { sortable: PAGE_SORT, defaultOrder: 'start_date' });
  const counts = new Map<number, Counts>();
  for (const tableId of new Set(page.items.map((r) => r.table_id))) {
    const form = byId.get(tableId) as DiyTableTable;
    const ids = page.items.filter((r) => r.table_id === tableId).map((r) => r.id);
    for (const [id, c] of await periodCounts(
      ctx.db,
      form,
      recordReach(formAuth(form, caller), caller),
      ids,
    )) {
      counts.set(id, c);
    }
  }
  return {
    ...page,
    items: page.items.map((r) => ({
      ...toPeriodRow(r, today, counts.get(r.id), locale),
      tableTitle: byId.get(r.table_id)?.title ?? '',
    })),
  };
}

/** `GET /log?id=`: the steps of a period of a form the caller administers, newest first. */
export async function periodLog(ctx: AppContext, user: AuthUser, id: number): Promise<PeriodLog[]> {
  await adminPeriod(ctx, ctx.db, user, id);
  const rows = await ctx.db
    .selectFrom('diy_table_period_log')
    .selectAll()
    .where('period_id', '=', id)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action as PeriodLog['action'],
    comment: r.comment,
    changes: parseChanges(r.changes),
    userName: r.user_name,
    createTime: r.create_time,
  }));
}

function parseChanges(text: string): PeriodLog['changes'] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

// ------------------------------------------------------------------------------------------------------
// Staff steps

/**
 * A period of a form the caller administers: F1025 when there is no such period, F1000 when its form is not
 * theirs (another tenant's, outside their data scope, deleted).
 */
async function adminPeriod(
  ctx: AppContext,
  db: Db,
  user: AuthUser,
  id: number,
): Promise<{ period: PeriodDbRow; form: DiyTableTable }> {
  const period = await db.selectFrom('diy_table_period').selectAll().where('id', '=', id).executeTakeFirst();
  if (!period) throw new AppError('F1025');
  const form = await loadForm(db, user, period.table_id);
  const caller = await loadCaller(ctx, user, db);
  if (!formAuth(form, caller).admin) throw new AppError('F1000');
  return { period, form };
}

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
