import { STATUS } from '@shuzhi/contracts/envelope';
import type { AppContext, AuthUser } from '../context.ts';
import { loadPermissions } from './permissions.ts';

/**
 * A user as a signed-in session would see them, with their permissions, for a request that acts in their name
 * without a session (a login-free link or a cockpit link acts as its publisher); null when the account or its
 * tenant is deleted or disabled.
 */
export async function actingUser(
  ctx: AppContext,
  userId: number,
  tenantId: number,
): Promise<AuthUser | null> {
  const row = await ctx.db
    .selectFrom('sys_user as u')
    .innerJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select([
      'u.id',
      'u.tenant_id',
      'u.account_type',
      'u.account',
      'u.real_name',
      'u.org_id',
      'o.name as org_name',
    ])
    .where('u.id', '=', userId)
    .where('u.tenant_id', '=', tenantId)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .where('t.is_delete', '=', 0)
    .where('t.status', '=', STATUS.enabled)
    .executeTakeFirst();
  if (!row) return null;
  const grantee = { userId: Number(row.id), tenantId: Number(row.tenant_id), accountType: row.account_type };
  return {
    ...grantee,
    account: row.account,
    realName: row.real_name,
    orgId: Number(row.org_id ?? 0),
    orgName: row.org_name ?? '',
    sessionId: 0,
    permissions: new Set(await loadPermissions(ctx, grantee)),
  };
}
