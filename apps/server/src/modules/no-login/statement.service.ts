import { type FormField, RECORD_STATUS, valueFields } from '@shuzhi/contracts/diy-form';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import {
  type PublicStatement,
  STATEMENT_MAX_RECORDS,
  STATEMENT_PATH,
  type Statement,
  type StatementFilters,
  type StatementKind,
  type statementAddInputSchema,
  type statementEditInputSchema,
  type statementPageInputSchema,
} from '@shuzhi/contracts/no-login-pages';
import type { z } from 'zod';
import type { SysStatementTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { findRow, type OpenForm, openForm, type RecordQuery } from '../diy-data/diy-data.service.ts';
import { publicField, publicValues } from '../diy-data/diy-record-public.ts';
import { recordList } from '../diy-data/diy-record-query.ts';
import { actorOf, liveForm } from './no-login-scope.ts';
import { countView, openedRow, pageCode, pageState, tenantOf } from './public-page-common.ts';

/**
 * Public statements (issue 22 §2, docs/no-login.md): staff publish a form's filed records (optionally filtered)
 * or one filed record, showing only the fields they choose; `/statement?loadCodedate=…` shows it without login
 * until it is withdrawn or expires. The page reads as the publisher, narrowed to filed records, the chosen
 * fields and the statement's filters: it never shows more than its publisher could query.
 */

const DAY_MS = 24 * 3600 * 1000;
const FILED: number[] = [RECORD_STATUS.submitted, RECORD_STATUS.approved];

type Row = SysStatementTable & { table_title?: string | null };

function visible(ctx: AppContext, user: AuthUser) {
  let query = ctx.db
    .selectFrom('sys_statement as s')
    .leftJoin('diy_table as t', 't.id', 's.table_id')
    .selectAll('s')
    .select('t.title as table_title')
    .where('s.is_delete', '=', 0);
  const tenant = tenantOf(user);
  if (tenant !== null) query = query.where('s.tenant_id', '=', tenant);
  return query;
}

const parsed = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

export const statementUrl = (ctx: AppContext, row: SysStatementTable) =>
  `${STATEMENT_PATH}?${new URLSearchParams({ loadCodedate: pageCode(ctx, 'statement', row) }).toString()}`;

function toStatement(ctx: AppContext, row: Row, now: string): Statement {
  return {
    id: Number(row.id),
    title: row.title,
    intro: row.intro,
    kind: row.kind as StatementKind,
    tableId: Number(row.table_id),
    tableTitle: row.table_title ?? null,
    recordId: row.record_id === null ? null : Number(row.record_id),
    fields: parsed<string[]>(row.fields, []),
    filter: parsed<StatementFilters | null>(row.filter, null),
    expireTime: row.expire_time,
    state: pageState(row, now),
    viewCount: row.view_count,
    url: statementUrl(ctx, row),
    createTime: row.create_time,
    createUserName: row.create_user_name,
    withdrawTime: row.withdraw_time,
  };
}

/** The chosen fields, in the form's order; N1026 naming those the form does not have (filters' too). */
function checkedFields(open: OpenForm, fields: readonly string[], filter?: StatementFilters): string[] {
  const known = valueFields(open.design).map((f) => f.id);
  const asked = [...fields, ...(filter?.filters ?? []).map((f) => f.field)];
  const unknown = [...new Set(asked.filter((id) => !known.includes(id)))];
  if (unknown.length > 0) throw new AppError('N1026', { fields: unknown.join(', ') });
  return known.filter((id) => fields.includes(id));
}

/** The form as its publisher reads it: N1030 without the right to query it. */
async function queryableForm(ctx: AppContext, user: AuthUser, tableId: number): Promise<OpenForm> {
  const open = await openForm(ctx, user, tableId);
  if (!open.auth.query) throw new AppError('N1030');
  return open;
}

const filterText = (filter: StatementFilters | undefined) =>
  filter && ((filter.filters?.length ?? 0) > 0 || filter.createTime) ? JSON.stringify(filter) : null;

export async function addStatement(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof statementAddInputSchema>,
): Promise<Statement> {
  const open = await queryableForm(ctx, user, input.tableId);
  const fields = checkedFields(open, input.fields, input.filter);
  if (input.kind === 'record') {
    const record = await findRow(ctx.db, open, input.recordId ?? 0);
    if (!FILED.includes(record.status)) throw new AppError('N1031');
  }
  const now = new Date();
  const row: SysStatementTable = {
    id: ctx.newId(),
    tenant_id: open.form.tenant_id,
    title: input.title,
    intro: input.intro ? input.intro : null,
    kind: input.kind,
    table_id: open.form.id,
    record_id: input.kind === 'record' ? (input.recordId ?? null) : null,
    fields: JSON.stringify(fields),
    filter: input.kind === 'dataset' ? filterText(input.filter) : null,
    expire_time: formatDateTime(new Date(Math.floor((now.getTime() + input.days * DAY_MS) / 1000) * 1000)),
    withdraw_time: null,
    view_count: 0,
    create_time: formatDateTime(now),
    create_user_id: user.userId,
    create_user_name: user.realName,
    update_time: null,
    is_delete: 0,
  };
  await ctx.db.insertInto('sys_statement').values(row).execute();
  return toStatement(ctx, { ...row, table_title: open.form.title }, formatDateTime(now));
}

async function oneStatement(ctx: AppContext, user: AuthUser, id: number): Promise<Row> {
  const row = await visible(ctx, user).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('N1024');
  return row as Row;
}

/** Title, intro, fields and filters of a live statement (its form, record and expiry stay). */
export async function editStatement(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof statementEditInputSchema>,
): Promise<Statement> {
  const row = await oneStatement(ctx, user, input.id);
  if (pageState(row, formatDateTime()) !== 'active') throw new AppError('N1032');
  const open = await queryableForm(ctx, user, Number(row.table_id));
  const changes = {
    title: input.title,
    intro: input.intro ? input.intro : null,
    fields: JSON.stringify(checkedFields(open, input.fields, input.filter)),
    filter: row.kind === 'dataset' ? filterText(input.filter) : null,
    update_time: formatDateTime(),
  };
  await ctx.db.updateTable('sys_statement').set(changes).where('id', '=', row.id).execute();
  return toStatement(ctx, { ...row, ...changes }, formatDateTime());
}

/** Withdraws at once: the code is refused from the next opening (N1020). */
export async function withdrawStatement(ctx: AppContext, user: AuthUser, id: number): Promise<null> {
  const row = await oneStatement(ctx, user, id);
  await ctx.db
    .updateTable('sys_statement')
    .set({ withdraw_time: formatDateTime() })
    .where('id', '=', row.id)
    .where('withdraw_time', 'is', null)
    .execute();
  return null;
}

export async function deleteStatement(ctx: AppContext, user: AuthUser, id: number): Promise<null> {
  const row = await oneStatement(ctx, user, id);
  await ctx.db.updateTable('sys_statement').set({ is_delete: 1 }).where('id', '=', row.id).execute();
  return null;
}

export async function statementPage(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof statementPageInputSchema>,
): Promise<PageResult<Statement>> {
  let query = visible(ctx, user);
  if (input.title) {
    query = query.where('s.title', 'like', likeContaining(input.title));
  }
  const now = formatDateTime();
  return paged(query, input, {
    sortable: {
      title: 's.title',
      expireTime: 's.expire_time',
      viewCount: 's.view_count',
      createTime: 's.create_time',
    },
    defaultOrder: 's.id',
    map: (row) => toStatement(ctx, row as Row, now),
  });
}

/** The live statements of a tenant among `ids` (for scenes' entries). */
export async function liveStatements(ctx: AppContext, tenantId: number, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('sys_statement')
    .selectAll()
    .where('id', 'in', ids)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('withdraw_time', 'is', null)
    .where('expire_time', '>', formatDateTime())
    .execute();
  return rows.map((row) => ({ ...row, id: Number(row.id) }));
}

/**
 * `GET /api/noLogin/statement?loadCodedate=…`: the statement's chosen fields of the filed records it names,
 * read as its publisher (N1010 when the form or the publisher's account is gone or may no longer query it).
 */
export async function publicStatement(
  ctx: AppContext,
  code: string,
  locale: Locale,
): Promise<PublicStatement> {
  const row = await openedRow(ctx, 'statement', code, (id) =>
    ctx.db.selectFrom('sys_statement').selectAll().where('id', '=', id).executeTakeFirst(),
  );
  const form = await liveForm(ctx, { table_id: Number(row.table_id), tenant_id: row.tenant_id });
  const actor = await actorOf(ctx, row);
  const open = await openForm(ctx, actor, form.id).catch(() => null);
  if (!open?.auth.query) throw new AppError('N1010', undefined, 403);
  const chosen = parsed<string[]>(row.fields, []);
  const fields: FormField[] = valueFields(open.design).filter((f) => chosen.includes(f.id));
  const filter = parsed<StatementFilters>(row.filter, {});
  const recordId = row.record_id === null ? null : Number(row.record_id);
  const narrow = (query: RecordQuery) => {
    const filed = query.where('status', 'in', FILED);
    return recordId === null ? filed : filed.where('id', '=', recordId);
  };
  const records = await recordList(
    ctx,
    actor,
    form.id,
    recordId === null ? { filters: filter.filters ?? [], createTime: filter.createTime } : {},
    locale,
    narrow,
  );
  await countView(ctx, 'statement', row.id);
  return {
    title: row.title,
    intro: row.intro,
    kind: row.kind as StatementKind,
    tableTitle: form.title,
    fields: fields.map(publicField),
    records: records.slice(0, STATEMENT_MAX_RECORDS).map((record) => ({
      id: record.id,
      dataNo: record.dataNo,
      values: publicValues(fields, record.values, record.labels),
      labels: Object.fromEntries(Object.entries(record.labels).filter(([key]) => chosen.includes(key))),
      createTime: record.createTime,
    })),
    truncated: records.length > STATEMENT_MAX_RECORDS,
    publishTime: row.create_time,
    expireTime: row.expire_time,
  };
}
