import {
  CACHE_KEY_LIST_LIMIT,
  CACHE_VALUE_MAX_CHARS,
  type CacheKeyList,
  type CacheValue,
} from '@shuzhi/contracts/server';
import { requireSuperAdmin } from '../../platform/access/platform-admin.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';

/**
 * 缓存管理: the keys of this application's namespace in the shared cache (memory or Redis), never another
 * application's. Deleting also drops the same keys from every process's local tier, so a deletion takes
 * effect at once everywhere. The namespace holds every tenant's sessions (user, tenant, permissions): the
 * screen is the super admin's alone.
 */

export const MASK = '******';

/** Field names whose values are never shown. */
const SECRET_FIELD =
  /token|secret|passw|pwd|captcha|private|credential|signature|cookie|authorization|jti|salt/i;
/** Values that look like bearer tokens: JWTs, long hex or base64 runs. */
const TOKEN_LIKE = /^(?:eyJ[\w-]+\.[\w-]+\.[\w-]*|[A-Fa-f0-9]{32,}|[A-Za-z0-9+/_-]{40,}={0,2})$/;
/** Keys whose whole value is a secret (a captcha's answer). */
const SECRET_KEY = /^captcha:|token|secret/i;

/** Copies a value with every secret-looking field or string replaced by MASK. */
export function maskSecrets(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return TOKEN_LIKE.test(value) ? MASK : value;
  if (value === null || typeof value !== 'object' || depth > 20) return value;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_FIELD.test(k) && v !== null && v !== undefined ? MASK : maskSecrets(v, depth + 1);
  }
  return out;
}

export async function listKeys(ctx: AppContext, user: AuthUser, prefix = ''): Promise<CacheKeyList> {
  requireSuperAdmin(user);
  const { keys, truncated } = await ctx.cache.keys(prefix, CACHE_KEY_LIST_LIMIT);
  return { kind: ctx.cache.kind, keys, truncated };
}

function describe(value: unknown): { type: CacheValue['type']; text: string } {
  if (value === null || value === undefined) return { type: 'null', text: 'null' };
  if (typeof value === 'string') return { type: 'string', text: value };
  if (typeof value === 'number') return { type: 'number', text: String(value) };
  if (typeof value === 'boolean') return { type: 'boolean', text: String(value) };
  return { type: 'json', text: JSON.stringify(value, null, 2) ?? String(value) };
}

/** The value of one key, masked and size-capped; null when the key does not exist (or just expired). */
export async function keyValue(ctx: AppContext, user: AuthUser, key: string): Promise<CacheValue | null> {
  requireSuperAdmin(user);
  const found = await ctx.cache.inspect(key);
  if (!found) return null;
  const { type, text } = describe(SECRET_KEY.test(key) ? MASK : maskSecrets(found.value));
  const truncated = text.length > CACHE_VALUE_MAX_CHARS;
  return {
    key,
    type: SECRET_KEY.test(key) ? 'string' : type,
    ttlSeconds: found.ttlSeconds,
    value: truncated ? text.slice(0, CACHE_VALUE_MAX_CHARS) : text,
    size: text.length,
    truncated,
  };
}

/** Deletes one key; answers 1 when it existed, 0 otherwise. */
export async function deleteKey(ctx: AppContext, user: AuthUser, key: string): Promise<number> {
  requireSuperAdmin(user);
  const existed = (await ctx.cache.inspect(key)) !== undefined;
  await ctx.cache.del(key);
  await ctx.cache.local.invalidate(key);
  return existed ? 1 : 0;
}

/** Deletes every key starting with `prefix`; answers how many went from the shared cache. */
export async function deleteByPrefix(ctx: AppContext, user: AuthUser, prefix: string): Promise<number> {
  requireSuperAdmin(user);
  const removed = await ctx.cache.delPrefix(prefix);
  await ctx.cache.local.invalidatePrefix(prefix);
  return removed;
}
