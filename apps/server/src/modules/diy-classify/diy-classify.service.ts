import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { ClassifyOption, ClassifyRow, classifyPageInputSchema } from '@shuzhi/contracts/diy-table';
import { type PageResult, STATUS } from '@shuzhi/contracts/envelope';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableClassifyTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters } from '../../platform/crud/filters.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';

type Db = Kysely<Database> | Transaction<Database>;
type PageInput = z.output<typeof classifyPageInputSchema>;

/** Live categories the caller may see: their tenant's (the super admin: every tenant's). */
function visible(db: Db, user: AuthUser) {
  let query = db.selectFrom('diy_table_classify as c').where('c.is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('c.tenant_id', '=', user.tenantId);
  return query;
}

/** Live forms per category, for the given categories. */
async function formCounts(db: Db, ids: readonly number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('diy_table')
    .select(['classify_id', (eb) => eb.fn.countAll().as('n')])
    .where('classify_id', 'in', [...new Set(ids)])
    .where('is_delete', '=', 0)
    .groupBy('classify_id')
    .execute();
  return new Map(rows.map((r) => [Number(r.classify_id), Number(r.n)]));
}

function toRow(row: DiyTableClassifyTable, counts: Map<number, number>): ClassifyRow {
  return {
    id: row.id,
    pid: row.pid,
    name: row.name,
    icon: row.icon,
    orderNo: row.order_no,
    status: row.status,
    remark: row.remark,
    formCount: counts.get(row.id) ?? 0,
    createTime: row.create_time,
    updateTime: row.update_time,
    createUserId: row.create_user_id,
    createUserName: row.create_user_name,
    updateUserId: row.update_user_id,
    updateUserName: row.update_user_name,
  };
}

async function withCounts(db: Db, rows: DiyTableClassifyTable[]): Promise<ClassifyRow[]> {
  const counts = await formCounts(
    db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => toRow(r, counts));
}

const FILTERS = { name: { like: 'c.name' }, status: { eq: 'c.status' } } as const;
const SORTABLE: Record<string, string> = {
  name: 'c.name',
  orderNo: 'c.order_no',
  status: 'c.status',
  createTime: 'c.create_time',
  updateTime: 'c.update_time',
};

export async function categoryPage(
  ctx: AppContext,
  user: AuthUser,
  input: PageInput,
): Promise<PageResult<ClassifyRow>> {
  const query = applyFilters(visible(ctx.db, user).selectAll('c'), FILTERS, input, ctx.dialect);
  const page = await paged(query, input, { sortable: SORTABLE, defaultOrder: 'c.id' });
  return { ...page, items: await withCounts(ctx.db, page.items as DiyTableClassifyTable[]) };
}

export async function categoryList(
  ctx: AppContext,
  user: AuthUser,
  input: Partial<PageInput>,
): Promise<ClassifyRow[]> {
  const rows = (await applyFilters(visible(ctx.db, user).selectAll('c'), FILTERS, input, ctx.dialect)
    .orderBy('c.order_no')
    .orderBy('c.id')
    .limit(10_000)
    .execute()) as DiyTableClassifyTable[];
  return withCounts(ctx.db, rows);
}

export async function categoryDetail(ctx: AppContext, user: AuthUser, id: number): Promise<ClassifyRow> {
  const row = await visible(ctx.db, user).selectAll('c').where('c.id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('F1010');
  const [item] = await withCounts(ctx.db, [row]);
  return item as ClassifyRow;
}

/** `GET /options`: the caller's tenant's enabled categories, by orderNo, with their live forms. */
export async function categoryOptions(ctx: AppContext, user: AuthUser): Promise<ClassifyOption[]> {
  const rows = await ctx.db
    .selectFrom('diy_table_classify')
    .select(['id', 'pid', 'name', 'order_no'])
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .where('status', '=', STATUS.enabled)
    .orderBy('order_no')
    .orderBy('id')
    .execute();
  const counts = await formCounts(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => ({
    value: r.id,
    label: r.name,
    pid: r.pid,
    orderNo: r.order_no,
    formCount: counts.get(r.id) ?? 0,
  }));
}

async function liveCategory(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom('diy_table_classify')
    .select(['id', 'pid'])
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
}

/**
 * A category's parent: 0 (top level) or a live category of the same tenant (F1010), and not the category
 * itself nor one of its descendants (D2002).
 */
export async function assertParent(db: Db, tenantId: number, pid: number, selfId: number | null) {
  if (pid === 0) return;
  if (selfId !== null && pid === selfId) throw new AppError('D2002');
  const parent = await liveCategory(db, tenantId, pid);
  if (!parent) throw new AppError('F1010');
  if (selfId === null) return;
  const seen = new Set<number>([parent.id]);
  for (let node: { id: number; pid: number } | undefined = parent; node && node.pid !== 0; ) {
    if (node.pid === selfId) throw new AppError('D2002');
    if (seen.has(node.pid)) break;
    seen.add(node.pid);
    node = await liveCategory(db, tenantId, node.pid);
  }
}

/** F1016 while a category holds live forms or live sub-categories. */
export async function assertRemovable(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const form = await db
    .selectFrom('diy_table')
    .select('id')
    .where('classify_id', 'in', ids)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  const child =
    form ??
    (await db
      .selectFrom('diy_table_classify')
      .select('id')
      .where('pid', 'in', ids)
      .where('is_delete', '=', 0)
      .executeTakeFirst());
  if (child) throw new AppError('F1016');
}
