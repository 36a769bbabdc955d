import { verifyPassword } from '../../platform/auth/password-hash.ts';
import { sm2Decrypt } from '../../platform/auth/sm2.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formWithAuth, PWD_OK_TTL_SECONDS, pwdOkKey } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/** Wrong form passwords a user may type for one form within the window (SPEC §5 rate limit). */
export const FORM_PWD_MAX_FAILURES = 5;
export const FORM_PWD_WINDOW_SECONDS = 10 * 60;

type Failures = { count: number; until: number };
const failuresKey = (userId: number, tableId: number) => `diy-pwd-fail:${userId}:${tableId}`;

/**
 * `POST /api/diyTable/CheckFormPwd`: checks a form's password (SM2-encrypted like the login password) for a
 * user who may open the form, and remembers success for the session. Five wrong tries for one form within
 * ten minutes refuse further checks of that form for ten minutes (F1006); the try that reaches the limit
 * already answers so. A form without a password verifies at once.
 */
export async function checkFormPassword(
  ctx: AppContext,
  user: AuthUser,
  tableId: number,
  cipher: string,
): Promise<void> {
  const { form } = await formWithAuth(ctx, user, tableId);
  const okKey = pwdOkKey(user.sessionId, form.id);
  if (!form.pwd_hash) {
    await ctx.cache.set(okKey, true, PWD_OK_TTL_SECONDS);
    return;
  }
  const key = failuresKey(user.userId, form.id);
  const now = Date.now();
  const failures = await ctx.cache.get<Failures>(key);
  const live = failures && failures.until > now ? failures : undefined;
  if (live && live.count >= FORM_PWD_MAX_FAILURES) throw new AppError('F1006');
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  if (await verifyPassword(form.pwd_hash, plain)) {
    if (failures) await ctx.cache.del(key);
    await ctx.cache.set(okKey, true, PWD_OK_TTL_SECONDS);
    return;
  }
  const count = (live?.count ?? 0) + 1;
  const until = count >= FORM_PWD_MAX_FAILURES || !live ? now + FORM_PWD_WINDOW_SECONDS * 1000 : live.until;
  await ctx.cache.set(key, { count, until } satisfies Failures, Math.ceil((until - now) / 1000));
  throw new AppError(count >= FORM_PWD_MAX_FAILURES ? 'F1006' : 'F1005');
}
