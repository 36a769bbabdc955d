import { describe, expect, it } from 'vitest';
import { isTimeZone, parseWallClock, wallDateTime, ZoneClock } from './time-zone.ts';

describe('ZoneClock', () => {
  const shanghai = new ZoneClock('Asia/Shanghai');
  const newYork = new ZoneClock('America/New_York');

  it('shows a moment on the zone’s wall clock, not the process’s', () => {
    const moment = Date.UTC(2026, 9, 31, 23, 0, 0);
    expect(shanghai.formatDateTime(moment)).toBe('2026-11-01 07:00:00');
    expect(shanghai.formatDate(moment)).toBe('2026-11-01');
    expect(newYork.formatDateTime(moment)).toBe('2026-10-31 19:00:00');
    expect(new ZoneClock('UTC').formatDateTime(moment)).toBe('2026-10-31 23:00:00');
  });

  it('reads a wall-clock time back as the same moment', () => {
    expect(shanghai.instant(parseWallClock('2026-11-01 07:00:00')).toISOString()).toBe(
      '2026-10-31T23:00:00.000Z',
    );
    expect(shanghai.instant(parseWallClock('2026-11-30 23:59:59')).toISOString()).toBe(
      '2026-11-30T15:59:59.000Z',
    );
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 3_600_000 * 7 + 13_000) {
      expect(newYork.instant(newYork.wallClock(ms)).getTime()).toBe(ms - (ms % 1000));
    }
  });

  it('follows daylight saving: a skipped time is an hour later, a repeated one the first', () => {
    expect(newYork.formatDateTime(Date.UTC(2026, 2, 8, 6, 59, 59))).toBe('2026-03-08 01:59:59');
    expect(newYork.formatDateTime(Date.UTC(2026, 2, 8, 7, 0, 0))).toBe('2026-03-08 03:00:00');
    expect(newYork.formatDateTime(newYork.instant(parseWallClock('2026-03-08 02:30:00')))).toBe(
      '2026-03-08 03:30:00',
    );
    expect(newYork.instant(parseWallClock('2026-11-01 01:30:00')).toISOString()).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(newYork.instant(parseWallClock('2026-11-01 10:00:00')).toISOString()).toBe(
      '2026-11-01T15:00:00.000Z',
    );
  });

  it('refuses an unknown zone', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Asia/Shanghia')).toBe(false);
    expect(isTimeZone('+08:00')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(() => new ZoneClock('Mars/Olympus')).toThrow(/unknown time zone/);
  });
});

describe('parseWallClock', () => {
  it('takes a date, a date and time, or a T between them', () => {
    expect(wallDateTime(parseWallClock('2026-11-01'))).toBe('2026-11-01 00:00:00');
    expect(wallDateTime(parseWallClock('2026-11-01 23:59'))).toBe('2026-11-01 23:59:00');
    expect(wallDateTime(parseWallClock('2026-11-01T07:08:09'))).toBe('2026-11-01 07:08:09');
  });
});
