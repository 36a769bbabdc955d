import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createRedisCache } from '../src/platform/cache/cache.ts';
import { watchRedisErrors } from '../src/platform/cache/redis-errors.ts';
import { createTestApp, freePort, type TestApp } from './helpers.ts';

const fakeLog = () => ({ warn: vi.fn(), info: vi.fn(), debug: vi.fn() });

/** A Redis drop must be a log line and a reconnect, never an unhandled 'error' event ending the process. */
describe('a Redis client that loses its server', () => {
  const clients: Redis[] = [];
  afterEach(() => {
    for (const client of clients.splice(0)) client.disconnect();
  });

  it('logs the first error of an outage, keeps trying, and does not throw', async () => {
    const port = await freePort();
    const client = new Redis(port, '127.0.0.1', {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => 20,
    });
    clients.push(client);
    const log = fakeLog();
    watchRedisErrors(client, log, 'cache redis');
    expect(() => client.emit('error', new Error('read ECONNRESET'))).not.toThrow();
    await client.connect().catch(() => undefined);
    await vi.waitFor(() => expect(log.debug).toHaveBeenCalled());
    // One warning for the outage, whatever the number of refused retries.
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.warn.mock.calls[0]?.[1]).toMatch(/cache redis: connection error/);
    expect(['connecting', 'reconnecting']).toContain(client.status);
    await expect(client.get('x')).rejects.toThrow();
  });

  it('keeps a cache whose connection cannot be made from starting, with a clear error', async () => {
    const port = await freePort();
    const log = fakeLog();
    await expect(createRedisCache(`redis://127.0.0.1:${port}`, 'x:', log as never)).rejects.toThrow(
      /ECONNREFUSED|Connection is closed/,
    );
  });

  it('says once that the connection is back', () => {
    const client = new Redis({ lazyConnect: true });
    clients.push(client);
    const log = fakeLog();
    watchRedisErrors(client, log, 'cache redis');
    client.emit('ready');
    expect(log.info).not.toHaveBeenCalled();
    client.emit('error', new Error('connect ECONNREFUSED'));
    client.emit('error', new Error('connect ECONNREFUSED'));
    client.emit('ready');
    client.emit('ready');
    expect(log.warn).toHaveBeenCalledTimes(1);
    expect(log.debug).toHaveBeenCalledTimes(1);
    expect(log.info).toHaveBeenCalledTimes(1);
    expect(log.info.mock.calls[0]?.[0]).toBe('cache redis: reconnected');
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('the cache when its Redis connection drops', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('listens for errors, reconnects and serves again', async () => {
    const redis = t.app.ctx.cache.redis;
    expect(redis?.listenerCount('error')).toBeGreaterThan(0);
    expect(() => redis?.emit('error', new Error('read ECONNRESET'))).not.toThrow();
    // The server side of the connection goes away, as when Redis restarts.
    await t.app.ctx.cache.set('drop:probe', 1, 60);
    const id = await redis?.client('ID');
    const admin = new Redis(process.env.TEST_REDIS_URL ?? '');
    try {
      expect(await admin.client('KILL', 'ID', String(id))).toBe(1);
    } finally {
      await admin.quit();
    }
    await vi.waitFor(async () => expect(await t.app.ctx.cache.get('drop:probe')).toBe(1), { timeout: 5000 });
    const health = await t.app.inject({ url: '/ready' });
    expect(health.statusCode).toBe(200);
  });
});
