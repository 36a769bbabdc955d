import { DEFAULT_TIME_ZONE, isTimeZone, type WallClock, ZoneClock } from '@shuzhi/contracts/time-zone';

/**
 * The product's time zone in the browser (issue 16 §1): every time the web shows or computes from the clock
 * is on the server's zone (`timeZone` of /api/sysProfile/current), not the browser's own. Times from the
 * server are wall-clock `yyyy-MM-dd HH:mm:ss` of that zone and are shown as they are; what is computed here
 * from `Date.now()` goes through this module. It holds no dayjs, so the login page (which reads the zone with
 * the profile) loads none: `zone-dayjs.ts` gives the pickers' dayjs values.
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

/** Intl formatting of a moment on the zone's clock (`timeZone` may not be overridden). */
export function formatInZone(
  date: Date | number,
  locale: string,
  options: Omit<Intl.DateTimeFormatOptions, 'timeZone'>,
): string {
  return new Intl.DateTimeFormat(locale, { ...options, timeZone: clock.timeZone }).format(date);
}
