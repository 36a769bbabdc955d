import type { PeriodKind, PeriodState } from '@shuzhi/contracts/diy-period';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { PeriodDbRow } from './period-store.ts';

/** Calendar arithmetic of reporting periods: keys, dates, names and the state of a period on a day. */

/** Calendar periods are made from the form's first publish, at most this many back from the current one. */
export const MAX_PERIODS_BACK = 36;

export type CalendarKind = 'month' | 'quarter' | 'halfYear' | 'year';
const CALENDAR_KINDS: readonly PeriodKind[] = ['month', 'quarter', 'halfYear', 'year'];
export const isCalendarKind = (kind: PeriodKind): kind is CalendarKind => CALENDAR_KINDS.includes(kind);

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
