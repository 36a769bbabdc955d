import { DEFAULT_TIME_ZONE, parseWallClock, type WallClock, ZoneClock } from '@shuzhi/contracts/time-zone';

/**
 * Every wall-clock time of the server is in the one configured zone (TIME_ZONE, docs/operations.md), never
 * the machine's: `buildApp` sets it once at start, before anything is read or written. The database holds
 * `yyyy-MM-dd HH:mm:ss` in that zone (docs/database.md "Times").
 */
let clock = new ZoneClock(DEFAULT_TIME_ZONE);

export function setTimeZone(timeZone: string): void {
  if (timeZone === clock.timeZone) return;
  clock = new ZoneClock(timeZone);
  nowSecond = Number.NaN;
}

/** The configured zone (IANA name). */
export const timeZone = (): string => clock.timeZone;

/** The configured zone's wall clock at `date`. */
export const wallClockAt = (date: Date = new Date()): WallClock => clock.wallClock(date);

/** `yyyy-MM-dd HH:mm:ss` in the configured zone: the one date format on the wire and in the database. */
export function formatDateTime(date: Date = new Date()): string {
  return clock.formatDateTime(date);
}

let nowSecond = Number.NaN;
let nowText = '';

/**
 * `formatDateTime()` of the current second, formatted once per second: every envelope carries it, and
 * within a second the same string object comes back, so callers may compare it by identity.
 */
export function currentDateTime(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== nowSecond) {
    nowText = clock.formatDateTime(now);
    nowSecond = second;
  }
  return nowText;
}

/** `yyyy-MM-dd` in the configured zone ("today" by default). */
export function formatDate(date: Date = new Date()): string {
  return clock.formatDate(date);
}

/** The moment the configured zone's clocks show `wall` (days and hours past their range roll over). */
export const atWallClock = (wall: WallClock): Date => clock.instant(wall);

/** The moment the day after `date` begins in the configured zone. */
export function nextMidnight(date: Date = new Date()): Date {
  const wall = clock.wallClock(date);
  return clock.instant({ ...wall, day: wall.day + 1, hour: 0, minute: 0, second: 0 });
}

/** Parses `yyyy-MM-dd HH:mm:ss` (a wall-clock time of the configured zone) to the moment it names. */
export function parseDateTime(text: string): Date {
  return clock.instant(parseWallClock(text));
}
