import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type FormDesign, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import { recordChangeable } from '@shuzhi/contracts/diy-period';
import type {
  recycleActionInputSchema,
  recycleItemSchema,
  recyclePageInputSchema,
} from '@shuzhi/contracts/diy-table';
import { type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import { format, type Locale } from '@shuzhi/contracts/i18n';
import { type ExpressionBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import { verifyOpPassword } from '../../platform/auth/op-password.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import {
  type AnyDb,
  columnFor,
  type DataRow,
  dataTableName,
  fromRow,
  loadColumns,
  safeColumn,
} from '../../platform/diy/data-table.ts';
import {
  type Caller,
  formAuth,
  loadCaller,
  parsePeriodSettings,
  recordReach,
} from '../../platform/diy/form-access.ts';
import { dropSearchIndex } from '../../platform/diy/text-search.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { labelsOf } from '../diy-data/diy-record-labels.ts';
import { assertFilable, recordPeriodState } from '../diy-period/diy-period.service.ts';
import { columnsAt, versionDesign } from '../diy-table/diy-table.service.ts';

type Db = AppContext['db'] | Transaction<Database>;
type RecycleItem = z.infer<typeof recycleItemSchema>;
type PageInput = z.output<typeof recyclePageInputSchema>;
type ActionInput = z.output<typeof recycleActionInputSchema>;
type ActionItem = ActionInput['items'][number];

/**
 * The recycle bin of report forms (回收站): soft-deleted records (`diy_data_<id>` rows with is_delete = 1)
 * and soft-deleted forms, of the forms the caller administers (`formAuth(...).admin`: diyTable:* holders,
 * owner org in their data scope); records further within the caller's data scope. Restore puts an item
 * back; purge removes it for good (a form with its data table, versions, columns, numbers, visits and
 * history) once the operation password is confirmed. Every action is all or nothing.
 */

/** The caller's forms (live or deleted) they administer. */
async function adminForms(db: Db, caller: Caller, tableId?: number): Promise<DiyTableTable[]> {
  let query = db.selectFrom('diy_table').selectAll();
  if (caller.user.accountType !== ACCOUNT_TYPE.superAdmin) {
    query = query.where('tenant_id', '=', caller.user.tenantId);
  }
  if (tableId !== undefined) query = query.where('id', '=', tableId);
  const forms = await query.orderBy('id').execute();
  return forms.filter((form) => formAuth(form, caller).admin);
}

/** Deleted rows of a form's data table that the caller reaches (their data scope). */
function deletedRows(db: Db, form: DiyTableTable, caller: Caller) {
  const auth = formAuth(form, caller);
  const reach = recordReach(auth, caller);
  let query = (db as AnyDb)
    .selectFrom(dataTableName(form.id))
    .where('is_delete', '=', 1)
    .where('tenant_id', '=', form.tenant_id);
  if (!reach.all) {
    // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
    query = query.where((eb: ExpressionBuilder<any, any>) => {
      const self = eb('create_user_id', '=', reach.userId);
      return reach.orgIds.length > 0 ? eb.or([eb('create_org_id', 'in', reach.orgIds), self]) : self;
    });
  }
  return query;
}

const FORM_SUMMARY = {
  'zh-CN': '共 {count} 条记录',
  en: '{count} records',
  'zh-TW': '共 {count} 筆記錄',
} as const;

/** A deleted form's summary; English counts one record in the singular. */
const formSummary = (locale: keyof typeof FORM_SUMMARY, count: number) =>
  format(locale === 'en' && count === 1 ? '{count} record' : FORM_SUMMARY[locale], { count: String(count) });

type SavedRecord = { design: FormDesign; values: RecordValues };

/** A deleted record's design and values as saved (its version's design), or null without a design. */
async function savedRecord(ctx: AppContext, form: DiyTableTable, row: DataRow): Promise<SavedRecord | null> {
  const design = await versionDesign(ctx, ctx.db, form.id, row.version);
  if (!design) return null;
  const columns = await columnsAt(ctx, ctx.db, form.id, form.version);
  return { design, values: fromRow(design, columns, row) };
}

/**
 * A deleted record's summary: its serial number, or its first three values as the record page shows them:
 * coded values (options, dictionaries, orgs, users, regions) by their labels, never the stored codes.
 */
function recordSummary(
  row: DataRow,
  saved: SavedRecord | null,
  labelsBy: Map<SavedRecord, Record<string, string>>,
): string | null {
  if (row.data_no) return row.data_no;
  if (!saved) return null;
  const labels = labelsBy.get(saved) ?? {};
  const texts: string[] = [];
  for (const field of valueFields(saved.design)) {
    const value = saved.values[field.id];
    const text = labels[field.id] ?? (typeof value === 'string' && field.type !== 'richText' ? value : '');
    if (text.trim() !== '') texts.push(text.trim());
    if (texts.length === 3) break;
  }
  return texts.length > 0 ? texts.join(' / ').slice(0, 200) : null;
}

type Candidate = {
  kind: 'record' | 'form';
  form: DiyTableTable;
  id: number;
  deleteTime: string;
  row: DataRow | null;
};

/** Newest deletion first; within the same second a form before its records, then the newer id. */
const newestFirst = (a: Candidate, b: Candidate) => {
  if (a.deleteTime !== b.deleteTime) return a.deleteTime < b.deleteTime ? 1 : -1;
  if (a.kind !== b.kind) return a.kind === 'form' ? -1 : 1;
  return b.id - a.id;
};

/** `POST /api/diyRecycle/page`: the bin, newest deletion first. */
export async function recyclePage(
  ctx: AppContext,
  user: AuthUser,
  input: PageInput,
  locale: Locale,
): Promise<PageResult<RecycleItem>> {
  const caller = await loadCaller(ctx, user);
  const forms = await adminForms(ctx.db, caller, input.tableId ?? undefined);
  const keyword = input.keyword?.trim() ? input.keyword.trim() : null;
  const titleHit = (form: DiyTableTable) =>
    keyword === null || form.title.toLowerCase().includes(keyword.toLowerCase());
  // Enough of each source to fill the page after merging them; the total comes from counts.
  const wanted = input.page * input.pageSize;
  const candidates: Candidate[] = [];
  let total = 0;

  if (input.kind !== 'record') {
    for (const form of forms) {
      if (form.is_delete !== 1 || !titleHit(form)) continue;
      total++;
      candidates.push({
        kind: 'form',
        form,
        id: form.id,
        deleteTime: form.delete_time ?? form.update_time ?? form.create_time,
        row: null,
      });
    }
  }
  if (input.kind !== 'form') {
    const like = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
    for (const form of forms) {
      if (form.version <= 0) continue;
      let query = deletedRows(ctx.db, form, caller);
      if (keyword !== null && !titleHit(form)) {
        const pattern = likeContaining(keyword);
        // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
        query = query.where((eb: ExpressionBuilder<any, any>) =>
          eb.or(
            ['data_no', 'create_user_name', 'create_org_name', 'delete_user_name'].map(
              (column) => sql<SqlBool>`${sql.ref(column)} ${like} ${pattern} escape '\\'`,
            ),
          ),
        );
      }
      const count = await query
        // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
        .select((eb: ExpressionBuilder<any, any>) => eb.fn.countAll().as('n'))
        .executeTakeFirst();
      const n = Number((count as { n?: unknown } | undefined)?.n ?? 0);
      if (n === 0) continue;
      total += n;
      const rows = (await query
        .selectAll()
        .orderBy('delete_time', 'desc')
        .orderBy('id', 'desc')
        .limit(wanted)
        .execute()) as DataRow[];
      for (const row of rows) {
        candidates.push({
          kind: 'record',
          form,
          id: Number(row.id),
          deleteTime: row.delete_time ?? row.update_time ?? row.create_time,
          row,
        });
      }
    }
  }

  candidates.sort(newestFirst);
  const slice = candidates.slice((input.page - 1) * input.pageSize, wanted);
  const saved = await Promise.all(slice.map((c) => (c.row ? savedRecord(ctx, c.form, c.row) : null)));
  // One look-up of names and dictionary labels for the whole page.
  const found = saved.filter((record) => record !== null);
  const labelList = await labelsOf(ctx, found);
  const labels = new Map(found.map((record, i) => [record, labelList[i] ?? {}]));
  const items: RecycleItem[] = [];
  for (const [i, c] of slice.entries()) {
    items.push({
      kind: c.kind,
      id: c.id,
      tableId: c.form.id,
      title: c.form.title,
      summary: c.row
        ? recordSummary(c.row, saved[i] ?? null, labels)
        : formSummary(locale, c.form.record_count),
      deleteTime: c.deleteTime,
      deleteUserName: c.row ? c.row.delete_user_name : c.form.delete_user_name,
    });
  }
  return pageResult(items, total, input.page, input.pageSize);
}

/** The items once each, forms first (a form restored in the same call lets its records follow). */
function ordered(items: readonly ActionItem[], formsFirst: boolean): ActionItem[] {
  const seen = new Set<string>();
  const unique = items.filter((item) => {
    const key = `${item.kind}:${item.tableId}:${item.id}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const rank = (item: ActionItem) => ((item.kind === 'form') === formsFirst ? 0 : 1);
  return unique.sort((a, b) => rank(a) - rank(b));
}

/** The form of an item, when the caller administers it; F1014 otherwise (nothing of theirs to act on). */
async function itemForm(trx: Db, caller: Caller, tableId: number): Promise<DiyTableTable> {
  const [form] = await adminForms(trx, caller, tableId);
  if (!form) throw new AppError('F1014');
  return form;
}

/** A deleted record of the form the caller reaches, or F1014. */
async function deletedRecord(trx: Db, form: DiyTableTable, caller: Caller, id: number): Promise<DataRow> {
  if (form.version <= 0) throw new AppError('F1014');
  const row = (await deletedRows(trx, form, caller).selectAll().where('id', '=', id).executeTakeFirst()) as
    | DataRow
    | undefined;
  if (!row) throw new AppError('F1014');
  return row;
}

/**
 * D1006 when a unique field of the record (unique within the form) holds a value a live record took since it
 * was deleted. Fields whose column changed since the record's version are not compared (like filters).
 */
async function assertStillUnique(ctx: AppContext, trx: Db, form: DiyTableTable, row: DataRow): Promise<void> {
  const design = await versionDesign(ctx, trx, form.id, row.version);
  if (!design) return;
  const columns = await loadColumns(trx, form.id);
  for (const field of valueFields(design)) {
    if (field.unique === 'none') continue;
    const mine = columnFor(columns, field.id, row.version);
    const current = columnFor(columns, field.id, form.version);
    if (!mine || !current || mine.columnName !== current.columnName) continue;
    const value = row[mine.columnName];
    if (value === null || value === undefined || value === '') continue;
    let query = (trx as AnyDb)
      .selectFrom(dataTableName(form.id))
      .select('id')
      .where('is_delete', '=', 0)
      .where('tenant_id', '=', form.tenant_id)
      .where(safeColumn(mine.columnName), '=', value)
      .where('id', '!=', row.id);
    // Unique within the period: only the record's own period counts.
    if (field.unique === 'period' && row.period_id !== null)
      query = query.where('period_id', '=', row.period_id);
    const taken = await query.executeTakeFirst();
    if (taken) {
      const label = { 'zh-CN': field.label, en: field.label, 'zh-TW': field.label };
      throw new AppError('D1006', { field: label, value: String(value) });
    }
  }
}

/**
 * A record of a periodic form comes back only into a period that takes changes (F1023 closed, F1022 overdue;
 * a returned record also after the due date, until the period is closed: `recordChangeable`, as its filler
 * may still change it there) and, with one record per unit, only while its org has no other live record there (F1024).
 */
async function assertPeriodTakesIt(
  ctx: AppContext,
  trx: Db,
  form: DiyTableTable,
  row: DataRow,
): Promise<void> {
  const found = await recordPeriodState(trx, form, row.period_id);
  if (!found) return;
  if (!recordChangeable(found.state, Number(row.status))) assertFilable(found.state);
  // A zero report stands for the whole unit, so it never comes back beside another record either.
  if (row.create_org_id === null) return;
  if (!parsePeriodSettings(form.period).onePerOrg && Number(row.is_zero) !== 1) return;
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${form.id})`.execute(trx);
  const other = await (trx as AnyDb)
    .selectFrom(dataTableName(form.id))
    .select('id')
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id)
    .where('period_id', '=', found.period.id)
    .where('create_org_id', '=', row.create_org_id)
    .where('id', '!=', row.id)
    .executeTakeFirst();
  if (other) throw new AppError('F1024');
}

/** `POST /api/diyRecycle/restore`: records back to their form's list, forms back to the form list. */
export async function restoreItems(ctx: AppContext, user: AuthUser, input: ActionInput): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const caller = await loadCaller(ctx, user, trx);
    const now = formatDateTime();
    const stamp = { update_time: now, update_user_id: user.userId, update_user_name: user.realName };
    for (const item of ordered(input.items, true)) {
      const form = await itemForm(trx, caller, item.tableId);
      if (item.kind === 'form') {
        if (item.id !== form.id || form.is_delete !== 1) throw new AppError('F1014');
        // A category deleted meanwhile is not brought back: the form returns without one.
        const category =
          form.classify_id === null
            ? null
            : await trx
                .selectFrom('diy_table_classify')
                .select('id')
                .where('id', '=', form.classify_id)
                .where('tenant_id', '=', form.tenant_id)
                .where('is_delete', '=', 0)
                .executeTakeFirst();
        // Conditional on still being deleted: of two simultaneous restores, the second finds nothing.
        const restored = await trx
          .updateTable('diy_table')
          .set({
            is_delete: 0,
            delete_time: null,
            delete_user_name: null,
            classify_id: category ? category.id : null,
            ...stamp,
          })
          .where('id', '=', form.id)
          .where('is_delete', '=', 1)
          .executeTakeFirst();
        if (Number(restored.numUpdatedRows) !== 1) throw new AppError('F1014');
        continue;
      }
      if (form.is_delete === 1) {
        // Still deleted (not restored earlier in this call): its records wait for it.
        await deletedRecord(trx, form, caller, item.id);
        throw new AppError('F1015');
      }
      const row = await deletedRecord(trx, form, caller, item.id);
      await assertPeriodTakesIt(ctx, trx, form, row);
      await assertStillUnique(ctx, trx, form, row);
      const restored = await (trx as AnyDb)
        .updateTable(dataTableName(form.id))
        .set({ is_delete: 0, delete_time: null, delete_user_name: null, ...stamp })
        .where('id', '=', row.id)
        .where('is_delete', '=', 1)
        .executeTakeFirst();
      if (Number(restored.numUpdatedRows) !== 1) throw new AppError('F1014');
      await trx
        .insertInto('diy_record_history')
        .values({
          id: ctx.newId(),
          tenant_id: form.tenant_id,
          table_id: form.id,
          record_id: Number(row.id),
          action: 'restore',
          changes: '[]',
          comment: null,
          version: row.version,
          user_id: user.userId,
          user_name: user.realName,
          create_time: now,
        })
        .execute();
      await trx
        .updateTable('diy_table')
        .set((eb) => ({ last_update_time: now, record_count: eb('record_count', '+', 1) }))
        .where('id', '=', form.id)
        .execute();
    }
  });
}

/** The operation password of a purge: missing counts as wrong (D1012 while the user has none). */
async function confirmOpPassword(ctx: AppContext, user: AuthUser, cipher: string | undefined) {
  if (cipher) return verifyOpPassword(ctx, user, cipher);
  const row = await ctx.db
    .selectFrom('sys_user')
    .select('op_password')
    .where('id', '=', user.userId)
    .executeTakeFirst();
  throw new AppError(row?.op_password ? 'D1011' : 'D1012');
}

/** `POST /api/diyRecycle/purge`: removes items of the bin for good, after the operation password. */
export async function purgeItems(ctx: AppContext, user: AuthUser, input: ActionInput): Promise<void> {
  await confirmOpPassword(ctx, user, input.opPassword);
  const purgedForms: number[] = [];
  await ctx.db.transaction().execute(async (trx) => {
    const caller = await loadCaller(ctx, user, trx);
    const purging = new Set(input.items.filter((i) => i.kind === 'form').map((i) => i.tableId));
    for (const item of ordered(input.items, false)) {
      const form = await itemForm(trx, caller, item.tableId);
      if (item.kind === 'record') {
        const row = await deletedRecord(trx, form, caller, item.id);
        // The form goes as a whole later in this call: its table takes the row with it.
        if (purging.has(form.id)) continue;
        const removed = await (trx as AnyDb)
          .deleteFrom(dataTableName(form.id))
          .where('id', '=', row.id)
          .where('is_delete', '=', 1)
          .executeTakeFirst();
        if (Number(removed.numDeletedRows) !== 1) throw new AppError('F1014');
        await trx
          .deleteFrom('diy_record_history')
          .where('table_id', '=', form.id)
          .where('record_id', '=', Number(row.id))
          .execute();
        continue;
      }
      if (item.id !== form.id || form.is_delete !== 1) throw new AppError('F1014');
      // The form row goes first, conditionally: a simultaneous restore or purge of it then finds nothing.
      const removed = await trx
        .deleteFrom('diy_table')
        .where('id', '=', form.id)
        .where('is_delete', '=', 1)
        .executeTakeFirst();
      if (Number(removed.numDeletedRows) !== 1) throw new AppError('F1014');
      if (form.version > 0) {
        await dropSearchIndex(trx as AnyDb, ctx.dialect, form.id);
        await sql`drop table if exists ${sql.id(dataTableName(form.id))}`.execute(trx);
      }
      for (const table of [
        'diy_table_version',
        'diy_table_column',
        'diy_table_seq',
        'diy_table_visit',
        'diy_record_history',
      ] as const) {
        await trx.deleteFrom(table).where('table_id', '=', form.id).execute();
      }
      purgedForms.push(form.id);
    }
  });
  for (const id of purgedForms) {
    await ctx.cache.local.invalidatePrefix(`diy-design:${id}:`);
    await ctx.cache.local.invalidatePrefix(`diy-columns:${id}:`);
  }
}
