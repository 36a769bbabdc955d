import type { CockpitWeather } from '@shuzhi/contracts/cockpit';
import type { AppContext } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';

/** A provider's answer is kept this long (issue 20 §4). */
const WEATHER_TTL = 30 * 60;
/** A failed call is not retried for this long, so that a dead provider is not asked on every refresh. */
const FAILURE_TTL = 5 * 60;
const TIMEOUT_MS = 5000;

const empty = (city: string, status: CockpitWeather['status']): CockpitWeather => ({
  status,
  city,
  text: null,
  temperature: null,
  humidity: null,
  wind: null,
  fetchedAt: status === 'off' ? null : formatDateTime(),
});

const numberOf = (value: unknown): number | null => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const textOf = (value: unknown): string | null =>
  typeof value === 'string' && value.trim() !== '' ? value.trim().slice(0, 32) : null;

/**
 * The provider's JSON, read leniently: `temperature` (or `temp`), `text` (or `weather`), optional `humidity`
 * and `wind`, at the top or under `now` / `data`. Without a temperature and a text the answer is not weather.
 */
export function readWeather(body: unknown, city: string): CockpitWeather | null {
  if (typeof body !== 'object' || body === null) return null;
  const top = body as Record<string, unknown>;
  const nested = [top.now, top.data].find((v) => typeof v === 'object' && v !== null);
  const o = (nested ?? top) as Record<string, unknown>;
  const temperature = numberOf(o.temperature ?? o.temp);
  const text = textOf(o.text ?? o.weather);
  if (temperature === null || text === null) return null;
  return {
    status: 'ok',
    city,
    text,
    temperature,
    humidity: numberOf(o.humidity),
    wind: textOf(o.wind),
    fetchedAt: formatDateTime(),
  };
}

/**
 * The weather of the profile's city from the configured provider (`WEATHER_PROVIDER=http`: a GET of
 * `WEATHER_URL` with `{city}` and `{key}` replaced), kept 30 minutes in the shared cache. No provider: `off`;
 * an unreachable provider, an error status or an answer without a temperature and a text: `failed` — never
 * made-up figures.
 */
export async function cockpitWeather(ctx: AppContext, city: string): Promise<CockpitWeather> {
  const { provider, url, key } = ctx.config.weather;
  if (provider === 'none' || !url) return empty(city, 'off');
  const cacheKey = `cockpit:weather:${city}`;
  const cached = await ctx.cache.get<CockpitWeather>(cacheKey);
  if (cached) return cached;
  const target = url
    .replaceAll('{city}', encodeURIComponent(city))
    .replaceAll('{key}', encodeURIComponent(key ?? ''));
  let answer: CockpitWeather | null = null;
  try {
    const response = await fetch(target, {
      signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: { accept: 'application/json' },
    });
    if (response.ok) answer = readWeather(await response.json(), city);
  } catch (error) {
    ctx.log.warn({ err: error }, 'cockpit weather provider unreachable');
  }
  const result = answer ?? empty(city, 'failed');
  await ctx.cache.set(cacheKey, result, answer ? WEATHER_TTL : FAILURE_TTL);
  return result;
}
