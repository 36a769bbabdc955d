import type { AppContext } from '../../platform/context.ts';
import { pingDatabase } from '../../platform/db/db.ts';

export type Health = { database: 'up' | 'down'; cache: 'up' | 'down' };

/** A probe answers within this long even when the database or Redis does not answer at all. */
const PROBE_TIMEOUT_MS = 1_000;

/** The check in flight per app: probes arriving together (several load balancers) share one query. */
const inFlight = new WeakMap<AppContext, Promise<Health>>();

async function pingCache(ctx: AppContext): Promise<boolean> {
  const { redis } = ctx.cache;
  if (!redis) return true;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PROBE_TIMEOUT_MS);
  });
  const ping = redis.ping().then(
    (answer) => answer === 'PONG',
    () => false,
  );
  try {
    return await Promise.race([ping, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The database (a real query) and the cache (Redis PING; the in-memory cache is always up). */
export function checkHealth(ctx: AppContext): Promise<Health> {
  const running = inFlight.get(ctx);
  if (running) return running;
  const check = Promise.all([pingDatabase(ctx.db, PROBE_TIMEOUT_MS), pingCache(ctx)])
    .then(
      ([database, cache]): Health => ({ database: database ? 'up' : 'down', cache: cache ? 'up' : 'down' }),
    )
    .finally(() => inFlight.delete(ctx));
  inFlight.set(ctx, check);
  return check;
}
