import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type PageInput, type PageResult, pageResult } from '@shuzhi/contracts/envelope';
import { own } from '@shuzhi/contracts/own';
import { USER_SORTABLE, type UserPageItem } from '@shuzhi/contracts/user';
import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Database, SysUserTable } from '../../db/schema.ts';
import { whereInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { toColumn, toField } from '../../platform/crud/case.ts';
import { applyFilters, type FilterRule } from '../../platform/crud/filters.ts';
import { MIN_INDEXED_LENGTH, userCandidates } from '../../platform/diy/text-search.ts';
import { scopeOf, USER_COLUMNS } from './user-admin.service.ts';

// ---------------------------------------------------------------------------------------------------------
// Listings: one query with the org and position names joined (no N+1), scoped like every user read.

const FILTERS: Record<string, FilterRule<string>> = {
  keyword: { like: ['u.account', 'u.real_name', 'u.phone'] },
  account: { like: 'u.account' },
  realName: { like: 'u.real_name' },
  phone: { like: 'u.phone' },
  status: { eq: 'u.status' },
  accountType: { eq: 'u.account_type' },
};
export const USER_SORT_COLUMNS: Record<string, string> = Object.fromEntries(
  USER_SORTABLE.map((field) => [field, `u.${toColumn(field)}`]),
);

// biome-ignore lint/suspicious/noExplicitAny: the joined listing query (users, org, position); columns selected below.
type ListingQuery = SelectQueryBuilder<any, any, Record<string, any>>;

/**
 * Live users the caller may see, filtered, nothing selected yet; the super admin's own row shows to the super
 * admin only.
 */
async function userFilter(ctx: AppContext, user: AuthUser, input: Record<string, unknown>) {
  let query = ctx.db.selectFrom('sys_user as u').where('u.is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) {
    query = query
      .where('u.tenant_id', '=', user.tenantId)
      .where('u.account_type', '!=', ACCOUNT_TYPE.superAdmin);
  }
  query = whereInScope(query, await scopeOf(ctx, user), 'u.org_id', 'u.id');
  query = applyFilters(query, FILTERS, input, ctx.dialect) as typeof query;
  const keyword = input.keyword;
  if (typeof keyword === 'string' && keyword !== '') {
    // The keyword's LIKE (FILTERS) decides; the search index narrows to its candidates (docs/search.md).
    const narrowed = userCandidates(ctx.dialect, 'u.id', keyword);
    if (narrowed) query = query.where(narrowed);
  }
  const orgId = input.orgId as number | undefined;
  if (orgId !== undefined && orgId > 0) {
    // The org and everything below it: `full_ids` lists the path from the root, the org itself included.
    const marker = `%,${orgId},%`;
    query = query.where('u.org_id', 'in', (eb) =>
      eb
        .selectFrom('sys_org as sub')
        .select('sub.id')
        .where('sub.is_delete', '=', 0)
        .where((w) =>
          w.or([
            w('sub.id', '=', orgId),
            sql<SqlBool>`(',' || ${sql.ref('sub.full_ids')} || ',') like ${marker}`,
          ]),
        ),
    );
  }
  return query;
}

// biome-ignore lint/complexity/noBannedTypes: a query on the table before anything is selected.
type UserQuery = SelectQueryBuilder<Database & { u: SysUserTable }, 'u', {}>;

/** The listing's columns with the org and position names joined. */
function withNames(query: UserQuery): ListingQuery {
  return query
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .leftJoin('sys_pos as p', 'p.id', 'u.pos_id')
    .select([
      ...USER_COLUMNS.map((c) => `u.${c}` as const),
      'o.name as org_name',
      'p.name as pos_name',
    ]) as ListingQuery;
}

/** Filtered users with the org and position names (list, export). */
export async function userListing(
  ctx: AppContext,
  user: AuthUser,
  input: Record<string, unknown>,
): Promise<ListingQuery> {
  return withNames(await userFilter(ctx, user, input));
}

/** Up to this many matches, a text search reads all their ids in one go instead of counting first. */
const FEW_MATCHES = 2000;
/**
 * A keyword the search index narrows (docs/search.md) reads up to this many ids in one go: counting would visit
 * every candidate a second time, and the page a third.
 */
const INDEXED_MATCHES = 20_000;
const TEXT_FILTERS = ['keyword', 'account', 'realName', 'phone'];

/**
 * One page of users: the count runs on the filtered users alone, and the names are joined for the page's
 * rows only, so that a search stays fast with 100,000 users.
 */
export async function pageUsers(
  ctx: AppContext,
  user: AuthUser,
  input: PageInput & Record<string, unknown>,
): Promise<PageResult<UserPageItem>> {
  const base = await userFilter(ctx, user, input);
  const column = input.field && input.order ? own(USER_SORT_COLUMNS, input.field) : undefined;
  // The page's ids come from the index alone (ix_sys_user_live covers the filters and the id); the names are
  // joined for those rows only. Sorting all matching rows with their columns and joins is what would cost.
  // biome-ignore lint/suspicious/noExplicitAny: the column comes from the whitelist.
  let ordered: any = base.select('u.id');
  ordered = column
    ? ordered.orderBy(column, input.order === input.descStr ? 'desc' : 'asc').orderBy('u.id', 'desc')
    : ordered.orderBy('u.id', 'desc');
  const offset = (input.page - 1) * input.pageSize;
  // A search that finds few users (the usual: one person) is answered by one scan: all its ids at once.
  const searching = TEXT_FILTERS.some((name) => typeof input[name] === 'string' && input[name] !== '');
  const keyword = input.keyword;
  const indexed = typeof keyword === 'string' && Array.from(keyword).length >= MIN_INDEXED_LENGTH;
  const limit = indexed ? INDEXED_MATCHES : FEW_MATCHES;
  const few = searching
    ? ((await ordered.limit(limit + 1).execute()) as { id: number }[]).map((r) => r.id)
    : [];
  let total: number;
  let pageIds: number[];
  if (searching && few.length <= limit) {
    total = few.length;
    pageIds = few.slice(offset, offset + input.pageSize);
  } else {
    const counted = await base.select((eb) => eb.fn.countAll().as('total')).executeTakeFirst();
    total = Number(counted?.total ?? 0);
    pageIds = ((await ordered.limit(input.pageSize).offset(offset).execute()) as { id: number }[]).map(
      (r) => r.id,
    );
  }
  const found =
    pageIds.length === 0
      ? []
      : await withNames(ctx.db.selectFrom('sys_user as u').where('u.id', 'in', pageIds)).execute();
  const byId = new Map(found.map((r) => [r.id as number, r]));
  const rows = pageIds.flatMap((id) => byId.get(id) ?? []);
  return pageResult(rows.map(toPageItem), total, input.page, input.pageSize);
}

// biome-ignore lint/suspicious/noExplicitAny: a row of the listing query.
export function toPageItem(row: Record<string, any>): UserPageItem {
  const item: Record<string, unknown> = {};
  for (const column of USER_COLUMNS) item[toField(column)] = row[column] ?? null;
  item.orgName = row.org_name ?? null;
  item.posName = row.pos_name ?? null;
  return item as UserPageItem;
}
