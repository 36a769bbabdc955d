import type { UserInfo } from '@shuzhi/contracts/auth';
import type { MenuNode } from '@shuzhi/contracts/menu';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { forgetAllUserInfo, forgetUserInfo } from '../src/modules/auth/user-info.service.ts';
import { forgetMenuTree } from '../src/modules/menu/menu.service.ts';
import { forgetUserSessions, revokeUserSessions } from '../src/platform/auth/sessions.ts';
import { createLocalCache } from '../src/platform/cache/local-cache.ts';
import { SerializedResult, success } from '../src/platform/http/envelope.ts';
import { authed, body, createTestApp, login, TEST_HASH_COST, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const userInfoOf = async (app: FastifyInstance, token: string) => {
  const res = await authed(app, token, { url: '/api/sysAuth/userInfo' });
  return {
    status: res.statusCode,
    info: res.statusCode === 200 ? (body<UserInfo>(res).result as UserInfo) : null,
  };
};

const userIdOf = async (account: string) =>
  (
    await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['id', 'org_id'])
      .where('account', '=', account)
      .executeTakeFirstOrThrow()
  ).id;

describe('local cache', () => {
  it('does not store a value loaded while an invalidation ran', async () => {
    const cache = createLocalCache();
    const since = cache.mark();
    await cache.invalidate('k');
    cache.set('k', 'stale', 60, since);
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', 'fresh', 60, cache.mark());
    expect(cache.get('k')).toBe('fresh');
    await cache.invalidatePrefix('k');
    expect(cache.get('k')).toBeUndefined();
    await cache.close();
  });

  it('is bounded and expires entries', async () => {
    const cache = createLocalCache({ maxEntries: 3 });
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, k, 60);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('d')).toBe('d');
    cache.set('e', 'e', 0);
    expect(cache.get('e')).toBeUndefined();
    await cache.close();
  });

  it('sends the same bytes as the serialised envelope', () => {
    const value = { name: '黄浦区', list: [1, 2], nested: { a: null, q: 'say "hi"' } };
    const result = SerializedResult.of(value);
    const sent = JSON.parse(result.envelope().toString('utf8'));
    expect(sent).toEqual(JSON.parse(JSON.stringify(success(value))));
    expect(result.envelope().toString('utf8')).toBe(JSON.stringify({ ...success(value), time: sent.time }));
  });
});

describe('userInfo cache', () => {
  it('answers the same document from the cache', async () => {
    const { accessToken } = await login(t.app, 'fgwstaff');
    const first = await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' });
    const second = await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' });
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect({ ...body(second), time: '' }).toEqual({ ...body(first), time: '' });
  });

  it('reflects a changed role after forgetUserInfo', async () => {
    const { accessToken } = await login(t.app, 'njdlstaff');
    const before = (await userInfoOf(t.app, accessToken)).info;
    expect(before?.roleCodes).toEqual(['staff']);
    const userId = await userIdOf('njdlstaff');
    const role = await t.app.ctx.db
      .selectFrom('sys_role')
      .select('id')
      .where('code', '=', 'city_admin')
      .executeTakeFirstOrThrow();
    await t.app.ctx.db
      .insertInto('sys_user_role')
      .values({ id: t.app.ctx.newId(), user_id: userId, role_id: role.id })
      .execute();
    // Cached until the writer says so…
    expect((await userInfoOf(t.app, accessToken)).info?.roleCodes).toEqual(['staff']);
    await forgetUserInfo(t.app.ctx, userId);
    const after = (await userInfoOf(t.app, accessToken)).info;
    expect(after?.roleCodes).toEqual(expect.arrayContaining(['staff', 'city_admin']));
    expect(after?.isCityAdmin).toBe(true);
    await t.app.ctx.db
      .deleteFrom('sys_user_role')
      .where('user_id', '=', userId)
      .where('role_id', '=', role.id)
      .execute();
    await forgetUserInfo(t.app.ctx, userId);
    expect((await userInfoOf(t.app, accessToken)).info?.isCityAdmin).toBe(false);
  });

  it('reflects a renamed org after forgetAllUserInfo', async () => {
    const { accessToken } = await login(t.app, 'mzjchief');
    const before = (await userInfoOf(t.app, accessToken)).info;
    const orgId = before?.orgId ?? 0;
    const oldName = before?.orgName ?? '';
    await t.app.ctx.db.updateTable('sys_org').set({ name: '改名后的科室' }).where('id', '=', orgId).execute();
    try {
      await forgetAllUserInfo(t.app.ctx);
      expect((await userInfoOf(t.app, accessToken)).info?.orgName).toBe('改名后的科室');
    } finally {
      await t.app.ctx.db.updateTable('sys_org').set({ name: oldName }).where('id', '=', orgId).execute();
      await forgetAllUserInfo(t.app.ctx);
    }
    expect((await userInfoOf(t.app, accessToken)).info?.orgName).toBe(oldName);
  });

  it('follows the button set of the session principal', async () => {
    const { accessToken } = await login(t.app, 'scjgclerk');
    const before = (await userInfoOf(t.app, accessToken)).info;
    expect(before?.buttons).not.toContain('sysUser:add');
    const userId = await userIdOf('scjgclerk');
    await t.app.ctx.db.updateTable('sys_user').set({ account_type: 999 }).where('id', '=', userId).execute();
    try {
      await forgetUserSessions(t.app.ctx, userId);
      const after = (await userInfoOf(t.app, accessToken)).info;
      expect(after?.buttons).toContain('sysUser:add');
      expect(after?.authBtnList).toEqual(after?.buttons);
    } finally {
      await t.app.ctx.db
        .updateTable('sys_user')
        .set({ account_type: 777 })
        .where('id', '=', userId)
        .execute();
      await forgetUserSessions(t.app.ctx, userId);
    }
    expect((await userInfoOf(t.app, accessToken)).info?.buttons).toEqual(before?.buttons);
  });
});

describe('revocation with a warm cache', () => {
  it('rejects a logged-out token at once', async () => {
    const { accessToken } = await login(t.app, 'gzlstaff');
    for (let i = 0; i < 3; i++) expect((await userInfoOf(t.app, accessToken)).status).toBe(200);
    const menu = await authed(t.app, accessToken, { url: '/api/sysMenu/loginMenuTree' });
    expect(menu.statusCode).toBe(200);
    await authed(t.app, accessToken, { method: 'POST', url: '/api/sysAuth/logout' });
    expect((await userInfoOf(t.app, accessToken)).status).toBe(401);
    expect((await authed(t.app, accessToken, { url: '/api/sysMenu/loginMenuTree' })).statusCode).toBe(401);
  });

  it('ends the other sessions at once when they are revoked', async () => {
    const a = await login(t.app, 'tjjdirector');
    const b = await login(t.app, 'tjjdirector');
    expect((await userInfoOf(t.app, a.accessToken)).status).toBe(200);
    expect((await userInfoOf(t.app, b.accessToken)).status).toBe(200);
    const userId = await userIdOf('tjjdirector');
    const session = (
      await t.app.ctx.db
        .selectFrom('sys_session')
        .select('id')
        .where('user_id', '=', userId)
        .where('revoked', '=', 0)
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow()
    ).id;
    await revokeUserSessions(t.app.ctx, userId, 'password_changed', session);
    expect((await userInfoOf(t.app, a.accessToken)).status).toBe(401);
    expect((await userInfoOf(t.app, b.accessToken)).status).toBe(200);
  });
});

describe('menu tree cache', () => {
  it('reflects a changed role after forgetMenuTree', async () => {
    const { accessToken } = await login(t.app, 'gridstaff');
    const names = async () =>
      JSON.stringify(
        body<MenuNode[]>(await authed(t.app, accessToken, { url: '/api/sysMenu/loginMenuTree' })).result,
      );
    const before = await names();
    const userId = await userIdOf('gridstaff');
    const roles = await t.app.ctx.db
      .selectFrom('sys_user_role')
      .select('role_id')
      .where('user_id', '=', userId)
      .execute();
    await t.app.ctx.db.deleteFrom('sys_user_role').where('user_id', '=', userId).execute();
    try {
      expect(await names()).toBe(before);
      await forgetMenuTree(t.app.ctx, userId);
      expect(await names()).toBe('[]');
    } finally {
      await t.app.ctx.db
        .insertInto('sys_user_role')
        .values(roles.map((r) => ({ id: t.app.ctx.newId(), user_id: userId, role_id: r.role_id })))
        .execute();
      await forgetMenuTree(t.app.ctx, userId);
    }
    expect(await names()).toBe(before);
  });
});

describe('CORS', () => {
  // The configured origins only (CORS_ORIGINS; platform.test.ts checks the refusal of any other).
  let cors: TestApp;
  beforeAll(async () => {
    cors = await createTestApp({ env: { CORS_ORIGINS: 'http://example.test' } });
  });
  afterAll(async () => {
    await cors.close();
  });

  it('adds the CORS headers to actual requests from a configured origin, and none without one', async () => {
    const withOrigin = await cors.app.inject({ url: '/health', headers: { origin: 'http://example.test' } });
    expect(withOrigin.headers).toMatchObject({
      vary: 'Origin',
      'access-control-allow-origin': 'http://example.test',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'access-token, x-access-token, x-trace-id, content-disposition',
    });
    const without = await cors.app.inject({ url: '/api/sysAuth/loginConfig' });
    expect(without.headers['access-control-allow-origin']).toBeUndefined();
    expect(without.headers['access-control-allow-credentials']).toBeUndefined();
    expect(without.headers.vary).toBe('Origin');
  });

  it('answers preflights of a configured origin', async () => {
    const ok = await cors.app.inject({
      method: 'OPTIONS',
      url: '/api/sysAuth/userInfo',
      headers: {
        origin: 'http://example.test',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization, x-authorization',
      },
    });
    expect(ok.statusCode).toBe(204);
    expect(ok.headers).toMatchObject({
      'access-control-allow-origin': 'http://example.test',
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE, PATCH',
      'access-control-allow-headers': 'authorization, x-authorization',
      'content-length': '0',
    });
    expect(String(ok.headers.vary)).toContain('Origin');
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('across processes (Redis)', () => {
  let other: FastifyInstance;
  beforeAll(async () => {
    other = await buildApp({
      config: t.config,
      logger: false,
      seed: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
    });
  });
  afterAll(async () => {
    await other?.close();
  });

  const eventually = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 50; i++) {
      if (await check()) return true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return false;
  };

  it('a logout on one process ends the session on the other', async () => {
    const { accessToken } = await login(t.app, 'hpleader');
    // Warm the other process's local tier (its subscription may take a moment to come up).
    expect(
      await eventually(async () => {
        await userInfoOf(other, accessToken);
        return (await userInfoOf(other, accessToken)).status === 200;
      }),
    ).toBe(true);
    await authed(t.app, accessToken, { method: 'POST', url: '/api/sysAuth/logout' });
    expect(await eventually(async () => (await userInfoOf(other, accessToken)).status === 401)).toBe(true);
  });

  it('forgetUserInfo on one process refreshes the other', async () => {
    const { accessToken } = await login(t.app, 'fgwleader');
    const before = (await userInfoOf(other, accessToken)).info;
    const userId = await userIdOf('fgwleader');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ signature: '新的签名' })
      .where('id', '=', userId)
      .execute();
    await forgetUserInfo(t.app.ctx, userId);
    expect(
      await eventually(async () => (await userInfoOf(other, accessToken)).info?.signature === '新的签名'),
    ).toBe(true);
    expect(before?.signature).not.toBe('新的签名');
  });
});
