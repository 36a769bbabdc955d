import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Per-process cache for values read on every request (session principals, userInfo, menu trees), in front
 * of the shared cache or the database. Reads are synchronous Map look-ups, so a hot call pays no Redis round
 * trip and no JSON parsing.
 *
 * Invalidation contract:
 * - Whoever changes what a cached value is derived from calls `invalidate(keys)` or
 *   `invalidatePrefix(prefix)` (through the owning service's `forget…` function, never by hand). The entries
 *   go from this process at once, before the call returns, and from every other process through Redis
 *   pub/sub when Redis is configured.
 * - A loader takes `mark()` before reading the source and passes it to `set`: a value read while an
 *   invalidation was under way is not stored, so a stale read can never outlive the invalidation.
 * - While the pub/sub subscription is down (Redis unreachable or reconnecting) messages may be lost, so the
 *   cache is emptied and bypassed until it is back: every read then goes to the source of truth.
 * - Entries also expire by TTL and the cache is bounded (oldest entries go first), so a missed hook costs
 *   at most one TTL of staleness and memory stays flat.
 */
export type LocalCache = {
  get<T>(key: string): T | undefined;
  /** Stores a value, unless something was invalidated since `since` (a `mark()` taken before loading). */
  set(key: string, value: unknown, ttlSeconds: number, since?: number): void;
  mark(): number;
  /** Resolves once the cross-process subscription is up (at once without Redis). */
  ready(): Promise<void>;
  /** Drops keys here at once and in every other process. */
  invalidate(...keys: string[]): Promise<void>;
  /** Drops every key starting with `prefix`, here at once and in every other process. */
  invalidatePrefix(prefix: string): Promise<void>;
  close(): Promise<void>;
};

type Entry = { value: unknown; expires: number };
type Message = { from: string; keys?: string[]; prefix?: string };

const DEFAULT_MAX_ENTRIES = 20_000;

export function createLocalCache(
  options: { maxEntries?: number; redis?: Redis | null; channel?: string } = {},
): LocalCache {
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  const map = new Map<string, Entry>();
  // Bumped by every invalidation; a load that saw it change does not store its result.
  let epoch = 0;
  // Without a working subscription, other processes' invalidations could be missed: serve nothing then.
  let live = !options.redis;
  const self = randomBytes(8).toString('hex');
  const channel = options.channel ?? 'local-cache';

  const dropKeys = (keys: readonly string[]) => {
    epoch++;
    for (const key of keys) map.delete(key);
  };
  const dropPrefix = (prefix: string) => {
    epoch++;
    for (const key of map.keys()) if (key.startsWith(prefix)) map.delete(key);
  };
  const dropAll = () => {
    epoch++;
    map.clear();
  };

  let subscriber: Redis | null = null;
  let subscribed: Promise<void> = Promise.resolve();
  if (options.redis) {
    const sub = options.redis.duplicate({ lazyConnect: false, maxRetriesPerRequest: null });
    subscriber = sub;
    sub.on('message', (from: string, text: string) => {
      if (from !== channel) return;
      let message: Message;
      try {
        message = JSON.parse(text) as Message;
      } catch {
        dropAll();
        return;
      }
      if (message.from === self) return;
      if (message.keys) dropKeys(message.keys);
      if (message.prefix !== undefined) dropPrefix(message.prefix);
    });
    const down = () => {
      live = false;
      dropAll();
    };
    sub.on('close', down);
    sub.on('reconnecting', down);
    sub.on('error', down);
    // ioredis subscribes again on reconnect before it reports ready.
    sub.on('ready', () => {
      if (sub.status === 'ready') {
        dropAll();
        live = true;
      }
    });
    subscribed = sub.subscribe(channel).then(
      () => {
        dropAll();
        live = true;
      },
      () => down(),
    );
  }

  const publish = async (message: Omit<Message, 'from'>) => {
    if (options.redis) await options.redis.publish(channel, JSON.stringify({ ...message, from: self }));
  };

  return {
    get<T>(key: string): T | undefined {
      if (!live) return undefined;
      const entry = map.get(key);
      if (entry === undefined) return undefined;
      if (entry.expires <= Date.now()) {
        map.delete(key);
        return undefined;
      }
      return entry.value as T;
    },
    set(key, value, ttlSeconds, since) {
      if (!live || (since !== undefined && since !== epoch)) return;
      map.delete(key);
      map.set(key, { value, expires: Date.now() + ttlSeconds * 1000 });
      if (map.size > maxEntries) {
        const oldest = map.keys().next().value;
        if (oldest !== undefined) map.delete(oldest);
      }
    },
    mark: () => epoch,
    ready: () => subscribed,
    async invalidate(...keys) {
      if (keys.length === 0) return;
      dropKeys(keys);
      await publish({ keys });
    },
    async invalidatePrefix(prefix) {
      dropPrefix(prefix);
      await publish({ prefix });
    },
    async close() {
      live = false;
      map.clear();
      if (subscriber) {
        subscriber.removeAllListeners('close');
        subscriber.removeAllListeners('reconnecting');
        subscriber.removeAllListeners('error');
        subscriber.on('error', () => undefined);
        await subscriber.quit().catch(() => undefined);
      }
    },
  };
}
