import type { AppContext, AuthUser } from '../context.ts';
import { AppError } from '../errors/app-error.ts';
import { verifyPassword } from './password-hash.ts';
import { sm2Decrypt } from './sm2.ts';

/** Wrong operation passwords a user may type within the window before checks are refused (D1033). */
export const OP_PASSWORD_MAX_FAILURES = 5;
/** The window the failures are counted in, and how long checks are refused after the last one. */
export const OP_PASSWORD_LOCK_SECONDS = 30 * 60;

/** Failures so far and when the count (or the refusal) ends, epoch ms. */
type Failures = { count: number; until: number };
const failuresKey = (userId: number) => `op-pwd-fail:${userId}`;

/**
 * Confirms the caller's operation password (the second password sensitive actions ask for), sent
 * SM2-encrypted like the login password: D1012 when the user has none yet, D0010 when the cipher does not
 * decrypt, D1011 when it is wrong, and D1033 for half an hour once five wrong ones came within half an hour.
 * Routes that guard an action call this before doing it.
 *
 * The failure count lives in the shared cache (memory or Redis), so every process sees it. Get-then-set is
 * not atomic: two simultaneous wrong guesses may count once, which a limit of five per half hour tolerates.
 */
export async function verifyOpPassword(ctx: AppContext, user: AuthUser, cipher: string): Promise<void> {
  const key = failuresKey(user.userId);
  const failures = await ctx.cache.get<Failures>(key);
  if (failures && failures.count >= OP_PASSWORD_MAX_FAILURES && failures.until > Date.now())
    throw new AppError('D1033');
  const row = await ctx.db
    .selectFrom('sys_user')
    .select('op_password')
    .where('id', '=', user.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row?.op_password) throw new AppError('D1012');
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  if (await verifyPassword(row.op_password, plain)) {
    if (failures) await ctx.cache.del(key);
    return;
  }
  // Like the login lock (D1027), the failure that reaches the limit already answers with the refusal.
  const count = await recordFailure(ctx, key, failures);
  throw new AppError(count >= OP_PASSWORD_MAX_FAILURES ? 'D1033' : 'D1011');
}

/** Counts one more wrong password; answers the count. */
async function recordFailure(ctx: AppContext, key: string, previous: Failures | undefined): Promise<number> {
  const now = Date.now();
  const live = previous && previous.until > now ? previous : undefined;
  const count = (live?.count ?? 0) + 1;
  // The window opens with the first failure; reaching the limit refuses checks for a full half hour from now.
  const until =
    count >= OP_PASSWORD_MAX_FAILURES || !live ? now + OP_PASSWORD_LOCK_SECONDS * 1000 : live.until;
  await ctx.cache.set(key, { count, until } satisfies Failures, Math.ceil((until - now) / 1000));
  return count;
}
