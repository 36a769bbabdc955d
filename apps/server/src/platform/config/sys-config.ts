import { CONFIG_DEFAULTS, type ConfigCode } from '@shuzhi/contracts/config';
import type { AppContext } from '../context.ts';

const TTL_SECONDS = 300;
const key = (code: string) => `cfg:${code}`;

/**
 * A `sys_config` value (cached), falling back to the catalogue default when the row is missing.
 * Writers call `forgetConfigValue` so that every process sees the change.
 */
export async function configValue(ctx: AppContext, code: ConfigCode | string): Promise<string> {
  const cached = await ctx.cache.get<string>(key(code));
  if (cached !== undefined) return cached;
  const row = await ctx.db
    .selectFrom('sys_config')
    .select('value')
    .where('code', '=', code)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  const value = row?.value ?? (CONFIG_DEFAULTS as Record<string, string>)[code] ?? '';
  await ctx.cache.set(key(code), value, TTL_SECONDS);
  return value;
}

export async function configBool(ctx: AppContext, code: ConfigCode): Promise<boolean> {
  return (await configValue(ctx, code)).trim().toLowerCase() === 'true';
}

export async function configInt(ctx: AppContext, code: ConfigCode): Promise<number> {
  const parsed = Number.parseInt(await configValue(ctx, code), 10);
  if (Number.isFinite(parsed)) return parsed;
  return Number.parseInt(CONFIG_DEFAULTS[code as ConfigCode] ?? '0', 10) || 0;
}

export async function forgetConfigValue(ctx: AppContext, code: string): Promise<void> {
  await ctx.cache.del(key(code));
}
