import { describe, expect, it } from 'vitest';
import {
  durationParts,
  isBuiltInJob,
  jobState,
  jsonBodyError,
  nextRunOf,
  pairsToHeaders,
  prettyJson,
} from './job-format.ts';

const trigger = (status: number, nextRunTime: string | null = null) =>
  ({ status, nextRunTime }) as Parameters<typeof nextRunOf>[0][number];

describe('job formatting', () => {
  it('tells a job state from its run flag and triggers', () => {
    expect(jobState({ running: true, triggers: [] })).toBe('running');
    expect(jobState({ running: false, triggers: [] })).toBe('noTrigger');
    expect(jobState({ running: false, triggers: [trigger(2), trigger(1)] })).toBe('scheduled');
    expect(jobState({ running: false, triggers: [trigger(3), trigger(2)] })).toBe('paused');
    expect(jobState({ running: false, triggers: [trigger(3)] })).toBe('ended');
  });

  it('takes the earliest next run of the scheduled triggers only', () => {
    expect(
      nextRunOf([
        trigger(1, '2026-11-22 03:00:00'),
        trigger(1, '2026-11-21 23:10:00'),
        trigger(2, '2026-11-21 23:00:00'),
      ]),
    ).toBe('2026-11-21 23:10:00');
    expect(nextRunOf([trigger(2, '2026-11-21 23:00:00')])).toBeNull();
  });

  it('knows the seeded built-in jobs', () => {
    expect(isBuiltInJob({ createType: 1, jobId: 'logRetention', handler: 'logRetention' })).toBe(true);
    expect(isBuiltInJob({ createType: 1, jobId: 'nightlyLogs', handler: 'logRetention' })).toBe(false);
    expect(isBuiltInJob({ createType: 2, jobId: 'hook', handler: null })).toBe(false);
  });

  it('splits durations into readable units', () => {
    expect(durationParts(0)).toMatchObject({ unit: 'ms', ms: 0 });
    expect(durationParts(999)).toMatchObject({ unit: 'ms', ms: 999 });
    expect(durationParts(1234)).toMatchObject({ unit: 's', s: 1.2 });
    expect(durationParts(125_400)).toMatchObject({ unit: 'min', min: 2, s: 5 });
  });

  it('checks a body as JSON only when it looks like JSON', () => {
    expect(jsonBodyError('')).toBeNull();
    expect(jsonBodyError('day=1&x=2')).toBeNull();
    expect(jsonBodyError(' {"day": 1} ')).toBeNull();
    expect(jsonBodyError('[1, 2')).toBeTruthy();
    expect(jsonBodyError('{day: 1}')).toBeTruthy();
  });

  it('turns the header list into a record, dropping unnamed rows', () => {
    expect(
      pairsToHeaders([{ key: ' X-A ', value: '1' }, { key: '', value: 'lost' }, { key: 'X-B' }]),
    ).toEqual({
      'X-A': '1',
      'X-B': '',
    });
    expect(pairsToHeaders([])).toBeNull();
  });

  it('indents a JSON result and leaves other text alone', () => {
    expect(prettyJson('{"removed":3}')).toBe('{\n  "removed": 3\n}');
    expect(prettyJson('删除了 3 条')).toBe('删除了 3 条');
    expect(prettyJson('{not json')).toBe('{not json');
  });
});
