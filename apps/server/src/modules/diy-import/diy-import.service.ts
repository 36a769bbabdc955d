import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import {
  type AnyField,
  CHOICE_TYPES,
  type FormDesign,
  RECORD_STATUS,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import {
  IMPORT_ERROR_SAMPLE,
  IMPORT_JOB_TTL_MINUTES,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportError,
  type ImportJob,
} from '@shuzhi/contracts/diy-import';
import {
  defaultValues,
  type FieldErrors,
  fieldErrorText,
  rowDefaultValues,
  validateRecord,
} from '@shuzhi/contracts/diy-validate';
import type { Locale } from '@shuzhi/contracts/i18n';
import ExcelJS from 'exceljs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { DiyImportJobTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { XLSX_TYPE } from '../../platform/crud/export.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import {
  type AnyDb,
  columnFor,
  dataTableName,
  safeColumn,
  toColumnValues,
} from '../../platform/diy/data-table.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { contentDisposition, moveFile } from '../../platform/files/storage.ts';
import { discardUpload, readUpload, type Upload } from '../../platform/http/multipart.ts';
import { designOf, type OpenForm, openForm } from '../diy-data/diy-data.service.ts';
import { dictLabels } from '../diy-data/diy-record-labels.ts';
import { numberingOf, periodKey } from '../diy-data/diy-record-numbering.ts';
import { headerLayout } from '../diy-ledger/ledger-columns.ts';
import { type FilingPeriod, periodNames, resolveFilingPeriod } from '../diy-period/diy-period.service.ts';
import { isDateField, type Mapping, mapHeader, templateColumns } from './import-columns.ts';
import { holdJob, orphanedJobs, releaseJob } from './import-lease.ts';
import { importText, owned, Resolver } from './import-values.ts';
import { type SheetCell, type SheetRow, sheetRows } from './sheet-reader.ts';
import { openZip } from './zip.ts';

/**
 * Excel import of a form's records (issue 6 §4, docs/import.md). Upload → the zip is checked and the header
 * mapped at once (F1030–F1032 answer the upload itself); the rows are checked in the background, one job at
 * a time per process, 1,000 rows per batch (progress written to `diy_import_job` after each); valid records
 * go to `valid.jsonl`, bad ones with their cells and reasons to `errors.jsonl` in the job's folder under
 * DATA_DIR/import. Confirm writes the valid records in one transaction, again in the background.
 */

const BATCH = 1000;
const IMPORT_DIR = 'import';

type Summary = {
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

type Period = FilingPeriod | null;

/** The filing period of the rows (docs/periods.md): null for forms not collected by period. */
const filingPeriod = (
  ctx: AppContext,
  db: Parameters<typeof openForm>[3],
  open: OpenForm,
  periodId: number | undefined,
) => resolveFilingPeriod(ctx, db ?? ctx.db, open.form, periodId, new Date());

// ------------------------------------------------------------------------------------------------------
// Jobs

const workDir = (ctx: AppContext, jobId: number) => join(ctx.config.dataDir, IMPORT_DIR, String(jobId));

/** Background work of this process, awaited when the app closes. */
const running = new Set<Promise<unknown>>();
let queue: Promise<unknown> = Promise.resolve();
const writing = new Map<number, number>();
let closing = false;

function background(task: () => Promise<void>, serial: boolean): void {
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

function parseSummary(row: Pick<DiyImportJobTable, 'summary'>): Summary {
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

async function ownJob(ctx: AppContext, user: AuthUser, jobId: number): Promise<DiyImportJobTable> {
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
async function jobView(ctx: AppContext, row: DiyImportJobTable, locale: Locale): Promise<ImportJob> {
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

async function openForImport(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  db?: Parameters<typeof openForm>[3],
) {
  const open = await openForm(ctx, user, tableId, db);
  if (!open.auth.import) throw new AppError('F1001');
  return open;
}

// ------------------------------------------------------------------------------------------------------
// Template

/** A text of the template's notes in zh-CN, en and zh-TW. */
type Note = readonly [string, string, string];

function typeNote(field: AnyField): Note | null {
  const p = field.precision ?? 2;
  const notes: Record<string, Note> = {
    integer: ['整数', 'Whole number', '整數'],
    decimal: [`数字，最多 ${p} 位小数`, `Number, up to ${p} decimals`, `數字，最多 ${p} 位小數`],
    money: ['金额，最多 2 位小数', 'Amount, up to 2 decimals', '金額，最多 2 位小數'],
    percent: ['百分数（填 12.5 表示 12.5%）', 'Percent (12.5 means 12.5%)', '百分數（填 12.5 表示 12.5%）'],
    date: ['日期，如 2026-03-15', 'Date, e.g. 2026-03-15', '日期，如 2026-03-15'],
    datetime: [
      '日期时间，如 2026-03-15 09:30',
      'Date and time, e.g. 2026-03-15 09:30',
      '日期時間，如 2026-03-15 09:30',
    ],
    month: ['月份，如 2026-03', 'Month, e.g. 2026-03', '月份，如 2026-03'],
    quarter: ['季度，如 2026-Q1', 'Quarter, e.g. 2026-Q1', '季度，如 2026-Q1'],
    year: ['年份，如 2026', 'Year, e.g. 2026', '年份，如 2026'],
    region: ['区划全称、名称或代码', 'Region full name, name or code', '區劃全稱、名稱或代碼'],
    org: ['单位名称', 'Org name', '單位名稱'],
    enterprise: ['企业名称', 'Enterprise name', '企業名稱'],
    user: ['人员姓名', 'Person name', '人員姓名'],
    mobile: ['手机号码', 'Mobile number', '手機號碼'],
    idCard: ['身份证号', 'ID card number', '身分證號'],
    email: ['邮箱', 'Email', '電子郵件'],
  };
  return notes[field.type] ?? null;
}

/** What a blank cell of the field takes on import (the field's default). */
function defaultNote(field: AnyField): Note | null {
  const def = field.default;
  switch (def?.kind) {
    case 'period':
      return ['留空时填本期', 'Blank: this period', '留空時填本期'];
    case 'today':
      return ['留空时填今天', 'Blank: today', '留空時填今天'];
    case 'fillerName':
      return ['留空时填导入人姓名', 'Blank: the name of who imports', '留空時填匯入人姓名'];
    case 'fillerOrg':
      return ['留空时填导入人单位', 'Blank: the org of who imports', '留空時填匯入人單位'];
    case 'fillerRegion':
      return ['留空时填导入人单位的区划', 'Blank: the region of who imports', '留空時填匯入人單位的區劃'];
    case 'constant':
      return typeof def.value === 'string' || typeof def.value === 'number'
        ? [`留空时填“${def.value}”`, `Blank: "${def.value}"`, `留空時填「${def.value}」`]
        : null;
    default:
      return null;
  }
}

function ruleNote(field: AnyField, locale: Locale, dicts: Map<string, Map<string, string>>): string {
  const pick = (note: Note) => (locale === 'en' ? note[1] : locale === 'zh-TW' ? note[2] : note[0]);
  const lines: string[] = [];
  if (field.required) lines.push(pick(['必填', 'Required', '必填']));
  const type = typeNote(field);
  if (type) lines.push(pick(type));
  if (CHOICE_TYPES.includes(field.type) && field.options) {
    const labels =
      field.options.source === 'options'
        ? field.options.items.map((o) => o.label)
        : [...(dicts.get(field.options.dictCode)?.values() ?? [])];
    const multi = field.type === 'multiSelect' || field.type === 'checkbox';
    const lead = multi
      ? pick(['可多选，用“、”分隔：', 'Several, separated by 、: ', '可多選，用「、」分隔：'])
      : pick(['从下拉中选择：', 'Pick one: ', '從下拉中選擇：']);
    lines.push(`${lead}${labels.slice(0, 30).join('、')}${labels.length > 30 ? '…' : ''}`);
  }
  if (field.minLength || field.maxLength) {
    const range = `${field.minLength ?? 0}–${field.maxLength}`;
    lines.push(pick([`长度 ${range}`, `Length ${range}`, `長度 ${range}`]));
  }
  if (field.min !== null && field.min !== undefined)
    lines.push(pick([`最小 ${field.min}`, `Min ${field.min}`, `最小 ${field.min}`]));
  if (field.max !== null && field.max !== undefined)
    lines.push(pick([`最大 ${field.max}`, `Max ${field.max}`, `最大 ${field.max}`]));
  if (field.unique && field.unique !== 'none')
    lines.push(pick(['不能与已有记录重复', 'Must not repeat an existing record', '不能與已有記錄重複']));
  if (field.pattern?.message) lines.push(field.pattern.message);
  const blank = defaultNote(field);
  if (blank) lines.push(pick(blank));
  if (field.help) lines.push(field.help);
  return lines.join('\n');
}

function dictCodes(design: FormDesign): string[] {
  const codes = new Set<string>();
  for (const f of valueFields(design))
    for (const x of [f, ...(f.columns ?? [])] as AnyField[])
      if (CHOICE_TYPES.includes(x.type) && x.options?.source === 'dict') codes.add(x.options.dictCode);
  return [...codes];
}

const TEMPLATE_ROWS = 5000;

/** `GET /api/diyImport/{tableId}/template`. */
export async function importTemplate(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  locale: Locale,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const open = await openForImport(ctx, user, tableId);
  const columns = templateColumns(open.design, locale);
  const dicts = await dictLabels(ctx.db, dictCodes(open.design));
  const layout = headerLayout(columns);
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet(open.form.title.replace(/[*?:\\/[\]]/g, '_').slice(0, 31) || 'Sheet1', {
    views: [{ state: 'frozen', ySplit: layout.rows.length }],
  });
  const lists = book.addWorksheet('_lists', { state: 'veryHidden' });
  sheet.columns = columns.map((c) => ({ width: c.width }));
  for (const row of layout.rows) sheet.addRow(row).font = { bold: true };
  for (const [top, left, bottom, right] of layout.merges) sheet.mergeCells(top, left, bottom, right);
  const first = layout.rows.length + 1;
  let listColumn = 0;
  for (const [i, column] of columns.entries()) {
    const field = column.field;
    // An ungrouped header sits in the first row (merged over both); a grouped one under its group.
    const headerCell = sheet.getCell(column.group === null ? 1 : layout.rows.length, i + 1);
    headerCell.alignment = { horizontal: 'center', vertical: 'middle', wrapText: true };
    if (field.required) headerCell.font = { bold: true, color: { argb: 'FFC00000' } };
    const note = ruleNote(field, locale, dicts);
    if (note) headerCell.note = note;
    if (column.numFmt) sheet.getColumn(i + 1).numFmt = column.numFmt;
    const single = field.type === 'select' || field.type === 'radio';
    if (single && field.options) {
      const labels =
        field.options.source === 'options'
          ? field.options.items.map((o) => o.label)
          : [...(dicts.get(field.options.dictCode)?.values() ?? [])];
      if (labels.length === 0) continue;
      listColumn++;
      const letter = lists.getColumn(listColumn).letter;
      labels.forEach((label, k) => {
        lists.getCell(k + 1, listColumn).value = label;
      });
      const target = sheet.getColumn(i + 1).letter;
      (
        sheet as unknown as { dataValidations: { add: (ref: string, v: unknown) => void } }
      ).dataValidations.add(`${target}${first}:${target}${first + TEMPLATE_ROWS}`, {
        type: 'list',
        allowBlank: true,
        formulae: [`'_lists'!$${letter}$1:$${letter}$${labels.length}`],
        showErrorMessage: true,
        errorTitle: column.header,
        error: importText('option', locale, { v: '' }).replace(/[“”「」"]/g, ''),
      });
    }
  }
  const buffer = Buffer.from(await book.xlsx.writeBuffer());
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition('attachment', `${open.form.title}_导入模板.xlsx`))
    .header('cache-control', 'no-store')
    .send(buffer);
}

// ------------------------------------------------------------------------------------------------------
// Upload and check

export async function uploadImport(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  req: FastifyRequest,
  locale: Locale,
): Promise<{ jobId: number }> {
  await expireJobs(ctx);
  const open = await openForImport(ctx, user, tableId);
  let upload: Upload;
  try {
    // Fields may come before or after the file (`periodId` after it is fine).
    upload = await readUpload(req, IMPORT_MAX_BYTES);
  } catch (error) {
    if (error instanceof AppError && error.code === 'D8002') throw new AppError('F1031');
    throw error;
  }
  try {
    return await startCheck(ctx, user, open, upload, locale);
  } finally {
    await discardUpload(upload);
  }
}

/** Moves the upload into a new job's folder, maps its header and checks its rows in the background. */
async function startCheck(
  ctx: AppContext,
  user: AuthUser,
  open: OpenForm,
  upload: Upload,
  locale: Locale,
): Promise<{ jobId: number }> {
  const periodText = upload.fields.periodId;
  const periodId = periodText && /^\d+$/.test(periodText) ? Number(periodText) : undefined;
  if (periodText && periodId === undefined) throw new AppError('F1025');
  const period = await filingPeriod(ctx, ctx.db, open, periodId);
  const version = period?.version ?? open.form.version;
  const formDesign = await designOf(ctx, ctx.db, open, version);

  const jobId = ctx.newId();
  const dir = workDir(ctx, jobId);
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'upload.xlsx');
  try {
    await moveFile(upload.path, file);
    const zip = await openZip(file);
    let total: number | null = null;
    const rows = sheetRows(zip, (last) => {
      total = last;
    });
    const head: SheetRow[] = [];
    for (;;) {
      const next = await rows.next();
      if (next.done) break;
      if (head.length === 0 && next.value.cells.every((c) => c === null || c === undefined || c === ''))
        continue;
      head.push(next.value);
      if (head.length === 2) break;
    }
    const mapping = mapHeader(formDesign, locale, head[0]?.cells ?? [], head[1]?.cells ?? null);
    if (mapping.byColumn.size === 0) {
      await rows.return(undefined);
      throw new AppError('F1032');
    }
    const pending = mapping.headerRows === 1 && head[1] ? [head[1]] : [];
    const headerEnd = (head[0]?.row ?? 1) + mapping.headerRows - 1;
    const summary: Summary = {
      locale,
      version,
      periodName: period?.name ?? null,
      extra: mapping.extra,
      missing: mapping.missing,
      header: mapping.header,
      errors: [],
      dateColumns: [...mapping.byColumn].filter(([, c]) => isDateField(c.field)).map(([i]) => i),
    };
    await holdJob(ctx, jobId);
    await ctx.db
      .insertInto('diy_import_job')
      .values({
        id: jobId,
        tenant_id: open.form.tenant_id,
        table_id: open.form.id,
        user_id: user.userId,
        period_id: period?.id ?? null,
        file_name: (upload.fileName.split(/[\\/]/).pop() ?? '').slice(-200) || 'import.xlsx',
        state: 'checking',
        processed: 0,
        total: total === null ? null : Math.max(0, (total as number) - headerEnd),
        valid_count: 0,
        invalid_count: 0,
        duplicate_count: 0,
        inserted: 0,
        summary: JSON.stringify(summary),
        failure: null,
        work_dir: `${IMPORT_DIR}/${jobId}`,
        create_time: formatDateTime(),
        finish_time: null,
      })
      .execute();
    const check = new Checker(ctx, open, formDesign, period, mapping, summary, jobId, dir);
    background(async () => {
      try {
        await check.run(pending, rows);
      } catch (error) {
        await rows.return(undefined).catch(() => undefined);
        const failure =
          error instanceof AppError
            ? businessMessage(error.code, locale, error.params)
            : String((error as Error).message);
        if (!(error instanceof AppError)) ctx.log.error({ err: error }, 'import check failed');
        await ctx.db
          .updateTable('diy_import_job')
          .set({ state: 'failed', failure, finish_time: formatDateTime() })
          .where('id', '=', jobId)
          .execute()
          .catch(() => undefined);
      } finally {
        await releaseJob(ctx, jobId).catch(() => undefined);
      }
    }, true);
    return { jobId };
  } catch (error) {
    await releaseJob(ctx, jobId).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

type Line = { row: number; cells: SheetCell[] };
type Pending = { lines: Line[] };

const isBlank = (c: unknown) => c === null || c === undefined || (typeof c === 'string' && c.trim() === '');

/** Writes lines to a file with backpressure. */
class Lines {
  private readonly out: WriteStream;
  constructor(path: string) {
    this.out = createWriteStream(path);
  }
  async write(value: unknown): Promise<void> {
    if (!this.out.write(`${JSON.stringify(value)}\n`))
      await new Promise<void>((r) => this.out.once('drain', () => r()));
  }
  async close(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  }
}

class Checker {
  private readonly resolver: Resolver;
  private dicts = new Map<string, Map<string, string>>();
  private readonly seen = new Map<string, Map<string, number>>();
  private readonly uniqueFields: { field: AnyField; column: string; scope: string }[] = [];
  private readonly regexCache = new Map<string, RegExp | null>();
  /** Records checked (a record spans several lines when it has sub-table rows). */
  private processed = 0;
  /** Sheet lines read after the header. */
  private lines = 0;
  private valid = 0;
  private invalid = 0;
  private duplicates = 0;
  private orgTaken = false;
  private readonly locale: Locale;
  /** What a new record of the form starts with for this caller and period: blank cells take it. */
  private readonly defaults: RecordValues;
  /** What a sub-table row starts with, by sub-table id: blank cells of a row take it. */
  private readonly rowDefaults = new Map<string, RecordValues>();

  constructor(
    private readonly ctx: AppContext,
    private readonly open: OpenForm,
    private readonly design: FormDesign,
    private readonly period: Period,
    private readonly mapping: Mapping,
    private readonly summary: Summary,
    private readonly jobId: number,
    private readonly dir: string,
  ) {
    this.locale = summary.locale;
    this.resolver = new Resolver(ctx, open.caller, this.dicts);
    const { caller } = open;
    const filler = {
      orgId: caller.orgId,
      regionCode: caller.regionCode,
      realName: caller.user.realName,
      userId: caller.user.userId,
    };
    const today = new Date();
    this.defaults = defaultValues(design, filler, today, period?.start);
    for (const field of valueFields(design)) {
      if (field.type !== 'subTable') continue;
      const row = rowDefaultValues(field, filler, today, period?.start);
      if (Object.keys(row).length > 0) this.rowDefaults.set(field.id, row);
    }
    for (const field of valueFields(design)) {
      if (field.unique === 'none' || field.type === 'subTable') continue;
      const column = columnFor(open.columns, field.id, summary.version);
      if (column && column.storageKind !== 'json')
        this.uniqueFields.push({ field, column: safeColumn(column.columnName), scope: field.unique });
    }
  }

  async run(pending: SheetRow[], rows: AsyncGenerator<SheetRow>): Promise<void> {
    const loaded = await dictLabels(this.ctx.db, dictCodes(this.design));
    for (const [k, v] of loaded) this.dicts.set(k, v);
    if (this.period?.onePerOrg && this.open.caller.orgId !== null) {
      const existing = await (this.ctx.db as unknown as AnyDb)
        .selectFrom(dataTableName(this.open.form.id))
        .select('id')
        .where('is_delete', '=', 0)
        .where('period_id', '=', this.period.id)
        .where('create_org_id', '=', this.open.caller.orgId)
        .limit(1)
        .executeTakeFirst();
      this.orgTaken = existing !== undefined;
    }
    const valid = new Lines(join(this.dir, 'valid.jsonl'));
    const errors = new Lines(join(this.dir, 'errors.jsonl'));
    const topColumns = [...this.mapping.byColumn].filter(([, c]) => c.kind === 'field').map(([i]) => i);
    const subColumns = [...this.mapping.byColumn].filter(([, c]) => c.kind === 'sub').map(([i]) => i);
    let batch: Pending[] = [];
    let current: Pending | null = null;
    let lastNo: string | null = null;
    const take = async (row: SheetRow) => {
      if (closing) throw new Error('server stopping');
      this.lines++;
      const dataNo = this.mapping.dataNoColumn === null ? null : row.cells[this.mapping.dataNoColumn];
      const continues =
        current !== null &&
        topColumns.every((i) => isBlank(row.cells[i])) &&
        (subColumns.some((i) => !isBlank(row.cells[i])) ||
          (dataNo !== null && dataNo !== undefined && String(dataNo) === lastNo));
      lastNo = isBlank(dataNo) ? null : String(dataNo);
      if (continues && current) {
        current.lines.push(row);
        return;
      }
      if (row.cells.every(isBlank)) return;
      if (this.processed + batch.length >= IMPORT_MAX_ROWS) throw new AppError('F1031');
      current = { lines: [row] };
      batch.push(current);
      if (batch.length > BATCH) {
        const done = batch.slice(0, -1);
        batch = batch.slice(-1);
        await this.check(done, valid, errors);
      }
    };
    for (const row of pending) await take(row);
    for await (const row of rows) await take(row);
    await this.check(batch, valid, errors);
    await valid.close();
    await errors.close();
    await this.ctx.db
      .updateTable('diy_import_job')
      .set({
        state: 'checked',
        processed: this.lines,
        total: this.lines,
        valid_count: this.valid,
        invalid_count: this.invalid,
        duplicate_count: this.duplicates,
        summary: JSON.stringify(this.summary),
        finish_time: formatDateTime(),
      })
      .where('id', '=', this.jobId)
      .execute();
  }

  private async check(batch: Pending[], valid: Lines, errors: Lines): Promise<void> {
    const wanted = {
      regions: new Set<string>(),
      orgs: new Set<string>(),
      enterprises: new Set<string>(),
      users: new Set<string>(),
    };
    for (const record of batch)
      for (const line of record.lines)
        for (const [i, column] of this.mapping.byColumn) {
          const t = column.field.type;
          if (t === 'region' || t === 'org' || t === 'enterprise' || t === 'user')
            this.resolver.want(column.field, line.cells[i] ?? null, wanted);
        }
    await this.resolver.load(wanted);

    type Checked = { record: Pending; values: RecordValues; marks: Map<string, string>; duplicate: boolean };
    const checked: Checked[] = [];
    for (const record of batch) {
      const raw: RecordValues = {};
      const marks = new Map<string, string>();
      const subRows = new Map<string, RecordValues[]>();
      for (const [lineNo, line] of record.lines.entries()) {
        for (const [i, column] of this.mapping.byColumn) {
          const cell = line.cells[i] ?? null;
          if (column.kind === 'field') {
            if (lineNo > 0) continue;
            const { value, error } = this.resolver.convert(column.field, cell, this.locale);
            raw[column.field.id] = value;
            if (error) marks.set(`0:${i}`, error);
          } else {
            const tableId = column.table.id;
            const list = subRows.get(tableId) ?? [];
            subRows.set(tableId, list);
            if (isBlank(cell)) continue;
            while (list.length <= lineNo) list.push({});
            const { value, error } = this.resolver.convert(column.field, cell, this.locale);
            (list[lineNo] as RecordValues)[column.field.id] = value;
            if (error) marks.set(`${lineNo}:${i}`, error);
          }
        }
      }
      for (const [tableId, list] of subRows) {
        const rows = list.filter((r) => r && Object.keys(r).length > 0);
        const start = this.rowDefaults.get(tableId);
        if (start)
          for (const row of rows)
            for (const [id, value] of Object.entries(start)) if (isBlank(row[id])) row[id] = value;
        raw[tableId] = rows.length ? rows : null;
      }
      // As on the form, a new record starts with the field defaults (本期, the filler's org, today…).
      for (const [id, value] of Object.entries(this.defaults)) if (isBlank(raw[id])) raw[id] = value;
      const { values, errors: fieldErrors } = validateRecord(this.design, raw, {
        mode: 'submit',
        dictOptions: (code) => {
          const map = this.dicts.get(code);
          return map ? new Set(map.keys()) : undefined;
        },
        regexCache: this.regexCache,
      });
      this.markFieldErrors(record, fieldErrors, marks);
      checked.push({ record, values, marks, duplicate: false });
    }

    // Unique values: against earlier rows of the file, then against live records.
    for (const { field, column, scope } of this.uniqueFields) {
      const seen = this.seen.get(field.id) ?? new Map<string, number>();
      this.seen.set(field.id, seen);
      const colIndex = this.columnOf(field.id);
      const keys: string[] = [];
      for (const item of checked) {
        const value = item.values[field.id];
        if (value === null || value === undefined || typeof value === 'object') continue;
        const key = String(value);
        const first = seen.get(key);
        if (first !== undefined) {
          item.marks.set(`0:${colIndex}`, importText('inFile', this.locale, { row: first }));
          item.duplicate = true;
        } else {
          seen.set(owned(key), item.record.lines[0]?.row ?? 0);
          keys.push(key);
        }
      }
      if (keys.length === 0) continue;
      let query = (this.ctx.db as unknown as AnyDb)
        .selectFrom(dataTableName(this.open.form.id))
        .select(sql.ref(column).as('v'))
        .where('is_delete', '=', 0)
        .where(sql.ref(column), 'in', keys);
      if (scope === 'period' && this.period) query = query.where('period_id', '=', this.period.id);
      const taken = new Set(((await query.execute()) as { v: unknown }[]).map((r) => String(r.v)));
      if (taken.size === 0) continue;
      for (const item of checked) {
        const value = item.values[field.id];
        if (value === null || value === undefined || item.marks.has(`0:${colIndex}`)) continue;
        if (taken.has(String(value))) {
          item.marks.set(`0:${colIndex}`, importText('existing', this.locale));
          item.duplicate = true;
        }
      }
    }

    for (const item of checked) {
      const firstRow = item.record.lines[0]?.row ?? 0;
      if (item.marks.size === 0 && this.period?.onePerOrg) {
        if (this.orgTaken) item.marks.set('0:-1', businessMessage('F1024', this.locale));
        this.orgTaken = true;
      }
      if (item.marks.size === 0) {
        this.valid++;
        await valid.write({ row: firstRow, values: item.values });
        continue;
      }
      this.invalid++;
      if (item.duplicate) this.duplicates++;
      const marks: [number, number, string][] = [...item.marks].map(([key, message]) => {
        const [line, col] = key.split(':').map(Number) as [number, number];
        return [line, col, message];
      });
      for (const [line, col, message] of marks) {
        if (this.summary.errors.length >= IMPORT_ERROR_SAMPLE) break;
        const column = col >= 0 ? this.mapping.byColumn.get(col) : undefined;
        this.summary.errors.push({
          row: item.record.lines[line]?.row ?? firstRow,
          column: column ? column.header : null,
          message,
        });
      }
      await errors.write({ lines: item.record.lines, marks });
    }
    this.processed += batch.length;
    await this.ctx.db
      .updateTable('diy_import_job')
      .set({
        processed: this.lines,
        valid_count: this.valid,
        invalid_count: this.invalid,
        duplicate_count: this.duplicates,
      })
      .where('id', '=', this.jobId)
      .execute();
  }

  private columnOf(fieldId: string, tableId?: string): number {
    for (const [i, column] of this.mapping.byColumn) {
      if (tableId === undefined && column.kind === 'field' && column.field.id === fieldId) return i;
      if (
        tableId !== undefined &&
        column.kind === 'sub' &&
        column.table.id === tableId &&
        column.field.id === fieldId
      )
        return i;
    }
    return -1;
  }

  private markFieldErrors(record: Pending, errors: FieldErrors, marks: Map<string, string>): void {
    for (const [path, error] of Object.entries(errors)) {
      const m = /^([a-z0-9]+)(?:\[(\d+)\]\.([a-z0-9]+))?$/.exec(path);
      if (!m) continue;
      const top = this.design.fields.find((f) => f.id === m[1]);
      if (!top) continue;
      let line = 0;
      let col: number;
      let label = top.label;
      if (m[2] !== undefined) {
        // Sub-table rows were compacted (blank lines dropped): find the line of the n-th filled row.
        const n = Number(m[2]);
        const cols = [...this.mapping.byColumn]
          .filter(([, c]) => c.kind === 'sub' && c.table.id === top.id)
          .map(([i]) => i);
        const filled = record.lines
          .map((l, k) => (cols.some((i) => !isBlank(l.cells[i])) ? k : -1))
          .filter((k) => k >= 0);
        line = filled[n] ?? 0;
        col = this.columnOf(m[3] as string, top.id);
        label = top.columns?.find((c) => c.id === m[3])?.label ?? label;
      } else col = this.columnOf(top.id);
      const key = `${line}:${col}`;
      if (!marks.has(key)) marks.set(key, fieldErrorText(error, label, this.locale));
    }
  }
}

// ------------------------------------------------------------------------------------------------------
// Error workbook

export async function errorWorkbook(
  ctx: AppContext,
  user: AuthUser,
  jobId: number,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const row = await ownJob(ctx, user, jobId);
  if (row.state === 'checking' || row.state === 'failed' || row.state === 'cancelled')
    throw new AppError('F1034');
  const summary = parseSummary(row);
  const dir = workDir(ctx, jobId);
  // One file per download (two downloads at once must not share it), removed once sent.
  const path = join(dir, `errors-${ctx.newId()}.xlsx`);
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useStyles: true });
  const sheet = book.addWorksheet('错误数据');
  const width = Math.max(...summary.header.map((r) => r.length), 0);
  const reasonCol = width + 1;
  for (const [i, header] of summary.header.entries()) {
    const cells = Array.from({ length: width }, (_, c) => header[c] ?? null);
    const added = sheet.addRow([
      ...cells,
      i === summary.header.length - 1 ? importText('reason', summary.locale) : null,
    ]);
    added.font = { bold: true };
    added.commit();
  }
  const dates = new Set(summary.dateColumns);
  const input = createInterface({
    input: createReadStream(join(dir, 'errors.jsonl')),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const text of input) {
    if (!text) continue;
    const item = JSON.parse(text) as { lines: Line[]; marks: [number, number, string][] };
    for (const [k, line] of item.lines.entries()) {
      const cells: (SheetCell | string)[] = Array.from({ length: width }, (_, c) => line.cells[c] ?? null);
      const reasons =
        k === 0 ? item.marks.map(([, , m]) => m) : item.marks.filter(([l]) => l === k).map(([, , m]) => m);
      const added = sheet.addRow([...cells, k === 0 ? reasons.join('；') : null]);
      for (const c of dates) {
        if (typeof cells[c] === 'number') added.getCell(c + 1).numFmt = 'yyyy-mm-dd hh:mm:ss';
      }
      for (const [l, col, message] of item.marks) {
        if (l !== k || col < 0) continue;
        const cell = added.getCell(col + 1);
        cell.fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFC7CE' } };
        cell.note = message;
      }
      if (k === 0) added.getCell(reasonCol).font = { color: { argb: 'FFC00000' } };
      added.commit();
    }
  }
  sheet.commit();
  await book.commit();
  return reply
    .header('content-type', XLSX_TYPE)
    .header(
      'content-disposition',
      contentDisposition('attachment', `${row.file_name.replace(/\.xlsx$/i, '')}_错误数据.xlsx`),
    )
    .header('cache-control', 'no-store')
    .send(createReadStream(path).on('close', () => void rm(path, { force: true })));
}

// ------------------------------------------------------------------------------------------------------
// Confirm and cancel

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

const pad = (n: number, width: number) => String(n).padStart(width, '0');

export async function confirmImport(
  ctx: AppContext,
  user: AuthUser,
  jobId: number,
  submit: boolean,
  locale: Locale,
): Promise<ImportJob> {
  const row = await ownJob(ctx, user, jobId);
  if (row.state !== 'checked') throw new AppError('F1034');
  if (row.valid_count === 0) throw new AppError('F1035');
  await holdJob(ctx, jobId);
  const claimed = await ctx.db
    .updateTable('diy_import_job')
    .set({ state: 'importing' })
    .where('id', '=', jobId)
    .where('state', '=', 'checked')
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) !== 1) {
    await releaseJob(ctx, jobId);
    throw new AppError('F1034');
  }
  const summary = parseSummary(row);
  writing.set(jobId, 0);
  background(async () => {
    try {
      const inserted = await writeRecords(ctx, user, row, summary, submit);
      // The error workbook stays available until the job expires; the staged rows are spent.
      for (const name of ['upload.xlsx', 'valid.jsonl'])
        await rm(join(workDir(ctx, jobId), name), { force: true });
      await ctx.db
        .updateTable('diy_import_job')
        .set({ state: 'done', inserted, finish_time: formatDateTime() })
        .where('id', '=', jobId)
        .execute();
    } catch (error) {
      const failure =
        error instanceof AppError
          ? businessMessage(error.code, summary.locale, error.params)
          : (error as Error).message;
      if (!(error instanceof AppError) && !(error instanceof DuplicateAtWrite))
        ctx.log.error({ err: error }, 'import failed');
      await ctx.db
        .updateTable('diy_import_job')
        .set({ state: 'failed', failure, finish_time: formatDateTime() })
        .where('id', '=', jobId)
        .execute()
        .catch(() => undefined);
    } finally {
      writing.delete(jobId);
      await releaseJob(ctx, jobId).catch(() => undefined);
    }
  }, false);
  return jobView(ctx, { ...row, state: 'importing' }, locale);
}

class DuplicateAtWrite extends Error {}

async function* stagedBatches(
  path: string,
  size: number,
): AsyncGenerator<{ row: number; values: RecordValues }[]> {
  const input = createInterface({ input: createReadStream(path), crlfDelay: Number.POSITIVE_INFINITY });
  let batch: { row: number; values: RecordValues }[] = [];
  for await (const text of input) {
    if (!text) continue;
    batch.push(JSON.parse(text));
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}

/** All staged rows in one transaction; F1034 when the form changed version since the check. */
async function writeRecords(
  ctx: AppContext,
  user: AuthUser,
  job: DiyImportJobTable,
  summary: Summary,
  submit: boolean,
): Promise<number> {
  const jobId = Number(job.id);
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForImport(ctx, user, Number(job.table_id), trx);
    const period = await filingPeriod(
      ctx,
      trx,
      open,
      job.period_id === null ? undefined : Number(job.period_id),
    );
    const version = period?.version ?? open.form.version;
    if (version !== summary.version) throw new AppError('F1034');
    const formDesign = await designOf(ctx, trx, open, version);
    const unique = valueFields(formDesign)
      .filter((f) => f.unique !== 'none' && f.type !== 'subTable')
      .map((f) => ({ field: f, column: columnFor(open.columns, f.id, version) }))
      .filter((u) => u.column && u.column.storageKind !== 'json');
    if (unique.length && ctx.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(${open.form.id})`.execute(trx);
    const table = dataTableName(open.form.id);
    const now = new Date();
    const nowText = formatDateTime(now);
    const status = submit
      ? open.form.needs_review === 1
        ? RECORD_STATUS.submitted
        : RECORD_STATUS.approved
      : RECORD_STATUS.draft;
    const numbering = submit ? numberingOf(formDesign) : null;
    let nextNo = 0;
    let key = '';
    if (numbering) {
      key = periodKey(numbering, now);
      const count = job.valid_count;
      const seq = await trx
        .insertInto('diy_table_seq')
        .values({ id: ctx.newId(), table_id: open.form.id, period_key: key, last_no: count })
        .onConflict((oc) =>
          oc
            .columns(['table_id', 'period_key'])
            .doUpdateSet({ last_no: sql<number>`diy_table_seq.last_no + ${count}` }),
        )
        .returning('last_no')
        .executeTakeFirstOrThrow();
      nextNo = Number(seq.last_no) - count + 1;
    }
    if (period?.onePerOrg && open.caller.orgId !== null) {
      const taken = await (trx as unknown as AnyDb)
        .selectFrom(table)
        .select('id')
        .where('is_delete', '=', 0)
        .where('period_id', '=', period.id)
        .where('create_org_id', '=', open.caller.orgId)
        .limit(1)
        .executeTakeFirst();
      if (taken) throw new AppError('F1024');
    }
    const columnCount = open.columns.length + 25;
    const size = Math.max(20, Math.min(500, Math.floor(30_000 / columnCount)));
    let inserted = 0;
    for await (const batch of stagedBatches(join(workDir(ctx, jobId), 'valid.jsonl'), size)) {
      for (const { field, column } of unique) {
        const name = safeColumn((column as { columnName: string }).columnName);
        const values = batch.map((b) => b.values[field.id]).filter((v) => v !== null && v !== undefined);
        if (values.length === 0) continue;
        let query = (trx as unknown as AnyDb)
          .selectFrom(table)
          .select('id')
          .where('is_delete', '=', 0)
          .where(sql.ref(name), 'in', values as never[]);
        if (field.unique === 'period' && period) query = query.where('period_id', '=', period.id);
        if (await query.limit(1).executeTakeFirst())
          throw new DuplicateAtWrite(importText('recheck', summary.locale, { label: field.label }));
      }
      const records = batch.map(({ values }) => {
        const id = ctx.newId();
        const dataNo = numbering ? `${numbering.prefix}${key}${pad(nextNo++, numbering.digits)}` : null;
        for (const field of valueFields(formDesign)) if (field.type === 'serialNo') values[field.id] = dataNo;
        return {
          ...toColumnValues(formDesign, open.columns, version, values),
          id,
          tenant_id: open.form.tenant_id,
          version,
          status,
          data_no: dataNo,
          submit_time: submit ? nowText : null,
          create_time: nowText,
          create_user_id: user.userId,
          create_user_name: user.realName,
          is_delete: 0,
          create_org_id: open.caller.orgId,
          create_org_name: open.caller.orgName,
          period_id: period?.id ?? null,
          is_zero: 0,
          late: submit && period?.late ? 1 : 0,
        };
      });
      await (trx as unknown as AnyDb).insertInto(table).values(records).execute();
      const changes = JSON.stringify([{ field: 'status', label: '状态', before: null, after: status }]);
      await trx
        .insertInto('diy_record_history')
        .values(
          records.map((r) => ({
            id: ctx.newId(),
            tenant_id: open.form.tenant_id,
            table_id: open.form.id,
            record_id: r.id,
            action: 'import',
            changes,
            comment: job.file_name,
            version,
            user_id: user.userId,
            user_name: user.realName,
            create_time: nowText,
          })),
        )
        .execute();
      inserted += records.length;
      writing.set(jobId, inserted);
    }
    await trx
      .updateTable('diy_table')
      .set((eb) => ({ last_update_time: nowText, record_count: eb('record_count', '+', inserted) }))
      .where('id', '=', open.form.id)
      .execute();
    return inserted;
  });
}
