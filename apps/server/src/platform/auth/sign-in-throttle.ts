import { setTimeout as sleep } from 'node:timers/promises';
import { configInt } from '../config/sys-config.ts';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';

/**
 * Sign-in throttling (docs/security.md, "Sign-in throttling"), shared by the login and the API docs gate.
 * Wrong passwords are counted per account and source (IP) and per account: from one source, the second
 * asks for a captcha, later ones are answered ever more slowly, and `sys_passwd_max_error_times` locks the
 * account for that source only, for 30 minutes. Across all sources the same number asks every source for a
 * captcha. Nobody can lock another person out: the lock needs the victim's own source.
 */

export const LOCK_MINUTES = 30;
const WINDOW_SECONDS = LOCK_MINUTES * 60;
/** Wrong passwords from one source after which it must solve a captcha for the account. */
const CAPTCHA_AFTER = 2;
/** Wrong passwords from one source after which answers are delayed: 0.5 s, 1 s, 2 s, … at most 4 s. */
const DELAY_AFTER = 3;
const DELAY_BASE_MS = 500;
const DELAY_MAX_MS = 4_000;

const source = (ip: string | null) => ip ?? '-';
const sourceKey = (userId: number, ip: string | null) => `signin:fail:${userId}:${source(ip)}`;
const accountKey = (userId: number) => `signin:account:${userId}`;
const lockKey = (userId: number, ip: string | null) => `signin:lock:${userId}:${source(ip)}`;

export type SignInState = { locked: boolean; captchaRequired: boolean };

/** Whether this source is locked out of the account, and whether it must solve a captcha first. */
export async function signInState(ctx: AppContext, userId: number, ip: string | null): Promise<SignInState> {
  const max = await configInt(ctx, 'sys_passwd_max_error_times');
  if (max <= 0) return { locked: false, captchaRequired: false };
  const [lock, fromSource, forAccount] = await Promise.all([
    ctx.cache.get(lockKey(userId, ip)),
    ctx.cache.get<number>(sourceKey(userId, ip)),
    ctx.cache.get<number>(accountKey(userId)),
  ]);
  return {
    locked: lock !== undefined,
    captchaRequired: (fromSource ?? 0) >= CAPTCHA_AFTER || (forAccount ?? 0) >= max,
  };
}

/**
 * Counts a wrong password; answers whether it locked the source out. The answer to a source that keeps
 * guessing waits first. `lock_until` shows administrators the latest lock (the user list marks the account
 * and offers 解除锁定); signing in does not read it.
 */
export async function recordSignInFailure(
  ctx: AppContext,
  userId: number,
  ip: string | null,
): Promise<boolean> {
  const max = await configInt(ctx, 'sys_passwd_max_error_times');
  if (max <= 0) return false;
  const [fromSource] = await Promise.all([
    ctx.cache.incr(sourceKey(userId, ip), WINDOW_SECONDS),
    ctx.cache.incr(accountKey(userId), WINDOW_SECONDS),
  ]);
  if (fromSource >= max) {
    await ctx.cache.set(lockKey(userId, ip), 1, WINDOW_SECONDS);
    await ctx.cache.del(sourceKey(userId, ip));
    await ctx.db
      .updateTable('sys_user')
      .set({ lock_until: formatDateTime(new Date(Date.now() + LOCK_MINUTES * 60_000)) })
      .where('id', '=', userId)
      .execute();
    return true;
  }
  if (fromSource >= DELAY_AFTER)
    await sleep(Math.min(DELAY_BASE_MS * 2 ** (fromSource - DELAY_AFTER), DELAY_MAX_MS));
  return false;
}

/** A right password: this source starts afresh (what other sources tried still counts for the account). */
export async function recordSignInSuccess(ctx: AppContext, userId: number, ip: string | null): Promise<void> {
  await ctx.cache.del(sourceKey(userId, ip));
}

/** An administrator's unlock: every source's lock and count for the account go. */
export async function unlockSignIn(ctx: AppContext, userId: number): Promise<void> {
  await ctx.cache.delPrefix(`signin:lock:${userId}:`);
  await ctx.cache.delPrefix(`signin:fail:${userId}:`);
  await ctx.cache.del(accountKey(userId));
}
