import type { PageResult } from '@shuzhi/contracts/envelope';
import type {
  RegionNode,
  RegionRoot,
  RegionRow,
  RegionSearchHit,
  RegionSyncCounts,
  RegionSyncStatus,
} from '@shuzhi/contracts/region';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arraySource } from '../src/modules/region/region.source.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { REGION_FIXTURE } from './region.fixture.ts';

let t: TestApp;
let admin: string;
let tenantAdmin: string;
let staff: string;

beforeAll(async () => {
  t = await createTestApp({ regionSource: arraySource(REGION_FIXTURE, 4) });
  // The region table is one for every tenant: administered by the super admin (docs/tenancy.md).
  admin = (await login(t.app, 'superadmin')).accessToken;
  tenantAdmin = (await login(t.app, 'admin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (token: string, method: Method, url: string, payload?: unknown) =>
  authed(t.app, token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
const ok = async <T>(token: string, method: Method, url: string, payload?: unknown) => {
  const env = body<T>(await call(token, method, url, payload));
  expect(env.code, `${method} ${url} ${JSON.stringify(env)}`).toBe(200);
  return env.result as T;
};
const tree = (query = '') => ok<RegionNode[]>(admin, 'GET', `/api/sysRegion/tree${query}`);
const search = (keyword: string, extra = '') =>
  ok<RegionSearchHit[]>(staff, 'GET', `/api/sysRegion/search?keyword=${encodeURIComponent(keyword)}${extra}`);
const count = async () => (await ok<RegionSyncStatus>(admin, 'GET', '/api/sysRegion/syncStatus')).rows;

describe('region import and tree', () => {
  it('imports the fixture at first start, with code ids, levels and paths', async () => {
    expect(await count()).toBe(REGION_FIXTURE.length);
    const page = await ok<PageResult<RegionRow>>(admin, 'POST', '/api/sysRegion/page', { code: '310101002' });
    expect(page.items.map((r) => r.code).sort()).toEqual(['310101002', '310101002001', '310101002002']);
    const street = page.items.find((r) => r.code === '310101002') as RegionRow;
    expect(street).toMatchObject({
      id: 310101002,
      pid: 310101,
      level: 4,
      isLocal: 0,
      fullCode: '31,3101,310101,310101002',
      fullName: '上海市/市辖区/黄浦区/南京东路街道',
    });
    const byLevel = await ok<PageResult<RegionRow>>(admin, 'POST', '/api/sysRegion/page', {
      level: 3,
      name: '黄浦',
    });
    expect(byLevel.items.map((r) => r.code)).toEqual(['310101']);
  });

  it('serves the tree one level at a time, flagging leaves', async () => {
    const provinces = await tree();
    expect(provinces.map((n) => n.code)).toEqual(['11', '31']);
    expect(provinces.every((n) => !n.isLeaf && n.level === 1)).toBe(true);
    const counties = await tree('?pid=3101');
    expect(counties.map((n) => [n.code, n.level])).toEqual([
      ['310101', 3],
      ['310104', 3],
    ]);
    const villages = await tree('?code=310101002');
    expect(villages.map((n) => n.code)).toEqual(['310101002001', '310101002002']);
    expect(villages.every((n) => n.isLeaf && n.level === 5)).toBe(true);
    const list = await ok<RegionRow[]>(admin, 'GET', '/api/sysRegion/list?Id=310101');
    expect(list.map((r) => r.code)).toEqual(['310101002', '310101013']);
  });

  it("answers the profile's district as the root, with its path", async () => {
    const root = await ok<RegionRoot>(staff, 'GET', '/api/sysRegion/root');
    expect(root.areaCode).toBe(t.config.profile.areaCode);
    if (root.areaCode === '310101') {
      expect(root.node?.name).toBe('黄浦区');
      expect(root.path.map((n) => n.code)).toEqual(['31', '3101', '310101']);
    }
    const path = await ok<RegionNode[]>(staff, 'GET', '/api/sysRegion/path?code=310101013001');
    expect(path.map((n) => n.name)).toEqual(['上海市', '市辖区', '黄浦区', '外滩街道', '中山东一路居委会']);
  });
});

describe('region search', () => {
  it('finds names on every level with their full paths, higher levels first', async () => {
    const hits = await search('东');
    expect(hits.map((h) => h.code)).toEqual(['110101', '110101001', '310101002', '310101013001']);
    expect(hits[2]).toMatchObject({
      name: '南京东路街道',
      level: 4,
      codePath: ['31', '3101', '310101', '310101002'],
      namePath: ['上海市', '市辖区', '黄浦区', '南京东路街道'],
    });
    expect((await search('居委会', '&limit=2')).length).toBe(2);
    expect(await search('不存在的地方')).toEqual([]);
  });

  it('finds code prefixes and narrows to a root', async () => {
    expect((await search('3101010')).map((h) => h.code)).toEqual([
      '310101002',
      '310101002001',
      '310101002002',
      '310101013',
      '310101013001',
    ]);
    expect((await search('居委会', '&rootCode=310101013')).map((h) => h.code)).toEqual(['310101013001']);
    expect((await search('街道', '&rootCode=110101')).map((h) => h.code)).toEqual(['110101001']);
    expect((await search('31', '&rootCode=310104')).map((h) => h.code)).toEqual(['310104', '310104003']);
  });
});

describe('local regions', () => {
  let localId = 0;

  it('adds a local region under a parent, one level down, searchable at once', async () => {
    localId = await ok<number>(admin, 'POST', '/api/sysRegion/add', {
      pid: 310101002,
      code: '310101002901',
      name: '新天地试点社区',
    });
    const row = await ok<RegionRow>(admin, 'GET', `/api/sysRegion/detail?Id=${localId}`);
    expect(row).toMatchObject({
      pid: 310101002,
      level: 5,
      isLocal: 1,
      fullCode: '31,3101,310101,310101002,310101002901',
      fullName: '上海市/市辖区/黄浦区/南京东路街道/新天地试点社区',
    });
    const hits = await search('新天地');
    expect(hits.map((h) => h.id)).toEqual([localId]);
    // A duplicate code is refused.
    const dup = body(
      await call(admin, 'POST', '/api/sysRegion/add', { pid: 310101002, code: '310101002901', name: 'x' }),
    );
    expect(dup.code).toBe('D1006');
  });

  it('refuses a sixth level, and a missing parent', async () => {
    const sixth = body(
      await call(admin, 'POST', '/api/sysRegion/add', { pid: localId, code: 'X1', name: '第六级' }),
    );
    expect(sixth.code).toBe('D9011');
    const orphan = body(
      await call(admin, 'POST', '/api/sysRegion/add', { pid: 999, code: 'X2', name: '无' }),
    );
    expect(orphan.code).toBe('D1002');
  });

  it('refuses a tenant admin every region write and the admin screen, and still serves the cascader', async () => {
    const writes = [
      ['/api/sysRegion/add', { pid: 310101002, code: '310101002902', name: '租户加的社区' }],
      ['/api/sysRegion/update', { id: 310101002, name: '租户改的街道' }],
      ['/api/sysRegion/delete', { id: 310101002001 }],
      ['/api/sysRegion/page', {}],
      ['/api/sysRegion/sync', undefined],
    ] as const;
    for (const [url, payload] of writes) {
      expect(body(await call(tenantAdmin, 'POST', url, payload)).code, url).toBe(403);
    }
    const street = await ok<RegionRow>(admin, 'GET', '/api/sysRegion/detail?Id=310101002');
    expect(street.name).toBe('南京东路街道');
    expect((await tree('?pid=310101002')).map((n) => n.code)).toContain('310101002001');
    expect(await ok<RegionNode[]>(tenantAdmin, 'GET', '/api/sysRegion/tree?pid=310101002')).not.toEqual([]);
  });

  it('renames a region and the name paths under it', async () => {
    await ok(admin, 'POST', '/api/sysRegion/update', { id: 310101002, name: '南京东路街道（新）' });
    const row = await ok<RegionRow>(admin, 'GET', `/api/sysRegion/detail?Id=${localId}`);
    expect(row.fullName).toBe('上海市/市辖区/黄浦区/南京东路街道（新）/新天地试点社区');
    expect((await search('南京东路')).map((h) => h.name)).toEqual(['南京东路街道（新）']);
  });

  it('refuses to delete a region with children, deletes a leaf', async () => {
    const refused = body(await call(admin, 'POST', '/api/sysRegion/delete', { id: 310101002 }));
    expect(refused.code).toBe('D9010');
    expect(refused.message).toContain('下级');
    await ok(admin, 'POST', '/api/sysRegion/delete', { id: 310101002002 });
    expect((await tree('?pid=310101002')).map((n) => n.code)).toEqual(['310101002001', '310101002901']);
    expect(await search('定兴')).toEqual([]);
  });

  it('sync restores bundled names, keeps local additions and deletions, never empties', async () => {
    const counts = await ok<RegionSyncCounts>(admin, 'POST', '/api/sysRegion/sync');
    expect(counts).toMatchObject({ total: REGION_FIXTURE.length, inserted: 0, updated: 3, local: 1 });
    const street = await ok<RegionRow>(admin, 'GET', '/api/sysRegion/detail?Id=310101002');
    expect(street.name).toBe('南京东路街道');
    const local = await ok<RegionRow>(admin, 'GET', `/api/sysRegion/detail?Id=${localId}`);
    expect(local).toMatchObject({ name: '新天地试点社区', isLocal: 1 });
    expect(local.fullName).toBe('上海市/市辖区/黄浦区/南京东路街道/新天地试点社区');
    expect((await search('南京东路')).map((h) => h.name)).toEqual(['南京东路街道']);
    expect(await count()).toBe(REGION_FIXTURE.length); // 15 − 1 deleted + 1 local
    const again = await ok<RegionSyncCounts>(admin, 'POST', '/api/sysRegion/sync');
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: REGION_FIXTURE.length });
    const status = await ok<RegionSyncStatus>(admin, 'GET', '/api/sysRegion/syncStatus');
    expect(status).toMatchObject({ running: false, last: { inserted: 0 }, error: null });
  });
});

describe('region access', () => {
  it('answers 401 / 403 / 200 per route', async () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysRegion/') && r.method !== 'HEAD');
    const access = Object.fromEntries(routes.map((r) => [`${r.method} ${r.url}`, r.access]));
    expect(access).toMatchObject({
      'POST /api/sysRegion/page': 'sysRegion:page',
      'GET /api/sysRegion/list': 'sysRegion:list',
      'GET /api/sysRegion/detail': 'sysRegion:detail',
      'POST /api/sysRegion/add': 'sysRegion:add',
      'POST /api/sysRegion/update': 'sysRegion:update',
      'POST /api/sysRegion/delete': 'sysRegion:delete',
      'POST /api/sysRegion/sync': 'sysRegion:sync',
      'GET /api/sysRegion/syncStatus': 'sysRegion:sync',
      'GET /api/sysRegion/tree': 'loggedIn',
      'GET /api/sysRegion/search': 'loggedIn',
      'GET /api/sysRegion/path': 'loggedIn',
      'GET /api/sysRegion/root': 'loggedIn',
    });
    for (const [method, url, payload] of [
      ['POST', '/api/sysRegion/page', {}],
      ['GET', '/api/sysRegion/list?Id=31'],
      ['POST', '/api/sysRegion/add', { pid: 31, code: 'Z9', name: 'z' }],
      ['POST', '/api/sysRegion/sync', {}],
      ['GET', '/api/sysRegion/syncStatus'],
    ] as [Method, string, unknown?][]) {
      expect((await call(staff, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
      expect((await t.app.inject({ method, url, payload: payload as object })).statusCode).toBe(401);
    }
    for (const url of [
      '/api/sysRegion/tree?pid=31',
      '/api/sysRegion/search?keyword=黄浦',
      '/api/sysRegion/root',
    ]) {
      expect((await call(staff, 'GET', url)).statusCode, url).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: encodeURI(url) })).statusCode).toBe(401);
    }
  });
});
