import { statSync } from 'node:fs';
import type { CacheKeyList, CacheValue, ServerInfo } from '@shuzhi/contracts/server';
import { serverInfoSchema } from '@shuzhi/contracts/server';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskSecrets } from '../src/modules/cache/cache.service.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let root: string;
let admin: string;
let staff: string;
const redisUrl = process.env.TEST_REDIS_URL;
const pg = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  t = await createTestApp();
  root = (await login(t.app, 'superadmin')).accessToken;
  admin = (await login(t.app, 'admin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const get = <T>(url: string, token = root) => authed(t.app, token, { method: 'GET', url }).then(body<T>);
const post = <T>(url: string, payload: object, token = root) =>
  authed(t.app, token, { method: 'POST', url, payload }).then(body<T>);
const keyList = async (prefix?: string) => {
  const env = await get<CacheKeyList>(
    `/api/sysCache/keyList${prefix === undefined ? '' : `?prefix=${encodeURIComponent(prefix)}`}`,
  );
  expect(env.code).toBe(200);
  return env.result as CacheKeyList;
};

describe('cache management', () => {
  it('lists the namespace’s keys without the prefix, a session among them after sign-in', async () => {
    await get('/api/sysAuth/userInfo');
    const list = await keyList();
    expect(list.kind).toBe(redisUrl ? 'redis' : 'memory');
    expect(list.truncated).toBe(false);
    expect(list.keys.some((k) => /^sess:\d+$/.test(k))).toBe(true);
    expect(list.keys.every((k) => !k.startsWith(t.testEnv.cachePrefix))).toBe(true);
    expect(list.keys).toEqual([...list.keys].sort());
    const sess = await keyList('sess:');
    expect(sess.keys.length).toBeGreaterThan(0);
    expect(sess.keys.every((k) => k.startsWith('sess:'))).toBe(true);
    expect((await keyList('no-such-prefix:')).keys).toEqual([]);
  });

  it('shows a value with its type and TTL, secrets masked', async () => {
    const jwt = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJlc2lnbmF0dXJl';
    await t.app.ctx.cache.set(
      'demo:session',
      { userId: 7, accessToken: 'abc', note: jwt, nested: { password: 'p@ss', name: '张三' }, list: [1, 2] },
      120,
    );
    await t.app.ctx.cache.set('demo:text', 'plain words', 60);
    await t.app.ctx.cache.set('captcha:abc', 'x7k2', 60);

    const env = await get<CacheValue>('/api/sysCache/value?key=demo:session');
    expect(env.code).toBe(200);
    const value = env.result as CacheValue;
    expect(value).toMatchObject({ key: 'demo:session', type: 'json', truncated: false });
    expect(value.ttlSeconds).toBeGreaterThan(100);
    expect(value.ttlSeconds).toBeLessThanOrEqual(120);
    const parsed = JSON.parse(value.value);
    expect(parsed).toEqual({
      userId: 7,
      accessToken: '******',
      note: '******',
      nested: { password: '******', name: '张三' },
      list: [1, 2],
    });
    expect(value.value).not.toContain('abc');
    expect(value.value).not.toContain('p@ss');

    const text = (await get<CacheValue>('/api/sysCache/value?key=demo:text')).result;
    expect(text).toMatchObject({ type: 'string', value: 'plain words' });
    const captcha = (await get<CacheValue>('/api/sysCache/value?key=captcha:abc')).result;
    expect(captcha?.value).toBe('******');

    // A session principal shows its permissions, nothing secret.
    const sessKey = (await keyList('sess:')).keys[0];
    const sess = (await get<CacheValue>(`/api/sysCache/value?key=${encodeURIComponent(sessKey)}`)).result;
    expect(sess?.type).toBe('json');
    expect(sess?.value).toContain('permissions');

    expect((await get<CacheValue>('/api/sysCache/value?key=demo:missing')).result).toBeNull();
    expect((await get('/api/sysCache/value')).code).toBe(400);
    expect((await get('/api/sysCache/value?key=')).code).toBe(400);
  });

  it('masks token-like values wherever they sit', () => {
    expect(maskSecrets({ a: 'a'.repeat(10), b: 'f'.repeat(64), refresh_token: null, Secret: 1 })).toEqual({
      a: 'aaaaaaaaaa',
      b: '******',
      refresh_token: null,
      Secret: '******',
    });
  });

  it('deletes a key and deletes by prefix, answering how many went', async () => {
    for (const k of ['a', 'b', 'c']) await t.app.ctx.cache.set(`zz-test:${k}`, k, 60);
    await t.app.ctx.cache.set('zz-tesx:keep', 1, 60);
    await t.app.ctx.cache.set('te*:glob', 1, 60);

    expect((await post<number>('/api/sysCache/delete', { key: 'zz-test:a' })).result).toBe(1);
    expect((await post<number>('/api/sysCache/delete', { key: 'zz-test:a' })).result).toBe(0);
    expect(await t.app.ctx.cache.get('zz-test:a')).toBeUndefined();

    expect((await post<number>('/api/sysCache/deleteByPrefix', { prefix: 'zz-test:' })).result).toBe(2);
    expect((await keyList('zz-tes')).keys).toEqual(['zz-tesx:keep']);
    // Glob characters are literal: "te*" matches only keys that really start with "te*".
    expect((await post<number>('/api/sysCache/deleteByPrefix', { prefix: 'te*' })).result).toBe(1);
    expect((await keyList('sess:')).keys.length).toBeGreaterThan(0);
  });

  it('refuses empty, one-character and missing prefixes and keys', async () => {
    for (const payload of [{}, { prefix: '' }, { prefix: 's' }, { prefix: '  ' }, { prefix: 5 }]) {
      const env = await post('/api/sysCache/deleteByPrefix', payload);
      expect(env.code, JSON.stringify(payload)).toBe(400);
    }
    for (const payload of [{}, { key: '' }, { key: ' ' }, { key: 'x'.repeat(600) }]) {
      expect((await post('/api/sysCache/delete', payload)).code, JSON.stringify(payload)).toBe(400);
    }
    expect((await keyList('sess:')).keys.length).toBeGreaterThan(0);
  });

  it.runIf(redisUrl)('never lists or deletes another application’s Redis keys', async () => {
    const raw = new Redis(redisUrl as string);
    const foreign = ['otherapp:sess:1', `${t.testEnv.cachePrefix.slice(0, -1)}x:sess:2`, 'sess:3'];
    try {
      for (const k of foreign) await raw.set(k, '{"accessToken":"leak"}', 'EX', 60);
      const list = await keyList();
      for (const k of foreign) {
        expect(list.keys).not.toContain(k);
        expect(list.keys.some((key) => key.includes('otherapp'))).toBe(false);
      }
      const before = (await keyList('sess:')).keys.length;
      const removed = (await post<number>('/api/sysCache/deleteByPrefix', { prefix: 'sess:' })).result;
      expect(removed).toBe(before);
      for (const k of foreign) expect(await raw.exists(k), k).toBe(1);
      expect((await get<CacheValue>('/api/sysCache/value?key=../otherapp:sess:1')).result).toBeNull();
    } finally {
      await raw.del(...foreign);
      await raw.quit();
    }
    // The super admin's session is loaded again from the database: still signed in.
    expect((await get('/api/sysAuth/userInfo')).code).toBe(200);
  });
});

describe('server monitor', () => {
  it('answers host, process, database and cache figures', async () => {
    const env = await get<ServerInfo>('/api/sysServer/info');
    expect(env.code).toBe(200);
    const info = serverInfoSchema.parse(env.result);
    expect(info.cpu.cores).toBeGreaterThanOrEqual(1);
    expect(info.cpu.usage).toBeGreaterThanOrEqual(0);
    expect(info.cpu.usage).toBeLessThanOrEqual(100);
    expect(info.cpu.loadAverage).toHaveLength(3);
    expect(info.memory.total).toBeGreaterThan(info.memory.free);
    expect(info.memory.used + info.memory.free).toBe(info.memory.total);
    expect(info.memory.processRss).toBeGreaterThan(10 * 1024 * 1024);
    expect(info.memory.heapUsed).toBeLessThanOrEqual(info.memory.heapTotal);
    expect(info.disk?.path).toBe(t.config.dataDir);
    expect(info.disk?.total).toBeGreaterThan(0);
    expect(info.disk?.usage).toBeGreaterThanOrEqual(0);
    expect(info.disk?.usage).toBeLessThanOrEqual(100);
    expect(info.runtime.nodeVersion).toBe(process.version);
    expect(info.runtime.appVersion).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.runtime.processUptime).toBeGreaterThanOrEqual(0);
    expect(info.runtime.systemUptime).toBeGreaterThan(0);
    expect(info.runtime.pid).toBe(process.pid);
    expect(info.database.kind).toBe(pg ? 'postgres' : 'sqlite');
    expect(info.database.size).toBeGreaterThan(0);
    expect(info.database.version).toBeTruthy();
    if (!pg && t.config.database.kind === 'sqlite') {
      expect(info.database.size).toBeGreaterThanOrEqual(statSync(t.config.database.file).size);
    }
    expect(info.cache.kind).toBe(redisUrl ? 'redis' : 'memory');
    expect(info.cache.keys).toBeGreaterThan(0);
  });
});

describe('access', () => {
  const routes = [
    ['GET', '/api/sysCache/keyList', 'sysCache:list'],
    ['GET', '/api/sysCache/value?key=sess:1', 'sysCache:detail'],
    ['POST', '/api/sysCache/delete', 'sysCache:delete'],
    ['POST', '/api/sysCache/deleteByPrefix', 'sysCache:delete'],
    ['GET', '/api/sysServer/info', 'sysServer:detail'],
    // The family's server monitor (docs/wire.md): the same permission.
    ['GET', '/api/sysServer/serverBase', 'sysServer:detail'],
    ['GET', '/api/sysServer/serverUsed', 'sysServer:detail'],
    ['GET', '/api/sysServer/serverDisk', 'sysServer:detail'],
  ] as const;

  it('declares the catalogue permissions', () => {
    const declared = t.app
      .registeredRoutes()
      .filter((r) => /^\/api\/sys(Cache|Server)\//.test(r.url) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url} ${r.access}`)
      .sort();
    expect(declared).toEqual(routes.map(([m, u, a]) => `${m} ${u.split('?')[0]} ${a}`).sort());
  });

  it('answers 401 / 403 / 403 / 200 for anonymous, staff, the tenant admin and the super admin', async () => {
    for (const [method, url] of routes) {
      const payload = method === 'POST' ? { key: 'nope:1', prefix: 'nope:' } : undefined;
      expect((await t.app.inject({ method, url, payload })).statusCode, url).toBe(401);
      expect((await authed(t.app, staff, { method, url, payload })).statusCode, url).toBe(403);
      // The cache holds every tenant's sessions, the monitor the host's figures: the super admin's alone.
      expect(body(await authed(t.app, admin, { method, url, payload })).code, url).toBe(403);
      const ok = await authed(t.app, root, { method, url, payload });
      expect(ok.statusCode, url).toBe(200);
      expect(body(ok).code, url).toBe(200);
    }
  });
});
