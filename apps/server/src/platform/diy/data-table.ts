import {
  FIELD_ID_PATTERN,
  type FieldType,
  type FormDesign,
  type FormField,
  type RecordValues,
  type StorageKind,
  storageKindOf,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { Dialect } from '../db/db.ts';
import { ensureSearchIndex } from './text-search.ts';

/**
 * The per-form data tables of report forms (docs/forms.md "Storage"): `diy_data_<formId>` is created on a
 * form's first publish; each value field has a column `f_<fieldId>`, and a later change of the field's storage
 * kind adds `f_<fieldId>_<n>`. `diy_table_column` registers every column with the version that created it, so
 * a record is read with the columns that were current for its own version. Nothing here ever drops a column.
 *
 * Table and column names are built here from numbers and field ids the server has checked against fixed
 * patterns, and asserted again before they reach any SQL text.
 */

// biome-ignore lint/suspicious/noExplicitAny: the data tables are not part of the static schema.
export type AnyDb = Kysely<any>;
type Db = Kysely<Database> | Transaction<Database>;

const TABLE_NAME = /^diy_data_[1-9][0-9]{0,15}$/;
const COLUMN_NAME = /^f_[a-z][a-z0-9]{0,23}(?:_[1-9][0-9]{0,3})?$/;
const INDEX_NAME = /^(?:ix|uq)_diy_data_[1-9][0-9]{0,15}_[a-z]{2,8}$/;
/** A value column's index: `ix_diy_data_<formId>_f_<fieldId>[_<n>]` (at most 60 characters). */
const FIELD_INDEX_NAME = /^ix_diy_data_[1-9][0-9]{0,15}_f_[a-z][a-z0-9]{0,23}(?:_[1-9][0-9]{0,3})?$/;

/** Stored kinds (layout fields have no column). */
export type ColumnKind = Exclude<StorageKind, 'none'>;

/** A registered physical column. */
export type DataColumn = {
  fieldId: string;
  columnName: string;
  storageKind: ColumnKind;
  createdVersion: number;
};

/** Throws unless `name` is one of the identifiers this module generates. */
function assertIdentifier(name: string, pattern: RegExp): string {
  if (!pattern.test(name)) throw new Error(`diy: refusing identifier ${JSON.stringify(name)}`);
  return name;
}

export function dataTableName(tableId: number): string {
  if (!Number.isSafeInteger(tableId) || tableId <= 0) throw new Error(`diy: bad form id ${tableId}`);
  return assertIdentifier(`diy_data_${tableId}`, TABLE_NAME);
}

function columnName(fieldId: string, n: number): string {
  if (!FIELD_ID_PATTERN.test(fieldId)) throw new Error(`diy: bad field id ${JSON.stringify(fieldId)}`);
  return assertIdentifier(n <= 1 ? `f_${fieldId}` : `f_${fieldId}_${n}`, COLUMN_NAME);
}

/** The SQL type of a storage kind in a dialect. */
function sqlType(kind: ColumnKind, dialect: Dialect): string {
  switch (kind) {
    case 'integer':
      return 'bigint';
    case 'decimal':
      return dialect === 'postgres' ? 'numeric(24,6)' : 'real';
    default:
      return 'text';
  }
}

/** The storage kind of a field as designed (pickers with `multiple` hold JSON arrays). */
export function kindOf(field: FormField): StorageKind {
  return storageKindOf(field.type, field.multiple === true);
}

/** Columns every data table has, besides the value columns. */
export const SYSTEM_COLUMNS = [
  'id',
  'tenant_id',
  'version',
  'status',
  'data_no',
  'submit_time',
  'audit_user_id',
  'audit_user_name',
  'audit_time',
  'audit_comment',
  'create_time',
  'update_time',
  'create_user_id',
  'create_user_name',
  'update_user_id',
  'update_user_name',
  'is_delete',
  'create_org_id',
  'create_org_name',
  'delete_time',
  'delete_user_name',
  'period_id',
  'is_zero',
  'late',
] as const;

/** A data-table row as read: system columns plus `f_…` columns. */
export type DataRow = {
  id: number;
  tenant_id: number;
  version: number;
  status: number;
  data_no: string | null;
  submit_time: string | null;
  audit_user_id: number | null;
  audit_user_name: string | null;
  audit_time: string | null;
  audit_comment: string | null;
  create_time: string;
  update_time: string | null;
  create_user_id: number | null;
  create_user_name: string | null;
  update_user_id: number | null;
  update_user_name: string | null;
  is_delete: number;
  create_org_id: number | null;
  create_org_name: string | null;
  delete_time: string | null;
  delete_user_name: string | null;
  /** Periodic forms: the record's period (docs/periods.md). */
  period_id: number | null;
  /** 1: a zero report (nothing to report in the period). */
  is_zero: number;
  /** 1: submitted after the period's due date. */
  late: number;
  [column: string]: unknown;
};

async function createDataTable(trx: Db, tableId: number): Promise<void> {
  const name = dataTableName(tableId);
  await trx.schema
    .createTable(name)
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('tenant_id', 'bigint', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('data_no', 'varchar(64)')
    .addColumn('submit_time', 'timestamp')
    .addColumn('audit_user_id', 'bigint')
    .addColumn('audit_user_name', 'varchar(64)')
    .addColumn('audit_time', 'timestamp')
    .addColumn('audit_comment', 'varchar(1000)')
    .addColumn('create_time', 'timestamp', (c) => c.notNull())
    .addColumn('update_time', 'timestamp')
    .addColumn('create_user_id', 'bigint')
    .addColumn('create_user_name', 'varchar(64)')
    .addColumn('update_user_id', 'bigint')
    .addColumn('update_user_name', 'varchar(64)')
    .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('create_org_id', 'bigint')
    .addColumn('create_org_name', 'varchar(128)')
    .addColumn('delete_time', 'timestamp')
    .addColumn('delete_user_name', 'varchar(64)')
    .addColumn('period_id', 'bigint')
    .addColumn('is_zero', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('late', 'smallint', (c) => c.notNull().defaultTo(0))
    .execute();
  const index = (suffix: string) => assertIdentifier(`ix_${name}_${suffix}`, INDEX_NAME);
  await trx.schema
    .createIndex(index('scope'))
    .on(name)
    .columns(['tenant_id', 'is_delete', 'create_org_id'])
    .execute();
  await trx.schema.createIndex(index('creator')).on(name).column('create_user_id').execute();
  const unique = assertIdentifier(`uq_${name}_no`, INDEX_NAME);
  await sql`create unique index ${sql.id(unique)} on ${sql.id(name)} (data_no) where data_no is not null`.execute(
    trx,
  );
}

/**
 * Field types whose lists are filtered by an exact value or a range: single choices, dates, whole numbers,
 * single pickers, regions and serial numbers. Free text, decimals and JSON values get no index.
 */
const INDEXED_TYPES: ReadonlySet<FieldType> = new Set<FieldType>([
  'select',
  'radio',
  'date',
  'datetime',
  'month',
  'quarter',
  'year',
  'integer',
  'region',
  'org',
  'user',
  'enterprise',
  'serialNo',
]);

/**
 * At most this many value columns of a form are indexed (unique fields first, then in design order): every
 * index costs each submission a B-tree write.
 */
export const MAX_FIELD_INDEXES = 16;

/** An indexed value column: `lookup` for unique fields, `list` for the filterable types. */
export type FieldIndex = { column: string; use: 'lookup' | 'list' };

const isUnique = (field: FormField) => field.unique !== undefined && field.unique !== 'none';

/**
 * The value columns of the current design that get an index: those of unique fields (the submission's
 * duplicate check looks them up) and of the filterable types (`INDEXED_TYPES`), scalar columns only.
 */
export function indexedColumns(
  design: Pick<FormDesign, 'fields'>,
  columns: readonly DataColumn[],
): FieldIndex[] {
  const fields = valueFields(design);
  const wanted = [
    ...fields.filter(isUnique),
    ...fields.filter((f) => !isUnique(f) && INDEXED_TYPES.has(f.type)),
  ];
  const out: FieldIndex[] = [];
  for (const field of wanted) {
    const column = columnFor(columns, field.id, Number.MAX_SAFE_INTEGER);
    if (!column || column.storageKind === 'json' || out.some((i) => i.column === column.columnName)) continue;
    out.push({ column: column.columnName, use: isUnique(field) ? 'lookup' : 'list' });
    if (out.length === MAX_FIELD_INDEXES) break;
  }
  return out;
}

/** The name of a value column's index. */
export function fieldIndexName(tableId: number, column: string): string {
  return assertIdentifier(`ix_${dataTableName(tableId)}_${safeColumn(column)}`, FIELD_INDEX_NAME);
}

/**
 * Creates the indexes that record lists need and that are missing (each publish, so forms published before
 * an index existed get it on their next publish): live records in id order (tenant_id, is_delete, id), each
 * filterable column as (tenant_id, is_delete, column, id) — an equality filter then reads one index range
 * already in the default order (newest first), a range filter sorts ids only, counts never touch the rows,
 * and the column comes after the two equalities every list has, so that SQLite prefers it to the live index
 * even without statistics — and each unique field as (column, is_delete), for the duplicate check of every
 * submission (`column = ? and is_delete = 0`).
 */
export async function ensureIndexes(
  trx: Db,
  tableId: number,
  design: Pick<FormDesign, 'fields'>,
  columns: readonly DataColumn[],
): Promise<void> {
  const name = dataTableName(tableId);
  const live = assertIdentifier(`ix_${name}_live`, INDEX_NAME);
  await sql`create index if not exists ${sql.id(live)} on ${sql.id(name)} (tenant_id, is_delete, id)`.execute(
    trx,
  );
  // Lists of one period, the one-record-per-unit check and the roll-ups read this.
  const period = assertIdentifier(`ix_${name}_period`, INDEX_NAME);
  await sql`create index if not exists ${sql.id(period)} on ${sql.id(name)} (tenant_id, is_delete, period_id, create_org_id)`.execute(
    trx,
  );
  for (const { column, use } of indexedColumns(design, columns)) {
    const index = sql.id(fieldIndexName(tableId, column));
    const ref = sql.id(column);
    await (use === 'lookup'
      ? sql`create index if not exists ${index} on ${sql.id(name)} (${ref}, is_delete)`
      : sql`create index if not exists ${index} on ${sql.id(name)} (tenant_id, is_delete, ${ref}, id)`
    ).execute(trx);
  }
}

/** The registered columns of a form, oldest first. */
export async function loadColumns(db: Db, tableId: number): Promise<DataColumn[]> {
  const rows = await db
    .selectFrom('diy_table_column')
    .select(['field_id', 'column_name', 'storage_kind', 'created_version'])
    .where('table_id', '=', tableId)
    .orderBy('created_version')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    fieldId: r.field_id,
    columnName: assertIdentifier(r.column_name, COLUMN_NAME),
    storageKind: r.storage_kind as ColumnKind,
    createdVersion: r.created_version,
  }));
}

/** The column that held `fieldId` for records of `version`: the newest one created at or before it. */
export function columnFor(
  columns: readonly DataColumn[],
  fieldId: string,
  version: number,
): DataColumn | null {
  let found: DataColumn | null = null;
  for (const column of columns) {
    if (column.fieldId === fieldId && column.createdVersion <= version) {
      if (!found || column.createdVersion >= found.createdVersion) found = column;
    }
  }
  return found;
}

/**
 * Publishes the physical side of version `version` of a form, inside the publishing transaction: creates
 * the data table on the first publish, then adds a column for each value field that has none yet, or whose
 * storage kind differs from its current column's. Answers the columns added.
 */
export async function publishColumns(
  trx: Db,
  dialect: Dialect,
  newId: () => number,
  tableId: number,
  design: Pick<FormDesign, 'fields'>,
  version: number,
  now: string,
): Promise<DataColumn[]> {
  const existing = await loadColumns(trx, tableId);
  if (version === 1) await createDataTable(trx, tableId);
  const name = dataTableName(tableId);
  const added: DataColumn[] = [];
  for (const field of valueFields(design)) {
    const kind = kindOf(field);
    if (kind === 'none') continue;
    const own = existing.filter((c) => c.fieldId === field.id);
    const current = columnFor(own, field.id, Number.MAX_SAFE_INTEGER);
    if (current && current.storageKind === kind) continue;
    const taken = new Set(existing.map((c) => c.columnName));
    let n = own.length + 1;
    while (taken.has(columnName(field.id, n))) n++;
    const column: DataColumn = {
      fieldId: field.id,
      columnName: columnName(field.id, n),
      storageKind: kind,
      createdVersion: version,
    };
    await trx.schema
      .alterTable(name)
      .addColumn(column.columnName, sql.raw(sqlType(kind, dialect)))
      .execute();
    await trx
      .insertInto('diy_table_column')
      .values({
        id: newId(),
        table_id: tableId,
        field_id: field.id,
        column_name: column.columnName,
        storage_kind: kind,
        created_version: version,
        create_time: now,
      })
      .execute();
    existing.push(column);
    added.push(column);
  }
  await ensureIndexes(trx, tableId, design, existing);
  // New text columns: the search index takes them (SQLite builds its FTS table again).
  await ensureSearchIndex(trx, dialect, tableId, existing);
  return added;
}

/** Whether the form's data table exists (it does once the form was published). */
export async function dataTableExists(db: Db, tableId: number): Promise<boolean> {
  const hit = await db
    .selectFrom('diy_table_version')
    .select('id')
    .where('table_id', '=', tableId)
    .limit(1)
    .executeTakeFirst();
  return hit !== undefined;
}

/**
 * Copies a form's physical table to another form id: the same column registry, the same columns, every row
 * (used by clone with records). Runs in the caller's transaction.
 */
export async function copyDataTable(
  trx: Db,
  dialect: Dialect,
  newId: () => number,
  fromId: number,
  toId: number,
  now: string,
): Promise<void> {
  const columns = await loadColumns(trx, fromId);
  await createDataTable(trx, toId);
  const name = dataTableName(toId);
  for (const column of columns) {
    await trx.schema
      .alterTable(name)
      .addColumn(column.columnName, sql.raw(sqlType(column.storageKind, dialect)))
      .execute();
    await trx
      .insertInto('diy_table_column')
      .values({
        id: newId(),
        table_id: toId,
        field_id: column.fieldId,
        column_name: column.columnName,
        storage_kind: column.storageKind,
        created_version: column.createdVersion,
        create_time: now,
      })
      .execute();
  }
  const list = [...SYSTEM_COLUMNS, ...columns.map((c) => c.columnName)].map((c) => sql.id(c));
  await sql`insert into ${sql.id(name)} (${sql.join(list)}) select ${sql.join(list)} from ${sql.id(
    dataTableName(fromId),
  )} where is_delete = 0`.execute(trx);
  await ensureSearchIndex(trx, dialect, toId, columns);
  const latest = await trx
    .selectFrom('diy_table_version')
    .select('design')
    .where('table_id', '=', fromId)
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (latest) {
    await ensureIndexes(trx, toId, JSON.parse(latest.design) as Pick<FormDesign, 'fields'>, columns);
  }
}

/** A stored value as the column takes it. */
function toColumn(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'json') return JSON.stringify(value);
  if (kind === 'integer' || kind === 'decimal') return typeof value === 'number' ? value : Number(value);
  return String(value);
}

/** A column's value as the record holds it. */
function fromColumn(kind: ColumnKind, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (kind === 'json') {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (kind === 'integer' || kind === 'decimal') {
    const n = typeof value === 'number' ? value : Number(value);
    return Number.isFinite(n) ? n : null;
  }
  return String(value);
}

/**
 * Column values for validated record values under `version` (the form's current version): every value field
 * of the design gets its column (an absent value is written as null).
 */
export function toColumnValues(
  design: Pick<FormDesign, 'fields'>,
  columns: readonly DataColumn[],
  version: number,
  values: RecordValues,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of valueFields(design)) {
    const column = columnFor(columns, field.id, version);
    if (!column) continue;
    out[column.columnName] = toColumn(column.storageKind, values[field.id]);
  }
  return out;
}

/** The values of a row, by field id, read with the design and columns of the row's own version. */
export function fromRow(
  design: Pick<FormDesign, 'fields'>,
  columns: readonly DataColumn[],
  row: DataRow,
): RecordValues {
  const values: RecordValues = {};
  for (const field of valueFields(design)) {
    const column = columnFor(columns, field.id, row.version);
    values[field.id] = column ? fromColumn(column.storageKind, row[column.columnName]) : null;
  }
  return values;
}

/** Checks that a column name is one of ours (for callers that pass one to the query builder). */
export function safeColumn(name: string): string {
  return assertIdentifier(name, COLUMN_NAME);
}
