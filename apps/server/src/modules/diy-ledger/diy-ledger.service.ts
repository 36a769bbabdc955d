import {
  type AnyField,
  CHOICE_TYPES,
  FILE_TYPES,
  type FormDesign,
  locationText,
  PICKER_TYPES,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import type { ledgerExportInputSchema } from '@shuzhi/contracts/diy-table';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { type DataRow, fromRow, safeColumn } from '../../platform/diy/data-table.ts';
import { parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { contentDisposition } from '../../platform/files/storage.ts';
import { workbookStream, XLSX_TYPE } from '../../platform/xlsx/xlsx-write.ts';
import { designOf, matching, openForm } from '../diy-data/diy-data.service.ts';
import { fileLabels } from '../diy-data/diy-record-files.ts';
import { dictLabels } from '../diy-data/diy-record-labels.ts';
import { periodNames } from '../diy-period/diy-period.service.ts';
import {
  headerLayout,
  type LedgerCell,
  type LedgerColumn,
  ledgerColumns,
  STATUS_LABELS,
} from './ledger-columns.ts';

type ExportInput = z.output<typeof ledgerExportInputSchema>;

/** Rows read per query (keyset on id): the memory of one batch, whatever the total (1000 let the heap grow ~2× more). */
export const LEDGER_BATCH = 250;

/** Ids → names, filled batch by batch (only the ids not seen yet are looked up). */
class NameCache {
  private readonly names = new Map<string, string>();
  constructor(private readonly lookup: (keys: string[]) => Promise<[string, string][]>) {}
  async load(keys: Iterable<string>): Promise<void> {
    const missing = [...new Set(keys)].filter((k) => !this.names.has(k));
    for (let i = 0; i < missing.length; i += 500) {
      const part = missing.slice(i, i + 500);
      for (const key of part) this.names.set(key, key);
      for (const [key, name] of await this.lookup(part)) this.names.set(key, name);
    }
    // A long export must not keep every name it ever met.
    if (this.names.size > 200_000) this.names.clear();
  }
  get(key: string): string {
    return this.names.get(key) ?? key;
  }
}

/** `yyyy-MM-dd[ HH:mm[:ss]]` or `yyyy-MM` → an Excel date (Excel dates carry no zone: written as UTC). */
export function excelDate(text: string): Date | null {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?)?$/.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s] = m;
  return new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d ?? 1), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)),
  );
}

const listOf = (value: unknown): unknown[] => (Array.isArray(value) ? value : [value]);
const numberOf = (value: unknown): number | null => {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && value.trim()
        ? Number(value)
        : Number.NaN;
  return Number.isFinite(n) ? n : null;
};
const plainText = (html: string) =>
  html
    .replace(/<br\s*\/?>|<\/p>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .trim();

type Names = {
  /** Period names by id (periodic forms). */
  periods: NameCache;
  orgs: NameCache;
  users: NameCache;
  regions: NameCache;
  dicts: Map<string, Map<string, string>>;
  files: Record<string, string>;
};

const NO_LABELS = new Map<string, string>();
const OPTION_LABELS = new WeakMap<AnyField, Map<string, string>>();
/** A choice field's own options, value → label (built once per field of a design). */
function optionLabels(field: AnyField): Map<string, string> {
  let map = OPTION_LABELS.get(field);
  if (!map) {
    map = new Map(
      field.options?.source === 'options' ? field.options.items.map((o) => [o.value, o.label]) : [],
    );
    OPTION_LABELS.set(field, map);
  }
  return map;
}

/** One cell of a value field: labels for coded values, numbers as numbers, dates as dates. */
function cellOf(field: AnyField, value: unknown, names: Names, filePath: string): LedgerCell {
  if (value === null || value === undefined || value === '') return null;
  if (FILE_TYPES.includes(field.type)) return names.files[filePath] ?? null;
  if (PICKER_TYPES.includes(field.type)) {
    const cache = field.type === 'user' ? names.users : names.orgs;
    return listOf(value)
      .map((v) => cache.get(String(v)))
      .join('、');
  }
  if (field.type === 'region') return names.regions.get(String(value));
  if (CHOICE_TYPES.includes(field.type) && field.options) {
    const source = field.options;
    const labels =
      source.source === 'options' ? optionLabels(field) : (names.dicts.get(source.dictCode) ?? NO_LABELS);
    return listOf(value)
      .map((v) => labels.get(String(v)) ?? String(v))
      .join('、');
  }
  switch (field.type) {
    case 'integer':
    case 'decimal':
    case 'money':
    case 'percent':
    case 'year':
      return numberOf(value) ?? String(value);
    case 'formula':
      return numberOf(value) ?? String(value);
    case 'date':
    case 'datetime':
    case 'month':
      return excelDate(String(value)) ?? String(value);
    case 'richText':
      return plainText(String(value));
    case 'location':
      return locationText(value) || null;
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/** Collects the ids a batch needs names for (top level and sub-table rows). */
function wantedIds(
  design: FormDesign,
  values: RecordValues,
  want: Record<'orgs' | 'users' | 'regions', string[]>,
) {
  const visit = (field: AnyField, value: unknown) => {
    if (value === null || value === undefined) return;
    if (field.type === 'user') for (const v of listOf(value)) want.users.push(String(v));
    else if (field.type === 'org' || field.type === 'enterprise')
      for (const v of listOf(value)) want.orgs.push(String(v));
    else if (field.type === 'region') want.regions.push(String(value));
  };
  for (const field of valueFields(design)) {
    const value = values[field.id];
    if (field.type === 'subTable') {
      if (!Array.isArray(value)) continue;
      for (const row of value as RecordValues[])
        for (const sub of field.columns ?? []) visit(sub, row?.[sub.id]);
    } else visit(field, value);
  }
}

function dictCodesOf(design: FormDesign): string[] {
  const codes = new Set<string>();
  const visit = (f: AnyField) => {
    if (CHOICE_TYPES.includes(f.type) && f.options?.source === 'dict') codes.add(f.options.dictCode);
  };
  for (const field of design.fields) {
    visit(field);
    for (const sub of field.columns ?? []) visit(sub);
  }
  return [...codes];
}

/** The sheet lines of one record: one per sub-table row (at least one); the record's cells on the first. */
function linesOf(
  columns: readonly LedgerColumn[],
  row: DataRow,
  values: RecordValues,
  names: Names,
  locale: Locale,
): LedgerCell[][] {
  let count = 1;
  for (const column of columns) {
    if (column.kind !== 'sub') continue;
    const rows = values[column.table.id];
    if (Array.isArray(rows)) count = Math.max(count, rows.length);
  }
  const lines: LedgerCell[][] = [];
  for (let line = 0; line < count; line++) {
    lines.push(
      columns.map((column): LedgerCell => {
        if (column.kind === 'system') {
          // Continuation lines repeat the record's number, so every line can be traced to its record.
          if (line > 0 && column.key !== 'dataNo') return null;
          switch (column.key) {
            case 'dataNo':
              return row.data_no;
            case 'status':
              return STATUS_LABELS[Number(row.status)]?.[locale] ?? String(row.status);
            case 'createUserName':
              return row.create_user_name;
            case 'createOrgName':
              return row.create_org_name;
            case 'period':
              return row.period_id === null ? null : names.periods.get(String(row.period_id));
            default:
              return row.submit_time ? excelDate(String(row.submit_time).slice(0, 19)) : null;
          }
        }
        if (column.kind === 'field') {
          if (line > 0) return null;
          const value =
            column.field.type === 'serialNo'
              ? (values[column.field.id] ?? row.data_no)
              : values[column.field.id];
          return cellOf(column.field, value, names, column.field.id);
        }
        const rows = values[column.table.id];
        const subRow = Array.isArray(rows) ? (rows[line] as RecordValues | undefined) : undefined;
        return cellOf(
          column.field,
          subRow?.[column.field.id],
          names,
          `${column.table.id}[${line}].${column.field.id}`,
        );
      }),
    );
  }
  return lines;
}

/**
 * `POST /api/diyTable/export_ledger`: the form's records matching the record page's filters (the same query
 * and reach as the list), streamed as an .xlsx. Needs `myAuth.export` (F1001). Rows are read in keyset
 * batches of `LEDGER_BATCH` by id and written as they come; the writer waits while the client is slow, so
 * memory stays bounded whatever the count.
 */
export async function exportLedger(
  ctx: AppContext,
  user: AuthUser,
  input: ExportInput,
  locale: Locale,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const open = await openForm(ctx, user, input.tableId);
  if (!open.auth.export) throw new AppError('F1001');
  const periodic = parsePeriodSettings(open.form.period).kind !== 'none';
  const columns = ledgerColumns(open.design, locale, periodic);
  const header = headerLayout(columns);
  const codes = new Set(dictCodesOf(open.design));
  const names: Names = {
    periods: new NameCache(async (keys) =>
      [...(await periodNames(ctx.db, keys.map(Number).filter(Number.isSafeInteger), locale)).entries()].map(
        ([id, name]): [string, string] => [String(id), name],
      ),
    ),
    orgs: new NameCache(async (keys) =>
      (
        await ctx.db
          .selectFrom('sys_org')
          .select(['id', 'name'])
          .where('id', 'in', keys.map(Number).filter(Number.isSafeInteger))
          .execute()
      ).map((r) => [String(r.id), r.name]),
    ),
    users: new NameCache(async (keys) =>
      (
        await ctx.db
          .selectFrom('sys_user')
          .select(['id', 'real_name'])
          .where('id', 'in', keys.map(Number).filter(Number.isSafeInteger))
          .execute()
      ).map((r) => [String(r.id), r.real_name]),
    ),
    regions: new NameCache(async (keys) =>
      (
        await ctx.db
          .selectFrom('sys_region')
          .select(['code', 'full_name'])
          .where('code', 'in', keys)
          .execute()
      ).map((r) => [r.code, r.full_name ?? r.code]),
    ),
    dicts: new Map(),
    files: {},
  };

  const base = await matching(ctx, open, input);
  // The system columns the sheet shows and every registered value column (older versions read old ones).
  const selected = [
    'id',
    'version',
    'status',
    'data_no',
    'submit_time',
    'create_user_name',
    'create_org_name',
    'period_id',
    ...new Set(open.columns.map((c) => safeColumn(c.columnName))),
  ];
  const out = workbookStream(ctx.log, async (book) => {
    const xlsx = await book.sheet({
      name: open.form.title,
      columns: columns.map((c) => ({ width: c.width, style: c.numFmt ? { numFmt: c.numFmt } : undefined })),
      frozenRows: header.rows.length,
      frozenColumns: 1,
    });
    await xlsx.rows(header.rows, { bold: true, center: true });
    const wantedCodes = new Set(codes);
    let last: number | string | null = null;
    for (;;) {
      let query = base.select(selected).orderBy('id', 'asc').limit(LEDGER_BATCH);
      if (last !== null) query = query.where('id', '>', last);
      const rows = (await query.execute()) as DataRow[];
      if (rows.length === 0) break;
      last = rows[rows.length - 1]?.id ?? null;
      const items: { design: FormDesign; values: RecordValues; row: DataRow }[] = [];
      const want = { orgs: [] as string[], users: [] as string[], regions: [] as string[] };
      for (const row of rows) {
        const design = await designOf(ctx, ctx.db, open, Number(row.version));
        const values = fromRow(design, open.columns, { ...row, version: Number(row.version) });
        wantedIds(design, values, want);
        for (const code of dictCodesOf(design)) wantedCodes.add(code);
        items.push({ design, values, row });
      }
      const newCodes = [...wantedCodes].filter((c) => !names.dicts.has(c));
      if (newCodes.length)
        for (const [code, map] of await dictLabels(ctx.db, newCodes)) names.dicts.set(code, map);
      if (periodic)
        await names.periods.load(rows.flatMap((r) => (r.period_id === null ? [] : [String(r.period_id)])));
      await names.orgs.load(want.orgs);
      await names.users.load(want.users);
      await names.regions.load(want.regions);
      const files = await fileLabels(ctx.db, open.form.tenant_id, items);
      const lines: LedgerCell[][] = [];
      for (const [i, { row, values }] of items.entries()) {
        names.files = files[i] ?? {};
        lines.push(...linesOf(columns, row, values, names, locale));
      }
      // Waits while the client is slower than the database: memory holds about one batch.
      await xlsx.rows(lines);
      if (rows.length < LEDGER_BATCH) break;
    }
    await xlsx.end({ merges: header.merges });
    await book.end();
  });
  const stamp = formatDateTime().replace(/\D/g, '');
  return reply
    .header('content-type', XLSX_TYPE)
    .header('content-disposition', contentDisposition('attachment', `${open.form.title}_${stamp}.xlsx`))
    .header('cache-control', 'no-store')
    .send(out);
}
