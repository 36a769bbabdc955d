import type { DictDataItem } from '@shuzhi/contracts/dict';
import type { DictDataRow, DictTypeRow } from '@shuzhi/contracts/dict-admin';
import type { PageResult } from '@shuzhi/contracts/envelope';
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

const ok = async <T>(
  token: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
) => {
  const env = body<T>(await call(token, method, url, payload));
  expect(env.code, `${method} ${url} ${JSON.stringify(env)}`).toBe(200);
  return env.result as T;
};

const version = () => ok<number>(staff, 'GET', '/api/sysDictType/version');
const allDicts = () => ok<Record<string, DictDataItem[]>>(staff, 'GET', '/api/sysDictType/allDictList');
const dataList = (code: string, service = 'sysDictType') =>
  ok<DictDataItem[]>(staff, 'GET', `/api/${service}/dataList?Code=${code}`);

async function typeByCode(code: string): Promise<DictTypeRow> {
  const page = await ok<PageResult<DictTypeRow>>(root, 'POST', '/api/sysDictType/page', { code });
  const row = page.items.find((r) => r.code === code);
  if (!row) throw new Error(`no dict type ${code}`);
  return row;
}

describe('dictionary access', () => {
  it('answers 401 / 403 / 200 per route', async () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => /^\/api\/sysDict(Type|Data)\//.test(r.url) && r.method !== 'HEAD');
    const loggedIn = routes.filter((r) => r.access === 'loggedIn').map((r) => `${r.method} ${r.url}`);
    expect(loggedIn.sort()).toEqual(
      [
        'GET /api/sysDictData/dataList',
        'GET /api/sysDictType/allDictList',
        'GET /api/sysDictType/choices',
        'GET /api/sysDictType/dataList',
        'GET /api/sysDictType/version',
      ].sort(),
    );
    for (const r of routes.filter((r) => r.access !== 'loggedIn')) {
      expect(r.access, `${r.method} ${r.url}`).toMatch(
        /^sysDict(Type|Data):(page|list|detail|add|update|delete|setStatus)$/,
      );
    }
    const requests = [
      ['POST', '/api/sysDictType/page', {}],
      ['GET', '/api/sysDictType/list', undefined],
      ['GET', '/api/sysDictType/detail?Id=1&Status=1', undefined],
      ['POST', '/api/sysDictType/add', {}],
      ['POST', '/api/sysDictType/update', { id: 1 }],
      ['POST', '/api/sysDictType/delete', { id: 1 }],
      ['POST', '/api/sysDictType/setStatus', { id: 1, status: 2 }],
      ['POST', '/api/sysDictData/page', {}],
      ['GET', '/api/sysDictData/list?dictTypeId=1', undefined],
      ['GET', '/api/sysDictData/detail?Id=1', undefined],
      ['POST', '/api/sysDictData/add', {}],
      ['POST', '/api/sysDictData/update', { id: 1 }],
      ['DELETE', '/api/sysDictData/1', undefined],
      ['POST', '/api/sysDictData/setStatus', { id: 1, status: 2 }],
    ] as const;
    for (const [method, url, payload] of requests) {
      const options = { method, url, ...(payload === undefined ? {} : { payload }) };
      expect((await t.app.inject(options)).statusCode, `anonymous ${method} ${url}`).toBe(401);
      expect((await authed(t.app, staff, options)).statusCode, `staff ${method} ${url}`).toBe(403);
      // Dictionaries are platform-wide (docs/tenancy.md): a tenant admin, even the default tenant's, is refused.
      expect(body(await authed(t.app, admin, options)).code, `admin ${method} ${url}`).toBe(403);
      expect((await authed(t.app, root, options)).statusCode, `superadmin ${method} ${url}`).toBe(200);
    }
    for (const url of [
      '/api/sysDictType/version',
      '/api/sysDictType/allDictList',
      '/api/sysDictType/choices',
      '/api/sysDictData/dataList?Code=sex',
    ]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(401);
      expect((await authed(t.app, staff, { url })).statusCode, url).toBe(200);
    }
  });
});

describe('dictionary types and items', () => {
  it('adds a type and its items; they show in allDictList and dataList at once, the version moves', async () => {
    const v0 = await version();
    expect(Number.isSafeInteger(v0)).toBe(true);
    expect(await version()).toBe(v0);
    const typeId = await ok<number>(root, 'POST', '/api/sysDictType/add', {
      code: 'road_level',
      name: '道路等级',
    });
    const type = await ok<DictTypeRow>(root, 'GET', `/api/sysDictType/detail?Id=${typeId}&Status=1`);
    expect(type).toMatchObject({ code: 'road_level', name: '道路等级', status: 1, sysFlag: 2, orderNo: 100 });
    // An empty type adds nothing clients cache.
    expect(await version()).toBe(v0);

    const first = await ok<number>(root, 'POST', '/api/sysDictData/add', {
      dictTypeId: typeId,
      label: '主干道',
      value: 'main',
      tagType: 'success',
      orderNo: 2,
    });
    await ok<number>(root, 'POST', '/api/sysDictData/add', {
      dictTypeId: typeId,
      label: '快速路',
      value: 'express',
      orderNo: 1,
    });
    const v1 = await version();
    expect(v1).not.toBe(v0);
    expect((await allDicts()).road_level?.map((i) => i.value)).toEqual(['express', 'main']);
    expect((await dataList('road_level')).map((i) => i.label)).toEqual(['快速路', '主干道']);
    expect((await dataList('road_level', 'sysDictData')).map((i) => i.label)).toEqual(['快速路', '主干道']);

    const page = await ok<PageResult<DictDataRow>>(root, 'POST', '/api/sysDictData/page', {
      dictTypeId: typeId,
    });
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({
      value: 'express',
      dictTypeId: typeId,
      createUserName: expect.any(String),
    });
    const list = await ok<DictDataRow[]>(root, 'GET', `/api/sysDictData/list?dictTypeId=${typeId}`);
    expect(list.map((i) => i.value)).toEqual(['express', 'main']);
    expect((await ok<DictDataRow>(root, 'GET', `/api/sysDictData/${first}`)).tagType).toBe('success');

    await ok(root, 'POST', '/api/sysDictData/update', { id: first, label: '主干路' });
    expect(await version()).not.toBe(v1);
    expect((await dataList('road_level')).find((i) => i.id === first)?.label).toBe('主干路');
  });

  it('keeps values unique within a type, and codes unique among types', async () => {
    const typeId = await ok<number>(root, 'POST', '/api/sysDictType/add', {
      code: 'uniq_type',
      name: '唯一',
    });
    await ok(root, 'POST', '/api/sysDictData/add', { dictTypeId: typeId, label: '一', value: '1' });
    const dup = body(
      await call(root, 'POST', '/api/sysDictData/add', { dictTypeId: typeId, label: '又一', value: '1' }),
    );
    expect(dup).toMatchObject({ code: 'D1006', message: '记录已存在：字典值“1”' });
    // The same value in another type is fine.
    const sex = await typeByCode('sex');
    const other = await ok<number>(root, 'POST', '/api/sysDictData/add', {
      dictTypeId: typeId,
      label: '二',
      value: '2',
    });
    expect(body(await call(root, 'POST', '/api/sysDictData/update', { id: other, value: '1' })).code).toBe(
      'D1006',
    );
    expect(
      body(await call(root, 'POST', '/api/sysDictData/update', { id: other, dictTypeId: sex.id })).code,
    ).toBe('D1006');
    expect(
      body(await call(root, 'POST', '/api/sysDictType/add', { code: 'uniq_type', name: 'x' })).code,
    ).toBe('D1006');
    expect(body(await call(root, 'POST', '/api/sysDictType/add', { code: 'sex', name: 'x' })).code).toBe(
      'D1006',
    );
    // An item needs a live type.
    expect(
      body(await call(root, 'POST', '/api/sysDictData/add', { dictTypeId: 424242, label: 'x', value: 'x' }))
        .code,
    ).toBe('D1002');
    expect(
      body(await call(root, 'POST', '/api/sysDictData/update', { id: other, dictTypeId: 424242 })).code,
    ).toBe('D1002');
  });

  it('drops disabled types and items from allDictList and dataList', async () => {
    const typeId = await ok<number>(root, 'POST', '/api/sysDictType/add', {
      code: 'toggle_me',
      name: '开关',
    });
    const a = await ok<number>(root, 'POST', '/api/sysDictData/add', {
      dictTypeId: typeId,
      label: 'A',
      value: 'a',
    });
    await ok(root, 'POST', '/api/sysDictData/add', { dictTypeId: typeId, label: 'B', value: 'b' });
    const v0 = await version();
    await ok(root, 'POST', '/api/sysDictData/setStatus', { id: a, status: 2 });
    expect((await dataList('toggle_me')).map((i) => i.value)).toEqual(['b']);
    const v1 = await version();
    expect(v1).not.toBe(v0);
    await ok(root, 'POST', '/api/sysDictType/setStatus', { id: typeId, status: 2 });
    expect((await allDicts()).toggle_me).toBeUndefined();
    expect(await dataList('toggle_me')).toEqual([]);
    // The form designer's picker, open to the tenant admin although the dictionary screen is not.
    const choices = await ok<{ code: string; name: string }[]>(admin, 'GET', '/api/sysDictType/choices');
    expect(choices).toContainEqual({ code: 'sex', name: '性别' });
    expect(choices.map((c) => c.code)).not.toContain('toggle_me');
    expect(await version()).not.toBe(v1);
    // The admin pages still show them, with their status.
    const page = await ok<PageResult<DictDataRow>>(root, 'POST', '/api/sysDictData/page', {
      dictTypeId: typeId,
      status: 2,
    });
    expect(page.items.map((i) => i.value)).toEqual(['a']);
    const types = await ok<PageResult<DictTypeRow>>(root, 'POST', '/api/sysDictType/page', {
      code: 'toggle',
      status: 2,
    });
    expect(types.items.map((i) => i.code)).toEqual(['toggle_me']);
    await ok(root, 'POST', '/api/sysDictType/setStatus', { id: typeId, status: 1 });
    await ok(root, 'POST', '/api/sysDictData/setStatus', { id: a, status: 1 });
    expect(await ok<{ code: string }[]>(admin, 'GET', '/api/sysDictType/choices')).toContainEqual({
      code: 'toggle_me',
      name: '开关',
    });
    // Back to the same content: back to the same stamp.
    expect(await version()).toBe(v0);
  });

  it('deletes a type together with its items', async () => {
    const typeId = await ok<number>(root, 'POST', '/api/sysDictType/add', {
      code: 'to_delete',
      name: '待删',
    });
    const item = await ok<number>(root, 'POST', '/api/sysDictData/add', {
      dictTypeId: typeId,
      label: 'X',
      value: 'x',
    });
    expect((await dataList('to_delete')).length).toBe(1);
    await ok(root, 'POST', '/api/sysDictType/delete', { id: typeId });
    expect(await dataList('to_delete')).toEqual([]);
    expect(body(await call(root, 'GET', `/api/sysDictData/${item}`)).code).toBe('D1002');
    const rows = await t.app.ctx.db
      .selectFrom('sys_dict_data')
      .select('is_delete')
      .where('dict_type_id', '=', typeId)
      .execute();
    expect(rows).toEqual([{ is_delete: 1 }]);
    // The code can be used again.
    await ok(root, 'POST', '/api/sysDictType/add', { code: 'to_delete', name: '再建' });
    expect(await dataList('to_delete')).toEqual([]);
  });

  it('protects built-in types: no delete (D9003), no new code (D9002)', async () => {
    const orgType = await typeByCode('org_type');
    expect(orgType.sysFlag).toBe(1);
    expect(body(await call(root, 'POST', '/api/sysDictType/delete', { id: orgType.id }))).toMatchObject({
      code: 'D9003',
      message: '系统内置字典不允许删除',
    });
    expect(
      body(await call(root, 'POST', '/api/sysDictType/update', { id: orgType.id, code: 'org_kind' })).code,
    ).toBe('D9002');
    await ok(root, 'POST', '/api/sysDictType/update', {
      id: orgType.id,
      code: 'org_type',
      name: '机构类别',
    });
    expect((await typeByCode('org_type')).name).toBe('机构类别');
    // Its items stay editable.
    const items = await dataList('org_type');
    expect(items.length).toBeGreaterThan(0);
  });

  it('lists types for the admin screen in order', async () => {
    const types = await ok<DictTypeRow[]>(root, 'GET', '/api/sysDictType/list');
    const orders = types.map((t) => t.orderNo);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(types.map((t) => t.code)).toEqual(expect.arrayContaining(['org_type', 'sex', 'road_level']));
  });

  it('refuses bad input with field errors', async () => {
    const cases: [string, unknown, string[]][] = [
      ['/api/sysDictType/add', { name: '无编码' }, ['code']],
      ['/api/sysDictType/add', { code: 'has space', name: 'x', status: 0 }, ['code', 'status']],
      [
        '/api/sysDictData/add',
        { dictTypeId: 'x', label: '', value: 'v'.repeat(129) },
        ['dictTypeId', 'label', 'value'],
      ],
      ['/api/sysDictData/page', { dictTypeId: 'abc', pageSize: 0 }, ['dictTypeId', 'pageSize']],
      ['/api/sysDictType/setStatus', { id: 1, status: '1' }, ['status']],
    ];
    for (const [url, payload, fields] of cases) {
      const env = body(await call(root, 'POST', url, payload));
      expect(env.code, `${url} ${JSON.stringify(payload)}`).toBe(400);
      for (const field of fields) expect(env.errors, url).toHaveProperty([field]);
    }
    expect(body(await call(root, 'GET', '/api/sysDictType/detail')).errors).toHaveProperty('Id');
    expect(
      body(await call(root, 'POST', '/api/sysDictType/setStatus', { id: 987654321, status: 2 })).code,
    ).toBe('D1002');
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('dictionaries across processes (Redis)', () => {
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

  it('an edit on one process shows on the other at once', async () => {
    const otherVersion = async () =>
      body<number>(await authed(other, staff, { url: '/api/sysDictType/version' })).result;
    const otherList = async () =>
      body<DictDataItem[]>(await authed(other, staff, { url: '/api/sysDictType/dataList?Code=sex' }))
        .result ?? [];
    const eventually = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 50; i++) {
        if (await check()) return true;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return false;
    };
    expect(await eventually(async () => (await otherVersion()) === (await version()))).toBe(true);
    const before = await otherVersion();
    const sex = await typeByCode('sex');
    await ok(root, 'POST', '/api/sysDictData/add', { dictTypeId: sex.id, label: '未知', value: '9' });
    expect(await eventually(async () => (await otherList()).some((i) => i.value === '9'))).toBe(true);
    expect(await otherVersion()).not.toBe(before);
  });
});
