import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { type AnyField, type FormDesign, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import { IMPORT_ERROR_SAMPLE, IMPORT_MAX_ROWS } from '@shuzhi/contracts/diy-import';
import {
  defaultValues,
  type FieldErrors,
  fieldErrorText,
  rowDefaultValues,
  validateRecord,
} from '@shuzhi/contracts/diy-validate';
import type { Locale } from '@shuzhi/contracts/i18n';
import { sql } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime, wallClockAt } from '../../platform/db/time.ts';
import { type AnyDb, columnFor, dataTableName, safeColumn } from '../../platform/diy/data-table.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import type { SheetCell, SheetRow } from '../../platform/xlsx/sheet-read.ts';
import type { OpenForm } from '../diy-data/diy-data.service.ts';
import { dictLabels } from '../diy-data/diy-record-labels.ts';
import { dictCodes, isClosing, type Period, type Summary } from './diy-import.service.ts';
import type { Mapping } from './import-columns.ts';
import { importText, owned, Resolver } from './import-values.ts';

/** Records per batch: looked up, checked and counted together. */
const BATCH = 1000;

export type Line = { row: number; cells: SheetCell[] };
type Pending = { lines: Line[] };
type Checked = { record: Pending; values: RecordValues; marks: Map<string, string>; duplicate: boolean };

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

/**
 * Checks the rows of an upload in batches of `BATCH` records (docs/import.md "Database checks"): cells to
 * values, the form's rules, unique values within the file and against live records, one record per org;
 * progress goes to the job row after each batch.
 */
export class Checker {
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
    const today = wallClockAt();
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
      if (isClosing()) throw new Error('server stopping');
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
    await this.loadNames(batch);
    const checked = batch.map((record) => this.convert(record));
    await this.markDuplicates(checked);
    await this.store(checked, valid, errors);
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

  /** Looks up the regions, orgs, enterprises and users the batch names, all at once. */
  private async loadNames(batch: Pending[]): Promise<void> {
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
  }

  /** A record's cells as values (defaults for blanks), checked with the form's rules; bad cells marked. */
  private convert(record: Pending): Checked {
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
    return { record, values, marks, duplicate: false };
  }

  /** Unique values: against earlier rows of the file, then against live records. */
  private async markDuplicates(checked: Checked[]): Promise<void> {
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
  }

  /** Valid records to `valid.jsonl`, bad ones with their marks to `errors.jsonl`; the counts and error sample. */
  private async store(checked: Checked[], valid: Lines, errors: Lines): Promise<void> {
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
