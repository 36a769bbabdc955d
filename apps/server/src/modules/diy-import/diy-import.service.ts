import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type AnyField, CHOICE_TYPES, type FormDesign, valueFields } from '@shuzhi/contracts/diy-form';
import { IMPORT_JOB_TTL_MINUTES, type ImportError, type ImportJob } from '@shuzhi/contracts/diy-import';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { DiyImportJobTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import type { SheetCell } from '../../platform/xlsx/sheet-read.ts';
import { type OpenForm, openForm } from '../diy-data/diy-data.service.ts';
import { type FilingPeriod, periodNames, resolveFilingPeriod } from '../diy-period/diy-period.service.ts';
import { orphanedJobs } from './import-lease.ts';

/**
 * Excel import of a form's records (issue 6 §4, docs/import.md): the jobs. Upload → the zip is checked and
 * the header mapped at once (import-upload.ts); the rows are checked in the background (import-check.ts), one
 * job at a time per process; confirm writes the valid records in one transaction, again in the background
 * (import-confirm.ts). This file holds what they share: the job rows, their folders under DATA_DIR/import,
 * the background queue, the form and period as the import sees them, expiry and orphaned jobs.
 */

export const IMPORT_DIR = 'import';

/** What a job keeps beside its counts (`diy_import_job.summary`, JSON). */
export type Summary = {
  locale: Locale;
  version: number;
  periodName: string | null;
  extra: string[];
  missing: string[];
  header: SheetCell[][];
  errors: ImportError[];
  dateColumns: number[];
  submit?: boolean;
};

export type Period = FilingPeriod | null;

/** The filing period of the rows (docs/periods.md): null for forms not collected by period. */
export const filingPeriod = (
  ctx: AppContext,
  db: Parameters<typeof openForm>[3],
  open: OpenForm,
  periodId: number | undefined,
) => resolveFilingPeriod(ctx, db ?? ctx.db, open.form, periodId, new Date());

export const workDir = (ctx: AppContext, jobId: number) =>
  join(ctx.config.dataDir, IMPORT_DIR, String(jobId));

/** Background work of this process, awaited when the app closes. */
const running = new Set<Promise<unknown>>();
let queue: Promise<unknown> = Promise.resolve();
/** Rows written so far by the imports running in this process, by job id. */
export const writing = new Map<number, number>();
let closing = false;

/** True while the app closes: a running check stops. */
export const isClosing = () => closing;

/** Runs `task` in the background (`serial`: after the ones queued before it), tracked for `stopImports`. */
export function background(task: () => Promise<void>, serial: boolean): void {
  const run = serial ? queue.then(task, task) : task();
  if (serial) queue = run.catch(() => undefined);
  const tracked = run.catch(() => undefined).finally(() => running.delete(tracked));
  running.add(tracked);
}

export async function stopImports(): Promise<void> {
  closing = true;
  await Promise.all([...running]);
  closing = false;
}

export function parseSummary(row: Pick<DiyImportJobTable, 'summary'>): Summary {
  try {
    return JSON.parse(row.summary ?? '{}') as Summary;
  } catch {
    return {
      locale: 'zh-CN',
      version: 0,
      periodName: null,
      extra: [],
      missing: [],
      header: [],
      errors: [],
      dateColumns: [],
    };
  }
}

function jobOf(row: DiyImportJobTable): ImportJob {
  const summary = parseSummary(row);
  return {
    id: Number(row.id),
    tableId: Number(row.table_id),
    fileName: row.file_name,
    state: row.state as ImportJob['state'],
    processed: row.processed,
    total: row.total,
    valid: row.valid_count,
    invalid: row.invalid_count,
    duplicates: row.duplicate_count,
    extraColumns: summary.extra ?? [],
    missingColumns: summary.missing ?? [],
    errors: summary.errors ?? [],
    inserted: row.state === 'importing' ? (writing.get(Number(row.id)) ?? 0) : row.inserted,
    periodId: row.period_id === null ? null : Number(row.period_id),
    periodName: summary.periodName ?? null,
    failure: row.failure,
    createTime: row.create_time,
  };
}

/** Drops jobs older than `IMPORT_JOB_TTL_MINUTES` (not while importing) with their files. */
export async function expireJobs(ctx: AppContext): Promise<void> {
  const before = formatDateTime(new Date(Date.now() - IMPORT_JOB_TTL_MINUTES * 60_000));
  const old = await ctx.db
    .selectFrom('diy_import_job')
    .select(['id'])
    .where('create_time', '<', before)
    .where('state', '!=', 'importing')
    .execute();
  for (const { id } of old) {
    await rm(workDir(ctx, Number(id)), { recursive: true, force: true });
    await ctx.db.deleteFrom('diy_import_job').where('id', '=', id).execute();
  }
}

const RUNNING_STATES = ['checking', 'importing'];

/**
 * Fails the running jobs among `rows` whose process is gone (import-lease.ts): F1039 in the job's language.
 * Answers the ids it failed; a job another process finished meanwhile keeps its state.
 */
async function failOrphans(
  ctx: AppContext,
  rows: Pick<DiyImportJobTable, 'id' | 'state' | 'summary'>[],
): Promise<Set<number>> {
  const running = rows.filter((row) => RUNNING_STATES.includes(row.state));
  const orphans = new Set(
    await orphanedJobs(
      ctx,
      running.map((row) => Number(row.id)),
    ),
  );
  for (const row of running) {
    if (!orphans.has(Number(row.id))) continue;
    const failure = businessMessage('F1039', parseSummary(row).locale);
    const updated = await ctx.db
      .updateTable('diy_import_job')
      .set({ state: 'failed', failure, finish_time: formatDateTime() })
      .where('id', '=', row.id)
      .where('state', '=', row.state)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) !== 1) orphans.delete(Number(row.id));
  }
  return orphans;
}

/** At start: jobs left checking or importing by a process that died are failed, so they can be redone. */
export async function failInterruptedJobs(ctx: AppContext): Promise<void> {
  const rows = await ctx.db
    .selectFrom('diy_import_job')
    .select(['id', 'state', 'summary'])
    .where('state', 'in', RUNNING_STATES)
    .execute();
  const failed = await failOrphans(ctx, rows);
  if (failed.size > 0) ctx.log.warn({ jobs: [...failed] }, 'import jobs interrupted by a stop were failed');
}

export async function ownJob(ctx: AppContext, user: AuthUser, jobId: number): Promise<DiyImportJobTable> {
  let row = await ctx.db.selectFrom('diy_import_job').selectAll().where('id', '=', jobId).executeTakeFirst();
  // A process that died after this one started leaves its job running: it fails once its lease runs out.
  if (row && (await failOrphans(ctx, [row])).size > 0) {
    row = await ctx.db.selectFrom('diy_import_job').selectAll().where('id', '=', jobId).executeTakeFirst();
  }
  const before = formatDateTime(new Date(Date.now() - IMPORT_JOB_TTL_MINUTES * 60_000));
  if (
    !row ||
    Number(row.user_id) !== user.userId ||
    Number(row.tenant_id) !== user.tenantId ||
    (row.create_time < before && row.state !== 'importing')
  )
    throw new AppError('F1033');
  return row;
}

/** The job as the caller reads it: its period named in their language. */
export async function jobView(ctx: AppContext, row: DiyImportJobTable, locale: Locale): Promise<ImportJob> {
  const job = jobOf(row);
  if (job.periodId === null) return job;
  const names = await periodNames(ctx.db, [job.periodId], locale);
  return { ...job, periodName: names.get(job.periodId) ?? job.periodName };
}

export async function importJob(
  ctx: AppContext,
  user: AuthUser,
  jobId: number,
  locale: Locale,
): Promise<ImportJob> {
  return jobView(ctx, await ownJob(ctx, user, jobId), locale);
}

export async function openForImport(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  db?: Parameters<typeof openForm>[3],
) {
  const open = await openForm(ctx, user, tableId, db);
  if (!open.auth.import) throw new AppError('F1001');
  return open;
}

/** Dictionaries the form's choice fields (sub-table columns included) take their options from. */
export function dictCodes(design: FormDesign): string[] {
  const codes = new Set<string>();
  for (const f of valueFields(design))
    for (const x of [f, ...(f.columns ?? [])] as AnyField[])
      if (CHOICE_TYPES.includes(x.type) && x.options?.source === 'dict') codes.add(x.options.dictCode);
  return [...codes];
}

export async function cancelImport(
  ctx: AppContext,
  user: AuthUser,
  jobId: number,
  locale: Locale,
): Promise<ImportJob> {
  const row = await ownJob(ctx, user, jobId);
  if (row.state === 'importing' || row.state === 'done') throw new AppError('F1034');
  await ctx.db
    .updateTable('diy_import_job')
    .set({ state: 'cancelled', finish_time: formatDateTime() })
    .where('id', '=', jobId)
    .execute();
  if (row.state !== 'checking') await rm(workDir(ctx, jobId), { recursive: true, force: true });
  return jobView(ctx, { ...row, state: 'cancelled' }, locale);
}
