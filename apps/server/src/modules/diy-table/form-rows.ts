import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { FormRow, formPageInputSchema } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { type SqlBool, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import { dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import {
  adminForm,
  parseAudience,
  parseIds,
  parsePeriodSettings,
  parseRollup,
} from '../../platform/diy/form-access.ts';
import { paged } from '../../platform/http/paging.ts';

/** Form rows as administrators see them (form management: page, list, detail). */

export type Db = AppContext['db'] | Transaction<Database>;

export type JoinedForm = DiyTableTable & { category_name: string | null; owner_org_name: string | null };

export function formQuery(db: Db) {
  return db
    .selectFrom('diy_table as t')
    .leftJoin('diy_table_classify as c', 'c.id', 't.classify_id')
    .leftJoin('sys_org as o', 'o.id', 't.owner_org_id')
    .selectAll('t')
    .select(['c.name as category_name', 'o.name as owner_org_name'])
    .where('t.is_delete', '=', 0);
}

export function toFormRow(row: JoinedForm): FormRow {
  return {
    id: row.id,
    title: row.title,
    reportType: row.report_type,
    categoryId: row.classify_id,
    categoryName: row.category_name,
    ownerOrgId: row.owner_org_id,
    ownerOrgName: row.owner_org_name,
    status: row.status,
    isShowPwd: row.pwd_hash !== null,
    version: row.version,
    hasDraft: row.draft_design !== null,
    fillers: parseAudience(row.fillers),
    viewers: parseAudience(row.viewers),
    reviewerIds: parseIds(row.reviewer_ids),
    needsReview: row.needs_review === 1,
    orderNo: row.order_no,
    remark: row.remark,
    recordCount: row.record_count,
    period: parsePeriodSettings(row.period),
    rollup: parseRollup(row.rollup),
    createTime: row.create_time,
    updateTime: row.update_time,
    createUserId: row.create_user_id,
    createUserName: row.create_user_name,
    updateUserId: row.update_user_id,
    updateUserName: row.update_user_name,
  };
}

/** Forms the caller administers: their tenant (the super admin: every tenant), owner org in their data scope. */
async function adminForms(ctx: AppContext, user: AuthUser) {
  let query = formQuery(ctx.db);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('t.tenant_id', '=', user.tenantId);
  return whereInScope(query, await dataScopeOf(ctx, user), 't.owner_org_id', 't.create_user_id');
}

type PageFilters = z.output<typeof formPageInputSchema>;

function filtered<Q extends Awaited<ReturnType<typeof adminForms>>>(
  ctx: AppContext,
  query: Q,
  input: Partial<PageFilters>,
): Q {
  let q = query;
  if (input.title) {
    const pattern = likeContaining(input.title);
    const op = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
    q = q.where(sql<SqlBool>`${sql.ref('t.title')} ${op} ${pattern} escape '\\'`) as Q;
  }
  if (typeof input.categoryId === 'number') q = q.where('t.classify_id', '=', input.categoryId) as Q;
  if (typeof input.status === 'number') q = q.where('t.status', '=', input.status) as Q;
  if (typeof input.reportType === 'number') q = q.where('t.report_type', '=', input.reportType) as Q;
  return q;
}

const SORTABLE: Record<string, string> = {
  title: 't.title',
  orderNo: 't.order_no',
  status: 't.status',
  version: 't.version',
  recordCount: 't.record_count',
  createTime: 't.create_time',
  updateTime: 't.update_time',
};

export async function formPage(
  ctx: AppContext,
  user: AuthUser,
  input: PageFilters,
): Promise<PageResult<FormRow>> {
  return paged(filtered(ctx, await adminForms(ctx, user), input), input, {
    sortable: SORTABLE,
    defaultOrder: 't.id',
    map: (row) => toFormRow(row as JoinedForm),
  });
}

export async function formList(
  ctx: AppContext,
  user: AuthUser,
  input: Partial<PageFilters>,
): Promise<FormRow[]> {
  const rows = await filtered(ctx, await adminForms(ctx, user), input)
    .orderBy('t.order_no')
    .orderBy('t.id')
    .limit(10_000)
    .execute();
  return rows.map((r) => toFormRow(r as JoinedForm));
}

export async function formDetail(ctx: AppContext, user: AuthUser, id: number): Promise<FormRow> {
  const { form } = await adminForm(ctx, user, id);
  const row = await formQuery(ctx.db).where('t.id', '=', form.id).executeTakeFirstOrThrow();
  return toFormRow(row as JoinedForm);
}
