import type { UserExtOrg } from '@shuzhi/contracts/user';
import { forgetUserSessions, revokeUserSessions } from '../../platform/auth/sessions.ts';
import { unlockSignIn } from '../../platform/auth/sign-in-throttle.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';
import { assertMayChange, defaultPassword } from './user-admin.service.ts';
import { assertRolesOfTenant, forgetUser, replaceRoles } from './user-admin-links.ts';

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
