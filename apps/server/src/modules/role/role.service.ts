import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import {
  ROLE_DATA_SCOPE,
  type RoleChoice,
  type RoleMenuNode,
  TENANT_ADMIN_ROLE_CODE,
} from '@shuzhi/contracts/role';
import type { Database } from '../../db/schema.ts';
import { dataScopeOf, forgetDataScope, rowOrgIds } from '../../platform/access/data-scope.ts';
import { grantedMenuIds } from '../../platform/access/permissions.ts';
import { forgetUserSessions } from '../../platform/auth/sessions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { CrudHooks, Scope } from '../../platform/crud/crud.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { forgetAllUserInfo, forgetUserInfo } from '../auth/user-info.service.ts';
import { forgetAllMenuTrees, forgetMenuTree } from '../menu/menu.service.ts';

const isAdmin = (user: { accountType: number }) =>
  user.accountType === ACCOUNT_TYPE.superAdmin || user.accountType === ACCOUNT_TYPE.sysAdmin;

/** Beyond this many holders, the shared caches are dropped wholesale rather than user by user. */
const MANY_HOLDERS = 200;

/** Live users holding one of the roles. */
async function holdersOf(ctx: AppContext, roleIds: readonly number[]): Promise<number[]> {
  if (roleIds.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
    .select('ur.user_id')
    .distinct()
    .where('ur.role_id', 'in', [...roleIds])
    .where('u.is_delete', '=', 0)
    .execute();
  return rows.map((r) => r.user_id);
}

/**
 * After a role's menus, status or scope changed: the holders' user info, login menu tree, data scope and
 * cached session principals (their permission sets) go, so the next request of each holder sees the change.
 */
export async function forgetRoleHolders(ctx: AppContext, roleIds: readonly number[]): Promise<void> {
  const users = await holdersOf(ctx, roleIds);
  if (users.length > MANY_HOLDERS) {
    await forgetAllUserInfo(ctx);
    await forgetAllMenuTrees(ctx);
    await forgetDataScope(ctx);
  }
  for (const userId of users) {
    if (users.length <= MANY_HOLDERS) {
      await forgetUserInfo(ctx, userId);
      await forgetMenuTree(ctx, userId);
      await forgetDataScope(ctx, userId);
    }
    await forgetUserSessions(ctx, userId);
  }
}

/**
 * Role listings: admins (999, 888) and holders of a scope-1 role see every role of the tenant; others the
 * roles they hold and the roles created by themselves or by users in their row scope.
 */
export const roleScope: Scope<'sys_role'> = async (query, user, ctx) => {
  if (isAdmin(user)) return query;
  const view = await dataScopeOf(ctx, user);
  if (view.all) return query;
  const orgIds = rowOrgIds(view);
  return query.where((eb) =>
    eb.or([
      eb('id', 'in', eb.selectFrom('sys_user_role').select('role_id').where('user_id', '=', user.userId)),
      eb('create_user_id', '=', user.userId),
      ...(orgIds.length > 0
        ? [
            eb(
              'create_user_id',
              'in',
              eb
                .selectFrom('sys_user')
                .select('id')
                .where('org_id', 'in', [...orgIds])
                .where('tenant_id', '=', user.tenantId),
            ),
          ]
        : []),
    ]),
  );
};

export const roleHooks: CrudHooks<'sys_role', unknown, unknown> = {
  beforeAdd({ values }) {
    // Least privilege until a data scope is granted.
    values.data_scope = ROLE_DATA_SCOPE.self;
  },
  beforeUpdate({ row, values }) {
    if (row.code === TENANT_ADMIN_ROLE_CODE && values.code !== undefined && values.code !== row.code) {
      throw new AppError('D1019');
    }
  },
  beforeSetStatus({ row, status }) {
    if (row.code === TENANT_ADMIN_ROLE_CODE && status !== STATUS.enabled) throw new AppError('D1019');
  },
  async beforeDelete({ trx, rows }) {
    if (rows.some((r) => r.code === TENANT_ADMIN_ROLE_CODE)) throw new AppError('D1019');
    const ids = rows.map((r) => r.id);
    const held = await trx
      .selectFrom('sys_user_role as ur')
      .innerJoin('sys_user as u', 'u.id', 'ur.user_id')
      .select('ur.role_id')
      .where('ur.role_id', 'in', ids)
      .where('u.is_delete', '=', 0)
      .executeTakeFirst();
    if (held) throw new AppError('D1008');
    // The links go with the role (deleted users' links too): nothing can reach them any more.
    await trx.deleteFrom('sys_role_menu').where('role_id', 'in', ids).execute();
    await trx.deleteFrom('sys_role_org').where('role_id', 'in', ids).execute();
    await trx.deleteFrom('sys_user_role').where('role_id', 'in', ids).execute();
  },
  async afterChange({ ctx, action, ids }) {
    // A status change turns the holders' menus, permissions and scope on or off.
    if (action === 'setStatus') await forgetRoleHolders(ctx, ids);
  },
};

type MenuRow = Pick<
  Database['sys_menu'],
  'id' | 'pid' | 'type' | 'name' | 'title' | 'permission' | 'icon' | 'status'
>;

/** Live menus whose whole branch is enabled (a disabled node hides what lies below it), ordered. */
async function enabledMenus(ctx: AppContext): Promise<Map<number, MenuRow>> {
  const rows = await ctx.db
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'type', 'name', 'title', 'permission', 'icon', 'status'])
    .where('is_delete', '=', 0)
    .orderBy('order_no')
    .orderBy('id')
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const enabled = new Map<number, MenuRow>();
  const ok = (row: MenuRow): boolean => {
    for (let r: MenuRow | undefined = row, depth = 0; r && depth < 64; r = byId.get(r.pid), depth++) {
      if (r.status !== STATUS.enabled) return false;
    }
    return true;
  };
  for (const row of rows) if (ok(row)) enabled.set(row.id, row);
  return enabled;
}

/** Ids of the menus the caller may grant: enabled menus the caller holds, with their ancestors. */
async function grantableMenus(ctx: AppContext, user: AuthUser): Promise<Map<number, MenuRow>> {
  const enabled = await enabledMenus(ctx);
  const granted = await grantedMenuIds(ctx, user);
  if (granted === 'all') return enabled;
  const allowed = new Map<number, MenuRow>();
  for (const id of granted) {
    for (let row = enabled.get(id); row && !allowed.has(row.id); row = enabled.get(row.pid)) {
      allowed.set(row.id, row);
    }
  }
  return allowed;
}

/** `menuTree`: the directories, pages and buttons the caller may grant, as a tree in menu order. */
export async function roleMenuTree(ctx: AppContext, user: AuthUser): Promise<RoleMenuNode[]> {
  const menus = await grantableMenus(ctx, user);
  const children = new Map<number, MenuRow[]>();
  for (const row of menus.values()) {
    const parent = menus.has(row.pid) ? row.pid : 0;
    const list = children.get(parent) ?? [];
    list.push(row);
    children.set(parent, list);
  }
  const build = (pid: number): RoleMenuNode[] =>
    (children.get(pid) ?? []).map((row) => ({
      id: row.id,
      pid: row.pid,
      type: row.type,
      name: row.name,
      title: row.title,
      permission: row.permission,
      icon: row.icon,
      children: build(row.id),
    }));
  return build(0);
}

/** `ownMenuList`: the role's stored menu ids (granted ones and their ancestors), ascending. */
export async function roleMenuIds(ctx: AppContext, roleId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('sys_role_menu')
    .select('menu_id')
    .distinct()
    .where('role_id', '=', roleId)
    .orderBy('menu_id')
    .execute();
  return rows.map((r) => r.menu_id);
}

/** `ownOrgList`: the role's custom orgs (scope 5), ascending. */
export async function roleOrgIds(ctx: AppContext, roleId: number): Promise<number[]> {
  const rows = await ctx.db
    .selectFrom('sys_role_org')
    .select('org_id')
    .distinct()
    .where('role_id', '=', roleId)
    .orderBy('org_id')
    .execute();
  return rows.map((r) => r.org_id);
}

/**
 * `grantMenu`: the role's menus become the given ids plus their ancestors, so that a granted button's page
 * and directory show in the holders' login menu tree. Every id must lie in what the caller may grant
 * (D1007). Grants the caller cannot see in the grant tree (disabled menus, waiting for the day they are
 * switched on, or menus beyond the caller's own) are kept: the caller can neither give nor take those, and
 * may send them back as `ownMenuList` listed them.
 */
export async function grantRoleMenus(
  ctx: AppContext,
  user: AuthUser,
  roleId: number,
  menuIds: readonly number[],
): Promise<void> {
  const grantable = await grantableMenus(ctx, user);
  const kept = (await roleMenuIds(ctx, roleId)).filter((id) => !grantable.has(id));
  const wanted = new Set<number>(kept);
  for (const id of menuIds) {
    let row = grantable.get(id);
    if (!row && wanted.has(id)) continue; // sent back as ownMenuList gave it: kept as it is
    if (!row) throw new AppError('D1007');
    while (row && !wanted.has(row.id)) {
      wanted.add(row.id);
      row = grantable.get(row.pid);
    }
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('sys_role_menu').where('role_id', '=', roleId).execute();
    const rows = [...wanted]
      .sort((a, b) => a - b)
      .map((menuId) => ({ id: ctx.newId(), role_id: roleId, menu_id: menuId }));
    for (let i = 0; i < rows.length; i += 500) {
      await trx
        .insertInto('sys_role_menu')
        .values(rows.slice(i, i + 500))
        .execute();
    }
  });
  await forgetRoleHolders(ctx, [roleId]);
}

/**
 * `grantDataScope`: only the super admin grants scope 1 (D1016; a role that already has it may keep it);
 * a custom list (5) must lie within the orgs the granter sees (D1009) and in the role's tenant (D1002).
 * The org list is stored for scope 5 only and cleared otherwise.
 */
export async function grantRoleDataScope(
  ctx: AppContext,
  user: AuthUser,
  role: { id: number; tenantId: number; dataScope: number },
  dataScope: number,
  orgIdList: readonly number[],
): Promise<void> {
  const superAdmin = user.accountType === ACCOUNT_TYPE.superAdmin;
  if (dataScope === ROLE_DATA_SCOPE.all && !superAdmin && role.dataScope !== ROLE_DATA_SCOPE.all) {
    throw new AppError('D1016');
  }
  const orgIds = dataScope === ROLE_DATA_SCOPE.custom ? [...new Set(orgIdList)] : [];
  if (orgIds.length > 0) {
    const found = await ctx.db
      .selectFrom('sys_org')
      .select('id')
      .where('id', 'in', orgIds)
      .where('tenant_id', '=', role.tenantId)
      .where('is_delete', '=', 0)
      .execute();
    if (found.length !== orgIds.length) throw new AppError('D1002');
    if (!superAdmin) {
      const view = await dataScopeOf(ctx, user);
      if (!view.all) {
        const mine = new Set(view.orgIds);
        if (orgIds.some((id) => !mine.has(id))) throw new AppError('D1009');
      }
    }
  }
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .updateTable('sys_role')
      .set({
        data_scope: dataScope,
        update_time: formatDateTime(),
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where('id', '=', role.id)
      .execute();
    await trx.deleteFrom('sys_role_org').where('role_id', '=', role.id).execute();
    if (orgIds.length > 0) {
      await trx
        .insertInto('sys_role_org')
        .values(orgIds.map((orgId) => ({ id: ctx.newId(), role_id: role.id, org_id: orgId })))
        .execute();
    }
  });
  await forgetRoleHolders(ctx, [role.id]);
}

/** The tenant's enabled roles as choices for pickers outside role admin (notice and form audiences). */
export async function enabledRoleChoices(ctx: AppContext, tenantId: number): Promise<RoleChoice[]> {
  return ctx.db
    .selectFrom('sys_role')
    .select(['id', 'code', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .where('status', '=', STATUS.enabled)
    .orderBy('order_no')
    .orderBy('id')
    .execute();
}
