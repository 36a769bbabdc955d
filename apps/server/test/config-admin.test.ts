import type { ConfigRow, SysInfo } from '@shuzhi/contracts/config-admin';
import type { PageResult } from '@shuzhi/contracts/envelope';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { authed, body, createTestApp, login, TEST_HASH_COST, type TestApp } from './helpers.ts';

let t: TestApp;
let root: string;
let admin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp();
  root = (await login(t.app, 'superadmin')).accessToken;
  admin = (await login(t.app, 'admin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  authed(t.app, token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

async function rowByCode(code: string): Promise<ConfigRow> {
  const env = body<PageResult<ConfigRow>>(
    await call(root, 'POST', '/api/sysConfig/page', { code, pageSize: 100 }),
  );
  const row = env.result?.items.find((i) => i.code === code);
  if (!row) throw new Error(`no config ${code}: ${JSON.stringify(env)}`);
  return row;
}

const loginConfig = async (app: FastifyInstance = t.app) =>
  body<{ captchaEnabled: boolean }>(await app.inject({ url: '/api/sysAuth/loginConfig' })).result;

describe('sysConfig access', () => {
  it('declares every route, and answers 401 / 403 / 403 / 200 for anonymous, staff, the tenant admin and the super admin', async () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysConfig/') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url} ${r.access}`)
      .sort();
    expect(routes).toEqual(
      [
        'DELETE /api/sysConfig/:id(^\\d+$) sysConfig:delete',
        'DELETE /api/sysConfig/delete sysConfig:delete',
        'GET /api/sysConfig/:id(^\\d+$) sysConfig:detail',
        'GET /api/sysConfig/detail sysConfig:detail',
        'GET /api/sysConfig/groupList sysConfig:list',
        'GET /api/sysConfig/list loggedIn',
        'GET /api/sysConfig/page sysConfig:page',
        'GET /api/sysConfig/sysInfo public',
        'POST /api/sysConfig/add sysConfig:add',
        'POST /api/sysConfig/batchDelete sysConfig:batchDelete',
        'POST /api/sysConfig/batchUpdate sysConfig:batchUpdate',
        'POST /api/sysConfig/delete sysConfig:delete',
        'POST /api/sysConfig/export sysConfig:export',
        'POST /api/sysConfig/page sysConfig:page',
        'POST /api/sysConfig/saveSysInfo sysConfig:update',
        'POST /api/sysConfig/update sysConfig:update',
        'PUT /api/sysConfig/put sysConfig:update',
        'PUT /api/sysConfig/update sysConfig:update',
      ].sort(),
    );
    // Harmless requests: unknown ids, empty changes.
    const requests = [
      ['POST', '/api/sysConfig/page', {}],
      ['GET', '/api/sysConfig/page', undefined],
      ['GET', '/api/sysConfig/detail?Id=1', undefined],
      ['GET', '/api/sysConfig/1', undefined],
      ['GET', '/api/sysConfig/groupList', undefined],
      ['POST', '/api/sysConfig/add', {}],
      ['POST', '/api/sysConfig/update', { id: 1 }],
      ['PUT', '/api/sysConfig/update', { id: 1 }],
      ['PUT', '/api/sysConfig/put', { id: 1 }],
      ['POST', '/api/sysConfig/delete', { id: 1 }],
      ['DELETE', '/api/sysConfig/delete?id=1', undefined],
      ['DELETE', '/api/sysConfig/1', undefined],
      ['POST', '/api/sysConfig/batchDelete', [1]],
      ['POST', '/api/sysConfig/batchUpdate', []],
      ['POST', '/api/sysConfig/export', {}],
      ['POST', '/api/sysConfig/saveSysInfo', {}],
    ] as const;
    for (const [method, url, payload] of requests) {
      const options = { method, url, ...(payload === undefined ? {} : { payload }) };
      expect((await t.app.inject(options)).statusCode, `anonymous ${method} ${url}`).toBe(401);
      expect((await authed(t.app, staff, options)).statusCode, `staff ${method} ${url}`).toBe(403);
      // Parameters are platform-wide (docs/tenancy.md): a tenant admin, even the default tenant's, is refused.
      expect(body(await authed(t.app, admin, options)).code, `admin ${method} ${url}`).toBe(403);
      const res = await authed(t.app, root, options);
      expect(res.statusCode, `superadmin ${method} ${url}`).toBe(200);
    }
    expect((await t.app.inject({ url: '/api/sysConfig/sysInfo' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/sysConfig/list' })).statusCode).toBe(401);
    expect((await authed(t.app, staff, { url: '/api/sysConfig/list' })).statusCode).toBe(200);
  });
});

describe('sysConfig administration', () => {
  it('pages with filters and sorting; detail carries the audit columns', async () => {
    const env = body<PageResult<ConfigRow>>(
      await call(root, 'POST', '/api/sysConfig/page', {
        groupCode: 'Security',
        field: 'code',
        order: 'ascending',
      }),
    );
    const codes = env.result?.items.map((i) => i.code) ?? [];
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['sys_password', 'sys_passwd_max_error_times']));
    expect(env.result?.items.every((i) => i.groupCode === 'Security')).toBe(true);
    const named = body<PageResult<ConfigRow>>(
      await call(root, 'POST', '/api/sysConfig/page', { name: '令牌' }),
    );
    expect(named.result?.items.map((i) => i.code).sort()).toEqual([
      'sys_refresh_token_expire',
      'sys_token_expire',
    ]);
    const row = await rowByCode('sys_captcha');
    const detail = body<ConfigRow>(await call(root, 'GET', `/api/sysConfig/detail?Id=${row.id}`)).result;
    expect(detail).toMatchObject({
      code: 'sys_captcha',
      sysFlag: 1,
      createUserName: 'seed',
      groupCode: 'Login',
    });
    expect(detail).toHaveProperty('updateTime');
  });

  it('adds, edits and deletes an ordinary row; codes are unique', async () => {
    const added = body<number>(
      await call(root, 'POST', '/api/sysConfig/add', {
        code: 'demo_flag',
        name: '演示开关',
        value: 'on',
        groupCode: 'Default',
      }),
    );
    expect(added.code).toBe(200);
    const id = added.result as number;
    const row = body<ConfigRow>(await call(root, 'GET', `/api/sysConfig/${id}`)).result;
    expect(row).toMatchObject({ code: 'demo_flag', value: 'on', sysFlag: 2, orderNo: 100, remark: null });
    const dup = body(await call(root, 'POST', '/api/sysConfig/add', { code: 'demo_flag', name: 'again' }));
    expect(dup).toMatchObject({ code: 'D1006', message: '记录已存在：编码“demo_flag”' });
    expect(body(await call(root, 'POST', '/api/sysConfig/update', { id, code: 'sys_captcha' })).code).toBe(
      'D1006',
    );
    expect(
      body(await call(root, 'POST', '/api/sysConfig/update', { id, value: 'off', code: 'demo_flag2' })).code,
    ).toBe(200);
    expect(body<ConfigRow>(await call(root, 'GET', `/api/sysConfig/${id}`)).result).toMatchObject({
      code: 'demo_flag2',
      value: 'off',
      updateUserName: expect.any(String),
    });
    // Only holders of sysConfig:list see it in the list; the shell's codes stay visible to everyone.
    const full = body<{ code: string }[]>(await call(root, 'GET', '/api/sysConfig/list')).result ?? [];
    expect(full.map((i) => i.code)).toContain('demo_flag2');
    const shell = body<{ code: string }[]>(await call(staff, 'GET', '/api/sysConfig/list')).result ?? [];
    expect(shell.map((i) => i.code)).not.toContain('demo_flag2');
    expect(body(await call(root, 'POST', '/api/sysConfig/delete', { id })).code).toBe(200);
    expect(body(await call(root, 'GET', `/api/sysConfig/${id}`)).code).toBe('D1002');
    // The code is free again.
    expect(
      body(await call(root, 'POST', '/api/sysConfig/add', { code: 'demo_flag2', name: '再来' })).code,
    ).toBe(200);
  });

  it('protects built-in rows: no delete (D9001), no new code or flag (D9002)', async () => {
    const builtIn = await rowByCode('sys_watermark');
    const zh = body(await call(root, 'POST', '/api/sysConfig/delete', { id: builtIn.id }));
    expect(zh).toMatchObject({ code: 'D9001', message: '系统参数不允许删除' });
    const en = await authed(t.app, root, {
      method: 'DELETE',
      url: `/api/sysConfig/${builtIn.id}`,
      headers: { 'accept-language': 'en' },
    });
    expect(body(en)).toMatchObject({ code: 'D9001', message: 'Built-in settings cannot be deleted' });
    const ordinary = body<number>(
      await call(root, 'POST', '/api/sysConfig/add', { code: 'demo_batch', name: '批量' }),
    ).result;
    // All or nothing: the ordinary row survives a batch that holds a built-in one.
    expect(body(await call(root, 'POST', '/api/sysConfig/batchDelete', [ordinary, builtIn.id])).code).toBe(
      'D9001',
    );
    expect(body(await call(root, 'GET', `/api/sysConfig/${ordinary}`)).code).toBe(200);
    expect(body(await call(root, 'POST', '/api/sysConfig/batchDelete', { ids: [ordinary] })).code).toBe(200);
    expect(body(await call(root, 'GET', `/api/sysConfig/${ordinary}`)).code).toBe('D1002');

    expect(
      body(await call(root, 'POST', '/api/sysConfig/update', { id: builtIn.id, code: 'renamed' })).code,
    ).toBe('D9002');
    expect(body(await call(root, 'POST', '/api/sysConfig/update', { id: builtIn.id, sysFlag: 2 })).code).toBe(
      'D9002',
    );
    // Sending its own code and flag back, as edit forms do, is fine.
    const ok = await call(root, 'POST', '/api/sysConfig/update', {
      id: builtIn.id,
      code: 'sys_watermark',
      sysFlag: 1,
      name: builtIn.name,
      remark: '已修改',
    });
    expect(body(ok).code).toBe(200);
    expect((await rowByCode('sys_watermark')).remark).toBe('已修改');
  });

  it('applies a value at once, without a restart', async () => {
    const captcha = await rowByCode('sys_captcha');
    expect((await loginConfig())?.captchaEnabled).toBe(false);
    expect(
      body(await call(root, 'POST', '/api/sysConfig/update', { id: captcha.id, value: 'true' })).code,
    ).toBe(200);
    expect((await loginConfig())?.captchaEnabled).toBe(true);
    expect(
      body(await call(root, 'POST', '/api/sysConfig/batchUpdate', [{ code: 'sys_captcha', value: 'false' }]))
        .code,
    ).toBe(200);
    expect((await loginConfig())?.captchaEnabled).toBe(false);
  });

  it('batch updates by code, all or nothing', async () => {
    const before = await rowByCode('AutoLogoutTime');
    const refused = body(
      await call(root, 'POST', '/api/sysConfig/batchUpdate', [
        { code: 'AutoLogoutTime', value: '15' },
        { code: 'no_such_code', value: 'x' },
      ]),
    );
    expect(refused.code).toBe('D1002');
    expect((await rowByCode('AutoLogoutTime')).value).toBe(before.value);
    const ok = await call(root, 'POST', '/api/sysConfig/batchUpdate', [
      { code: 'AutoLogoutTime', value: '15' },
      { code: 'sys_watermark', value: 'true' },
    ]);
    expect(body(ok).code).toBe(200);
    const shell =
      body<{ code: string; value: string }[]>(await call(staff, 'GET', '/api/sysConfig/list')).result ?? [];
    expect(shell.find((i) => i.code === 'AutoLogoutTime')?.value).toBe('15');
    const watermark = body<{ enabled: boolean }>(
      await call(staff, 'GET', '/api/sysAuth/watermarkConfig'),
    ).result;
    expect(watermark?.enabled).toBe(true);
    for (const bad of [
      [],
      {},
      [{ code: '', value: 'x' }],
      [{ value: 'x' }],
      [{ code: 'sys_captcha', value: 1 }],
    ]) {
      expect(
        body(await call(root, 'POST', '/api/sysConfig/batchUpdate', bad)).code,
        JSON.stringify(bad),
      ).toBe(400);
    }
  });

  it('refuses bad input with field errors', async () => {
    const cases: [string, unknown, string[]][] = [
      ['/api/sysConfig/add', { name: '无编码' }, ['code']],
      ['/api/sysConfig/add', { code: '1bad code', name: 'x', sysFlag: 3 }, ['code', 'sysFlag']],
      ['/api/sysConfig/add', { code: 'ok_code', name: 'x', value: 5 }, ['value']],
      ['/api/sysConfig/update', { id: 'abc' }, ['id']],
      ['/api/sysConfig/page', { page: -1, pageSize: 5000 }, ['page', 'pageSize']],
      ['/api/sysConfig/batchDelete', { ids: 'all' }, []],
      [
        '/api/sysConfig/saveSysInfo',
        { webLogo: 'javascript:alert(1)', webTitle: 'x'.repeat(65) },
        ['webLogo', 'webTitle'],
      ],
    ];
    for (const [url, payload, fields] of cases) {
      const env = body(await call(root, 'POST', url, payload));
      expect(env.code, `${url} ${JSON.stringify(payload)}`).toBe(400);
      for (const field of fields) expect(env.errors, url).toHaveProperty([field]);
    }
    expect(
      body(await call(root, 'POST', '/api/sysConfig/update', { id: 999_999_999, value: 'x' })).code,
    ).toBe('D1002');
  });

  it('exports an xlsx with labels for the built-in flag and the group', async () => {
    const res = await call(root, 'POST', '/api/sysConfig/export', {
      groupCode: 'Security',
      field: 'code',
      order: 'ascending',
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    workbook.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['编码', '名称', '参数值', '系统内置', '分组', '排序', '备注', '修改时间']);
    const password = rows.find((r) => r[0] === 'sys_password');
    expect(password?.slice(0, 5)).toEqual(['sys_password', '默认密码', 'Shuzhi@2026', '是', '安全']);
    expect(rows.length - 1).toBe(
      body<PageResult<ConfigRow>>(await call(root, 'POST', '/api/sysConfig/page', { groupCode: 'Security' }))
        .result?.total,
    );
  });
});

describe('system info', () => {
  it('is public, saved with sysConfig:update, and shows in the profile at once', async () => {
    const before = body<SysInfo>(await t.app.inject({ url: '/api/sysConfig/sysInfo' })).result;
    expect(before).toMatchObject({ webTitle: '', webLogo: '', webCopyright: '', webIcp: '' });
    // The family's names: empty settings resolved from the profile (docs/wire.md).
    expect(before).toMatchObject({ title: t.config.profile.systemName['zh-CN'], icp: '', icpUrl: '' });
    // Warm the profile, so that the next read must see the change.
    await t.app.inject({ url: '/api/sysProfile/current' });
    const saved = await call(root, 'POST', '/api/sysConfig/saveSysInfo', {
      webTitle: '黄浦区数智平台',
      webLogo: '/logo.png',
      webIcp: '沪ICP备00000000号',
    });
    expect(body(saved)).toMatchObject({
      code: 200,
      result: {
        webTitle: '黄浦区数智平台',
        webLogo: '/logo.png',
        webCopyright: '',
        webIcp: '沪ICP备00000000号',
      },
    });
    const profile = body<SysInfo & { areaCode: string }>(
      await t.app.inject({ url: '/api/sysProfile/current' }),
    ).result;
    expect(profile).toMatchObject({
      webTitle: '黄浦区数智平台',
      webLogo: '/logo.png',
      webIcp: '沪ICP备00000000号',
      areaCode: '310101',
    });
    expect((await rowByCode('sys_web_title')).value).toBe('黄浦区数智平台');
    // Fields left out keep their value; an inline image is a valid logo; empty clears.
    const logo = `data:image/png;base64,${'A'.repeat(100)}`;
    await call(root, 'POST', '/api/sysConfig/saveSysInfo', {
      webLogo: logo,
      webCopyright: '© 2026 黄浦区',
      webTitle: '',
    });
    expect(body<SysInfo>(await t.app.inject({ url: '/api/sysConfig/sysInfo' })).result).toMatchObject({
      webTitle: '',
      webLogo: logo,
      webCopyright: '© 2026 黄浦区',
      webIcp: '沪ICP备00000000号',
    });
    const watermark = body<{ title: string }>(
      await call(staff, 'GET', '/api/sysAuth/watermarkConfig'),
    ).result;
    expect(watermark?.title).not.toBe('黄浦区数智平台');
    expect((await call(staff, 'POST', '/api/sysConfig/saveSysInfo', { webTitle: 'x' })).statusCode).toBe(403);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('config across processes (Redis)', () => {
  let other: FastifyInstance;
  beforeAll(async () => {
    other = await buildApp({
      config: t.config,
      logger: false,
      seed: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
    });
    await other.ready();
  });
  afterAll(async () => {
    await other?.close();
  });

  it('a change on one process applies on the other at once', async () => {
    const eventually = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 50; i++) {
        if (await check()) return true;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    };
    // Both processes have the value cached.
    expect(await eventually(async () => (await loginConfig(other))?.captchaEnabled === false)).toBe(true);
    await call(root, 'POST', '/api/sysConfig/batchUpdate', [{ code: 'sys_captcha', value: 'true' }]);
    expect(await eventually(async () => (await loginConfig(other))?.captchaEnabled === true)).toBe(true);
    await call(root, 'POST', '/api/sysConfig/batchUpdate', [{ code: 'sys_captcha', value: 'false' }]);
    expect(await eventually(async () => (await loginConfig(other))?.captchaEnabled === false)).toBe(true);
  });
});
