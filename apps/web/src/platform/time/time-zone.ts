import {
  DEFAULT_TIME_ZONE,
  isTimeZone,
  type WallClock,
  wallDateTime,
  ZoneClock,
} from '@shuzhi/contracts/time-zone';
import dayjs, { type Dayjs } from 'dayjs';

/**
 * The product's time zone in the browser (issue 16 §1): every time the web shows or computes from the clock
 * is on the server's zone (`timeZone` of /api/sysProfile/current), not the browser's own. Times from the
 * server are wall-clock `yyyy-MM-dd HH:mm:ss` of that zone and are shown as they are; what is computed here
 * from `Date.now()` goes through this module.
 */
let clock = new ZoneClock(DEFAULT_TIME_ZONE);

/** Takes the zone the server names; an unknown name (an older server) keeps the current one. */
export function setTimeZone(timeZone: string | null | undefined): void {
  if (!timeZone || timeZone === clock.timeZone || !isTimeZone(timeZone)) return;
  clock = new ZoneClock(timeZone);
}

export const timeZone = (): string => clock.timeZone;

/** The zone's wall clock at `date` (now by default). */
export const wallClockNow = (date: Date | number = Date.now()): WallClock => clock.wallClock(date);

/** `yyyy-MM-dd` of the zone: "today". */
export const todayInZone = (date: Date | number = Date.now()): string => clock.formatDate(date);

/** `yyyy-MM-dd HH:mm:ss` of the zone, comparable with the server's times as text. */
export const nowInZone = (date: Date | number = Date.now()): string => clock.formatDateTime(date);

/**
 * A dayjs whose fields show the zone's wall clock, like the dayjs values date pickers make from the server's
 * times: for "today" and "now" bounds of pickers and presets. Not a moment to send anywhere.
 */
export const zoneDayjs = (date: Date | number = Date.now()): Dayjs =>
  dayjs(wallDateTime(clock.wallClock(date)));

/** Intl formatting of a moment on the zone's clock (`timeZone` may not be overridden). */
export function formatInZone(
  date: Date | number,
  locale: string,
  options: Omit<Intl.DateTimeFormatOptions, 'timeZone'>,
): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: clock.timeZone }).format(date);
}
