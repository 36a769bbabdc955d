import { afterEach, describe, expect, it } from 'vitest';
import { formatInZone, nowInZone, setTimeZone, timeZone, todayInZone, wallClockNow } from './time-zone.ts';
import { zoneDayjs } from './zone-dayjs.ts';

// 23:30 UTC on 31 October: already 1 November, 07:30 in Shanghai; still 31 October, 19:30 in New York.
const moment = Date.UTC(2026, 9, 31, 23, 30, 0);

describe('the product time zone in the browser', () => {
  afterEach(() => setTimeZone('Asia/Shanghai'));

  it('shows Shanghai’s clock by default, whatever the browser’s own zone', () => {
    expect(timeZone()).toBe('Asia/Shanghai');
    expect(todayInZone(moment)).toBe('2026-11-01');
    expect(nowInZone(moment)).toBe('2026-11-01 07:30:00');
    expect(wallClockNow(moment)).toMatchObject({ year: 2026, month: 11, day: 1, hour: 7 });
    expect(zoneDayjs(moment).format('YYYY-MM-DD HH:mm')).toBe('2026-11-01 07:30');
    expect(formatInZone(moment, 'en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })).toBe(
      '07:30',
    );
    expect(formatInZone(moment, 'zh-CN', { dateStyle: 'full' })).toBe('2026年11月1日星期日');
  });

  it('follows the zone the server names and ignores one it does not know', () => {
    setTimeZone('America/New_York');
    expect(todayInZone(moment)).toBe('2026-10-31');
    expect(nowInZone(moment)).toBe('2026-10-31 19:30:00');
    expect(formatInZone(moment, 'en', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })).toBe(
      '19:30',
    );
    setTimeZone('Nowhere/City');
    setTimeZone(undefined);
    expect(timeZone()).toBe('America/New_York');
  });
});
