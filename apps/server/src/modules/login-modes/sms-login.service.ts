import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { LoginResult } from '@shuzhi/contracts/auth';
import {
  type LoginPhoneInput,
  SMS_CODE_LENGTH,
  SMS_CODE_TTL_SECONDS,
  SMS_MAX_ATTEMPTS,
  SMS_RESEND_SECONDS,
} from '@shuzhi/contracts/login-modes';
import type { AppContext } from '../../platform/context.ts';
import { formatDate, nextMidnight } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { SMS_LOGIN_TEMPLATE, smsSenderFor } from '../../platform/sms/sms.ts';
import { type Client, completeLogin, type Signer, withVisitLog } from './complete-login.ts';

/** Cache keys (exported for tests that age a code or a limit). */
export const smsKeys = {
  code: (phone: string) => `sms:code:${phone}`,
  gap: (phone: string) => `sms:gap:${phone}`,
  day: (phone: string, day: string) => `sms:day:${day}:${phone}`,
};

/** The stored code: only its keyed hash, the wrong tries so far, and when it runs out (for re-storing). */
type StoredCode = { hash: string; attempts: number; expiresAt: number };

const DAY_SECONDS = 86_400;

/** Calendar day in the product's zone, like the other date stamps. */
function dayOf(date: Date): string {
  return formatDate(date).replaceAll('-', '');
}

function secondsToMidnight(date: Date): number {
  const midnight = nextMidnight(date);
  return Math.max(1, Math.ceil((midnight.getTime() - date.getTime()) / 1000));
}

/** HMAC with the server secret: a cache dump does not reveal codes, and 10^6 guesses need the key. */
function hashCode(ctx: AppContext, phone: string, code: string): string {
  return createHmac('sha256', ctx.config.jwtSecret).update(`sms:${phone}:${code}`).digest('hex');
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The one account a mobile number signs into; null when none, or when several accounts share the number
 * (the code could not tell them apart).
 */
export async function userIdByPhone(ctx: AppContext, phone: string): Promise<number | null> {
  const rows = await ctx.db
    .selectFrom('sys_user')
    .select('id')
    .where('phone', '=', phone)
    .where('is_delete', '=', 0)
    .limit(2)
    .execute();
  return rows.length === 1 ? (rows[0]?.id ?? null) : null;
}

/**
 * Sends a sign-in code. Limits (per phone, checked before anything else so they behave the same for every
 * number): one per `SMS_RESEND_SECONDS` and `config.sms.dailyLimit` per day → D1014 with the seconds to wait.
 *
 * A number that is not bound to an account answers success without sending anything: answering D1015 here
 * would let anyone test which numbers have accounts. loginPhone does answer D1015 (SPEC §8), but only behind
 * the per-IP login rate limit.
 */
export async function sendSmsCode(ctx: AppContext, phone: string): Promise<null> {
  const now = new Date();
  const gap = await ctx.cache.inspect(smsKeys.gap(phone));
  if (gap) throw new AppError('D1014', { seconds: Math.max(1, gap.ttlSeconds ?? SMS_RESEND_SECONDS) });
  const dayKey = smsKeys.day(phone, dayOf(now));
  const sentToday = (await ctx.cache.get<number>(dayKey)) ?? 0;
  if (sentToday >= ctx.config.sms.dailyLimit) {
    throw new AppError('D1014', { seconds: secondsToMidnight(now) });
  }
  await ctx.cache.set(smsKeys.gap(phone), 1, SMS_RESEND_SECONDS);
  await ctx.cache.set(dayKey, sentToday + 1, DAY_SECONDS);

  const userId = await userIdByPhone(ctx, phone);
  if (userId === null) {
    ctx.log.info({ phone }, 'sms code not sent: no single account has this phone');
    return null;
  }
  const code = String(randomInt(0, 10 ** SMS_CODE_LENGTH)).padStart(SMS_CODE_LENGTH, '0');
  const stored: StoredCode = {
    hash: hashCode(ctx, phone, code),
    attempts: 0,
    expiresAt: now.getTime() + SMS_CODE_TTL_SECONDS * 1000,
  };
  // A new code replaces the previous one.
  await ctx.cache.set(smsKeys.code(phone), stored, SMS_CODE_TTL_SECONDS);
  try {
    await smsSenderFor(ctx.config, ctx.log).send({ phone, code, template: SMS_LOGIN_TEMPLATE });
  } catch (error) {
    // Not sent: take the code and the minute's limit back so the user can simply try again.
    await ctx.cache.del(smsKeys.code(phone), smsKeys.gap(phone));
    ctx.log.error({ err: error, phone }, 'sms code could not be sent');
    throw new AppError('D1031');
  }
  return null;
}

/**
 * Checks a code: taken out of the cache atomically, so it works once even under concurrent requests. A wrong
 * code is put back with one more try counted until the `SMS_MAX_ATTEMPTS`th, which voids it.
 */
async function checkCode(ctx: AppContext, phone: string, code: string): Promise<void> {
  const key = smsKeys.code(phone);
  const stored = await ctx.cache.take<StoredCode>(key);
  if (!stored || stored.expiresAt <= Date.now()) throw new AppError('D1013');
  if (sameHash(stored.hash, hashCode(ctx, phone, code))) return;
  const attempts = stored.attempts + 1;
  const ttl = Math.ceil((stored.expiresAt - Date.now()) / 1000);
  if (attempts < SMS_MAX_ATTEMPTS && ttl > 0) await ctx.cache.set(key, { ...stored, attempts }, ttl);
  throw new AppError('D1013');
}

/** Signs in with a mobile number and its SMS code: the same result as the password login. */
export async function loginPhone(
  ctx: AppContext,
  input: LoginPhoneInput,
  client: Client,
  who: Signer,
): Promise<LoginResult> {
  return withVisitLog(ctx, client, who, async () => {
    const userId = await userIdByPhone(ctx, input.phone);
    if (userId === null) throw new AppError('D1015');
    await checkCode(ctx, input.phone, input.code);
    return completeLogin(ctx, userId, { ...client, loginType: null }, who);
  });
}
