import type { PageResult } from '@shuzhi/contracts/envelope';
import type { TenantOption } from '@shuzhi/contracts/tenant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authed,
  body,
  createTestApp,
  encrypt,
  expiredToken,
  login,
  passwordOf,
  setConfig,
  type TestApp,
} from './helpers.ts';
import { familyRequest } from './wire-family.fixture.ts';

/** Issue 17: what a client of the Admin.NET family sends and reads, beyond the route-by-route suite. */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ env: { REFRESH_GRACE_SECONDS: '2' } });
});
afterAll(async () => {
  await t?.close();
});

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('request bodies', () => {
  it('reads application/json-patch+json, text/json and other +json types as JSON on every route', async () => {
    for (const type of [
      'application/json-patch+json',
      'text/json',
      'application/vnd.shuzhi+json; charset=utf-8',
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sysAuth/login',
        headers: { 'content-type': type },
        payload: JSON.stringify({ account: 'admin', password: encrypt(t.app, passwordOf(t.app, 'admin')) }),
      });
      expect(res.statusCode, type).toBe(200);
      expect(body(res).code, type).toBe(200);
    }
    const broken = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      headers: { 'content-type': 'application/json-patch+json' },
      payload: '{"account":',
    });
    // A body that is not JSON is a request error (envelope 400), as under application/json.
    expect(body(broken).code).toBe(400);
    const poisoned = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      headers: { 'content-type': 'text/json' },
      payload: '{"__proto__":{"admin":true},"account":"a","password":"b"}',
    });
    expect(body(poisoned).code).toBe(400);
  });
});

describe('captcha', () => {
  it('answers a numeric id and bare base64 of a PNG, and takes the id back as number or numeric string', async () => {
    await setConfig(t.app, 'sys_captcha', 'true');
    try {
      for (const asString of [false, true]) {
        const captcha = body<{ id: number; img: string }>(
          await t.app.inject({ url: '/api/sysAuth/captcha' }),
        ).result;
        expect(typeof captcha?.id).toBe('number');
        expect(captcha?.img).toMatch(/^[A-Za-z0-9+/]+=*$/);
        const png = Buffer.from(captcha?.img ?? '', 'base64');
        expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
        expect(png.readUInt32BE(16)).toBe(120);
        expect(png.readUInt32BE(20)).toBe(40);
        const answer = (await t.app.ctx.cache.get<string>(`captcha:${captcha?.id}`)) ?? '';
        const res = await familyRequest(t.app, null, 'POST', '/api/sysAuth/login', {
          account: 'admin',
          password: encrypt(t.app, passwordOf(t.app, 'admin')),
          codeId: asString ? String(captcha?.id) : captcha?.id,
          code: answer.toUpperCase(),
        });
        expect(body(res).code, `codeId as ${asString ? 'string' : 'number'}`).toBe(200);
      }
      const none = await familyRequest(t.app, null, 'POST', '/api/sysAuth/login', {
        account: 'admin',
        password: encrypt(t.app, passwordOf(t.app, 'admin')),
        codeId: 0,
        code: '',
      });
      expect(body(none).code).toBe('D0008');
      const bad = await familyRequest(t.app, null, 'POST', '/api/sysAuth/login', {
        account: 'admin',
        password: 'x',
        codeId: 'abc',
      });
      expect(body(bad).code).toBe(400);
    } finally {
      await setConfig(t.app, 'sys_captcha', 'false');
    }
    // Captcha off: the family sends codeId 0 and an empty code.
    const off = await familyRequest(t.app, null, 'POST', '/api/sysAuth/login', {
      account: 'admin',
      password: encrypt(t.app, passwordOf(t.app, 'admin')),
      codeId: 0,
      code: '',
    });
    expect(body<{ homepage: string | null }>(off).result).toMatchObject({ homepage: null });
  });
});

describe('token refresh under parallel requests', () => {
  const refreshCall = (access: string, refresh: string, url = '/api/sysAuth/userInfo') =>
    authed(t.app, access, { url, headers: { 'x-authorization': `Bearer ${refresh}` } });

  it('answers every parallel request carrying the same retired refresh token with the same new pair', async () => {
    const first = await login(t.app, 'admin');
    const old = await expiredToken(t.app, first.accessToken);
    const urls = [
      '/api/sysAuth/userInfo',
      '/api/sysMenu/loginMenuTree',
      '/api/sysConfig/list',
      '/api/sysAuth/watermarkConfig',
    ];
    const answers = await Promise.all(
      [...urls, ...urls].map((url) => refreshCall(old, first.refreshToken, url)),
    );
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['access-token']).not.toBe('invalid_token');
    }
    const pairs = new Set(answers.map((r) => `${r.headers['access-token']} ${r.headers['x-access-token']}`));
    expect(pairs.size).toBe(1);
    const [access, refresh] = [...pairs][0]?.split(' ') ?? [];
    expect((await authed(t.app, access ?? '', { url: '/api/sysAuth/userInfo' })).statusCode).toBe(200);

    // After the window the retired token is refused; the client drops its tokens.
    await new Promise((resolve) => setTimeout(resolve, 2_300));
    const late = await refreshCall(old, first.refreshToken);
    expect(late.statusCode).toBe(401);
    expect(late.headers['access-token']).toBe('invalid_token');
    // The pair it was exchanged for still refreshes once.
    const next = await refreshCall(await expiredToken(t.app, access ?? ''), refresh ?? '');
    expect(next.statusCode).toBe(200);
  });

  it('gives a revoked session nothing during the window', async () => {
    const first = await login(t.app, 'admin');
    const old = await expiredToken(t.app, first.accessToken);
    expect((await refreshCall(old, first.refreshToken)).statusCode).toBe(200);
    const session = await t.app.ctx.db
      .selectFrom('sys_session')
      .select('id')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const { revokeSession } = await import('../src/platform/auth/sessions.ts');
    await revokeSession(t.app.ctx, session.id, 'logout');
    const after = await refreshCall(old, first.refreshToken);
    expect(after.statusCode).toBe(401);
    expect(after.headers['access-token']).toBe('invalid_token');
  });
});

describe('shapes the family reads', () => {
  it('takes orgId -1 (and 0) as all orgs in the user page', async () => {
    const { accessToken } = await login(t.app, 'admin');
    const all = body<PageResult<unknown>>(
      await familyRequest(t.app, accessToken, 'POST', '/api/sysUser/page', { page: 1, pageSize: 5 }),
    ).result;
    for (const orgId of [-1, 0]) {
      const res = body<PageResult<unknown>>(
        await familyRequest(t.app, accessToken, 'POST', '/api/sysUser/page', { page: 1, pageSize: 5, orgId }),
      ).result;
      expect(res?.total, `orgId ${orgId}`).toBe(all?.total);
    }
    expect(all?.total).toBeGreaterThan(1);
  });

  it('lists enabled tenants for the login picker, to anyone, without anything else of them', async () => {
    const root = (await login(t.app, 'superadmin')).accessToken;
    const added = body<number>(
      await familyRequest(t.app, root, 'POST', '/api/sysTenant/add', {
        code: 'wirehost',
        name: '对接租户',
        adminAccount: 'wireadmin',
        host: 'wire.example',
      }),
    ).result as number;
    const list = async () =>
      body<TenantOption[]>(await t.app.inject({ url: '/api/sysTenant/list' })).result ?? [];
    const before = await list();
    expect(before).toContainEqual({ label: '对接租户', value: added, host: 'wire.example' });
    for (const option of before) expect(Object.keys(option).sort()).toEqual(['host', 'label', 'value']);
    await familyRequest(t.app, root, 'POST', '/api/sysTenant/setStatus', { id: added, status: 2 });
    expect((await list()).map((o) => o.value)).not.toContain(added);
  });

  it('answers the unread notices as an array and the watermark switch under the family’s name', async () => {
    const { accessToken } = await login(t.app, 'admin');
    const unread = body(await familyRequest(t.app, accessToken, 'GET', '/api/sysNotice/unReadList'));
    expect(Array.isArray(unread.result)).toBe(true);
    const summary = body<{ count: number }>(
      await familyRequest(t.app, accessToken, 'GET', '/api/sysNotice/unReadSummary'),
    );
    expect(typeof summary.result?.count).toBe('number');
    await setConfig(t.app, 'sys_watermark', 'true');
    const mark = body<{ watermarkEnabled: boolean; enabled: boolean }>(
      await familyRequest(t.app, accessToken, 'GET', '/api/sysAuth/watermarkConfig'),
    );
    expect(mark.result).toMatchObject({ watermarkEnabled: true, enabled: true });
    const info = body<{ watermark: string; title: string }>(
      await t.app.inject({ url: '/api/sysConfig/sysInfo' }),
    );
    expect(info.result?.watermark).toBe(info.result?.title);
    await setConfig(t.app, 'sys_watermark', 'false');
  });

  it('allows PUT and DELETE from a configured origin', async () => {
    const cors = await createTestApp({ env: { CORS_ORIGINS: 'https://family.example' } });
    try {
      for (const method of ['PUT', 'DELETE']) {
        const res = await cors.app.inject({
          method: 'OPTIONS',
          url: '/api/sysPos/update',
          headers: {
            origin: 'https://family.example',
            'access-control-request-method': method,
            'access-control-request-headers': 'authorization,content-type,x-authorization',
          },
        });
        expect(res.statusCode).toBeLessThan(300);
        expect(res.headers['access-control-allow-methods']).toContain(method);
        expect(res.headers['access-control-allow-origin']).toBe('https://family.example');
        expect(res.headers['access-control-allow-headers']).toContain('x-authorization');
      }
    } finally {
      await cors.close();
    }
  });
});
