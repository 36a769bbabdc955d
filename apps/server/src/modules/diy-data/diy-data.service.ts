import { type FormDesign, valueFields } from '@shuzhi/contracts/diy-form';
import type { recordFilterSchema, recordPageInputSchema } from '@shuzhi/contracts/diy-table';
import { MAX_RECORD_NUMBER } from '@shuzhi/contracts/diy-validate';
import { type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { escapeLikeText, likeContaining } from '../../platform/db/like.ts';
import { columnFor, type DataColumn, type DataRow, safeColumn } from '../../platform/diy/data-table.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import {
  assertPasswordVerified,
  type Caller,
  type FormAuth,
  formWithAuth,
  type RecordReach,
  recordReach,
} from '../../platform/diy/form-access.ts';
import { isSearchColumn, recordCandidates } from '../../platform/diy/text-search.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';
import { columnsAt, EMPTY_DESIGN, versionDesign } from '../diy-table/diy-table.service.ts';
import { choicesLabelled } from './diy-record-labels.ts';

export type PageInput = z.output<typeof recordPageInputSchema>;
type RecordFilter = z.output<typeof recordFilterSchema>;

/**
 * Records of report forms (`/api/diyData/{tableId}/…`, SPEC §7 generic CRUD per form): reads narrowed to
 * what `formAuth` lets the caller see, writes validated with the shared rules (`validateRecord`) plus the
 * checks that need the database, formulas and serial numbers set here, and every step written to
 * `diy_record_history` in the record's own transaction.
 *
 * This file opens a form for a caller and says which of its records the caller reaches and which match a
 * list's filters; the module's other files each do one job on top of it: `diy-record-query.ts` (pages,
 * lists, one record, the design to fill), `diy-record-labels.ts` (display labels of coded values),
 * `diy-record-checks.ts` (the checks that need the database), `diy-record-numbering.ts` (serial numbers),
 * `diy-record-history.ts` (the steps of a record), `diy-record-save.ts` (save, zero report, delete),
 * `diy-record-prefill.ts` (values from an earlier period), `diy-review.ts` and `diy-handover.ts` (review,
 * hand-over, numbering and counts on demand), `diy-record-files.ts` (files of records).
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
export function reachable(db: Db, open: OpenForm) {
  let query = recordsOf(db, open.form.id)
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', open.form.tenant_id);
  const { reach } = open;
  if (!reach.all) {
    query = query.where((eb) => {
      const self = eb('create_user_id', '=', reach.userId);
      return reach.orgIds.length > 0 ? eb.or([eb('create_org_id', 'in', reach.orgIds), self]) : self;
    });
  }
  return query;
}

/** A query over a form's live, reachable records (`reachable`, `filtered`). */
export type RecordQuery = ReturnType<typeof reachable>;

/** What `recordCan` needs of a row. */
export function recordFacts(row: DataRow) {
  return {
    create_org_id: row.create_org_id === null ? null : Number(row.create_org_id),
    create_user_id: row.create_user_id === null ? null : Number(row.create_user_id),
    status: row.status,
  };
}

function likeOp(ctx: AppContext) {
  return sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
}

/** The current column of a field, or null (unknown field, layout field, never published). */
export function currentColumn(open: OpenForm, fieldId: string): DataColumn | null {
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

function applyFilter(
  ctx: AppContext,
  query: RecordQuery,
  open: OpenForm,
  filter: RecordFilter,
  index: number,
): RecordQuery {
  const column = currentColumn(open, filter.field);
  const at = (...rest: number[]): PropertyKey[] => ['filters', index, 'value', ...rest];
  if (!column) return query;
  const ref = sql.ref(safeColumn(column.columnName));
  switch (filter.op) {
    case 'prefix': {
      // Region codes under a region (roll-up drill-down): only region fields, the value a code prefix.
      const field = valueFields(open.design).find((f) => f.id === filter.field);
      if (field?.type !== 'region' || typeof filter.value !== 'string' || filter.value === '') return query;
      const pattern = `${escapeLikeText(filter.value)}%`;
      return query.where(sql<SqlBool>`${ref} like ${pattern} escape '\\'`);
    }
    case 'empty':
      return query.where(ref, 'is', null);
    case 'notEmpty':
      return query.where(ref, 'is not', null);
    case 'contains': {
      const text = typeof filter.value === 'number' ? String(filter.value) : filter.value;
      if (typeof text !== 'string' || text === '') return query;
      const q = query.where(sql<SqlBool>`${ref} ${likeOp(ctx)} ${likeContaining(text)} escape '\\'`);
      // Text columns are in the search index: it narrows to its candidates, the LIKE above decides.
      const narrowed = isSearchColumn(column)
        ? recordCandidates(ctx.dialect, open.form.id, open.columns, text, column)
        : null;
      return narrowed ? q.where(narrowed) : q;
    }
    case 'in': {
      if (!Array.isArray(filter.value) || filter.value.length === 0) return query;
      if (column.storageKind === 'json') {
        // Multi-values are JSON arrays of strings or numbers: any of the wanted values inside.
        const parts = filter.value
          .slice(0, 50)
          .map((v) => sql<SqlBool>`${ref} like ${likeContaining(JSON.stringify(v))} escape '\\'`);
        return query.where((eb) => eb.or(parts));
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

/**
 * The live, reachable records matching the record page's filters (also the Excel ledger's rows). `choices`: the
 * option values whose labels contain the keyword (`choicesLabelled`), so that the keyword finds a record by an
 * option's label as well as by its texts.
 */
function filtered(
  ctx: AppContext,
  open: OpenForm,
  input: Partial<PageInput>,
  choices: ReadonlyMap<string, readonly string[]> = new Map(),
): RecordQuery {
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
    const pattern = likeContaining(input.keyword);
    const texts = open.columns.filter(isSearchColumn);
    const op = likeOp(ctx);
    const likes = [
      sql<SqlBool>`${sql.ref('data_no')} ${op} ${pattern} escape '\\'`,
      ...texts.map((c) => sql<SqlBool>`${sql.ref(safeColumn(c.columnName))} ${op} ${pattern} escape '\\'`),
    ];
    // The search index narrows the texts to its candidates (docs/search.md); the LIKE decides.
    const narrowed = recordCandidates(ctx.dialect, open.form.id, open.columns, input.keyword);
    const labelled = [...choices].flatMap(([fieldId, values]) => {
      const column = currentColumn(open, fieldId);
      if (!column || values.length === 0) return [];
      const ref = sql.ref(safeColumn(column.columnName));
      // A multiple choice is a JSON array of the values.
      return column.storageKind === 'json'
        ? values.map((v) => sql<SqlBool>`${ref} ${op} ${likeContaining(JSON.stringify(v))} escape '\\'`)
        : [sql<SqlBool>`${ref} in (${sql.join(values)})`];
    });
    query = query.where((eb) => {
      const byText = narrowed ? eb.and([eb.or(likes), narrowed]) : eb.or(likes);
      return labelled.length > 0 ? eb.or([byText, ...labelled]) : byText;
    });
  }
  for (const [index, filter] of (input.filters ?? []).entries()) {
    query = applyFilter(ctx, query, open, filter, index);
  }
  return query;
}

/** `filtered` with the option values whose labels contain the keyword. */
export async function matching(
  ctx: AppContext,
  open: OpenForm,
  input: Partial<PageInput>,
): Promise<RecordQuery> {
  const choices = input.keyword ? await choicesLabelled(ctx.db, open.design, input.keyword) : new Map();
  return filtered(ctx, open, input, choices);
}

export function requireQuery(open: OpenForm): void {
  if (!open.auth.query) throw new AppError('F1001');
}

export async function findRow(db: Db, open: OpenForm, id: number): Promise<DataRow> {
  const row = await reachable(db, open)
    .selectAll()
    .$castTo<DataRow>()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw new AppError('F1008');
  return { ...row, id: Number(row.id), version: Number(row.version), status: Number(row.status) };
}
