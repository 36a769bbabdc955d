import { CONFIG_DEFAULTS, type ConfigCode } from '@shuzhi/contracts/config';
import { own } from '@shuzhi/contracts/own';
import type { AppContext } from '../context.ts';

const TTL_SECONDS = 300;
const KEY_PREFIX = 'cfg:';
const key = (code: string) => `${KEY_PREFIX}${code}`;

/**
 * A `sys_config` value, falling back to the catalogue default when the row is missing.
 *
 * Values live in the per-process tier (ctx.cache.local): read on every sign-in and page load, changed
 * rarely. Invalidation contract: whoever writes `sys_config` calls `forgetConfigValue` (or
 * `forgetAllConfigValues`) after the write has committed; the value goes at once from this process and, over
 * Redis pub/sub, from every other one, so a change applies everywhere without a restart. A load that overlaps
 * an invalidation does not store what it read (the local tier's mark), so a stale value cannot stick.
 */
export async function configValue(ctx: AppContext, code: ConfigCode | string): Promise<string> {
  const cached = ctx.cache.local.get<string>(key(code));
  if (cached !== undefined) return cached;
  const since = ctx.cache.local.mark();
  const row = await ctx.db
    .selectFrom('sys_config')
    .select('value')
    .where('code', '=', code)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  const value = row?.value ?? own(CONFIG_DEFAULTS as Record<string, string>, code) ?? '';
  ctx.cache.local.set(key(code), value, TTL_SECONDS, since);
  return value;
}

/** A flag from this process's cache without awaiting, or undefined when it has to be loaded. */
export function cachedConfigBool(ctx: AppContext, code: ConfigCode): boolean | undefined {
  const cached = ctx.cache.local.get<string>(key(code));
  return cached === undefined ? undefined : cached.trim().toLowerCase() === 'true';
}

export async function configBool(ctx: AppContext, code: ConfigCode): Promise<boolean> {
  return (await configValue(ctx, code)).trim().toLowerCase() === 'true';
}

export async function configInt(ctx: AppContext, code: ConfigCode): Promise<number> {
  const parsed = Number.parseInt(await configValue(ctx, code), 10);
  if (Number.isFinite(parsed)) return parsed;
  return Number.parseInt(CONFIG_DEFAULTS[code as ConfigCode] ?? '0', 10) || 0;
}

export async function forgetConfigValue(ctx: AppContext, ...codes: string[]): Promise<void> {
  await ctx.cache.local.invalidate(...codes.map(key));
}

/** After writes whose codes are not at hand (a delete by id, a code renamed). */
export async function forgetAllConfigValues(ctx: AppContext): Promise<void> {
  await ctx.cache.local.invalidatePrefix(KEY_PREFIX);
}
