import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type DiffEntry, recordDiff } from '../audit/audit.ts';
import type { AuthUser } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError } from '../errors/app-error.ts';
import { toColumn, toField } from './case.ts';
import type { AnyDb, AnyRow, CrudPlan } from './crud-plan.ts';
import type { CrudReads } from './crud-read.ts';
import type { WriteAction } from './crud-spec.ts';

type Diff = Pick<DiffEntry, 'recordId' | 'operation' | 'before' | 'after'>;
/** What a write got to before it failed: the row it checked for unique keys, and the diffs it owes. */
type Attempt = { row?: AnyRow; selfId?: number; diffs: Diff[] };

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/** A row in API field names, for a diff log (only built for sensitive tables). */
const fieldsOf = (row: AnyRow): AnyRow =>
  Object.fromEntries(Object.entries(row).map(([column, value]) => [toField(column), value]));

const stampUpdate = (user: AuthUser) => ({
  update_time: formatDateTime(),
  update_user_id: user.userId,
  update_user_name: user.realName,
});

const asDb = (trx: Transaction<Database>) => trx as unknown as AnyDb;

/** The writable input fields as columns (the factory's own columns are never taken from the input). */
function columnsOf(plan: CrudPlan, input: AnyRow): AnyRow {
  const values: AnyRow = {};
  for (const [field, value] of Object.entries(input)) {
    if (value !== undefined && plan.writable.has(field)) values[toColumn(field)] = value;
  }
  return values;
}

/** Rows for a write, locked in by the transaction; D1002 unless every id is there. */
async function rowsFor(
  reads: CrudReads,
  trx: Transaction<Database>,
  user: AuthUser,
  ids: number[],
): Promise<AnyRow[]> {
  const unique = [...new Set(ids)];
  const rows = await (await reads.visible(asDb(trx), user)).selectAll().where('id', 'in', unique).execute();
  if (rows.length !== unique.length) throw new AppError('D1002');
  return rows;
}

/** D1006 when a unique key of `row` is taken by another live row (of the same tenant and `within` values). */
async function checkUnique(plan: CrudPlan, trx: Transaction<Database>, row: AnyRow, selfId: number | null) {
  for (const key of plan.unique) {
    const column = toColumn(key.field);
    const value = row[column];
    if (value === null || value === undefined) continue;
    let query = asDb(trx)
      .selectFrom(plan.table)
      .select('id')
      .where(column, '=', value)
      .where('is_delete', '=', 0);
    for (const other of key.within ?? []) query = query.where(toColumn(other), '=', row[toColumn(other)]);
    if (plan.tenant) query = query.where('tenant_id', '=', row.tenant_id);
    if (selfId !== null) query = query.where('id', '!=', selfId);
    if (await query.executeTakeFirst())
      throw new AppError('D1006', { field: key.label, value: String(value) });
  }
}

/**
 * Runs a write in one transaction, then the diffs and `afterChange`. Should a unique index trip all the same
 * (a concurrent write won the race), the committed winner is there to name in the D1006.
 */
async function runWrite<T>(
  plan: CrudPlan,
  user: AuthUser,
  action: WriteAction,
  run: (trx: Transaction<Database>, attempt: Attempt) => Promise<{ ids: number[]; result: T }>,
  traceId: string | null,
): Promise<T> {
  const { ctx } = plan;
  const attempt: Attempt = { diffs: [] };
  let done: { ids: number[]; result: T };
  try {
    done = await ctx.db.transaction().execute((trx) => run(trx, attempt));
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    if (attempt.row) {
      await ctx.db
        .transaction()
        .execute((trx) => checkUnique(plan, trx, attempt.row as AnyRow, attempt.selfId ?? null));
    }
    const key = plan.unique[0];
    throw new AppError('D1006', {
      field: key?.label ?? { 'zh-CN': '记录', en: 'Record', 'zh-TW': '記錄' },
      value: key ? String(attempt.row?.[toColumn(key.field)] ?? '') : '',
    });
  }
  if (plan.sensitive) {
    for (const diff of attempt.diffs) recordDiff(ctx, { ...diff, table: plan.table, user, traceId });
  }
  await plan.hooks.afterChange?.({ ctx, user, action, ids: done.ids });
  return done.result;
}

/**
 * The writes of a resource. Each runs in one transaction, stamps the audit columns, checks unique keys
 * (D1006) and refuses ids that are missing, deleted or out of sight (D1002); field diffs of sensitive
 * tables and `afterChange` follow once it has committed.
 */
export function crudWrites(plan: CrudPlan, reads: CrudReads) {
  const { ctx, table, tenant, ownOrg, hooks } = plan;
  const write = <T>(
    user: AuthUser,
    action: WriteAction,
    run: (trx: Transaction<Database>, attempt: Attempt) => Promise<{ ids: number[]; result: T }>,
    traceId: string | null,
  ) => runWrite(plan, user, action, run, traceId);

  /** Sets `stamped` on row `id` and owes the update's diff. */
  async function updateRow(
    trx: Transaction<Database>,
    attempt: Attempt,
    id: number,
    row: AnyRow,
    stamped: AnyRow,
  ) {
    await asDb(trx).updateTable(table).set(stamped).where('id', '=', id).execute();
    if (plan.sensitive) {
      attempt.diffs.push({
        recordId: id,
        operation: 'update',
        before: fieldsOf(row),
        after: fieldsOf({ ...row, ...stamped }),
      });
    }
  }

  async function add(input: AnyRow, user: AuthUser, traceId: string | null): Promise<number> {
    return write(
      user,
      'add',
      async (trx, attempt) => {
        const id = ctx.newId();
        const values: AnyRow = {
          ...columnsOf(plan, input),
          id,
          create_time: formatDateTime(),
          update_time: null,
          create_user_id: user.userId,
          create_user_name: user.realName,
          update_user_id: null,
          update_user_name: null,
          is_delete: 0,
          ...(tenant ? { tenant_id: user.tenantId } : {}),
          ...(ownOrg ? { create_org_id: user.orgId || null, create_org_name: user.orgName || null } : {}),
        };
        await hooks.beforeAdd?.({ ctx, trx, user, input, values });
        attempt.row = values;
        await checkUnique(plan, trx, values, null);
        await asDb(trx).insertInto(table).values(values).execute();
        if (plan.sensitive)
          attempt.diffs.push({ recordId: id, operation: 'add', before: null, after: fieldsOf(values) });
        return { ids: [id], result: id };
      },
      traceId,
    );
  }

  async function update(input: AnyRow, user: AuthUser, traceId: string | null): Promise<null> {
    const id = input.id as number;
    return write(
      user,
      'update',
      async (trx, attempt) => {
        const [row] = (await rowsFor(reads, trx, user, [id])) as [AnyRow];
        const values = columnsOf(plan, input);
        await hooks.beforeUpdate?.({ ctx, trx, user, input, values, row });
        attempt.row = { ...row, ...values };
        attempt.selfId = id;
        await checkUnique(plan, trx, attempt.row, id);
        await updateRow(trx, attempt, id, row, { ...values, ...stampUpdate(user) });
        return { ids: [id], result: null };
      },
      traceId,
    );
  }

  async function setStatus(
    id: number,
    status: number,
    user: AuthUser,
    traceId: string | null,
  ): Promise<null> {
    return write(
      user,
      'setStatus',
      async (trx, attempt) => {
        const [row] = (await rowsFor(reads, trx, user, [id])) as [AnyRow];
        await hooks.beforeSetStatus?.({ ctx, trx, user, status, row });
        await updateRow(trx, attempt, id, row, { status, ...stampUpdate(user) });
        return { ids: [id], result: null };
      },
      traceId,
    );
  }

  /** Soft delete of one or several rows, all or nothing. */
  async function remove(ids: number[], user: AuthUser, traceId: string | null): Promise<null> {
    return write(
      user,
      'delete',
      async (trx, attempt) => {
        const rows = await rowsFor(reads, trx, user, ids);
        await hooks.beforeDelete?.({ ctx, trx, user, rows });
        const found = rows.map((r) => r.id as number);
        await asDb(trx)
          .updateTable(table)
          .set({ is_delete: 1, ...stampUpdate(user) })
          .where('id', 'in', found)
          .execute();
        if (plan.sensitive) {
          for (const row of rows) {
            attempt.diffs.push({
              recordId: row.id as number,
              operation: 'delete',
              before: fieldsOf(row),
              after: null,
            });
          }
        }
        return { ids: found, result: null };
      },
      traceId,
    );
  }

  return { add, update, setStatus, remove };
}

export type CrudWrites = ReturnType<typeof crudWrites>;
