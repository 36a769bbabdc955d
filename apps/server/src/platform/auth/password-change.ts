import { checkPassword } from '@shuzhi/contracts/password';
import { configBool, configInt } from '../config/sys-config.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { parseDateTime } from '../db/time.ts';
import { AppError, unauthorized } from '../errors/app-error.ts';
import { hashPassword, verifyPassword } from './password-hash.ts';
import { sm2Decrypt } from './sm2.ts';

const DAY_MS = 86_400_000;

/** Why an account must change its password before anything else: the default one, or an expired one. */
export type PasswordChange = 'default' | 'expired';

/** Whether a password last set at `updated` is older than `sys_password_max_age_days` (0 = never expires). */
export async function isPasswordExpired(ctx: AppContext, updated: string | null): Promise<boolean> {
  const maxAgeDays = await configInt(ctx, 'sys_password_max_age_days');
  if (maxAgeDays <= 0) return false;
  if (!updated) return true;
  return parseDateTime(updated).getTime() + maxAgeDays * DAY_MS < Date.now();
}

/** The password change an account owes (isDefPwd / isUpdatePwd of the login result), or null. */
export async function passwordChangeDue(
  ctx: AppContext,
  user: { is_def_pwd: number; password_update_time: string | null },
): Promise<PasswordChange | null> {
  if (user.is_def_pwd === 1) return 'default';
  return (await isPasswordExpired(ctx, user.password_update_time)) ? 'expired' : null;
}

function decrypt(ctx: AppContext, cipher: string): string {
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  return plain;
}

/**
 * The checks of a password the caller sets for themselves (a new sign-in password, an operation password),
 * both sent SM2-encrypted: D0010 when a cipher does not decrypt, 401 when the account is gone, D1000 when the
 * sign-in password that confirms the user is wrong, D1028/D1029 when the new one breaks the length rule or
 * (with `sys_password_strong` on) the strong rule. Gives the new password and its hash; the caller stores it.
 */
export async function checkNewPassword(
  ctx: AppContext,
  caller: AuthUser,
  input: { current: string; next: string },
): Promise<{ userId: number; password: string; hash: string }> {
  const current = decrypt(ctx, input.current);
  const password = decrypt(ctx, input.next);
  const user = await ctx.db
    .selectFrom('sys_user')
    .select(['id', 'password'])
    .where('id', '=', caller.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw unauthorized(true);
  if (!(await verifyPassword(user.password, current))) throw new AppError('D1000');
  const failed = checkPassword(password, await configBool(ctx, 'sys_password_strong'));
  if (failed === 'length') throw new AppError('D1028');
  if (failed === 'strong') throw new AppError('D1029');
  return { userId: user.id, password, hash: await hashPassword(password, ctx.passwordHashing) };
}
