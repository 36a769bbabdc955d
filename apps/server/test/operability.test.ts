import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushAudit } from '../src/platform/audit/audit.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { sqliteHandle } from '../src/platform/db/db.ts';
import { body, createTestApp, loginRequest, type TestApp } from './helpers.ts';

/** Issue 14 §6: probes for load balancers, request ids in responses, the proxy setting. */
describe('health and readiness', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('reports the database and the cache as up', async () => {
    const health = await t.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: 'up', cache: 'up' });
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok', database: 'up', cache: 'up' });
  });
});

// On PostgreSQL the database going away is covered by db-fault.test.ts (a database of its own refusing connections).
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('health and readiness with the database down', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    // The database is closed already; closing the app still stops its timers.
    await t?.app.close().catch(() => undefined);
    await t?.testEnv.cleanup();
  });

  it('keeps /health at 200 saying the database is down, and /ready answers 503', async () => {
    sqliteHandle(t.app.ctx.db)?.close();
    const health = await t.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ status: 'ok', database: 'down' });
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toMatchObject({ status: 'unavailable', database: 'down' });
  });
});

describe.skipIf(!process.env.TEST_REDIS_URL)('readiness with Redis down', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.app.close().catch(() => undefined);
    await t?.testEnv.cleanup();
  });

  it('answers 503 with the cache down while /health stays 200', async () => {
    t.app.ctx.cache.redis?.disconnect();
    const ready = await t.app.inject({ url: '/ready' });
    expect(ready.statusCode).toBe(503);
    expect(ready.json()).toEqual({ status: 'unavailable', database: 'up', cache: 'down' });
    const health = await t.app.inject({ url: '/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok', database: 'up', cache: 'down' });
  });
});

describe('request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends each request its own X-Request-Id, the trace id of the logs', async () => {
    const first = await t.app.inject({ url: '/api/sysAuth/loginConfig' });
    const second = await t.app.inject({ url: '/api/no-such-endpoint' });
    expect(first.headers['x-request-id']).toMatch(/^[0-9a-f]{8}[0-9a-z]{6,}$/);
    expect(second.headers['x-request-id']).toMatch(/^[0-9a-f]{8}[0-9a-z]{6,}$/);
    expect(second.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  });
});

describe('TRUST_PROXY', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-proxy-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const trust = (value?: string) =>
    loadConfig({ DATA_DIR: dataDir, ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy;

  it('trusts no proxy unless told, then all, a hop count or a list of addresses', () => {
    expect(trust()).toBe(false);
    expect(trust('true')).toBe(true);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, 127.0.0.1')).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => trust('everyone')).toThrow(/TRUST_PROXY/);
  });

  const loggedIp = async (env: Record<string, string>) => {
    const t = await createTestApp({ env });
    try {
      const res = await loginRequest(t.app, 'admin', undefined, {}, { 'x-forwarded-for': '203.0.113.7' });
      expect(body(res).code).toBe(200);
      await flushAudit(t.app.ctx);
      const row = await t.app.ctx.db
        .selectFrom('sys_log_vis')
        .select('ip')
        .where('account', '=', 'admin')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      return row.ip;
    } finally {
      await t.close();
    }
  };

  it('takes the client address from X-Forwarded-For only from a trusted proxy', async () => {
    expect(await loggedIp({ TRUST_PROXY: '127.0.0.1' })).toBe('203.0.113.7');
    expect(await loggedIp({})).toBe('127.0.0.1');
  });
});
