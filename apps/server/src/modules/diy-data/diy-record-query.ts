import { type FormDesign, type RecordValues, valueFields } from '@shuzhi/contracts/diy-form';
import type { DiyRecord, FormDesignForFilling } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Db } from '../../platform/db/db.ts';
import { type DataRow, fromRow, safeColumn } from '../../platform/diy/data-table.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import { formWithAuth, recordCan } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { periodOfForm, periodSummaries } from '../diy-period/diy-period.service.ts';
import { formItemOf } from '../diy-table/diy-table.service.ts';
import {
  currentColumn,
  designOf,
  findRow,
  matching,
  type OpenForm,
  openForm,
  type PageInput,
  type RecordQuery,
  reachable,
  recordFacts,
  requireQuery,
} from './diy-data.service.ts';
import { fileLabels } from './diy-record-files.ts';
import { labelsOf } from './diy-record-labels.ts';

/** Reading records: a page, a list, one record, the design a record is filled with, and the form's count. */

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

function sortable(open: OpenForm): Record<string, string> {
  const map: Record<string, string> = { ...SYSTEM_SORT };
  for (const field of valueFields(open.design)) {
    const column = currentColumn(open, field.id);
    if (column && column.storageKind !== 'json') map[field.id] = safeColumn(column.columnName);
  }
  return map;
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
    can: recordCan(open.auth, open.caller, recordFacts(row)),
  }));
}

export async function recordPage(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  input: PageInput,
  locale: Locale,
  narrow: (query: RecordQuery) => RecordQuery = (query) => query,
): Promise<PageResult<DiyRecord>> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  // The page's ids first, then their rows: counting, sorting and skipping run on ids (an index holds them
  // for the indexed filters, see data-table.ts), and only the page's rows are read whole.
  const ids = await paged(narrow(await matching(ctx, open, input)).select('id'), input, {
    sortable: sortable(open),
    defaultOrder: 'id',
    map: (row: { id: number | string }) => Number(row.id),
  });
  return { ...ids, items: await toRecords(ctx, open, await rowsInOrder(ctx.db, open, ids.items), locale) };
}

/** The rows of `ids` (live and reachable), in the order of `ids`. */
async function rowsInOrder(db: Db, open: OpenForm, ids: number[]): Promise<DataRow[]> {
  if (ids.length === 0) return [];
  const rows = await reachable(db, open).selectAll().$castTo<DataRow>().where('id', 'in', ids).execute();
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
  narrow: (query: RecordQuery) => RecordQuery = (query) => query,
): Promise<DiyRecord[]> {
  const open = await openForm(ctx, user, tableId);
  requireQuery(open);
  const ids = await narrow(await matching(ctx, open, input))
    .select('id')
    .orderBy('id', 'desc')
    .limit(RECORD_LIST_LIMIT)
    .execute();
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

/** `POST /api/diyTable/updateDataCount/{id}`: recounts the form's live records and stores the count. */
export async function updateDataCount(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
): Promise<{ count: number }> {
  const { form, auth } = await formWithAuth(ctx, user, tableId);
  if (!auth.query) throw new AppError('F1001');
  const row = await recordsOf(ctx.db, form.id)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', form.tenant_id)
    .executeTakeFirst();
  const count = Number(row?.n ?? 0);
  await ctx.db.updateTable('diy_table').set({ record_count: count }).where('id', '=', form.id).execute();
  return { count };
}
