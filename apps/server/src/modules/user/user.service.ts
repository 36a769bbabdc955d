import type { ChangePwdInput } from '@shuzhi/contracts/password';
import { checkNewPassword } from '../../platform/auth/password-change.ts';
import { forgetUserSessions, revokeUserSessions } from '../../platform/auth/sessions.ts';
import { configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';

/**
 * Changes the caller's own password. Other sessions of the user end, since whoever held the old password
 * may be signed in elsewhere; the current one stays, and its cached principal is dropped so that a forced
 * password change (platform/access) lifts on the next call.
 */
export async function changePassword(
  ctx: AppContext,
  caller: AuthUser,
  input: ChangePwdInput,
): Promise<true> {
  const checked = await checkNewPassword(ctx, caller, {
    current: input.passwordOld,
    next: input.passwordNew,
  });
  const now = formatDateTime();
  await ctx.db
    .updateTable('sys_user')
    .set({
      password: checked.hash,
      password_update_time: now,
      is_def_pwd: checked.password === (await configValue(ctx, 'sys_password')) ? 1 : 0,
      update_time: now,
      update_user_id: caller.userId,
      update_user_name: caller.realName,
    })
    .where('id', '=', checked.userId)
    .execute();
  await revokeUserSessions(ctx, checked.userId, 'password_changed', caller.sessionId);
  await forgetUserSessions(ctx, checked.userId);
  await forgetUserInfo(ctx, checked.userId);
  return true;
}
