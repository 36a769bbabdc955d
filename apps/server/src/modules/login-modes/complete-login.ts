import type { LoginResult } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import { recordVisit } from '../../platform/audit/audit.ts';
import { openSession } from '../../platform/auth/sessions.ts';
import { signInState } from '../../platform/auth/sign-in-throttle.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { type Client, isPasswordExpired, type Signer } from '../auth/auth.service.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';

export type { Client, Signer };

/**
 * Runs a sign-in and leaves a visit-log row either way, like the password login of auth.service.ts: failures
 * keep their code and the zh-CN message.
 */
export async function withVisitLog<T>(
  ctx: AppContext,
  client: Client,
  who: Signer,
  run: () => Promise<T>,
): Promise<T> {
  const started = performance.now();
  const visit = (success: boolean, code: string, message: string | null) =>
    recordVisit(ctx, {
      action: success ? 'login' : 'loginFail',
      success,
      code,
      message,
      user: who,
      ip: client.ip,
      userAgent: client.userAgent,
      elapsed: performance.now() - started,
    });
  try {
    const result = await run();
    visit(true, '200', null);
    return result;
  } catch (error) {
    if (error instanceof AppError)
      visit(false, error.code, businessMessage(error.code, 'zh-CN', error.params));
    else visit(false, '500', error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * Opens a session for a user whose identity another factor proved (SMS code, a signed-in phone, an identity
 * provider). Applies the same gates and bookkeeping as the password login after its password check (see
 * `signIn` in auth.service.ts): tenant disabled → Z1003, account disabled → D1017, this source locked out of
 * the account by its wrong passwords → D1027 (sign-in throttling), last-login stamp, single-login, and the isDefPwd/isUpdatePwd flags (isDefPwd from the
 * stored flag, since no password was typed). The wrong-password counter is left alone: another factor does
 * not prove the password.
 */
export async function completeLogin(
  ctx: AppContext,
  userId: number,
  client: Client & { loginType: number | null },
  who: Signer,
): Promise<LoginResult> {
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .select([
      'u.id',
      'u.tenant_id',
      'u.account',
      'u.real_name',
      'u.status',
      'u.is_def_pwd',
      'u.password_update_time',
      't.status as tenant_status',
      't.is_delete as tenant_deleted',
    ])
    .where('u.id', '=', userId)
    .where('u.is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw new AppError('D0009');
  Object.assign(who, {
    userId: user.id,
    tenantId: user.tenant_id,
    account: user.account,
    realName: user.real_name,
  });
  if (user.tenant_status !== STATUS.enabled || user.tenant_deleted !== 0) throw new AppError('Z1003');
  if (user.status !== STATUS.enabled) throw new AppError('D1017');
  if ((await signInState(ctx, user.id, client.ip)).locked) throw new AppError('D1027');
  const now = formatDateTime();

  await ctx.db
    .updateTable('sys_user')
    .set({
      last_login_time: now,
      last_login_ip: client.ip,
    })
    .where('id', '=', user.id)
    .execute();
  await forgetUserInfo(ctx, user.id);

  const pair = await openSession(ctx, { id: user.id, tenantId: user.tenant_id }, client);
  return {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    isDefPwd: user.is_def_pwd === 1,
    isUpdatePwd: await isPasswordExpired(ctx, user.password_update_time),
  };
}
