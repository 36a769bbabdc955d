import type { FieldType } from '@shuzhi/contracts/diy-form';
import { addDays, lastDayOfMonth as lastDay, ymd } from './period-calendar.ts';

/** A period's first and last day, `YYYY-MM-DD`. */
export type PeriodSpan = { start: string; end: string };

const SPAN_FORMATS: Partial<Record<FieldType, RegExp>> = {
  date: /^(\d{4})-(\d{2})-(\d{2})$/,
  datetime: /^(\d{4})-(\d{2})-(\d{2}) /,
  month: /^(\d{4})-(\d{2})$/,
  quarter: /^(\d{4})-Q([1-4])$/,
  year: /^(\d{4})$/,
};

/** The first and last day a date-like value covers (a day, a month, a quarter, a year); null when not one. */
function spanOf(type: FieldType, value: string): PeriodSpan | null {
  const m = SPAN_FORMATS[type]?.exec(value);
  if (!m) return null;
  const y = Number(m[1]);
  if (type === 'date' || type === 'datetime') {
    const day = `${m[1]}-${m[2]}-${m[3]}`;
    return { start: day, end: day };
  }
  if (type === 'year') return { start: ymd(y, 1, 1), end: ymd(y, 12, 31) };
  const [first, last] =
    type === 'month' ? [Number(m[2]), Number(m[2])] : [Number(m[2]) * 3 - 2, Number(m[2]) * 3];
  return { start: ymd(y, first, 1), end: ymd(y, last, lastDay(y, last)) };
}

/** Whole months from one first-of-month to another; null when either day is not the first. */
function monthsBetween(from: string, to: string): number | null {
  if (!from.endsWith('-01') || !to.endsWith('-01')) return null;
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return ty * 12 + tm - (fy * 12 + fm);
}

/** A day moved by whole months, kept within the month it lands in (10-31 + 1 month → 11-30). */
function addMonths(day: string, months: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) + months;
  const [ny, nm] = [Math.floor(index / 12), (index % 12) + 1];
  return ymd(ny, nm, Math.min(d, lastDay(ny, nm)));
}

/**
 * A date-like value carried from a record of one period into a new record of another: a value that lies
 * within the source period (统计月份 2026-10 of the October report) moves with the period (2026-11), by whole
 * months between calendar periods and by days between custom windows; any other value (a founding date, a
 * year in a monthly form) is kept as it is. A moved value that would leave the target period is kept too.
 */
export function shiftIntoPeriod(type: FieldType, value: unknown, from: PeriodSpan, to: PeriodSpan): unknown {
  if (typeof value !== 'string') return value;
  const span = spanOf(type, value);
  if (!span || span.start < from.start || span.end > from.end) return value;
  const months = monthsBetween(from.start, to.start);
  const days = Math.round((Date.parse(to.start) - Date.parse(from.start)) / 86_400_000);
  const move = (day: string) => (months !== null ? addMonths(day, months) : addDays(day, days));
  const start = move(span.start);
  let shifted: string;
  if (type === 'date') shifted = start;
  else if (type === 'datetime') shifted = `${start}${value.slice(10)}`;
  else if (type === 'month') shifted = start.slice(0, 7);
  else if (type === 'quarter')
    shifted = `${start.slice(0, 4)}-Q${Math.floor((Number(start.slice(5, 7)) - 1) / 3) + 1}`;
  else shifted = start.slice(0, 4);
  const moved = spanOf(type, shifted);
  return moved && moved.start >= to.start && moved.end <= to.end ? shifted : value;
}
