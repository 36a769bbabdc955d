import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import { MENU_TYPE, PLATFORM_ONLY_MENUS } from '@shuzhi/contracts/menu';
import { TENANT_ADMIN_ROLE_CODE } from '@shuzhi/contracts/role';
import type {
  TenantResetPwdResult,
  tenantAddInputSchema,
  tenantUpdateInputSchema,
} from '@shuzhi/contracts/tenant';
import type { Kysely, Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, SysTenantTable } from '../../db/schema.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import {
  forgetTenantSessions,
  revokeTenantSessions,
  revokeUserSessions,
} from '../../platform/auth/sessions.ts';
import { configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError, HttpError } from '../../platform/errors/app-error.ts';
import { forgetAllUserInfo } from '../auth/user-info.service.ts';
import { forgetAllMenuTrees } from '../menu/menu.service.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const ACCOUNT_LABEL = { 'zh-CN': '账号', en: 'Account', 'zh-TW': '帳號' };
const ROOT_ORG_TYPE = 'district';

/**
 * Tenant management belongs to the platform operator. The route permissions already keep tenant admins out
 * (the sysTenant page is never in a tenant's menu set); this is the server-side backstop.
 */
export function requireSuperAdmin(user: AuthUser): void {
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) throw new HttpError(403);
}

/** The default tenant: the one the super admin belongs to, and the first one ever created. */
export async function isDefaultTenant(db: Db, tenantId: number): Promise<boolean> {
  const superAdmin = await db
    .selectFrom('sys_user')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('account_type', '=', ACCOUNT_TYPE.superAdmin)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (superAdmin) return true;
  const first = await db
    .selectFrom('sys_tenant')
    .select('id')
    .where('is_delete', '=', 0)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return first?.id === tenantId;
}

type MenuLink = { id: number; pid: number; name: string; type: number };

/** Ids of the platform-only pages and everything below them (their buttons). */
export function platformOnlyIds(menus: readonly MenuLink[]): Set<number> {
  const byId = new Map(menus.map((m) => [m.id, m]));
  const roots = new Set(
    menus
      .filter(
        (m) => m.type !== MENU_TYPE.button && (PLATFORM_ONLY_MENUS as readonly string[]).includes(m.name),
      )
      .map((m) => m.id),
  );
  const out = new Set<number>();
  for (const menu of menus) {
    for (let node: MenuLink | undefined = menu; node; node = byId.get(node.pid)) {
      if (roots.has(node.id)) {
        out.add(menu.id);
        break;
      }
      if (node.pid === node.id) break;
    }
  }
  return out;
}

async function liveMenus(db: Db) {
  return db
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'name', 'type', 'status'])
    .where('is_delete', '=', 0)
    .execute();
}

/** A new tenant's menus: every enabled menu except the platform-only pages and their buttons. */
export async function defaultTenantMenuIds(db: Db): Promise<number[]> {
  const menus = await liveMenus(db);
  const excluded = platformOnlyIds(menus);
  return menus.filter((m) => m.status === STATUS.enabled && !excluded.has(m.id)).map((m) => m.id);
}

/** The tenant's admin account (type 888, the first one made): null when there is none. */
async function tenantAdmin(db: Db, tenantId: number) {
  return db
    .selectFrom('sys_user')
    .select(['id', 'account'])
    .where('tenant_id', '=', tenantId)
    .where('account_type', '=', ACCOUNT_TYPE.sysAdmin)
    .where('is_delete', '=', 0)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

async function defaultPasswordHash(ctx: AppContext): Promise<{ password: string; hash: string }> {
  const password = await configValue(ctx, 'sys_password');
  return { password, hash: await hashPassword(password, ctx.passwordHashing) };
}

/** After a tenant's menus or status changed: menu trees, user info and cached permission sets are stale. */
async function forgetTenantGrants(ctx: AppContext, tenantId: number): Promise<void> {
  await forgetAllMenuTrees(ctx);
  await forgetAllUserInfo(ctx);
  await forgetTenantSessions(ctx, tenantId);
}

type Values = Partial<SysTenantTable>;

type TenantAddOut = z.output<typeof tenantAddInputSchema>;
type TenantUpdateOut = z.output<typeof tenantUpdateInputSchema>;

export function tenantHooks(ctx: AppContext): CrudHooks<'sys_tenant', TenantAddOut, TenantUpdateOut> {
  return {
    async beforeAdd({ trx, user, input, values }) {
      requireSuperAdmin(user);
      await createTenantParts(ctx, trx, user, input, values);
    },
    async beforeUpdate({ trx, user, values, row }) {
      requireSuperAdmin(user);
      // The seed finds the default tenant by its code on every start: it keeps it.
      const recoded = values.code !== undefined && values.code !== row.code;
      if (recoded && (await isDefaultTenant(trx, row.id))) throw new AppError('Z1004');
      // The root org carries the tenant's name and code.
      const org: { name?: string; code?: string } = {};
      if (values.name !== undefined && values.name !== row.name) org.name = values.name;
      if (recoded) org.code = values.code;
      if (row.org_id && Object.keys(org).length > 0) {
        await trx
          .updateTable('sys_org')
          .set({
            ...org,
            ...(org.name ? { full_names: org.name } : {}),
            update_time: formatDateTime(),
            update_user_id: user.userId,
            update_user_name: user.realName,
          })
          .where('id', '=', row.org_id)
          .where('pid', '=', 0)
          .execute();
      }
    },
    async beforeSetStatus({ trx, user, status, row }) {
      requireSuperAdmin(user);
      if (status !== STATUS.enabled && (await isDefaultTenant(trx, row.id))) throw new AppError('Z1000');
    },
    async beforeDelete({ trx, user, rows }) {
      requireSuperAdmin(user);
      for (const row of rows) await deleteTenantParts(trx, user, row);
    },
    async afterChange({ ctx, action, ids }) {
      for (const id of ids) {
        if (action === 'delete') {
          await revokeTenantSessions(ctx, id, 'tenant deleted');
        } else if (action === 'setStatus') {
          const tenant = await ctx.db
            .selectFrom('sys_tenant')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirst();
          // A disabled tenant's users are out at once, not when their cached principal runs out.
          if (tenant && tenant.status !== STATUS.enabled)
            await revokeTenantSessions(ctx, id, 'tenant disabled');
        }
        if (action !== 'update') await forgetTenantGrants(ctx, id);
      }
    },
  };
}

/**
 * The parts of a new tenant, in the add's transaction: root org, `sys_admin` role (data scope 1) with the
 * default menus, the admin account (type 888, default password to be changed at first sign-in) and the
 * tenant's menu set.
 */
async function createTenantParts(
  ctx: AppContext,
  trx: Transaction<Database>,
  user: AuthUser,
  input: TenantAddOut,
  values: Values,
): Promise<void> {
  const tenantId = values.id as number;
  const taken = await trx
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', input.adminAccount)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (taken) throw new AppError('D1006', { field: ACCOUNT_LABEL, value: input.adminAccount });

  const now = formatDateTime();
  const base = () => ({
    id: ctx.newId(),
    create_time: now,
    update_time: null,
    create_user_id: user.userId,
    create_user_name: user.realName,
    update_user_id: null,
    update_user_name: null,
    is_delete: 0,
    tenant_id: tenantId,
  });

  const org = { ...base(), name: input.name, code: input.code };
  await trx
    .insertInto('sys_org')
    .values({
      ...org,
      pid: 0,
      type: ROOT_ORG_TYPE,
      level: 1,
      full_ids: String(org.id),
      full_names: org.name,
      region_code: null,
      order_no: 1,
      status: STATUS.enabled,
      remark: null,
    })
    .execute();
  values.org_id = org.id;

  const menuIds = await defaultTenantMenuIds(trx);
  const role = base();
  await trx
    .insertInto('sys_role')
    .values({
      ...role,
      code: TENANT_ADMIN_ROLE_CODE,
      name: '系统管理员',
      data_scope: 1,
      order_no: 1,
      status: STATUS.enabled,
      remark: null,
    })
    .execute();

  const { hash } = await defaultPasswordHash(ctx);
  const admin = base();
  await trx
    .insertInto('sys_user')
    .values({
      ...admin,
      account: input.adminAccount,
      password: hash,
      real_name: `${input.name}管理员`.slice(0, 64),
      nick_name: null,
      avatar: null,
      sex: null,
      phone: null,
      email: null,
      id_card_num: null,
      address: null,
      signature: null,
      account_type: ACCOUNT_TYPE.sysAdmin,
      org_id: org.id,
      pos_id: null,
      enterprise: null,
      area: null,
      area_code: null,
      street: null,
      street_code: null,
      community: null,
      community_code: null,
      wangge: null,
      wangge_code: null,
      weiwangge: null,
      weiwangge_code: null,
      region_id: null,
      region_name: null,
      status: STATUS.enabled,
      order_no: 1,
      remark: null,
      password_update_time: now,
      is_def_pwd: 1,
      login_fail_count: 0,
      lock_until: null,
      last_login_time: null,
      last_login_ip: null,
      op_password: null,
      op_password_time: null,
    })
    .execute();
  await trx
    .insertInto('sys_user_role')
    .values({ id: ctx.newId(), user_id: admin.id, role_id: role.id })
    .execute();
  await insertLinks(
    trx,
    'sys_tenant_menu',
    menuIds.map((menuId) => ({ id: ctx.newId(), tenant_id: tenantId, menu_id: menuId })),
  );
  await insertLinks(
    trx,
    'sys_role_menu',
    menuIds.map((menuId) => ({ id: ctx.newId(), role_id: role.id, menu_id: menuId })),
  );
}

const CHUNK = 200;
async function insertLinks<T extends 'sys_tenant_menu' | 'sys_role_menu'>(
  trx: Db,
  table: T,
  rows: Database[T][],
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
}

/**
 * Refuses while the tenant has users besides its admin (Z1001), and never the default tenant (Z1000);
 * otherwise the tenant's root org, admin role and admin account go with it (soft delete).
 */
async function deleteTenantParts(trx: Transaction<Database>, user: AuthUser, row: SysTenantTable) {
  if (await isDefaultTenant(trx, row.id)) throw new AppError('Z1000');
  const admin = await tenantAdmin(trx, row.id);
  let others = trx
    .selectFrom('sys_user')
    .select('id')
    .where('tenant_id', '=', row.id)
    .where('is_delete', '=', 0);
  if (admin) others = others.where('id', '!=', admin.id);
  if (await others.limit(1).executeTakeFirst()) throw new AppError('Z1001');

  const gone = {
    is_delete: 1,
    update_time: formatDateTime(),
    update_user_id: user.userId,
    update_user_name: user.realName,
  };
  if (admin) await trx.updateTable('sys_user').set(gone).where('id', '=', admin.id).execute();
  await trx
    .updateTable('sys_role')
    .set(gone)
    .where('tenant_id', '=', row.id)
    .where('code', '=', TENANT_ADMIN_ROLE_CODE)
    .where('is_delete', '=', 0)
    .execute();
  await trx
    .updateTable('sys_org')
    .set(gone)
    .where('tenant_id', '=', row.id)
    .where('pid', '=', 0)
    .where('is_delete', '=', 0)
    .execute();
}

/** A live tenant, or D1002. */
async function tenantRow(db: Db, id: number) {
  const row = await db
    .selectFrom('sys_tenant')
    .select(['id', 'code', 'name'])
    .where('id', '=', id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}

/** Menu ids of a tenant's menu set. */
export async function ownMenuList(ctx: AppContext, user: AuthUser, id: number): Promise<number[]> {
  requireSuperAdmin(user);
  await tenantRow(ctx.db, id);
  const rows = await ctx.db
    .selectFrom('sys_tenant_menu as tm')
    .innerJoin('sys_menu as m', 'm.id', 'tm.menu_id')
    .select('tm.menu_id')
    .where('tm.tenant_id', '=', id)
    .where('m.is_delete', '=', 0)
    .orderBy('tm.menu_id')
    .execute();
  return rows.map((r) => r.menu_id);
}

/**
 * Replaces a tenant's menu set with the given menus and their ancestors (platform-only pages are never
 * granted). The tenant's roles lose menus the tenant no longer has: a role cannot hold more than its tenant.
 */
export async function grantMenu(
  ctx: AppContext,
  user: AuthUser,
  input: { id: number; menuIdList: number[] },
): Promise<null> {
  requireSuperAdmin(user);
  await ctx.db.transaction().execute(async (trx) => {
    await tenantRow(trx, input.id);
    const menus = await liveMenus(trx);
    const byId = new Map(menus.map((m) => [m.id, m]));
    const excluded = platformOnlyIds(menus);
    const granted = new Set<number>();
    for (const id of new Set(input.menuIdList)) {
      if (!byId.has(id)) throw new AppError('D1002');
      if (excluded.has(id)) continue;
      for (let node = byId.get(id); node && !granted.has(node.id); node = byId.get(node.pid)) {
        granted.add(node.id);
      }
    }
    const ids = [...granted];
    await trx.deleteFrom('sys_tenant_menu').where('tenant_id', '=', input.id).execute();
    await insertLinks(
      trx,
      'sys_tenant_menu',
      ids.map((menuId) => ({ id: ctx.newId(), tenant_id: input.id, menu_id: menuId })),
    );
    const roleIds = trx.selectFrom('sys_role').select('id').where('tenant_id', '=', input.id);
    let stale = trx.deleteFrom('sys_role_menu').where('role_id', 'in', roleIds);
    if (ids.length > 0) stale = stale.where('menu_id', 'not in', ids);
    await stale.execute();
  });
  await forgetTenantGrants(ctx, input.id);
  return null;
}

/** Sets the tenant admin's password back to `sys_password` (changed at next sign-in) and ends their sessions. */
export async function resetAdminPassword(
  ctx: AppContext,
  user: AuthUser,
  id: number,
): Promise<TenantResetPwdResult> {
  requireSuperAdmin(user);
  await tenantRow(ctx.db, id);
  const admin = await tenantAdmin(ctx.db, id);
  if (!admin) throw new AppError('D1002');
  const { password, hash } = await defaultPasswordHash(ctx);
  await ctx.db
    .updateTable('sys_user')
    .set({
      password: hash,
      is_def_pwd: 1,
      password_update_time: formatDateTime(),
      login_fail_count: 0,
      lock_until: null,
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.realName,
    })
    .where('id', '=', admin.id)
    .execute();
  await revokeUserSessions(ctx, admin.id, 'password reset');
  return { account: admin.account, password };
}
