import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { Localized } from '@shuzhi/contracts/i18n';
import type { Transaction } from 'kysely';
import type { Database, SysUserTable } from '../../db/schema.ts';
import { type DataScopeView, dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import { configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { Scope } from '../../platform/crud/crud.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * User administration: what its parts share (columns, the data scope of user rows, who may change whom, the
 * default password). Its parts: listings (`user-admin-listing.ts`), related rows (`user-admin-links.ts`), the
 * CRUD hooks (`user-admin-hooks.ts`) and the routes' own actions (`user-admin-actions.ts`).
 */

export const ACCOUNT_LABEL: Localized = { 'zh-CN': '账号', en: 'Account', 'zh-TW': '帳號' };

export type Db = AppContext['db'] | Transaction<Database>;
export type ExtOrgInput = { orgId: number; posId?: number | null };
export type UserRowDb = SysUserTable;

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

export const isAdminType = (accountType: number) =>
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

/** The default password and its hash: new users and resets get it, and must change it at first sign-in. */
export async function defaultPassword(ctx: AppContext): Promise<{ plain: string; hash: string }> {
  const plain = await configValue(ctx, 'sys_password');
  return { plain, hash: await hashPassword(plain, ctx.passwordHashing) };
}
