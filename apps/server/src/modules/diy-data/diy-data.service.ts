import {
  type AnyField,
  CHOICE_TYPES,
  FILE_TYPES,
  type FormDesign,
  type FormField,
  type Numbering,
  numberingSchema,
  RECORD_STATUS,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import type { PrefillResult } from '@shuzhi/contracts/diy-period';
import type {
  DiyRecord,
  FormDesignForFilling,
  RecordHistory,
  recordFilterSchema,
  recordPageInputSchema,
} from '@shuzhi/contracts/diy-table';
import {
  type FieldErrors,
  fieldErrorText,
  labelOfPath,
  MAX_RECORD_NUMBER,
  validateRecord,
} from '@shuzhi/contracts/diy-validate';
import { type PageResult, STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import { type ExpressionBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import {
  type AnyDb,
  columnFor,
  type DataColumn,
  type DataRow,
  dataTableName,
  fromRow,
  safeColumn,
  toColumnValues,
} from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  assertPasswordVerified,
  type Caller,
  type FormAuth,
  formWithAuth,
  parsePeriodSettings,
  type RecordReach,
  recordCan,
  recordReach,
} from '../../platform/diy/form-access.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import {
  assertFilable,
  type FilingPeriod,
  periodOfForm,
  periodSummaries,
  recordPeriodState,
  resolveFilingPeriod,
} from '../diy-period/diy-period.service.ts';
import { type PeriodSpan, shiftIntoPeriod } from '../diy-period/period-shift.ts';
import { usableOrgNames, usableUserNames } from '../diy-table/diy-pick.ts';
import { columnsAt, EMPTY_DESIGN, formItemOf, versionDesign } from '../diy-table/diy-table.service.ts';
import { attachRecordFiles, fileLabels } from './diy-record-files.ts';

type Db = AppContext['db'] | Transaction<Database>;
type PageInput = z.output<typeof recordPageInputSchema>;
type RecordFilter = z.output<typeof recordFilterSchema>;

/**
 * Records of report forms (`/api/diyData/{tableId}/…`, SPEC §7 generic CRUD per form): reads narrowed to
 * what `formAuth` lets the caller see, writes validated with the shared rules (`validateRecord`) plus the
 * checks that need the database, formulas and serial numbers set here, and every step written to
 * `diy_record_history` in the record's own transaction.
 */

/** An open form: the caller's rights, the published design and the column registry. */
export type OpenForm = {
  form: DiyTableTable;
  auth: FormAuth;
  caller: Caller;
  design: FormDesign;
  columns: DataColumn[];
  reach: RecordReach;
  /** Designs by version, loaded on demand. */
  designs: Map<number, FormDesign>;
};

export async function openForm(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  db: Db = ctx.db,
): Promise<OpenForm> {
  const { form, auth, caller } = await formWithAuth(ctx, user, tableId, db);
  if (!auth.published) throw new AppError('F1002');
  if (!auth.enabled && !auth.admin) throw new AppError('F1003');
  await assertPasswordVerified(ctx, user, form, auth);
  const design = (await versionDesign(ctx, db, form.id, form.version)) ?? EMPTY_DESIGN;
  const columns = await columnsAt(ctx, db, form.id, form.version);
  return {
    form,
    auth,
    caller,
    design,
    columns,
    reach: recordReach(auth, caller),
    designs: new Map([[form.version, design]]),
  };
}

export async function designOf(
  ctx: AppContext,
  db: Db,
  open: OpenForm,
  version: number,
): Promise<FormDesign> {
  const hit = open.designs.get(version);
  if (hit) return hit;
  const design = (await versionDesign(ctx, db, open.form.id, version)) ?? open.design;
  open.designs.set(version, design);
  return design;
}

/** Live records of the form the caller may see. */
function reachable(db: Db, open: OpenForm) {
  let query = (db as AnyDb)
    .selectFrom(dataTableName(open.form.id))
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', open.form.tenant_id);
  const { reach } = open;
  if (!reach.all) {
    // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
    query = query.where((eb: ExpressionBuilder<any, any>) => {
      const self = eb('create_user_id', '=', reach.userId);
      return reach.orgIds.length > 0 ? eb.or([eb('create_org_id', 'in', reach.orgIds), self]) : self;
    });
  }
  return query;
}

const SYSTEM_SORT: Record<string, string> = {
  id: 'id',
  createTime: 'create_time',
  updateTime: 'update_time',
  submitTime: 'submit_time',
  status: 'status',
  dataNo: 'data_no',
  createOrgName: 'create_org_name',
  createUserName: 'create_user_name',
};

const escapeLike = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function likeOp(ctx: AppContext) {
  return sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
}

/** The current column of a field, or null (unknown field, layout field, never published). */
function currentColumn(open: OpenForm, fieldId: string): DataColumn | null {
  return columnFor(open.columns, fieldId, open.form.version);
}

/**
 * A filter value as the column stores it; undefined when it is no value of that kind. A number the column
 * cannot hold (1e20 on a bigint, 1.5 on an integer) is refused as the filter's error, not sent to the database.
 */
function scalar(column: DataColumn, value: unknown, path: PropertyKey[]): unknown {
  if (column.storageKind === 'integer' || column.storageKind === 'decimal') {
    // Only text and numbers are read: Number() of a caller's object runs its own toString/valueOf keys.
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
    if (!Number.isFinite(n)) return undefined;
    const fits =
      column.storageKind === 'integer' ? Number.isSafeInteger(n) : Math.abs(n) <= MAX_RECORD_NUMBER;
    if (!fits) {
      throw new ValidationError([{ code: 'custom', path, message: 'out of range', input: value }], 'body');
    }
    return n;
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: see reachable().
function applyFilter(ctx: AppContext, query: any, open: OpenForm, filter: RecordFilter, index: number): any {
  const column = currentColumn(open, filter.field);
  const at = (...rest: number[]): PropertyKey[] => ['filters', index, 'value', ...rest];
  if (!column) return query;
  const ref = sql.ref(safeColumn(column.columnName));
  switch (filter.op) {
    case 'prefix': {
      // Region codes under a region (roll-up drill-down): only region fields, the value a code prefix.
      const field = valueFields(open.design).find((f) => f.id === filter.field);
      if (field?.type !== 'region' || typeof filter.value !== 'string' || filter.value === '') return query;
      const pattern = `${filter.value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return query.where(sql<SqlBool>`${ref} like ${pattern} escape '\\'`);
    }
    case 'empty':
      return query.where(ref, 'is', null);
    case 'notEmpty':
      return query.where(ref, 'is not', null);
    case 'contains': {
      const text = typeof filter.value === 'number' ? String(filter.value) : filter.value;
      if (typeof text !== 'string' || text === '') return query;
      return query.where(sql<SqlBool>`${ref} ${likeOp(ctx)} ${escapeLike(text)} escape '\\'`);
    }
    case 'in': {
      if (!Array.isArray(filter.value) || filter.value.length === 0) return query;
      if (column.storageKind === 'json') {
        // Multi-values are JSON arrays of strings or numbers: any of the wanted values inside.
        const parts = filter.value
          .slice(0, 50)
          .map((v) => sql<SqlBool>`${ref} like ${escapeLike(JSON.stringify(v))} escape '\\'`);
        // biome-ignore lint/suspicious/noExplicitAny: see reachable().
        return query.where((eb: ExpressionBuilder<any, any>) => eb.or(parts));
      }
      const values = filter.value
        .slice(0, 500)
        .map((v, i) => scalar(column, v, at(i)))
        .filter((v) => v !== undefined);
      return values.length ? query.where(ref, 'in', values) : query;
    }
    case 'between': {
      if (!Array.isArray(filter.value)) return query;
      const [from, to] = filter.value as unknown[];
      let q = query;
      const low =
        from === null || from === '' || from === undefined ? undefined : scalar(column, from, at(0));
      const high = to === null || to === '' || to === undefined ? undefined : scalar(column, to, at(1));
      if (low !== undefined) q = q.where(ref, '>=', low);
      if (high !== undefined) q = q.where(ref, '<=', high);
      return q;
    }
    default: {
      const value = scalar(column, filter.value, at());
      if (value === undefined) return query;
      const op = filter.op === 'eq' ? '=' : filter.op === 'gte' ? '>=' : '<=';
      return query.where(ref, op, value);
    }
  }
}

/** The live, reachable records matching the record page's filters (also the Excel ledger's rows). */
// biome-ignore lint/suspicious/noExplicitAny: see reachable().
export function filtered(ctx: AppContext, open: OpenForm, input: Partial<PageInput>): any {
  let query = reachable(ctx.db, open);
  if (typeof input.status === 'number') query = query.where('status', '=', input.status);
  if (input.mine) query = query.where('create_user_id', '=', open.caller.user.userId);
  if (typeof input.periodId === 'number') query = query.where('period_id', '=', input.periodId);
  if (typeof input.orgId === 'number' && input.orgOwn) {
    query = query.where('create_org_id', '=', input.orgId);
  } else if (typeof input.orgId === 'number') {
    // The org and every org below it (`full_ids` is the path from the root, the org itself included), within
    // the form's tenant; still narrowed to what the caller reaches.
    const marker = `%,${input.orgId},%`;
    query = query.where(
      sql<SqlBool>`${sql.ref('create_org_id')} in (select o.id from sys_org o where o.tenant_id = ${open.form.tenant_id} and (o.id = ${input.orgId} or (',' || o.full_ids || ',') like ${marker}))`,
    );
  }
  const [from, to] = input.createTime ?? [];
  if (from) query = query.where('create_time', '>=', from.length === 10 ? `${from} 00:00:00` : from);
  if (to) query = query.where('create_time', '<=', to.length === 10 ? `${to} 23:59:59` : to);
  if (input.keyword) {
    const pattern = escapeLike(input.keyword);
    const texts = open.columns.filter((c) => c.storageKind === 'text' || c.storageKind === 'json');
    const op = likeOp(ctx);
    // biome-ignore lint/suspicious/noExplicitAny: see reachable().
    query = query.where((eb: ExpressionBuilder<any, any>) =>
      eb.or([
        sql<SqlBool>`${sql.ref('data_no')} ${op} ${pattern} escape '\\'`,
        ...texts.map((c) => sql<SqlBool>`${sql.ref(safeColumn(c.columnName))} ${op} ${pattern} escape '\\'`),
      ]),
    );
  }
  for (const [index, filter] of (input.filters ?? []).entries()) {
    query = applyFilter(ctx, query, open, filter, index);
  }
  return query;
}

function sortable(open: OpenForm): Record<string, string> {
  const map: Record<string, string> = { ...SYSTEM_SORT };
  for (const field of valueFields(open.design)) {
    const column = currentColumn(open, field.id);
    if (column && column.storageKind !== 'json') map[field.id] = safeColumn(column.columnName);
  }
  return map;
}

/** Display labels of coded values (options, dictionaries, orgs, users, regions) by field id. */
export async function labelsOf(
  ctx: AppContext,
  records: { design: FormDesign; values: RecordValues }[],
): Promise<Record<string, string>[]> {
  const orgIds = new Set<number>();
  const userIds = new Set<number>();
  const regions = new Set<string>();
  const dictCodes = new Set<string>();
  for (const { design, values } of records) {
    for (const field of valueFields(design)) {
      const value = values[field.id];
      if (value === null || value === undefined) continue;
      const list = Array.isArray(value) ? value : [value];
      if (field.type === 'org' || field.type === 'enterprise') for (const v of list) orgIds.add(Number(v));
      else if (field.type === 'user') for (const v of list) userIds.add(Number(v));
      else if (field.type === 'region') regions.add(String(value));
      else if (CHOICE_TYPES.includes(field.type) && field.options?.source === 'dict') {
        dictCodes.add(field.options.dictCode);
      }
    }
  }
  const orgNames = orgIds.size
    ? new Map(
        (
          await ctx.db
            .selectFrom('sys_org')
            .select(['id', 'name'])
            .where('id', 'in', [...orgIds])
            .execute()
        ).map((r) => [r.id, r.name]),
      )
    : new Map<number, string>();
  const userNames = userIds.size
    ? new Map(
        (
          await ctx.db
            .selectFrom('sys_user')
            .select(['id', 'real_name'])
            .where('id', 'in', [...userIds])
            .execute()
        ).map((r) => [r.id, r.real_name]),
      )
    : new Map<number, string>();
  const regionNames = regions.size
    ? new Map(
        (
          await ctx.db
            .selectFrom('sys_region')
            .select(['code', 'full_name'])
            .where('code', 'in', [...regions])
            .execute()
        ).map((r) => [r.code, r.full_name]),
      )
    : new Map<string, string>();
  const dicts = await dictLabels(ctx.db, [...dictCodes]);
  return records.map(({ design, values }) => {
    const labels: Record<string, string> = {};
    for (const field of valueFields(design)) {
      const value = values[field.id];
      if (value === null || value === undefined) continue;
      const list = Array.isArray(value) ? value : [value];
      let names: (string | undefined)[] | null = null;
      if (field.type === 'org' || field.type === 'enterprise')
        names = list.map((v) => orgNames.get(Number(v)));
      else if (field.type === 'user') names = list.map((v) => userNames.get(Number(v)));
      else if (field.type === 'region') names = [regionNames.get(String(value))];
      else if (CHOICE_TYPES.includes(field.type) && field.options) {
        const source = field.options;
        const map =
          source.source === 'options'
            ? new Map(source.items.map((o) => [o.value, o.label]))
            : (dicts.get(source.dictCode) ?? new Map<string, string>());
        names = list.map((v) => map.get(String(v)));
      }
      if (names) labels[field.id] = names.map((n, i) => n ?? String(list[i])).join('、');
    }
    return labels;
  });
}

/** Enabled dictionary values and labels by dictionary code. */
export async function dictLabels(db: Db, codes: string[]): Promise<Map<string, Map<string, string>>> {
  const out = new Map<string, Map<string, string>>();
  if (codes.length === 0) return out;
  const rows = await db
    .selectFrom('sys_dict_data as d')
    .innerJoin('sys_dict_type as t', 't.id', 'd.dict_type_id')
    .select(['t.code', 'd.value', 'd.label'])
    .where('t.code', 'in', codes)
    .where('t.is_delete', '=', 0)
    .where('d.is_delete', '=', 0)
    .where('d.status', '=', STATUS.enabled)
    .execute();
  for (const code of codes) out.set(code, new Map());
  for (const r of rows) out.get(r.code)?.set(r.value, r.label);
  return out;
}

async function toRecords(
  ctx: AppContext,
  open: OpenForm,
  rows: DataRow[],
  locale: Locale,
): Promise<DiyRecord[]> {
  const items: { design: FormDesign; values: RecordValues; row: DataRow }[] = [];
  for (const row of rows) {
    const design = await designOf(ctx, ctx.db, open, row.version);
    items.push({ design, values: fromRow(design, open.columns, row), row });
  }
  const labels = await labelsOf(ctx, items);
  const files = await fileLabels(ctx.db, open.form.tenant_id, items);
  const periods = await periodSummaries(
    ctx.db,
    rows.filter((r) => r.period_id !== null).map((r) => Number(r.period_id)),
    locale,
  );
  return items.map(({ values, row }, i) => ({
    id: Number(row.id),
    tableId: open.form.id,
    version: row.version,
    status: row.status,
    dataNo: row.data_no,
    periodId: row.period_id === null ? null : Number(row.period_id),
    periodName: row.period_id === null ? null : (periods.get(Number(row.period_id))?.name ?? null),
    periodClosed: row.period_id === null ? false : (periods.get(Number(row.period_id))?.closed ?? false),
    isZero: Number(row.is_zero) === 1,
    late: Number(row.late) === 1,
    values,
    labels: { ...labels[i], ...files[i] },
    submitTime: row.submit_time,
    auditUserName: row.audit_user_name,
    auditTime: row.audit_time,
    auditComment: row.audit_comment,
    createOrgId: row.create_org_id === null ? null : Number(row.create_org_id),
    createOrgName: row.create_org_name,
    createTime: row.create_time,
    createUserId: row.create_user_id === null ? null : Number(row.create_user_id),
    createUserName: row.create_user_name,
    updateTime: row.update_time,
    updateUserName: row.update_user_name,
    can: recordCan(open.auth, open.caller, {
      create_org_id: row.create_org_id === null ? null : Number(row.create_org_id),
      create_user_id: row.create_user_id === null ? null : Number(row.create_user_id),
      status: row.status,
    }),
  }));
}

function requireQuery(open: OpenForm): void {
  if (!open.auth.query) throw new AppError('F1001');
}

export async function recordPage(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: PageInput,
  locale: Locale,
): Promise<PageResult<DiyRecord>> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  // The page's ids first, then their rows: counting, sorting and skipping run on ids (an index holds them
  // for the indexed filters, see data-table.ts), and only the page's rows are read whole.
  const ids = await paged(filtered(ctx, open, input).select('id'), input, {
    sortable: sortable(open),
    defaultOrder: 'id',
    map: (row: { id: number | string }) => Number(row.id),
  });
  return { ...ids, items: await toRecords(ctx, open, await rowsInOrder(ctx.db, open, ids.items), locale) };
}

/** The rows of `ids` (live and reachable), in the order of `ids`. */
async function rowsInOrder(db: Db, open: OpenForm, ids: number[]): Promise<DataRow[]> {
  if (ids.length === 0) return [];
  const rows = (await reachable(db, open).selectAll().where('id', 'in', ids).execute()) as DataRow[];
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids.map((id) => byId.get(id)).filter((row): row is DataRow => row !== undefined);
}

export const RECORD_LIST_LIMIT = 1000;

export async function recordList(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: Partial<PageInput>,
  locale: Locale,
): Promise<DiyRecord[]> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  const ids = (await filtered(ctx, open, input)
    .select('id')
    .orderBy('id', 'desc')
    .limit(RECORD_LIST_LIMIT)
    .execute()) as { id: number | string }[];
  return toRecords(
    ctx,
    open,
    await rowsInOrder(
      ctx.db,
      open,
      ids.map((r) => Number(r.id)),
    ),
    locale,
  );
}

export async function findRow(db: Db, open: OpenForm, id: number): Promise<DataRow> {
  const row = (await reachable(db, open).selectAll().where('id', '=', id).executeTakeFirst()) as
    | DataRow
    | undefined;
  if (!row) throw new AppError('F1008');
  return { ...row, id: Number(row.id), version: Number(row.version), status: Number(row.status) };
}

export async function recordDetail(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  id: number,
  locale: Locale,
): Promise<DiyRecord> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  const [record] = await toRecords(ctx, open, [await findRow(ctx.db, open, id)], locale);
  return record as DiyRecord;
}

/** `GET /design?version=`: the form item and a version's design (default: the published one). */
export async function designForFilling(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  version: number | undefined,
  locale: Locale,
  periodId?: number,
): Promise<FormDesignForFilling> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  const period = periodId === undefined ? null : await periodOfForm(ctx.db, open.form, periodId);
  const wanted = version ?? period?.version ?? open.form.version;
  if (wanted > open.form.version) throw new AppError('F1002');
  return {
    item: await formItemOf(ctx, user, open.form, open.caller, locale),
    version: wanted,
    design: await designOf(ctx, ctx.db, open, wanted),
  };
}

export async function recordHistory(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  id: number,
): Promise<RecordHistory[]> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  await findRow(ctx.db, open, id);
  const rows = await ctx.db
    .selectFrom('diy_record_history')
    .selectAll()
    .where('table_id', '=', open.form.id)
    .where('record_id', '=', id)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    action: r.action as RecordHistory['action'],
    changes: parseChanges(r.changes),
    comment: r.comment,
    userName: r.user_name,
    createTime: r.create_time,
    version: r.version,
  }));
}

function parseChanges(text: string): RecordHistory['changes'] {
  try {
    const value = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

// ------------------------------------------------------------------------------------------------------
// Writes

const ROW_WORD: Record<Locale, (n: number) => string> = {
  'zh-CN': (n) => `第${n}行`,
  en: (n) => `row ${n}`,
  'zh-TW': (n) => `第${n}列`,
};

function fieldErrorsOf(design: FormDesign, errors: FieldErrors, locale: Locale): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [path, error] of Object.entries(errors)) {
    out[path] = [fieldErrorText(error, labelOfPath(design, path, ROW_WORD[locale]), locale)];
  }
  return out;
}

/** Every field of the design with the values it holds, top level and inside sub-table rows. */
function* fieldValues(
  design: FormDesign,
  values: RecordValues,
): Generator<{ field: AnyField; value: unknown; path: string }> {
  for (const field of valueFields(design)) {
    const value = values[field.id];
    if (field.type === 'subTable') {
      const rows = Array.isArray(value) ? (value as RecordValues[]) : [];
      for (const [i, row] of rows.entries()) {
        for (const column of (field as FormField).columns ?? []) {
          yield { field: column, value: row?.[column.id], path: `${field.id}[${i}].${column.id}` };
        }
      }
    } else yield { field, value, path: field.id };
  }
}

const listOf = (value: unknown): unknown[] =>
  value === null || value === undefined ? [] : Array.isArray(value) ? value : [value];

/**
 * The checks that need the database: picked orgs, enterprises and users must be ones the caller may use
 * (values already on the record stay allowed), files must be the caller's uploads (or already attached),
 * regions must exist; with `unique`, values of unique fields must not repeat among the form's live records.
 */
async function databaseErrors(
  db: Db,
  open: OpenForm,
  design: FormDesign,
  version: number,
  values: RecordValues,
  previous: RecordValues | null,
  recordId: number | null,
  checkUnique: boolean,
  periodId: number | null,
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  const kept = new Set<string>();
  if (previous) {
    for (const { field, value } of fieldValues(design, previous)) {
      for (const v of listOf(value)) kept.add(`${field.type}:${String(v)}`);
    }
  }
  const wanted = { org: new Set<number>(), enterprise: new Set<number>(), user: new Set<number>() };
  const files = new Set<number>();
  const regions = new Set<string>();
  const entries = [...fieldValues(design, values)];
  for (const { field, value } of entries) {
    for (const v of listOf(value)) {
      if (kept.has(`${field.type}:${String(v)}`)) continue;
      if (field.type === 'org' || field.type === 'enterprise' || field.type === 'user') {
        wanted[field.type].add(Number(v));
      } else if (FILE_TYPES.includes(field.type)) files.add(Number(v));
      else if (field.type === 'region') regions.add(String(v));
    }
  }
  const usable = {
    org: await usableOrgNames(db as AppContext['db'], open.caller, [...wanted.org], false),
    enterprise: await usableOrgNames(db as AppContext['db'], open.caller, [...wanted.enterprise], true),
    user: await usableUserNames(db as AppContext['db'], open.caller, [...wanted.user]),
  };
  const fileIds = files.size
    ? new Set(
        (
          await db
            .selectFrom('sys_file')
            .select('id')
            .where('id', 'in', [...files])
            .where('tenant_id', '=', open.form.tenant_id)
            .where('is_delete', '=', 0)
            .where('create_user_id', '=', open.caller.user.userId)
            .execute()
        ).map((r) => r.id),
      )
    : new Set<number>();
  const regionCodes = regions.size
    ? new Set(
        (
          await db
            .selectFrom('sys_region')
            .select('code')
            .where('code', 'in', [...regions])
            .where('is_delete', '=', 0)
            .execute()
        ).map((r) => r.code),
      )
    : new Set<string>();
  for (const { field, value, path } of entries) {
    for (const v of listOf(value)) {
      if (kept.has(`${field.type}:${String(v)}`)) continue;
      const ok =
        field.type === 'org' || field.type === 'enterprise' || field.type === 'user'
          ? usable[field.type].has(Number(v))
          : FILE_TYPES.includes(field.type)
            ? fileIds.has(Number(v))
            : field.type === 'region'
              ? regionCodes.has(String(v))
              : true;
      if (!ok) {
        errors[path] = { code: 'notFound' };
        break;
      }
    }
  }
  if (checkUnique) {
    for (const field of valueFields(design)) {
      if (field.unique === 'none' || errors[field.id]) continue;
      const value = values[field.id];
      if (value === null || value === undefined || Array.isArray(value) || typeof value === 'object')
        continue;
      const column = columnFor(open.columns, field.id, version);
      if (!column || column.storageKind === 'json') continue;
      let query = (db as AnyDb)
        .selectFrom(dataTableName(open.form.id))
        .select('id')
        .where('is_delete', '=', 0)
        .where(sql.ref(safeColumn(column.columnName)), '=', value);
      if (recordId !== null) query = query.where('id', '!=', recordId);
      // Unique within the period: only records of the same period count (forms without periods: the form).
      if (field.unique === 'period' && periodId !== null) query = query.where('period_id', '=', periodId);
      if (await query.limit(1).executeTakeFirst()) {
        errors[field.id] = { code: 'duplicate', params: { value: String(value) } };
      }
    }
  }
  return errors;
}

/** Dictionary values of the design's dictionary-bound choices. */
async function dictOptionsOf(db: Db, design: FormDesign): Promise<Map<string, Set<string>>> {
  const codes = new Set<string>();
  for (const field of valueFields(design)) {
    for (const f of [field, ...(field.columns ?? [])] as AnyField[]) {
      if (CHOICE_TYPES.includes(f.type) && f.options?.source === 'dict') codes.add(f.options.dictCode);
    }
  }
  const labels = await dictLabels(db, [...codes]);
  return new Map([...labels].map(([code, map]) => [code, new Set(map.keys())]));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function periodKey(numbering: Numbering, now: Date): string {
  const y = String(now.getFullYear());
  const m = pad(now.getMonth() + 1);
  const d = pad(now.getDate());
  switch (numbering.datePart) {
    case 'yyyy':
      return y;
    case 'yyyyMM':
      return `${y}${m}`;
    case 'yyyyMMdd':
      return `${y}${m}${d}`;
    default:
      return '';
  }
}

/** The form's numbering: its own, or the default when it has a serial-number field. */
export function numberingOf(design: FormDesign): Numbering | null {
  if (design.numbering) return design.numbering;
  return design.fields.some((f) => f.type === 'serialNo') ? numberingSchema.parse({}) : null;
}

/**
 * The next serial number of a form, in the record's transaction: the counter row of the period is created
 * or incremented in one statement, so concurrent submissions get distinct numbers and a rolled-back
 * submission gives its number back.
 */
export async function nextDataNo(
  db: Db,
  newId: () => number,
  tableId: number,
  numbering: Numbering,
  now: Date = new Date(),
): Promise<string> {
  const period = periodKey(numbering, now);
  const row = await db
    .insertInto('diy_table_seq')
    .values({ id: newId(), table_id: tableId, period_key: period, last_no: 1 })
    .onConflict((oc) =>
      oc.columns(['table_id', 'period_key']).doUpdateSet({ last_no: sql<number>`diy_table_seq.last_no + 1` }),
    )
    .returning('last_no')
    .executeTakeFirstOrThrow();
  return `${numbering.prefix}${period}${pad(Number(row.last_no), numbering.digits)}`;
}

export type Change = { field: string; label: string; before: unknown; after: unknown };

function changesBetween(design: FormDesign, before: RecordValues | null, after: RecordValues): Change[] {
  const changes: Change[] = [];
  for (const field of valueFields(design)) {
    const b = before?.[field.id] ?? null;
    const a = after[field.id] ?? null;
    if (JSON.stringify(b) !== JSON.stringify(a)) {
      changes.push({ field: field.id, label: field.label, before: b, after: a });
    }
  }
  return changes;
}

export async function writeHistory(
  ctx: AppContext,
  db: Db,
  open: OpenForm,
  recordId: number,
  action: RecordHistory['action'],
  changes: Change[],
  version: number,
  now: string,
  comment: string | null = null,
): Promise<void> {
  await db
    .insertInto('diy_record_history')
    .values({
      id: ctx.newId(),
      tenant_id: open.form.tenant_id,
      table_id: open.form.id,
      record_id: recordId,
      action,
      changes: JSON.stringify(changes),
      comment,
      version,
      user_id: open.caller.user.userId,
      user_name: open.caller.user.realName,
      create_time: now,
    })
    .execute();
}

export type SaveInput = {
  id?: number | undefined;
  /** Periodic forms, new records: the period (default: the current one). */
  periodId?: number | undefined;
  values: RecordValues;
  submit: boolean;
};

/** F1024 when the caller's org (or the caller, without an org) already has a live record in the period. */
/**
 * One record per unit and period: `code` when `unit` (an org, or a user without one) already has another live
 * record in the period (the caller's own filing by default; a hand-over names the receiver and the record).
 */
export async function assertNotFiled(
  db: Db | AnyDb,
  open: OpenForm,
  periodId: number,
  unit: { orgId: number | null; userId: number } = {
    orgId: open.caller.orgId,
    userId: open.caller.user.userId,
  },
  except: { recordId: number; code: 'F1036' } | null = null,
): Promise<void> {
  let query = (db as AnyDb)
    .selectFrom(dataTableName(open.form.id))
    .select('id')
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', open.form.tenant_id)
    .where('period_id', '=', periodId);
  if (except) query = query.where('id', '!=', except.recordId);
  query =
    unit.orgId !== null
      ? query.where('create_org_id', '=', unit.orgId)
      : query.where('create_user_id', '=', unit.userId);
  if (await query.limit(1).executeTakeFirst()) throw new AppError(except?.code ?? 'F1024');
}

/**
 * The period a write goes to and the version it is filed with: a new record takes `resolveFilingPeriod`'s
 * period (and that period's version, docs/periods.md); an existing record keeps its period, which must
 * still take changes (F1021 / F1022 / F1023), and is saved with that period's version.
 */
async function filingOf(
  ctx: AppContext,
  db: Db,
  open: OpenForm,
  row: DataRow | null,
  periodId: number | undefined,
  now: Date,
): Promise<FilingPeriod | null> {
  if (row === null) return resolveFilingPeriod(ctx, db, open.form, periodId, now);
  const found = await recordPeriodState(db, open.form, row.period_id, now);
  if (!found) return null;
  assertFilable(found.state);
  return {
    id: found.period.id,
    name: found.period.name,
    start: found.period.start_date,
    version: found.period.version,
    late: found.state === 'grace',
    onePerOrg: false,
  };
}

/** Takes the form's per-form turn on PostgreSQL (SQLite runs one write transaction at a time anyway). */
async function formTurn(ctx: AppContext, trx: Db, open: OpenForm): Promise<void> {
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${open.form.id})`.execute(trx);
}

/**
 * Adds (`id` absent) or updates a record in one transaction. Drafts check the kinds of the values only;
 * submitting (or changing a record already submitted) checks every rule, unique values included. Field
 * problems come back as field errors keyed by path in the request's language; nothing is written then.
 * Records of periodic forms go through the period rules (docs/periods.md).
 */
export async function saveRecord(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: SaveInput,
  locale: Locale,
  now: Date = new Date(),
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    const nowText = formatDateTime(now);
    let row: DataRow | null = null;
    let previous: RecordValues | null = null;
    if (input.id === undefined) {
      if (!open.auth.add) throw new AppError('F1001');
    } else {
      row = await findRow(trx, open, input.id);
      const can = recordCan(open.auth, open.caller, {
        create_org_id: row.create_org_id === null ? null : Number(row.create_org_id),
        create_user_id: row.create_user_id === null ? null : Number(row.create_user_id),
        status: row.status,
      });
      if (!can.update) throw new AppError(row.status === RECORD_STATUS.approved ? 'F1009' : 'F1001');
      previous = fromRow(await designOf(ctx, trx, open, row.version), open.columns, row);
    }
    const filing = await filingOf(ctx, trx, open, row, input.periodId, now);
    // A periodic record is filed with its period's version: a version published mid-period applies from the
    // next period.
    const version = filing ? filing.version : open.form.version;
    const design = await designOf(ctx, trx, open, version);
    const strict = input.submit || row?.status === RECORD_STATUS.submitted;
    if (row === null && filing?.onePerOrg) {
      // One record per unit and period: two simultaneous first filings of one org must not both pass.
      await formTurn(ctx, trx, open);
      await assertNotFiled(trx, open, filing.id);
    } else if (strict && valueFields(design).some((f) => f.unique !== 'none')) {
      // Two submissions of the same unique value must not both pass the check.
      await formTurn(ctx, trx, open);
    }
    const dicts = await dictOptionsOf(trx, design);
    const { values, errors } = validateRecord(design, input.values, {
      mode: strict ? 'submit' : 'draft',
      dictOptions: (code) => dicts.get(code),
    });
    const more = await databaseErrors(
      trx,
      open,
      design,
      version,
      values,
      previous,
      row?.id ?? null,
      strict,
      filing?.id ?? null,
    );
    const all = { ...more, ...errors };
    if (Object.keys(all).length > 0) throw new FieldErrorsError(fieldErrorsOf(design, all, locale));

    let dataNo = row?.data_no ?? null;
    const numbering = numberingOf(design);
    if (input.submit && dataNo === null && numbering) {
      dataNo = await nextDataNo(trx, ctx.newId, open.form.id, numbering, now);
    }
    for (const field of valueFields(design)) if (field.type === 'serialNo') values[field.id] = dataNo;

    const submitted = input.submit && row?.status !== RECORD_STATUS.submitted;
    const status = input.submit
      ? open.form.needs_review === 1
        ? RECORD_STATUS.submitted
        : RECORD_STATUS.approved
      : (row?.status ?? RECORD_STATUS.draft);
    // Submitted in the grace window (or a reopening past the due date): late.
    const late = submitted && filing?.late ? { late: 1 } : {};
    const columns = toColumnValues(design, open.columns, version, values);
    const table = dataTableName(open.form.id);
    let id: number;
    if (row === null) {
      id = ctx.newId();
      await (trx as AnyDb)
        .insertInto(table)
        .values({
          ...columns,
          id,
          tenant_id: open.form.tenant_id,
          version,
          status,
          data_no: dataNo,
          submit_time: input.submit ? nowText : null,
          create_time: nowText,
          create_user_id: user.userId,
          create_user_name: user.realName,
          is_delete: 0,
          create_org_id: open.caller.orgId,
          create_org_name: open.caller.orgName,
          period_id: filing?.id ?? null,
          is_zero: 0,
          late: 0,
          ...late,
        })
        .execute();
      await writeHistory(
        ctx,
        trx,
        open,
        id,
        'create',
        changesBetween(design, null, values),
        version,
        nowText,
      );
    } else {
      id = row.id;
      await (trx as AnyDb)
        .updateTable(table)
        .set({
          ...columns,
          version,
          status,
          data_no: dataNo,
          // A zero report that is edited becomes a real report.
          is_zero: 0,
          ...late,
          ...(submitted ? { submit_time: nowText } : {}),
          update_time: nowText,
          update_user_id: user.userId,
          update_user_name: user.realName,
        })
        .where('id', '=', id)
        .execute();
      const changes = changesBetween(design, previous, values);
      if (changes.length > 0) {
        await writeHistory(ctx, trx, open, id, 'update', changes, version, nowText);
      }
    }
    if (submitted) {
      const statusChange = [{ field: 'status', label: '状态', before: row?.status ?? null, after: status }];
      await writeHistory(ctx, trx, open, id, 'submit', statusChange, version, nowText);
    }
    await attachRecordFiles(trx, open.form.tenant_id, open.form.id, id, design, values);
    await trx
      .updateTable('diy_table')
      .set((eb) => ({
        last_update_time: nowText,
        ...(row === null ? { record_count: eb('record_count', '+', 1) } : {}),
      }))
      .where('id', '=', open.form.id)
      .execute();
    return id;
  });
}

/**
 * `POST /zeroReport`: "nothing to report" for the caller's org in a period: a record with no values, submitted
 * (approved when the form has no review), `is_zero = 1`, history `zero` with the comment. The same rights as
 * adding; F1024 when the org already filed in the period.
 */
export async function zeroReport(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: { periodId: number; comment?: string | undefined },
  now: Date = new Date(),
): Promise<number> {
  return ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    if (!open.auth.add) throw new AppError('F1001');
    const filing = await resolveFilingPeriod(ctx, trx, open.form, input.periodId, now);
    if (!filing) throw new AppError('F1027');
    await formTurn(ctx, trx, open);
    await assertNotFiled(trx, open, filing.id);
    const nowText = formatDateTime(now);
    const status = open.form.needs_review === 1 ? RECORD_STATUS.submitted : RECORD_STATUS.approved;
    const id = ctx.newId();
    await (trx as AnyDb)
      .insertInto(dataTableName(open.form.id))
      .values({
        id,
        tenant_id: open.form.tenant_id,
        version: filing.version,
        status,
        data_no: null,
        submit_time: nowText,
        create_time: nowText,
        create_user_id: user.userId,
        create_user_name: user.realName,
        is_delete: 0,
        create_org_id: open.caller.orgId,
        create_org_name: open.caller.orgName,
        period_id: filing.id,
        is_zero: 1,
        late: filing.late ? 1 : 0,
      })
      .execute();
    const statusChange = [{ field: 'status', label: '状态', before: null, after: status }];
    await writeHistory(
      ctx,
      trx,
      open,
      id,
      'zero',
      statusChange,
      filing.version,
      nowText,
      input.comment || null,
    );
    await trx
      .updateTable('diy_table')
      .set((eb) => ({ last_update_time: nowText, record_count: eb('record_count', '+', 1) }))
      .where('id', '=', open.form.id)
      .execute();
    return id;
  });
}

/** Field kinds a pre-fill leaves out: numbered, uploaded or computed values belong to their own record. */
const NOT_PREFILLED = new Set(['serialNo', 'formula', ...FILE_TYPES]);

/**
 * The values a new record of period `to` takes from a record of period `from`: numbered, uploaded and computed
 * values left out, dates within the source period moved into the new one (`shiftIntoPeriod`).
 */
function prefillValues(
  design: FormDesign,
  source: RecordValues,
  from: PeriodSpan,
  to: PeriodSpan,
): RecordValues {
  const out: RecordValues = {};
  for (const field of valueFields(design)) {
    if (NOT_PREFILLED.has(field.type)) continue;
    const value = source[field.id];
    if (value === null || value === undefined) continue;
    if (field.type === 'subTable' && Array.isArray(value)) {
      const keep = (field.columns ?? []).filter((c) => !NOT_PREFILLED.has(c.type));
      out[field.id] = (value as RecordValues[]).map((r) =>
        Object.fromEntries(
          keep
            .filter((c) => r?.[c.id] !== undefined)
            .map((c) => [c.id, shiftIntoPeriod(c.type, r[c.id], from, to)]),
        ),
      );
    } else out[field.id] = shiftIntoPeriod(field.type, value, from, to);
  }
  return out;
}

/**
 * `GET /prefill?periodId=`: the newest live record (not a zero report) of the caller's org (or the caller,
 * without an org) in a period that started before this one, its values reduced to the fields of this
 * period's version (serial numbers, files and formulas left out). Null when there is none.
 */
export async function prefill(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  periodId: number,
): Promise<PrefillResult> {
  const open = await openForm(ctx, user, tableId);
  if (!open.auth.add) throw new AppError('F1001');
  if (parsePeriodSettings(open.form.period).kind === 'none') throw new AppError('F1027');
  const target = await periodOfForm(ctx.db, open.form, periodId);
  const earlier = ctx.db
    .selectFrom('diy_table_period')
    .select('id')
    .where('table_id', '=', open.form.id)
    .where('start_date', '<', target.start_date);
  let query = (ctx.db as unknown as AnyDb)
    .selectFrom(`${dataTableName(open.form.id)} as r`)
    .innerJoin('diy_table_period as p', 'p.id', 'r.period_id')
    .selectAll('r')
    .select(['p.name as period_name', 'p.start_date as period_start', 'p.end_date as period_end'])
    .where('r.is_delete', '=', 0)
    .where('r.is_zero', '=', 0)
    .where('r.tenant_id', '=', open.form.tenant_id)
    .where('r.period_id', 'in', earlier);
  query =
    open.caller.orgId !== null
      ? query.where('r.create_org_id', '=', open.caller.orgId)
      : query.where('r.create_user_id', '=', user.userId);
  const row = (await query
    .orderBy('p.start_date', 'desc')
    .orderBy('r.id', 'desc')
    .limit(1)
    .executeTakeFirst()) as
    | (DataRow & { period_name: string; period_start: string; period_end: string })
    | undefined;
  if (!row) return null;
  const source = fromRow(await designOf(ctx, ctx.db, open, Number(row.version)), open.columns, row);
  return {
    fromRecordId: Number(row.id),
    fromPeriodName: row.period_name,
    values: prefillValues(
      await designOf(ctx, ctx.db, open, target.version),
      source,
      { start: row.period_start, end: row.period_end },
      { start: target.start_date, end: target.end_date },
    ),
  };
}

/** Soft-deletes records the caller may delete (all or none), writing a history step for each. */
export async function deleteRecords(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  ids: readonly number[],
): Promise<void> {
  const wanted = [...new Set(ids)];
  await ctx.db.transaction().execute(async (trx) => {
    const open = await openForm(ctx, user, tableId, trx);
    const now = formatDateTime();
    for (const id of wanted) {
      const row = await findRow(trx, open, id);
      const can = recordCan(open.auth, open.caller, {
        create_org_id: row.create_org_id === null ? null : Number(row.create_org_id),
        create_user_id: row.create_user_id === null ? null : Number(row.create_user_id),
        status: row.status,
      });
      if (!can.delete) throw new AppError(row.status === RECORD_STATUS.approved ? 'F1009' : 'F1001');
      const period = await recordPeriodState(trx, open.form, row.period_id);
      if (period) assertFilable(period.state);
      await (trx as AnyDb)
        .updateTable(dataTableName(open.form.id))
        .set({
          is_delete: 1,
          delete_time: now,
          delete_user_name: user.realName,
          update_time: now,
          update_user_id: user.userId,
          update_user_name: user.realName,
        })
        .where('id', '=', id)
        .execute();
      await writeHistory(ctx, trx, open, id, 'delete', [], row.version, now);
    }
    await trx
      .updateTable('diy_table')
      .set((eb) => ({ last_update_time: now, record_count: eb('record_count', '-', wanted.length) }))
      .where('id', '=', open.form.id)
      .execute();
  });
}
