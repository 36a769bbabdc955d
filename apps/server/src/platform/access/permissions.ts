import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import { MENU_TYPE } from '@shuzhi/contracts/menu';
import { ALL_PERMISSIONS } from '@shuzhi/contracts/permissions';
import type { AppContext } from '../context.ts';

export type Grantee = { userId: number; tenantId: number; accountType: number };

/**
 * Ids of the menus (all types) a user is granted, or 'all' for the super admin. A tenant admin gets the
 * tenant's menus; everyone else the union of their enabled roles' menus.
 */
export async function grantedMenuIds(ctx: AppContext, user: Grantee): Promise<number[] | 'all'> {
  if (user.accountType === ACCOUNT_TYPE.superAdmin) return 'all';
  if (user.accountType === ACCOUNT_TYPE.sysAdmin) {
    const rows = await ctx.db
      .selectFrom('sys_tenant_menu')
      .select('menu_id')
      .where('tenant_id', '=', user.tenantId)
      .execute();
    return rows.map((r) => r.menu_id);
  }
  const rows = await ctx.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .innerJoin('sys_role_menu as rm', 'rm.role_id', 'r.id')
    .select('rm.menu_id')
    .distinct()
    .where('ur.user_id', '=', user.userId)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .where('r.tenant_id', '=', user.tenantId)
    .execute();
  return rows.map((r) => r.menu_id);
}

/** Button permission strings of a user (enabled buttons only); the super admin holds the whole catalogue. */
export async function loadPermissions(ctx: AppContext, user: Grantee): Promise<string[]> {
  const granted = await grantedMenuIds(ctx, user);
  let query = ctx.db
    .selectFrom('sys_menu')
    .select('permission')
    .distinct()
    .where('type', '=', MENU_TYPE.button)
    .where('status', '=', STATUS.enabled)
    .where('is_delete', '=', 0)
    .where('permission', 'is not', null);
  if (granted !== 'all') {
    if (granted.length === 0) return [];
    query = query.where('id', 'in', granted);
  }
  const fromMenus = (await query.execute()).map((r) => r.permission as string);
  const all = granted === 'all' ? [...ALL_PERMISSIONS, ...fromMenus] : fromMenus;
  return [...new Set(all)].sort();
}
