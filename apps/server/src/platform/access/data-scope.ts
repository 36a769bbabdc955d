import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import { type SelectQueryBuilder, sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors/app-error.ts';

export const DATA_SCOPE = { all: 1, orgAndBelow: 2, org: 3, self: 4, custom: 5 } as const;

export type ScopeSubject = { userId: number; tenantId: number; accountType: number; orgId: number | null };

/**
 * What a user may see (REFERENCE "Role data scope"), computed once and cached per user:
 * - `all`: admins (999, 888) and holders of an enabled scope-1 role see the whole tenant;
 * - `orgIds`: the user's visible org set — the union over their enabled roles (2 own org and below, 3 own
 *   org, 5 the role's custom orgs) plus their own and extra orgs; org listings and pickers show these;
 * - `selfOnly`: every enabled role the user holds is scope 4, so rows (users, business rows) narrow to what
 *   the user is or created, although the own org still shows in org pickers;
 * - rows created by the user themself are always theirs to see.
 */
export type DataScopeView = {
  userId: number;
  tenantId: number;
  all: boolean;
  selfOnly: boolean;
  orgIds: readonly number[];
};

const KEY_PREFIX = 'dataScope:';
const TTL_SECONDS = 300;

/** Drops one user's cached scope (roles or orgs of that user changed), or everyone's (a role or the org tree changed). */
export async function forgetDataScope(ctx: AppContext, userId?: number): Promise<void> {
  if (userId === undefined) await ctx.cache.local.invalidatePrefix(KEY_PREFIX);
  else await ctx.cache.local.invalidate(`${KEY_PREFIX}${userId}`);
}

/** The caller's data scope, from this process's cache when it is there. */
export async function dataScopeOf(ctx: AppContext, subject: ScopeSubject): Promise<DataScopeView> {
  const key = `${KEY_PREFIX}${subject.userId}`;
  const hit = ctx.cache.local.get<DataScopeView>(key);
  if (hit && hit.tenantId === subject.tenantId) return hit;
  const since = ctx.cache.local.mark();
  const view = await loadDataScope(ctx, subject);
  ctx.cache.local.set(key, view, TTL_SECONDS, since);
  return view;
}

async function loadDataScope(ctx: AppContext, subject: ScopeSubject): Promise<DataScopeView> {
  const base = { userId: subject.userId, tenantId: subject.tenantId };
  const isAdmin =
    subject.accountType === ACCOUNT_TYPE.superAdmin || subject.accountType === ACCOUNT_TYPE.sysAdmin;
  const roles = await ctx.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.data_scope'])
    .where('ur.user_id', '=', subject.userId)
    .where('r.tenant_id', '=', subject.tenantId)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .execute();
  const orgs = await ctx.db
    .selectFrom('sys_org')
    .select(['id', 'full_ids'])
    .where('tenant_id', '=', subject.tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (isAdmin || roles.some((r) => r.data_scope === DATA_SCOPE.all)) {
    return { ...base, all: true, selfOnly: false, orgIds: orgs.map((o) => o.id) };
  }

  // The org as it is now: the caller's token names the org it was issued with, which an admin may have changed.
  const current = await ctx.db
    .selectFrom('sys_user')
    .select('org_id')
    .where('id', '=', subject.userId)
    .executeTakeFirst();
  const own = current ? current.org_id : subject.orgId;
  const visible = new Set<number>();
  if (own) visible.add(own);
  const ext = await ctx.db
    .selectFrom('sys_user_ext_org')
    .select('org_id')
    .where('user_id', '=', subject.userId)
    .execute();
  for (const row of ext) visible.add(row.org_id);

  if (own && roles.some((r) => r.data_scope === DATA_SCOPE.orgAndBelow)) {
    const marker = String(own);
    for (const org of orgs) if (org.full_ids.split(',').includes(marker)) visible.add(org.id);
  }
  const customRoles = roles.filter((r) => r.data_scope === DATA_SCOPE.custom).map((r) => r.id);
  if (customRoles.length > 0) {
    const custom = await ctx.db
      .selectFrom('sys_role_org')
      .select('org_id')
      .where('role_id', 'in', customRoles)
      .execute();
    for (const row of custom) visible.add(row.org_id);
  }
  const existing = new Set(orgs.map((o) => o.id));
  const orgIds = [...visible].filter((id) => existing.has(id)).sort((a, b) => a - b);
  const selfOnly = roles.length > 0 && roles.every((r) => r.data_scope === DATA_SCOPE.self);
  return { ...base, all: false, selfOnly, orgIds };
}

/** The visible org ids of a user (userInfo.orgIds). */
export async function visibleOrgIds(ctx: AppContext, subject: ScopeSubject): Promise<number[]> {
  return [...(await dataScopeOf(ctx, subject)).orgIds];
}

/** Org ids whose rows the view admits (none when only the user's own rows are theirs). */
export function rowOrgIds(view: DataScopeView): readonly number[] {
  return view.selfOnly ? [] : view.orgIds;
}

/** Whether the view admits rows of this org (its own rows aside). */
export function orgInScope(view: DataScopeView, orgId: number | null | undefined): boolean {
  if (view.all) return true;
  return orgId != null && rowOrgIds(view).includes(orgId);
}

/** D2003 unless the view admits org rows of `orgId` (e.g. the org a new user or a new business row goes to). */
export function assertOrgInScope(view: DataScopeView, orgId: number | null | undefined): void {
  if (!orgInScope(view, orgId)) throw new AppError('D2003');
}

/**
 * The one row filter of data scope: rows whose `orgColumn` is in the view's row orgs, or whose `selfColumn`
 * is the user (rows they created, or the user's own row in a user listing). Nothing is added for `all`.
 * Used by the CRUD factory's `scope` hook of business tables (`create_org_id` / `create_user_id`) and by
 * the user listing (`org_id` / `id`).
 */
export function whereInScope<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  view: DataScopeView,
  orgColumn: string,
  selfColumn: string,
): SelectQueryBuilder<DB, TB, O> {
  if (view.all) return query;
  const orgIds = rowOrgIds(view);
  return query.where((eb) => {
    const self = eb(sql.ref(selfColumn), '=', view.userId);
    return orgIds.length > 0 ? eb.or([eb(sql.ref(orgColumn), 'in', orgIds), self]) : self;
  }) as SelectQueryBuilder<DB, TB, O>;
}
