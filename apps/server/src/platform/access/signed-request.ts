import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { STATUS } from '@shuzhi/contracts/envelope';
import {
  OPEN_ACCESS_NONCE_TTL_SECONDS,
  OPEN_ACCESS_TIMESTAMP_WINDOW_SECONDS,
  openAccessSignText,
} from '@shuzhi/contracts/open-access';
import { sm4Open } from '../auth/sm4.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError } from '../errors/app-error.ts';
import { loadPermissions } from './permissions.ts';

/**
 * Open access (REFERENCE "Open access"): a request signed with an access key's secret acts as the key's
 * bound user, with that user's permissions, without a session. Checked in this order so that nothing
 * unauthenticated can spend a nonce: header format (D1021), clock window (D1022), key and its user and
 * tenant live (D1024), signature (D1021, constant time), nonce unused (D1023).
 */

/** What a live key resolves to; kept briefly in this process's local cache tier. */
type KeyEntry = {
  keyId: number;
  secret: string;
  userId: number;
  tenantId: number;
  accountType: number;
  account: string;
  realName: string;
  orgId: number;
  orgName: string;
  permissions: ReadonlySet<string>;
};

export type SignedCaller = Omit<KeyEntry, 'secret'> & { accessKey: string };

/**
 * Short on purpose: key writes drop the entry at once (`forgetOpenAccessKey`), while changes to the bound
 * user (roles, status) or the tenant apply within this many seconds.
 */
const KEY_TTL_SECONDS = 10;
const keyCacheKey = (accessKey: string) => `oa-key:${accessKey}`;
const nonceKey = (accessKey: string, nonce: string) => `oa-nonce:${accessKey}:${nonce}`;
/** last_used_time is written at most this often per key and process (it is informative, not an audit). */
const LAST_USED_EVERY_MS = 60_000;
const lastUsedWrites = new Map<number, number>();

const TOKEN = /^[A-Za-z0-9_-]{1,64}$/;
const SIGN = /^[A-Za-z0-9+/=_-]{1,128}$/;
const DIGITS = /^\d{1,12}$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether a request claims to be signed (it names an access key). */
export function isSignedRequest(headers: IncomingHttpHeaders): boolean {
  return headers.accesskey !== undefined;
}

/** HMAC-SHA256 of the sign text with the secret, Base64. */
export function openAccessSignature(secret: string, text: string): string {
  return createHmac('sha256', secret).update(text, 'utf8').digest('base64');
}

async function loadKey(ctx: AppContext, accessKey: string): Promise<KeyEntry | null> {
  const row = await ctx.db
    .selectFrom('sys_open_access as k')
    .innerJoin('sys_user as u', 'u.id', 'k.bind_user_id')
    .innerJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select([
      'k.id as key_id',
      'k.access_secret',
      'k.tenant_id as key_tenant_id',
      'u.id',
      'u.tenant_id',
      'u.account_type',
      'u.account',
      'u.real_name',
      'u.org_id',
      'o.name as org_name',
    ])
    .where('k.access_key', '=', accessKey)
    .where('k.is_delete', '=', 0)
    .where('k.status', '=', STATUS.enabled)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .where('t.is_delete', '=', 0)
    .where('t.status', '=', STATUS.enabled)
    .executeTakeFirst();
  if (!row || row.key_tenant_id !== row.tenant_id) return null;
  const secret = sm4Open(row.access_secret, ctx.config.dataKey);
  if (secret === null) {
    ctx.log.error({ keyId: row.key_id }, 'open-access secret cannot be decrypted with the data key');
    return null;
  }
  const grantee = { userId: row.id, tenantId: row.tenant_id, accountType: row.account_type };
  return {
    keyId: row.key_id,
    secret,
    ...grantee,
    account: row.account,
    realName: row.real_name,
    orgId: row.org_id ?? 0,
    orgName: row.org_name ?? '',
    permissions: new Set(await loadPermissions(ctx, grantee)),
  };
}

async function liveKey(ctx: AppContext, accessKey: string): Promise<KeyEntry | null> {
  const key = keyCacheKey(accessKey);
  const hit = ctx.cache.local.get<KeyEntry | null>(key);
  if (hit !== undefined) return hit;
  const since = ctx.cache.local.mark();
  const entry = await loadKey(ctx, accessKey);
  ctx.cache.local.set(key, entry, KEY_TTL_SECONDS, since);
  return entry;
}

/** Drops a key's cached entry here and in every process (after any write to the key). */
export async function forgetOpenAccessKey(ctx: AppContext, accessKey: string): Promise<void> {
  await ctx.cache.local.invalidate(keyCacheKey(accessKey));
}

/**
 * Accepts a nonce once per key within its lifetime. Redis: SET NX. Memory cache: its `get` and `set` do
 * their work synchronously when called, so calling both before awaiting is an atomic check-and-set.
 */
async function claimNonce(ctx: AppContext, accessKey: string, nonce: string): Promise<boolean> {
  const key = nonceKey(accessKey, nonce);
  const redis = ctx.cache.redis;
  if (redis) return (await redis.set(key, '1', 'EX', OPEN_ACCESS_NONCE_TTL_SECONDS, 'NX')) === 'OK';
  const [seen] = await Promise.all([
    ctx.cache.get(key),
    ctx.cache.set(key, 1, OPEN_ACCESS_NONCE_TTL_SECONDS),
  ]);
  return seen === undefined;
}

function sameSignature(given: string, expected: string): boolean {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function touch(ctx: AppContext, keyId: number): void {
  const now = Date.now();
  if (now - (lastUsedWrites.get(keyId) ?? 0) < LAST_USED_EVERY_MS) return;
  lastUsedWrites.set(keyId, now);
  if (lastUsedWrites.size > 10_000) lastUsedWrites.clear();
  ctx.db
    .updateTable('sys_open_access')
    .set({ last_used_time: formatDateTime() })
    .where('id', '=', keyId)
    .execute()
    .catch((error: unknown) => ctx.log.warn({ err: error, keyId }, 'open-access last_used_time not written'));
}

/**
 * Verifies a signed request (method, the URL as sent, headers) and answers its caller; throws D1021–D1024.
 */
export async function verifySignedRequest(
  ctx: AppContext,
  request: { method: string; url: string; headers: IncomingHttpHeaders },
): Promise<SignedCaller> {
  const accessKey = header(request.headers, 'accesskey');
  const timestamp = header(request.headers, 'timestamp');
  const nonce = header(request.headers, 'nonce');
  const sign = header(request.headers, 'sign');
  const path = request.url.split('?')[0] ?? '';
  if (
    !accessKey ||
    !TOKEN.test(accessKey) ||
    !timestamp ||
    !DIGITS.test(timestamp) ||
    !nonce ||
    !TOKEN.test(nonce) ||
    !sign ||
    !SIGN.test(sign) ||
    !path.startsWith('/api/')
  ) {
    throw new AppError('D1021');
  }
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > OPEN_ACCESS_TIMESTAMP_WINDOW_SECONDS) {
    throw new AppError('D1022');
  }
  const entry = await liveKey(ctx, accessKey);
  if (!entry) throw new AppError('D1024');
  const expected = openAccessSignature(
    entry.secret,
    openAccessSignText({ method: request.method, path, accessKey, timestamp, nonce }),
  );
  if (!sameSignature(sign, expected)) throw new AppError('D1021');
  if (!(await claimNonce(ctx, accessKey, nonce))) throw new AppError('D1023');
  touch(ctx, entry.keyId);
  const { secret: _secret, ...caller } = entry;
  return { ...caller, accessKey };
}

/** The caller of a signed request as the rest of the platform sees a signed-in user (no session: id 0). */
export async function authenticateSigned(
  ctx: AppContext,
  request: { method: string; url: string; headers: IncomingHttpHeaders },
): Promise<AuthUser> {
  const caller = await verifySignedRequest(ctx, request);
  return {
    userId: caller.userId,
    tenantId: caller.tenantId,
    accountType: caller.accountType,
    account: caller.account,
    realName: caller.realName,
    orgId: caller.orgId,
    orgName: caller.orgName,
    sessionId: 0,
    permissions: caller.permissions,
  };
}
