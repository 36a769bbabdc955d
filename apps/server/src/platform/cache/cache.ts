import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { createLocalCache, type LocalCache } from './local-cache.ts';
import { watchRedisErrors } from './redis-errors.ts';

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
  /** Adds one to a counter in one step and (re)starts its expiry; answers the new count. */
  incr(key: string, ttlSeconds: number): Promise<number>;
  /**
   * Keys of this cache's own namespace (without the prefix) that start with `startsWith`, sorted, at most
   * `limit`; Redis walks them with SCAN, never KEYS.
   */
  keys(startsWith: string, limit: number): Promise<{ keys: string[]; truncated: boolean }>;
  /** A key's value and seconds left (null: no expiry), or undefined when it does not exist. */
  inspect(key: string): Promise<{ value: unknown; ttlSeconds: number | null } | undefined>;
  /** Deletes every key of the namespace that starts with `startsWith` (non-empty); answers how many. */
  delPrefix(startsWith: string): Promise<number>;
  close(): Promise<void>;
  /** The Redis connection when there is one (rate limits share it). */
  readonly redis: Redis | null;
  readonly prefix: string;
  /** The per-process tier for hot values, invalidated across processes through Redis pub/sub. */
  readonly local: LocalCache;
};

type Entry = { value: unknown; expires: number };

const SWEEP_MS = 60_000;
const SCAN_COUNT = 500;

/** Escapes a literal for a Redis glob pattern. */
const globEscape = (text: string) => text.replace(/[*?[\]\\]/g, '\\$&');

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
    async incr(key, ttlSeconds) {
      const count = Number(read(key)?.value ?? 0) + 1;
      map.set(key, { value: count, expires: Date.now() + ttlSeconds * 1000 });
      return count;
    },
    async keys(startsWith, limit) {
      const keys: string[] = [];
      let truncated = false;
      for (const key of map.keys()) {
        if (!key.startsWith(startsWith) || !read(key)) continue;
        if (keys.length >= limit) {
          truncated = true;
          break;
        }
        keys.push(key);
      }
      return { keys: keys.sort(), truncated };
    },
    async inspect(key) {
      const entry = read(key);
      if (!entry) return undefined;
      return { value: entry.value, ttlSeconds: Math.max(0, Math.ceil((entry.expires - Date.now()) / 1000)) };
    },
    async delPrefix(startsWith) {
      if (startsWith === '') throw new Error('delPrefix needs a prefix');
      let removed = 0;
      for (const key of [...map.keys()]) {
        if (!key.startsWith(startsWith)) continue;
        if (read(key)) removed++;
        map.delete(key);
      }
      return removed;
    },
    async close() {
      clearInterval(sweep);
      await local.close();
      map.clear();
    },
  };
}

/** The cache on Redis; a connection that drops is logged and reopened, never left to end the process. */
export async function createRedisCache(url: string, prefix: string, log: FastifyBaseLogger): Promise<Cache> {
  const redis = new Redis(url, { keyPrefix: prefix, lazyConnect: true, maxRetriesPerRequest: 3 });
  watchRedisErrors(redis, log, 'cache redis');
  try {
    await redis.connect();
  } catch (error) {
    // Not reachable at start: the server does not start, and leaves no client retrying behind it.
    redis.disconnect();
    throw error;
  }
  const local = createLocalCache({ redis, channel: `${prefix}local-cache` });
  await local.ready();
  const parse = <T>(text: string | null): T | undefined =>
    text === null ? undefined : (JSON.parse(text) as T);
  /** Full key names (with the prefix) of the namespace starting with `startsWith`; SCAN ignores keyPrefix. */
  async function* scan(startsWith: string): AsyncGenerator<string> {
    const match = `${globEscape(prefix + startsWith)}*`;
    let cursor = '0';
    do {
      const [next, batch] = await redis.scan(cursor, 'MATCH', match, 'COUNT', SCAN_COUNT);
      cursor = next;
      for (const key of batch) if (key.startsWith(prefix)) yield key;
    } while (cursor !== '0');
  }
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
    async incr(key, ttlSeconds) {
      const [[, count]] = (await redis
        .multi()
        .incr(key)
        .expire(key, Math.max(1, Math.ceil(ttlSeconds)))
        .exec()) as [[Error | null, number], [Error | null, number]];
      return count;
    },
    async keys(startsWith, limit) {
      const found = new Set<string>();
      let truncated = false;
      for await (const full of scan(startsWith)) {
        if (found.size >= limit) {
          truncated = true;
          break;
        }
        found.add(full.slice(prefix.length));
      }
      return { keys: [...found].sort(), truncated };
    },
    async inspect(key) {
      const [[, type], [, ttl]] = (await redis.multi().type(key).ttl(key).exec()) as [
        [Error | null, string],
        [Error | null, number],
      ];
      if (type === 'none') return undefined;
      const ttlSeconds = ttl >= 0 ? ttl : null;
      if (type !== 'string') return { value: `(${type})`, ttlSeconds };
      const text = await redis.get(key);
      if (text === null) return undefined;
      let value: unknown = text;
      try {
        value = JSON.parse(text);
      } catch {
        // Not written by this cache: shown as text.
      }
      return { value, ttlSeconds };
    },
    async delPrefix(startsWith) {
      if (startsWith === '') throw new Error('delPrefix needs a prefix');
      let removed = 0;
      let batch: string[] = [];
      const flush = async () => {
        // The connection adds the prefix itself; UNLINK frees the memory in the background.
        if (batch.length > 0) removed += await redis.unlink(...batch.map((k) => k.slice(prefix.length)));
        batch = [];
      };
      for await (const full of scan(startsWith)) {
        batch.push(full);
        if (batch.length >= SCAN_COUNT) await flush();
      }
      await flush();
      return removed;
    },
    async close() {
      await local.close();
      await redis.quit();
    },
  };
}
