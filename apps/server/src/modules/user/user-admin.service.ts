import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type PageInput, type PageResult, pageResult, STATUS } from '@shuzhi/contracts/envelope';
import type { Localized } from '@shuzhi/contracts/i18n';
import { own } from '@shuzhi/contracts/own';
import { USER_SORTABLE, type UserExtOrg, type UserPageItem } from '@shuzhi/contracts/user';
import { type SelectQueryBuilder, type SqlBool, sql, type Transaction } from 'kysely';
import type { Database, SysUserTable } from '../../db/schema.ts';
import {
  assertOrgInScope,
  type DataScopeView,
  dataScopeOf,
  forgetDataScope,
  whereInScope,
} from '../../platform/access/data-scope.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import { forgetUserSessions, revokeUserSessions } from '../../platform/auth/sessions.ts';
import { unlockSignIn } from '../../platform/auth/sign-in-throttle.ts';
import { configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { toColumn, toField } from '../../platform/crud/case.ts';
import type { CrudHooks, Scope } from '../../platform/crud/crud.ts';
import { applyFilters, type FilterRule } from '../../platform/crud/filters.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { areaFieldsOf, followOrgArea, orgAreaFields } from '../../platform/org/org-area.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';
import { forgetMenuTree } from '../menu/menu.service.ts';

export const ACCOUNT_LABEL: Localized = { 'zh-CN': '账号', en: 'Account', 'zh-TW': '帳號' };

type Db = AppContext['db'] | Transaction<Database>;
type ExtOrgInput = { orgId: number; posId?: number | null };
type UserRowDb = SysUserTable;

/** Columns a listing returns: every user column except the password hashes, then the joined names. */
export const USER_COLUMNS = [
  'id',
  'tenant_id',
  'account',
  'real_name',
  'nick_name',
  'avatar',
  'sex',
  'phone',
  'email',
  'id_card_num',
  'address',
  'account_type',
  'org_id',
  'pos_id',
  'enterprise',
  'area',
  'area_code',
  'street',
  'street_code',
  'community',
  'community_code',
  'wangge',
  'wangge_code',
  'weiwangge',
  'weiwangge_code',
  'region_id',
  'region_name',
  'status',
  'order_no',
  'remark',
  'is_def_pwd',
  'login_fail_count',
  'lock_until',
  'last_login_time',
  'last_login_ip',
  'password_update_time',
  'create_time',
  'update_time',
  'create_user_id',
  'create_user_name',
  'update_user_id',
  'update_user_name',
] as const satisfies readonly (keyof UserRowDb)[];

const isAdminType = (accountType: number) =>
  accountType === ACCOUNT_TYPE.superAdmin || accountType === ACCOUNT_TYPE.sysAdmin;

export const scopeOf = (ctx: AppContext, user: AuthUser): Promise<DataScopeView> => dataScopeOf(ctx, user);

/** The data scope of user rows: users of the caller's visible orgs, and the caller themself. */
export const userScope: Scope<'sys_user'> = async (query, user, ctx) =>
  whereInScope(query, await scopeOf(ctx, user), 'org_id', 'id');

/** D1005 unless the caller may change this user: admins (999, 888) are the super admin's alone to change. */
export function assertMayChange(caller: AuthUser, target: { account_type: number }): void {
  if (isAdminType(target.account_type) && caller.accountType !== ACCOUNT_TYPE.superAdmin) {
    throw new AppError('D1005');
  }
}

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
  const orgId = input.orgId as number | undefined;
  if (orgId) {
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
  const few = searching
    ? ((await ordered.limit(FEW_MATCHES + 1).execute()) as { id: number }[]).map((r) => r.id)
    : [];
  let total: number;
  let pageIds: number[];
  if (searching && few.length <= FEW_MATCHES) {
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

// ---------------------------------------------------------------------------------------------------------
// Related rows: orgs, positions and roles must exist in the user's tenant; orgs must lie in the caller's scope.

/** D1002 unless every id is a live row of the tenant in `table` (orgs, positions, roles). */
async function assertLiveOfTenant(
  trx: Db,
  table: 'sys_org' | 'sys_pos' | 'sys_role',
  tenantId: number,
  ids: number[],
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await trx
    .selectFrom(table)
    .select('id')
    .where('id', 'in', unique)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (found.length !== unique.length) throw new AppError('D1002');
}

const assertOrgsExist = (trx: Db, tenantId: number, ids: number[]) =>
  assertLiveOfTenant(trx, 'sys_org', tenantId, ids);
const assertPositionsExist = (trx: Db, tenantId: number, ids: number[]) =>
  assertLiveOfTenant(trx, 'sys_pos', tenantId, ids);
/** D1002 unless every role is a live role of the tenant. */
const assertRolesOfTenant = (trx: Db, tenantId: number, ids: number[]) =>
  assertLiveOfTenant(trx, 'sys_role', tenantId, ids);

/** D1006 when another live user (of any tenant) has the account. */
export async function assertAccountFree(trx: Db, account: string, selfId: number | null): Promise<void> {
  let query = trx
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', account)
    .where('is_delete', '=', 0);
  if (selfId !== null) query = query.where('id', '!=', selfId);
  if (await query.executeTakeFirst()) throw new AppError('D1006', { field: ACCOUNT_LABEL, value: account });
}

export async function replaceRoles(trx: Db, ctx: AppContext, userId: number, roleIds: number[]) {
  await trx.deleteFrom('sys_user_role').where('user_id', '=', userId).execute();
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return;
  await trx
    .insertInto('sys_user_role')
    .values(unique.map((roleId) => ({ id: ctx.newId(), user_id: userId, role_id: roleId })))
    .execute();
}

async function replaceExtOrgs(trx: Db, ctx: AppContext, userId: number, list: ExtOrgInput[]) {
  await trx.deleteFrom('sys_user_ext_org').where('user_id', '=', userId).execute();
  const byOrg = new Map<number, number | null>();
  for (const item of list) byOrg.set(item.orgId, item.posId ?? null);
  if (byOrg.size === 0) return;
  await trx
    .insertInto('sys_user_ext_org')
    .values(
      [...byOrg].map(([orgId, posId]) => ({
        id: ctx.newId(),
        user_id: userId,
        org_id: orgId,
        pos_id: posId,
      })),
    )
    .execute();
}

/** The default password and its hash: new users and resets get it, and must change it at first sign-in. */
export async function defaultPassword(ctx: AppContext): Promise<{ plain: string; hash: string }> {
  const plain = await configValue(ctx, 'sys_password');
  return { plain, hash: await hashPassword(plain, ctx.passwordHashing) };
}

type LinkInput = {
  orgId?: number;
  posId?: number | null;
  roleIdList?: number[];
  extOrgList?: ExtOrgInput[];
};

/** Checks org, position, ext orgs and roles of an add or update; `before` is the stored user on update. */
async function checkLinks(
  ctx: AppContext,
  trx: Db,
  caller: AuthUser,
  tenantId: number,
  input: LinkInput,
  before: { org_id: number | null; userId: number } | null,
): Promise<void> {
  const view = await scopeOf(ctx, caller);
  if (input.orgId !== undefined) {
    await assertOrgsExist(trx, tenantId, [input.orgId]);
    if (!before || before.org_id !== input.orgId) assertOrgInScope(view, input.orgId);
  }
  if (input.posId != null) await assertPositionsExist(trx, tenantId, [input.posId]);
  if (input.extOrgList) {
    await assertOrgsExist(
      trx,
      tenantId,
      input.extOrgList.map((e) => e.orgId),
    );
    await assertPositionsExist(
      trx,
      tenantId,
      input.extOrgList.flatMap((e) => (e.posId == null ? [] : [e.posId])),
    );
    // Extra orgs the user already had stay even when out of the caller's sight; new ones must be in it.
    const had = before
      ? new Set(
          (
            await trx
              .selectFrom('sys_user_ext_org')
              .select('org_id')
              .where('user_id', '=', before.userId)
              .execute()
          ).map((r) => r.org_id),
        )
      : new Set<number>();
    for (const ext of input.extOrgList) if (!had.has(ext.orgId)) assertOrgInScope(view, ext.orgId);
  }
  if (input.roleIdList) await assertRolesOfTenant(trx, tenantId, input.roleIdList);
}

/** After a user's row, roles or orgs changed: every cache that holds them, and their sessions' principals. */
export async function forgetUser(ctx: AppContext, userId: number): Promise<void> {
  await forgetUserInfo(ctx, userId);
  await forgetMenuTree(ctx, userId);
  await forgetDataScope(ctx, userId);
  await forgetUserSessions(ctx, userId);
}

/**
 * The area levels of an edited user: those still as the stored org's chain gave them (the form sends them back
 * unchanged) or left blank follow the org the user will have; levels the admin typed stay.
 */
async function followOrg(
  trx: Db,
  row: UserRowDb & { id: number },
  values: Partial<UserRowDb>,
): Promise<void> {
  const orgId = values.org_id ?? row.org_id;
  if (orgId === null) return;
  const ids = row.org_id === null ? [orgId] : [orgId, row.org_id];
  const chains = await orgAreaFields(trx, ids);
  const before = row.org_id === null ? null : (chains.get(row.org_id) ?? null);
  const after = chains.get(orgId);
  if (!after) return;
  Object.assign(values, followOrgArea(areaFieldsOf({ ...row, ...values }), before, after));
}

type AddIn = {
  account: string;
  accountType: number;
  orgId: number;
  posId?: number | null;
  status: number;
  roleIdList: number[];
  extOrgList: ExtOrgInput[];
};
type UpdateIn = { id: number; account?: string; accountType?: number; status?: number } & LinkInput;

/** The rules of users around the CRUD factory's writes. */
export function userHooks(): CrudHooks<'sys_user', AddIn, UpdateIn> {
  return {
    async beforeAdd({ ctx, trx, user, input, values }) {
      const tenantId = values.tenant_id as number;
      await assertAccountFree(trx, input.account, null);
      await checkLinks(ctx, trx, user, tenantId, input, null);
      const { hash } = await defaultPassword(ctx);
      values.password = hash;
      values.is_def_pwd = 1;
      values.login_fail_count = 0;
      values.lock_until = null;
      // Area levels left blank are copied from the org chain; typed ones are the admin's.
      const chain = (await orgAreaFields(trx, [input.orgId])).get(input.orgId);
      if (chain) Object.assign(values, followOrgArea(areaFieldsOf(values), null, chain));
      const id = values.id as number;
      await replaceRoles(trx, ctx, id, input.roleIdList);
      await replaceExtOrgs(trx, ctx, id, input.extOrgList);
    },

    async beforeUpdate({ ctx, trx, user, input, values, row }) {
      assertMayChange(user, row);
      if (isAdminType(row.account_type)) delete values.account_type;
      if (input.status === STATUS.disabled && row.id === user.userId) throw new AppError('D1003');
      if (input.account !== undefined) await assertAccountFree(trx, input.account, row.id);
      await checkLinks(ctx, trx, user, row.tenant_id, input, { org_id: row.org_id, userId: row.id });
      await followOrg(trx, row, values);
      if (input.roleIdList) await replaceRoles(trx, ctx, row.id, input.roleIdList);
      if (input.extOrgList) await replaceExtOrgs(trx, ctx, row.id, input.extOrgList);
    },

    beforeSetStatus({ user, status, row }) {
      if (row.id === user.userId) throw new AppError('D1003');
      assertMayChange(user, row);
      // Disabling touches no other table; sessions end once the change has committed (afterChange).
      void status;
    },

    async beforeDelete({ trx, user, rows }) {
      for (const row of rows) {
        if (row.id === user.userId) throw new AppError('D1001');
        assertMayChange(user, row);
      }
      const ids = rows.map((r) => r.id);
      // A deleted user holds no roles or extra orgs: "role still has users" counts live users only.
      await trx.deleteFrom('sys_user_role').where('user_id', 'in', ids).execute();
      await trx.deleteFrom('sys_user_ext_org').where('user_id', 'in', ids).execute();
    },

    async afterChange({ ctx, ids }) {
      const rows = await ctx.db
        .selectFrom('sys_user')
        .select(['id', 'status', 'is_delete'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) {
        // A disabled or deleted user is out at once: their sessions end for real, not at token expiry.
        if (row.is_delete !== 0 || row.status !== STATUS.enabled) {
          await revokeUserSessions(ctx, row.id, row.is_delete !== 0 ? 'user_deleted' : 'user_disabled');
        }
        await forgetUser(ctx, row.id);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// The routes' own actions. `target` is a user the caller may see (the factory's detail, D1002 otherwise).

export async function resetPassword(
  ctx: AppContext,
  caller: AuthUser,
  target: { id: number; accountType: number },
): Promise<string> {
  assertMayChange(caller, { account_type: target.accountType });
  const { plain, hash } = await defaultPassword(ctx);
  const now = formatDateTime();
  await ctx.db
    .updateTable('sys_user')
    .set({
      password: hash,
      is_def_pwd: 1,
      password_update_time: now,
      login_fail_count: 0,
      lock_until: null,
      update_time: now,
      update_user_id: caller.userId,
      update_user_name: caller.realName,
    })
    .where('id', '=', target.id)
    .execute();
  // Whoever knew the old password is signed out (the caller keeps their own session).
  await revokeUserSessions(
    ctx,
    target.id,
    'password_reset',
    target.id === caller.userId ? caller.sessionId : undefined,
  );
  // A caller resetting their own password keeps the session, which now owes the change too.
  await forgetUserSessions(ctx, target.id);
  await forgetUserInfo(ctx, target.id);
  return plain;
}

export async function unlockLogin(
  ctx: AppContext,
  caller: AuthUser,
  target: { id: number; accountType: number },
): Promise<null> {
  assertMayChange(caller, { account_type: target.accountType });
  await ctx.db
    .updateTable('sys_user')
    .set({
      lock_until: null,
      login_fail_count: 0,
      update_time: formatDateTime(),
      update_user_id: caller.userId,
      update_user_name: caller.realName,
    })
    .where('id', '=', target.id)
    .execute();
  await unlockSignIn(ctx, target.id);
  return null;
}

export async function grantRoles(
  ctx: AppContext,
  caller: AuthUser,
  target: { id: number; accountType: number; tenantId: number },
  roleIds: number[],
): Promise<null> {
  assertMayChange(caller, { account_type: target.accountType });
  await ctx.db.transaction().execute(async (trx) => {
    await assertRolesOfTenant(trx, target.tenantId, roleIds);
    await replaceRoles(trx, ctx, target.id, roleIds);
  });
  await forgetUser(ctx, target.id);
  return null;
}

export async function ownRoleIds(ctx: AppContext, userId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select('ur.role_id')
    .where('ur.user_id', '=', userId)
    .where('r.is_delete', '=', 0)
    .orderBy('ur.role_id')
    .execute();
  return rows.map((r) => r.role_id);
}

export async function ownExtOrgs(ctx: AppContext, userId: number): Promise<UserExtOrg[]> {
  const rows = await ctx.db
    .selectFrom('sys_user_ext_org as e')
    .leftJoin('sys_org as o', 'o.id', 'e.org_id')
    .leftJoin('sys_pos as p', 'p.id', 'e.pos_id')
    .select(['e.org_id', 'e.pos_id', 'o.name as org_name', 'p.name as pos_name'])
    .where('e.user_id', '=', userId)
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    orgId: r.org_id,
    orgName: r.org_name ?? null,
    posId: r.pos_id ?? null,
    posName: r.pos_name ?? null,
  }));
}
