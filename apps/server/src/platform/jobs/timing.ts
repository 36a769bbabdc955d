import { Cron } from 'croner';
import { formatDateTime, parseDateTime, timeZone } from '../db/time.ts';

const FIELDS = ['second', 'minute', 'hour', 'day of month', 'month', 'day of week'];
const SHAPE = 'six fields are needed: second minute hour day-of-month month day-of-week';

/** The parser's complaint, said plainly (it goes into J1000's `{reason}`). */
function readable(message: string, pattern: string): string {
  const text = message.replace(/^CronPattern:\s*/i, '').trim();
  const parts = pattern.trim() === '' ? 0 : pattern.trim().split(/\s+/).length;
  if (/requires exactly 6 parts|exactly five, six, or seven/i.test(text)) return `${SHAPE} (found ${parts})`;
  const illegal = /configuration entry (\d+) \((.*)\) contains illegal characters/i.exec(text);
  if (illegal) {
    const field = FIELDS[Number(illegal[1])] ?? `field ${Number(illegal[1]) + 1}`;
    return `the ${field} field "${illegal[2]}" contains characters that are not allowed`;
  }
  const invalid = /invalid value for (\w[\w ]*?):\s*(.*)$/i.exec(text);
  if (invalid) return `${invalid[1]} "${invalid[2]}" is out of range`;
  return text.replace(/\.$/, '');
}

/** A cron expression with seconds, or why it is not one (a parser message, or one that never matches). */
export function parseCron(pattern: string): { cron: Cron; reason: null } | { cron: null; reason: string } {
  let cron: Cron;
  try {
    // Fields match the product zone's wall clock (0 0 9 * * * is nine o'clock there), not the machine's.
    cron = new Cron(pattern.trim(), { mode: '6-part', paused: true, timezone: timeZone() });
  } catch (error) {
    return { cron: null, reason: readable((error as Error).message, pattern) };
  }
  if (cron.nextRun() === null) return { cron: null, reason: 'it never matches a date' };
  return { cron, reason: null };
}

/** The next `count` run times of a valid cron expression after `from`, as `yyyy-MM-dd HH:mm:ss`. */
export function nextCronRuns(cron: Cron, count: number, from: Date = new Date()): string[] {
  return cron.nextRuns(count, from).map((d) => formatDateTime(d));
}

export type TriggerTiming = {
  trigger_type: string;
  cron: string | null;
  period_seconds: number | null;
  start_time: string | null;
  end_time: string | null;
  max_number_of_runs: number;
  number_of_runs: number;
  run_on_start?: number;
};

/**
 * When a trigger fires next after `now`, or null when it never will again (past its end time, its maximum
 * number of runs reached, a cron that matches no later date). A start time ahead is the earliest moment; a
 * period counts from now (a run that was missed is not caught up). `immediately` (run on start) answers now
 * when the trigger may run now.
 */
export function nextRunTime(t: TriggerTiming, now: Date, immediately = false): string | null {
  if (t.max_number_of_runs > 0 && t.number_of_runs >= t.max_number_of_runs) return null;
  const start = t.start_time ? parseDateTime(t.start_time) : null;
  const end = t.end_time ? parseDateTime(t.end_time) : null;
  if (end && end.getTime() <= now.getTime()) return null;
  let next: Date | null;
  if (immediately && (!start || start.getTime() <= now.getTime())) {
    next = now;
  } else if (t.trigger_type === 'cron') {
    const parsed = t.cron ? parseCron(t.cron) : null;
    if (!parsed?.cron) return null;
    const from = start && start.getTime() > now.getTime() ? new Date(start.getTime() - 1000) : now;
    next = parsed.cron.nextRun(from);
  } else {
    const period = (t.period_seconds ?? 0) * 1000;
    if (period <= 0) return null;
    next = start && start.getTime() > now.getTime() ? start : new Date(now.getTime() + period);
  }
  if (!next || (end && next.getTime() > end.getTime())) return null;
  return formatDateTime(next);
}
