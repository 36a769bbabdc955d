import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageInputSchema } from '@shuzhi/contracts/envelope';
import { isPermission } from '@shuzhi/contracts/permissions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paged } from '../src/platform/http/paging.ts';
import { authed, body, createTestApp, DEFAULT_PASSWORD, encrypt, login, type TestApp } from './helpers.ts';

let t: TestApp;
let webDist: string;

beforeAll(async () => {
  webDist = mkdtempSync(join(tmpdir(), 'shuzhi-web-'));
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Shuzhi</title><div id="root"></div>');
  writeFileSync(join(webDist, 'assets', 'app.js'), 'console.log(1)');
  t = await createTestApp({
    env: { WEB_DIST: webDist, CORS_ORIGINS: 'http://example.test, https://portal.example.test/' },
  });
  // A route that fails, to see what a fault looks like from outside.
  t.app.get('/api/test/boom', { config: { access: 'public' } }, async () => {
    throw new Error('secret detail');
  });
});
afterAll(async () => {
  await t?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('routes and access', () => {
  it('every registered route declares its access', async () => {
    await t.app.ready();
    const routes = t.app.registeredRoutes();
    expect(routes.length).toBeGreaterThan(20);
    for (const route of routes) {
      const ok =
        route.access === 'public' || route.access === 'loggedIn' || isPermission(String(route.access));
      expect(ok, `${route.method} ${route.url}`).toBe(true);
    }
    const api = routes.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
    const expected = [
      'GET /api/sysAuth/captcha public',
      'GET /api/sysAuth/loginConfig public',
      'POST /api/sysAuth/login public',
      'GET /api/sysAuth/refreshToken loggedIn',
      'POST /api/sysAuth/logout loggedIn',
      'GET /api/sysAuth/userInfo loggedIn',
      'GET /api/sysAuth/watermarkConfig loggedIn',
      'POST /api/sysUser/changePwd loggedIn',
      'GET /api/sysMenu/loginMenuTree loggedIn',
      'GET /api/sysMenu/ownBtnPermList loggedIn',
      'GET /api/sysConfig/list loggedIn',
      'GET /api/sysConfig/detail sysConfig:detail',
      'GET /api/sysConfig/groupList sysConfig:list',
      'GET /api/sysConst/list loggedIn',
      'GET /api/sysConst/data/:typeName loggedIn',
      'GET /api/sysDictType/allDictList loggedIn',
      'GET /api/sysDictType/dataList loggedIn',
      'GET /api/sysProfile/current public',
      'GET /api/sysProfile/favicon.svg public',
    ];
    expect(api.map((r) => `${r.method} ${r.url} ${r.access}`)).toEqual(expect.arrayContaining(expected));
  });

  it('a route without access declaration stops start-up', async () => {
    const other = await createTestApp();
    try {
      other.app.get('/api/test/undeclared', async () => 'x');
      await expect(other.app.ready()).rejects.toThrow(
        /without a valid access declaration: GET \/api\/test\/undeclared/,
      );
    } finally {
      await other.close().catch(() => undefined);
    }
  });

  it('denies a permission the user lacks with 403', async () => {
    const { accessToken } = await login(t.app, 'fgwstaff');
    const res = await authed(t.app, accessToken, { url: '/api/sysConfig/detail?Id=1' });
    expect(res.statusCode).toBe(403);
    expect(body(res)).toMatchObject({ code: 403, message: '403 禁止访问，没有权限' });
  });
});

describe('envelope and errors', () => {
  it('answers unknown API routes with an envelope 404', async () => {
    for (const url of ['/api/nothing/here', '/api/sysAuth/nope', '/swagger/nope.js']) {
      const res = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(404);
      expect(body(res)).toMatchObject({ code: 404, type: 'error', result: null });
    }
    const post = await t.app.inject({ method: 'POST', url: '/whatever' });
    expect(post.statusCode).toBe(404);
    const en = await t.app.inject({ url: '/api/x', headers: { 'accept-language': 'en' } });
    expect(body(en).message).toBe('404 No such endpoint');
  });

  it('hides fault details behind a trace id', async () => {
    const res = await t.app.inject({ url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    const env = body(res);
    expect(env.code).toBe(500);
    expect(env.message).not.toContain('secret');
    expect(env.message).toContain(res.headers['x-trace-id'] as string);
  });

  it('wraps results in the envelope with a server-time stamp', async () => {
    const env = body(await t.app.inject({ url: '/api/sysAuth/loginConfig' }));
    expect(env).toMatchObject({ code: 200, type: 'success', message: '', extras: null, errors: null });
    expect(env.time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('serves health unwrapped', async () => {
    const res = await t.app.inject({ url: '/health' });
    expect(res.json()).toEqual({ status: 'ok', database: 'up', cache: 'up' });
  });
});

describe('web app', () => {
  it('serves files and falls back to index.html for page paths', async () => {
    const asset = await t.app.inject({ url: '/assets/app.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
    for (const url of ['/', '/dashboard', '/system/user?x=1']) {
      const page = await t.app.inject({ url, headers: { accept: 'text/html' } });
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('<div id="root">');
    }
    expect((await t.app.inject({ url: '/assets/missing.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/../../etc/passwd' })).body).not.toContain('root:');
  });

  it('sends security headers and exposes the token headers to CORS', async () => {
    const res = await t.app.inject({
      url: '/',
      headers: { accept: 'text/html', origin: 'http://example.test' },
    });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['access-control-expose-headers'])).toContain('access-token');
    expect(String(res.headers['access-control-expose-headers'])).toContain('x-access-token');
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/sysAuth/login',
      headers: { origin: 'http://example.test', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
  });

  it('answers CORS only for the configured origins, with PUT and DELETE allowed', async () => {
    const allowed = await t.app.inject({
      url: '/api/sysAuth/loginConfig',
      headers: { origin: 'https://portal.example.test' },
    });
    expect(allowed.headers['access-control-allow-origin']).toBe('https://portal.example.test');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await t.app.inject({
      url: '/api/sysAuth/loginConfig',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreign.headers['access-control-allow-credentials']).toBeUndefined();
    expect(foreign.headers.vary).toContain('Origin');
    for (const method of ['PUT', 'DELETE']) {
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/sysUser/delete',
        headers: { origin: 'http://example.test', 'access-control-request-method': method },
      });
      expect(preflight.headers['access-control-allow-origin']).toBe('http://example.test');
      expect(String(preflight.headers['access-control-allow-methods'])).toContain(method);
    }
    const foreignPreflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/sysAuth/login',
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(foreignPreflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(foreignPreflight.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('documents the API with OpenAPI and Swagger UI', async () => {
    // The docs are behind the admin gate (swagger-gate.test.ts): sign in to it first.
    const boundary = '----shuzhi-docs';
    const gate = await t.app.inject({
      method: 'POST',
      url: '/swagger/submitUrl',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: ['UserName', 'Password']
        .map(
          (name, i) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${i === 0 ? 'admin' : encrypt(t.app, DEFAULT_PASSWORD)}\r\n`,
        )
        .join('')
        .concat(`--${boundary}--\r\n`),
    });
    const cookie = String(gate.headers['set-cookie']).split(';')[0] ?? '';
    const docs = (url: string) => t.app.inject({ url, headers: { cookie } });
    const doc = (await docs('/swagger/json')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/sysAuth/login', '/api/sysAuth/userInfo']),
    );
    const login = doc.paths['/api/sysAuth/login'] as { post: { requestBody: unknown } };
    expect(JSON.stringify(login.post.requestBody)).toContain('account');
    const ui = await docs('/swagger/');
    expect(ui.statusCode).toBe(200);
    expect(ui.body).toContain('swagger');
  });
});

describe('rate limits', () => {
  it('answers 429 in the envelope after too many captcha calls', async () => {
    const limited = await createTestApp({ env: { RATE_LIMIT_CAPTCHA: '3', RATE_LIMIT_LOGIN: '2' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await limited.app.inject({ url: '/api/sysAuth/captcha' })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const res = await limited.app.inject({
        url: '/api/sysAuth/captcha',
        headers: { 'accept-language': 'en' },
      });
      expect(body(res)).toMatchObject({ code: 429, message: 'Too many requests, please try again later!' });
      const logins: number[] = [];
      for (let i = 0; i < 3; i++) {
        logins.push(
          (await limited.app.inject({ method: 'POST', url: '/api/sysAuth/login', payload: {} })).statusCode,
        );
      }
      expect(logins).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('config, constants, dictionaries, profile', () => {
  it('lists config: everything for holders of sysConfig:list, the shell codes for others', async () => {
    const staff = await login(t.app, 'fgwstaff');
    const items =
      body<{ code: string }[]>(await authed(t.app, staff.accessToken, { url: '/api/sysConfig/list' }))
        .result ?? [];
    const codes = items.map((i) => i.code);
    expect(codes).toEqual(expect.arrayContaining(['AutoLogoutTime', 'sys_watermark']));
    expect(codes).not.toContain('sys_password');
    expect((await authed(t.app, staff.accessToken, { url: '/api/sysConfig/groupList' })).statusCode).toBe(
      403,
    );

    // Pages not built yet are seeded disabled with their buttons, so only the super admin holds sysConfig:list.
    const admin = await login(t.app, 'superadmin');
    const all =
      body<{ id: number; code: string; sysFlag: number }[]>(
        await authed(t.app, admin.accessToken, { url: '/api/sysConfig/list' }),
      ).result ?? [];
    const password = all.find((i) => i.code === 'sys_password');
    expect(password).toBeDefined();
    const detail = body<{ code: string }>(
      await authed(t.app, admin.accessToken, { url: `/api/sysConfig/detail?Id=${password?.id}` }),
    );
    expect(detail.result?.code).toBe('sys_password');
    expect(body(await authed(t.app, admin.accessToken, { url: '/api/sysConfig/detail?Id=abc' })).code).toBe(
      400,
    );
    expect(
      body(await authed(t.app, admin.accessToken, { url: '/api/sysConfig/detail' })).errors,
    ).toHaveProperty('Id');
    expect(body(await authed(t.app, admin.accessToken, { url: '/api/sysConfig/detail?Id=1' })).code).toBe(
      'D1002',
    );
    const groups = body<string[]>(
      await authed(t.app, admin.accessToken, { url: '/api/sysConfig/groupList' }),
    ).result;
    expect(groups).toEqual(expect.arrayContaining(['Security', 'Login']));
  });

  it('lists constants in the request language', async () => {
    const { accessToken } = await login(t.app, 'fgwstaff');
    const types =
      body<{ code: string }[]>(await authed(t.app, accessToken, { url: '/api/sysConst/list' })).result ?? [];
    expect(types.map((x) => x.code)).toEqual(
      expect.arrayContaining(['accountType', 'menuType', 'dataScope', 'status']),
    );
    const en = await authed(t.app, accessToken, {
      url: '/api/sysConst/data/accountType',
      headers: { 'accept-language': 'en' },
    });
    expect(body(en).result).toContainEqual({ name: 'Super admin', code: 999 });
    const tw = await authed(t.app, accessToken, {
      url: '/api/sysConst/data/menuType',
      headers: { 'accept-language': 'zh-TW' },
    });
    expect(body(tw).result).toContainEqual({ name: '選單', code: 2 });
    expect(body(await authed(t.app, accessToken, { url: '/api/sysConst/data/unknown' })).result).toEqual([]);
    expect(body(await authed(t.app, accessToken, { url: '/api/sysConst/data/toString' })).result).toEqual([]);
  });

  it('lists dictionaries', async () => {
    const { accessToken } = await login(t.app, 'fgwstaff');
    const all =
      body<Record<string, { label: string; value: string; tagType: string | null }[]>>(
        await authed(t.app, accessToken, { url: '/api/sysDictType/allDictList' }),
      ).result ?? {};
    expect(all.org_type?.map((i) => i.value)).toEqual([
      'district',
      'street',
      'community',
      'grid',
      'department',
      'enterprise',
    ]);
    const one = body<{ label: string }[]>(
      await authed(t.app, accessToken, { url: '/api/sysDictType/dataList?Code=org_type' }),
    );
    expect(one.result?.[0]?.label).toBe('区');
    expect(body(await authed(t.app, accessToken, { url: '/api/sysDictType/dataList' })).code).toBe(400);
    expect(
      body(await authed(t.app, accessToken, { url: '/api/sysDictType/dataList?Code=nope' })).result,
    ).toEqual([]);
  });

  it('serves the profile and its favicon publicly', async () => {
    const profile = body<{ packageType: number; favicon: string; areaCode: string; webTitle: string }>(
      await t.app.inject({ url: '/api/sysProfile/current' }),
    ).result;
    expect(profile).toMatchObject({
      packageType: 0,
      areaCode: '310101',
      favicon: '/api/sysProfile/favicon.svg',
      webTitle: '',
    });
    const icon = await t.app.inject({ url: '/api/sysProfile/favicon.svg' });
    expect(icon.headers['content-type']).toContain('image/svg+xml');
    expect(icon.body).toContain('黄浦');
  });
});

describe('paging helper', () => {
  it('pages, sorts by whitelisted fields and defaults to newest first', async () => {
    const query = t.app.ctx.db.selectFrom('sys_config').select(['id', 'code']).where('is_delete', '=', 0);
    const sortable = { code: 'code' };
    const first = await paged(query, pageInputSchema.parse({ pageSize: 5 }), {
      sortable,
      defaultOrder: 'id',
    });
    expect(first).toMatchObject({ page: 1, pageSize: 5, hasPrevPage: false, hasNextPage: true });
    expect(first.items).toHaveLength(5);
    expect(first.totalPages).toBe(Math.ceil(first.total / 5));
    const ids = first.items.map((i) => i.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const asc = await paged(
      query,
      pageInputSchema.parse({ field: 'code', order: 'ascending', pageSize: 100 }),
      {
        sortable,
        defaultOrder: 'id',
      },
    );
    const codes = asc.items.map((i) => i.code);
    expect(codes).toEqual([...codes].sort());
    const ignored = await paged(
      query,
      pageInputSchema.parse({ field: 'password', order: 'descending', pageSize: 5 }),
      {
        sortable,
        defaultOrder: 'id',
      },
    );
    expect(ignored.items.map((i) => i.id)).toEqual(ids);
    const last = await paged(query, pageInputSchema.parse({ page: first.totalPages, pageSize: 5 }), {
      sortable,
      defaultOrder: 'id',
    });
    expect(last).toMatchObject({ hasPrevPage: true, hasNextPage: false });
  });
});

describe('refusals', () => {
  it('carry security and CORS headers', async () => {
    const res = await t.app.inject({
      url: '/api/sysAuth/userInfo',
      headers: { origin: 'http://example.test' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['access-control-allow-origin']).toBe('http://example.test');
  });
});
