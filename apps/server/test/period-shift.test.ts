import { describe, expect, it } from 'vitest';
import { shiftIntoPeriod } from '../src/modules/diy-period/period-shift.ts';

/** Issue 6 §1: 沿用上期数据 moves the dates of the earlier period into the new one. */
const OCT = { start: '2026-10-01', end: '2026-10-31' };
const NOV = { start: '2026-11-01', end: '2026-11-30' };
const Q3 = { start: '2026-07-01', end: '2026-09-30' };
const Q4 = { start: '2026-10-01', end: '2026-12-31' };

describe('shiftIntoPeriod', () => {
  it('moves values of the source month into the target month', () => {
    expect(shiftIntoPeriod('month', '2026-10', OCT, NOV)).toBe('2026-11');
    expect(shiftIntoPeriod('date', '2026-10-15', OCT, NOV)).toBe('2026-11-15');
    expect(shiftIntoPeriod('date', '2026-10-31', OCT, NOV)).toBe('2026-11-30');
    expect(shiftIntoPeriod('datetime', '2026-10-05 09:30:00', OCT, NOV)).toBe('2026-11-05 09:30:00');
  });

  it('moves by whole months across years and between quarters', () => {
    const dec = { start: '2026-12-01', end: '2026-12-31' };
    const jan = { start: '2027-01-01', end: '2027-01-31' };
    expect(shiftIntoPeriod('month', '2026-12', dec, jan)).toBe('2027-01');
    expect(shiftIntoPeriod('quarter', '2026-Q3', Q3, Q4)).toBe('2026-Q4');
    expect(shiftIntoPeriod('month', '2026-08', Q3, Q4)).toBe('2026-11');
    expect(
      shiftIntoPeriod(
        'year',
        '2025',
        { start: '2025-01-01', end: '2025-12-31' },
        {
          start: '2026-01-01',
          end: '2026-12-31',
        },
      ),
    ).toBe('2026');
  });

  it('moves by days between custom windows', () => {
    const first = { start: '2026-03-10', end: '2026-03-20' };
    const second = { start: '2026-04-15', end: '2026-04-25' };
    expect(shiftIntoPeriod('date', '2026-03-12', first, second)).toBe('2026-04-17');
  });

  it('keeps values outside the source period, wider than it, or that would leave the target', () => {
    expect(shiftIntoPeriod('date', '2001-05-20', OCT, NOV)).toBe('2001-05-20');
    expect(shiftIntoPeriod('year', '2026', OCT, NOV)).toBe('2026');
    expect(shiftIntoPeriod('quarter', '2026-Q4', OCT, NOV)).toBe('2026-Q4');
    const long = { start: '2026-03-01', end: '2026-03-31' };
    const short = { start: '2026-04-01', end: '2026-04-10' };
    expect(shiftIntoPeriod('date', '2026-03-25', long, short)).toBe('2026-03-25');
  });

  it('leaves other kinds and malformed values alone', () => {
    expect(shiftIntoPeriod('text', '2026-10', OCT, NOV)).toBe('2026-10');
    expect(shiftIntoPeriod('month', '2026-1', OCT, NOV)).toBe('2026-1');
    expect(shiftIntoPeriod('date', 20261015, OCT, NOV)).toBe(20261015);
    expect(shiftIntoPeriod('date', null, OCT, NOV)).toBeNull();
  });
});
