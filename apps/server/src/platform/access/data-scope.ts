import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { AppContext } from '../context.ts';

export const DATA_SCOPE = { all: 1, orgAndBelow: 2, org: 3, self: 4, custom: 5 } as const;

export type ScopeSubject = { userId: number; tenantId: number; accountType: number; orgId: number | null };

/**
 * Orgs whose data a user may see: the union over their enabled roles' data scopes, plus their own org and
 * extra orgs (REFERENCE "Role data scope"). Admins see the whole tenant.
 */
export async function visibleOrgIds(ctx: AppContext, subject: ScopeSubject): Promise<number[]> {
  const orgs = await ctx.db
    .selectFrom('sys_org')
    .select(['id', 'full_ids'])
    .where('tenant_id', '=', subject.tenantId)
    .where('is_delete', '=', 0)
    .execute();
  const isAdmin =
    subject.accountType === ACCOUNT_TYPE.superAdmin || subject.accountType === ACCOUNT_TYPE.sysAdmin;
  const roles = await ctx.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.id', 'r.data_scope'])
    .where('ur.user_id', '=', subject.userId)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .execute();
  if (isAdmin || roles.some((r) => r.data_scope === DATA_SCOPE.all)) return orgs.map((o) => o.id);

  const visible = new Set<number>();
  if (subject.orgId) visible.add(subject.orgId);
  const ext = await ctx.db
    .selectFrom('sys_user_ext_org')
    .select('org_id')
    .where('user_id', '=', subject.userId)
    .execute();
  for (const row of ext) visible.add(row.org_id);

  const own = subject.orgId;
  if (own && roles.some((r) => r.data_scope === DATA_SCOPE.orgAndBelow)) {
    for (const org of orgs) if (org.full_ids.split(',').map(Number).includes(own)) visible.add(org.id);
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
  return [...visible].filter((id) => existing.has(id)).sort((a, b) => a - b);
}
