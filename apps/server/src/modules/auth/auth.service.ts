import type { LoginInput, LoginResult, WatermarkConfig } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { FastifyReply } from 'fastify';
import { recordVisit } from '../../platform/audit/audit.ts';
import { checkCaptcha, createCaptcha } from '../../platform/auth/captcha.ts';
import { isPasswordExpired } from '../../platform/auth/password-change.ts';
import { verifyPassword } from '../../platform/auth/password-hash.ts';
import { openSession, reissueRefreshToken, revokeSession } from '../../platform/auth/sessions.ts';
import {
  recordSignInFailure,
  recordSignInSuccess,
  signInState,
} from '../../platform/auth/sign-in-throttle.ts';
import { sm2Decrypt } from '../../platform/auth/sm2.ts';
import { configBool, configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { AppError, INVALID_TOKEN_HEADERS, unauthorized } from '../../platform/errors/app-error.ts';
import { businessMessage } from '../../platform/errors/messages.ts';
import { forgetUserInfo } from './user-info.service.ts';

export type Client = { ip: string | null; userAgent: string | null };

export { createCaptcha, isPasswordExpired };

export async function loginConfig(ctx: AppContext) {
  return {
    secondVerEnabled: await configBool(ctx, 'sys_second_ver'),
    captchaEnabled: await configBool(ctx, 'sys_captcha'),
    publicKey: ctx.config.sm2.publicKey,
  };
}

/** Decrypts a password sent with SM2; D0010 when it cannot be read. */
export function decryptPassword(ctx: AppContext, cipher: string): string {
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  return plain;
}

export type CaptchaAnswer = {
  codeId?: number | string | null | undefined;
  code?: string | null | undefined;
};

/**
 * The password check of every sign-in with a password (login, API docs gate), throttled per account and
 * source (platform/auth/sign-in-throttle.ts): D1027 while this source is locked out of the account, D0008
 * when a captcha is due and `captcha` is not a right answer (`checked`: the caller has checked one already,
 * since `sys_captcha` is on), D1000 for a wrong password, D1027 when that wrong password locked this source out.
 */
export async function checkSignInPassword(
  ctx: AppContext,
  user: { id: number; password: string },
  password: string,
  client: Pick<Client, 'ip'>,
  captcha: CaptchaAnswer & { checked: boolean },
): Promise<void> {
  const state = await signInState(ctx, user.id, client.ip);
  if (state.locked) throw new AppError('D1027');
  if (state.captchaRequired && !captcha.checked) {
    if (!captcha.codeId || !captcha.code || !(await checkCaptcha(ctx, captcha.codeId, captcha.code)))
      throw new AppError('D0008');
  }
  if (!(await verifyPassword(user.password, password))) {
    throw new AppError((await recordSignInFailure(ctx, user.id, client.ip)) ? 'D1027' : 'D1000');
  }
  await recordSignInSuccess(ctx, user.id, client.ip);
}

/** Who a sign-in's log rows name; filled in as soon as the account is known. */
export type Signer = {
  userId: number | null;
  tenantId: number | null;
  account: string;
  realName: string | null;
};

/** A sign-in's signer before the account is looked up: only the name it was tried with. */
export const signerFor = (account: string): Signer => ({
  userId: null,
  tenantId: null,
  account,
  realName: null,
});

/**
 * Signs in and leaves a visit log row, successful or not (failures keep their code and message). `who` is
 * filled in once the account is found (the caller hands it to the operation log too).
 */
export async function login(
  ctx: AppContext,
  input: LoginInput,
  client: Client,
  who: Signer,
): Promise<LoginResult> {
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
    const result = await signIn(ctx, input, client, who);
    visit(true, '200', null);
    return result;
  } catch (error) {
    if (error instanceof AppError)
      visit(false, error.code, businessMessage(error.code, 'zh-CN', error.params));
    else visit(false, '500', error instanceof Error ? error.message : String(error));
    throw error;
  }
}

async function signIn(ctx: AppContext, input: LoginInput, client: Client, who: Signer): Promise<LoginResult> {
  const captchaOn = await configBool(ctx, 'sys_captcha');
  if (captchaOn) {
    if (!input.codeId || !input.code || !(await checkCaptcha(ctx, input.codeId, input.code))) {
      throw new AppError('D0008');
    }
  }
  const password = decryptPassword(ctx, input.password);
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .select([
      'u.id',
      'u.tenant_id',
      'u.real_name',
      'u.password',
      'u.status',
      'u.password_update_time',
      't.status as tenant_status',
      't.is_delete as tenant_deleted',
    ])
    .where('u.account', '=', input.account)
    .where('u.is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw new AppError('D0009');
  Object.assign(who, { userId: user.id, tenantId: user.tenant_id, realName: user.real_name });
  if (user.tenant_status !== STATUS.enabled || user.tenant_deleted !== 0) throw new AppError('Z1003');
  if (user.status !== STATUS.enabled) throw new AppError('D1017');

  await checkSignInPassword(ctx, user, password, client, { ...input, checked: captchaOn });

  const now = formatDateTime();
  const isDefPwd = password === (await configValue(ctx, 'sys_password'));
  await ctx.db
    .updateTable('sys_user')
    .set({
      login_fail_count: 0,
      lock_until: null,
      is_def_pwd: isDefPwd ? 1 : 0,
      last_login_time: now,
      last_login_ip: client.ip,
    })
    .where('id', '=', user.id)
    .execute();
  await forgetUserInfo(ctx, user.id);

  const pair = await openSession(
    ctx,
    { id: user.id, tenantId: user.tenant_id },
    { ...client, loginType: input.loginType ?? null },
  );
  return {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    isDefPwd,
    isUpdatePwd: await isPasswordExpired(ctx, user.password_update_time),
    // Shuzhi keeps no per-user home page: the client opens its first menu (docs/wire.md).
    homepage: null,
  };
}

/** Issues the token headers clients of the family read after login and refresh. */
export function sendTokenHeaders(
  reply: FastifyReply,
  tokens: { accessToken: string; refreshToken: string },
): void {
  reply.header('access-token', tokens.accessToken);
  reply.header('x-access-token', tokens.refreshToken);
}

export async function logout(ctx: AppContext, user: AuthUser, reply: FastifyReply): Promise<null> {
  await revokeSession(ctx, user.sessionId, 'logout');
  recordVisit(ctx, {
    action: 'logout',
    success: true,
    code: '200',
    message: null,
    user,
    ip: reply.request.ip,
    userAgent: reply.request.headers['user-agent'] ?? null,
    elapsed: null,
  });
  reply.headers(INVALID_TOKEN_HEADERS);
  return null;
}

/**
 * A new refresh token for the caller's session (the previous one is retired). The access token named in the
 * query must belong to that session.
 */
export async function refreshTokenFor(ctx: AppContext, user: AuthUser, accessToken: string): Promise<string> {
  const check = await ctx.tokens.verifyAccess(accessToken);
  if (check.status === 'invalid' || check.payload.SessionId !== user.sessionId) throw unauthorized(true);
  const refreshToken = await reissueRefreshToken(ctx, user.sessionId);
  if (!refreshToken) throw unauthorized(true);
  return refreshToken;
}

export async function watermarkConfig(
  ctx: AppContext,
  user: AuthUser,
  locale: Locale,
): Promise<WatermarkConfig> {
  const title = (await configValue(ctx, 'sys_web_title')) || ctx.config.profile.systemName[locale];
  const enabled = await configBool(ctx, 'sys_watermark');
  return {
    enabled,
    watermarkEnabled: enabled,
    content: [title, user.realName, formatDate()],
    width: 200,
    height: 70,
    gap: [80, 80],
    zIndex: 9999,
  };
}
