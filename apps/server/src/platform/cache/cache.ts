import { Redis } from 'ioredis';
import { createLocalCache, type LocalCache } from './local-cache.ts';

/**
 * Key/value cache with expiry: in memory for one process, Redis when several processes share it. Values
 * are JSON-serialisable.
 */
export type Cache = {
  readonly kind: 'memory' | 'redis';
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlSeconds: number): Promise<void>;
  /** Reads and deletes in one step (one-use values such as captchas). */
  take<T>(key: string): Promise<T | undefined>;
  del(...keys: string[]): Promise<void>;
  close(): Promise<void>;
  /** The Redis connection when there is one (rate limits share it). */
  readonly redis: Redis | null;
  readonly prefix: string;
  /** The per-process tier for hot values, invalidated across processes through Redis pub/sub. */
  readonly local: LocalCache;
};

type Entry = { value: unknown; expires: number };

const SWEEP_MS = 60_000;

export function createMemoryCache(prefix = ''): Cache {
  const map = new Map<string, Entry>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, entry] of map) if (entry.expires <= now) map.delete(key);
  }, SWEEP_MS);
  sweep.unref();
  const local = createLocalCache();
  const read = (key: string): Entry | undefined => {
    const entry = map.get(key);
    if (!entry) return undefined;
    if (entry.expires <= Date.now()) {
      map.delete(key);
      return undefined;
    }
    return entry;
  };
  return {
    kind: 'memory',
    redis: null,
    prefix,
    local,
    async get<T>(key: string) {
      return read(key)?.value as T | undefined;
    },
    async set(key, value, ttlSeconds) {
      map.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
    },
    async take<T>(key: string) {
      const entry = read(key);
      map.delete(key);
      return entry?.value as T | undefined;
    },
    async del(...keys) {
      for (const key of keys) map.delete(key);
    },
    async close() {
      clearInterval(sweep);
      await local.close();
      map.clear();
    },
  };
}

export async function createRedisCache(url: string, prefix: string): Promise<Cache> {
  const redis = new Redis(url, { keyPrefix: prefix, lazyConnect: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  const local = createLocalCache({ redis, channel: `${prefix}local-cache` });
  await local.ready();
  const parse = <T>(text: string | null): T | undefined =>
    text === null ? undefined : (JSON.parse(text) as T);
  return {
    kind: 'redis',
    redis,
    prefix,
    local,
    async get<T>(key: string) {
      return parse<T>(await redis.get(key));
    },
    async set(key, value, ttlSeconds) {
      await redis.set(key, JSON.stringify(value), 'EX', Math.max(1, Math.ceil(ttlSeconds)));
    },
    async take<T>(key: string) {
      return parse<T>(await redis.getdel(key));
    },
    async del(...keys) {
      if (keys.length > 0) await redis.del(...keys);
    },
    async close() {
      await local.close();
      await redis.quit();
    },
  };
}
