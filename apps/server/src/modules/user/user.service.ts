import { type ChangePwdInput, checkPassword } from '@shuzhi/contracts/password';
import { hashPassword, verifyPassword } from '../../platform/auth/password-hash.ts';
import { revokeUserSessions } from '../../platform/auth/sessions.ts';
import { configBool, configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError, unauthorized } from '../../platform/errors/app-error.ts';
import { decryptPassword } from '../auth/auth.service.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';

/**
 * Changes the caller's own password. Other sessions of the user end, since whoever held the old password
 * may be signed in elsewhere; the current one stays.
 */
export async function changePassword(
  ctx: AppContext,
  caller: AuthUser,
  input: ChangePwdInput,
): Promise<true> {
  const oldPassword = decryptPassword(ctx, input.passwordOld);
  const newPassword = decryptPassword(ctx, input.passwordNew);
  const user = await ctx.db
    .selectFrom('sys_user')
    .select(['id', 'password'])
    .where('id', '=', caller.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw unauthorized(true);
  if (!(await verifyPassword(user.password, oldPassword))) throw new AppError('D1000');
  const failed = checkPassword(newPassword, await configBool(ctx, 'sys_password_strong'));
  if (failed === 'length') throw new AppError('D1028');
  if (failed === 'strong') throw new AppError('D1029');

  const now = formatDateTime();
  await ctx.db
    .updateTable('sys_user')
    .set({
      password: await hashPassword(newPassword, ctx.passwordHashing),
      password_update_time: now,
      is_def_pwd: newPassword === (await configValue(ctx, 'sys_password')) ? 1 : 0,
      update_time: now,
      update_user_id: caller.userId,
      update_user_name: caller.realName,
    })
    .where('id', '=', user.id)
    .execute();
  await revokeUserSessions(ctx, user.id, 'password_changed', caller.sessionId);
  await forgetUserInfo(ctx, user.id);
  return true;
}
