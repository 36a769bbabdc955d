import {
  BUILT_IN_JOBS,
  type BuiltInJob,
  JOB_CREATE_TYPE,
  type JobDetailRow,
  type JobTriggerRow,
  TRIGGER_STATUS,
} from '@shuzhi/contracts/job';
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** Cron expressions with seconds that the trigger dialog offers with one click. */
export const CRON_PRESETS = [
  { key: 'everyMinute', cron: '0 * * * * *' },
  { key: 'every5Minutes', cron: '0 */5 * * * *' },
  { key: 'hourly', cron: '0 0 * * * *' },
  { key: 'daily3', cron: '0 0 3 * * *' },
  { key: 'weekdays8', cron: '0 0 8 * * 1-5' },
  { key: 'monthly1', cron: '0 0 1 1 * *' },
] as const;

export function isBuiltInHandler(handler: string | null | undefined): handler is BuiltInJob {
  return (BUILT_IN_JOBS as readonly string[]).includes(handler ?? '');
}

/**
 * The jobs the server seeds: a built-in handler under its own name as job id. The server refuses to delete
 * them (J1001) or to change their handler.
 */
export function isBuiltInJob(row: Pick<JobDetailRow, 'createType' | 'jobId' | 'handler'>): boolean {
  return row.createType === JOB_CREATE_TYPE.builtIn && row.handler === row.jobId;
}

export type JobState = 'running' | 'scheduled' | 'paused' | 'ended' | 'noTrigger';

/** What a job does now, from its run flag and its triggers. */
export function jobState(row: Pick<JobDetailRow, 'running' | 'triggers'>): JobState {
  if (row.running) return 'running';
  if (row.triggers.length === 0) return 'noTrigger';
  if (row.triggers.some((trigger) => trigger.status === TRIGGER_STATUS.running)) return 'scheduled';
  if (row.triggers.some((trigger) => trigger.status === TRIGGER_STATUS.paused)) return 'paused';
  return 'ended';
}

/** The earliest next run of the job's scheduled triggers. */
export function nextRunOf(triggers: readonly JobTriggerRow[]): string | null {
  const times = triggers
    .filter((trigger) => trigger.status === TRIGGER_STATUS.running && trigger.nextRunTime)
    .map((trigger) => trigger.nextRunTime as string)
    .sort();
  return times[0] ?? null;
}

export type DurationParts = { unit: 'ms' | 's' | 'min'; ms: number; s: number; min: number };

/** A run's duration split for display: under a second in ms, under a minute in seconds (one decimal). */
export function durationParts(ms: number): DurationParts {
  if (ms < 1000) return { unit: 'ms', ms: Math.max(0, Math.round(ms)), s: 0, min: 0 };
  if (ms < 60_000) return { unit: 's', ms, s: Math.round(ms / 100) / 10, min: 0 };
  const totalSeconds = Math.round(ms / 1000);
  return { unit: 'min', ms, min: Math.floor(totalSeconds / 60), s: totalSeconds % 60 };
}

/** A body that looks like JSON (starts with `{` or `[`) must parse; the parser's message otherwise. */
export function jsonBodyError(body: string | null | undefined): string | null {
  const text = (body ?? '').trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return null;
  try {
    JSON.parse(text);
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export type HeaderPair = { key?: string; value?: string };

export function headersToPairs(headers: Record<string, string> | null | undefined): HeaderPair[] {
  return Object.entries(headers ?? {}).map(([key, value]) => ({ key, value }));
}

/** The key–value list as the request wants it; rows without a name are dropped. */
export function pairsToHeaders(
  pairs: readonly HeaderPair[] | null | undefined,
): Record<string, string> | null {
  const entries = (pairs ?? [])
    .map((pair) => [(pair.key ?? '').trim(), pair.value ?? ''] as const)
    .filter(([key]) => key !== '');
  return entries.length > 0 ? Object.fromEntries(entries) : null;
}

/** A result that is JSON is shown indented; anything else as it came. */
export function prettyJson(text: string): string {
  const trimmed = text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(trimmed), null, 2);
  } catch {
    return text;
  }
}
