import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OrgListItem, OrgNode, OrgRow } from '@shuzhi/contracts/org';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, authed, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let njd: string; // njdleader: scope 2 on 南京东路街道, granted org writes below
let fgw: string; // fgwstaff: scope 3 on 区发改委, read-only
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  for (const row of await db.selectFrom('sys_org').select(['id', 'code']).execute()) ids[row.code] = row.id;
  // njdleader's role gets the org write buttons, so that the data-scope rules of writes can be seen.
  const role = await db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', 'dept_town_leader')
    .executeTakeFirstOrThrow();
  const buttons = await db
    .selectFrom('sys_menu')
    .select('id')
    .where('permission', 'in', ['sysOrg:add', 'sysOrg:update', 'sysOrg:delete', 'sysOrg:setStatus'])
    .execute();
  await db
    .insertInto('sys_role_menu')
    .values(buttons.map((b) => ({ id: t.app.ctx.newId(), role_id: role.id, menu_id: b.id })))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  njd = (await login(t.app, 'njdleader')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const { envelope: call, ok, code } = apiCalls(() => t.app);

const detail = (id: number, token = admin) => ok<OrgRow>(token, 'GET', `/api/sysOrg/detail?Id=${id}`);
const add = (payload: Record<string, unknown>, token = admin) =>
  ok<number>(token, 'POST', '/api/sysOrg/add', { type: 'department', ...payload });

const flatten = (nodes: OrgNode[]): OrgNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

describe('GET /api/sysOrg/treeAll', () => {
  it('gives an admin the whole tenant tree, nothing out of scope', async () => {
    const tree = await ok<OrgNode[]>(admin, 'GET', '/api/sysOrg/treeAll');
    expect(tree.map((n) => n.code)).toEqual(['310101']);
    const all = flatten(tree);
    const live = await t.app.ctx.db.selectFrom('sys_org').select('id').where('is_delete', '=', 0).execute();
    expect(all.length).toBe(live.length);
    expect(all.every((n) => !n.outOfScope)).toBe(true);
    const street = all.find((n) => n.code === '310101002');
    expect(street).toMatchObject({ pid: ids['310101'], level: 2, type: 'street', status: 1 });
    expect(street?.children.map((c) => c.code).slice(0, 3)).toEqual([
      '310101002001',
      '310101002002',
      '310101002003',
    ]);
  });

  it('gives a scope-2 user their subtree under an out-of-scope ancestor', async () => {
    const tree = await ok<OrgNode[]>(njd, 'GET', '/api/sysOrg/treeAll');
    expect(tree).toHaveLength(1);
    expect(tree[0]).toMatchObject({ code: '310101', outOfScope: true });
    expect(tree[0]?.children.map((c) => c.code)).toEqual(['310101002']);
    const below = flatten(tree[0]?.children ?? []);
    expect(below.every((n) => !n.outOfScope)).toBe(true);
    expect(below.map((n) => n.code)).toContain('31010100200101');
    expect(below.map((n) => n.code)).toContain('91310101MA1FP7K316');
  });

  it('gives a scope-3 user their own org only', async () => {
    const tree = await ok<OrgNode[]>(fgw, 'GET', '/api/sysOrg/treeAll');
    const all = flatten(tree);
    expect(all.filter((n) => !n.outOfScope).map((n) => n.code)).toEqual(['HPQ-FGW']);
    expect(all.filter((n) => n.outOfScope).map((n) => n.code)).toEqual(['310101']);
  });
});

describe('sysOrg reads', () => {
  it('lists the tree below Id, or a flat list with Name / Code / Type', async () => {
    const roots = await ok<OrgListItem[]>(admin, 'GET', '/api/sysOrg/list');
    expect(roots.map((r) => r.code)).toEqual(['310101']);
    expect(roots[0]?.children?.length).toBeGreaterThan(5);

    const street = await ok<OrgListItem[]>(admin, 'GET', `/api/sysOrg/list?Id=${ids['310101002']}`);
    expect(street.map((r) => r.code).slice(0, 3)).toEqual(['310101002001', '310101002002', '310101002003']);
    expect(street[0]?.children?.map((c) => c.code)).toEqual(['31010100200101', '31010100200102']);

    const byName = await ok<OrgListItem[]>(
      admin,
      'GET',
      `/api/sysOrg/list?Name=${encodeURIComponent('网格')}`,
    );
    expect(byName.length).toBeGreaterThan(4);
    expect(byName.every((r) => r.name.includes('网格') && r.children === undefined)).toBe(true);

    const byCode = await ok<OrgListItem[]>(admin, 'GET', '/api/sysOrg/list?Code=310101002');
    expect(byCode.map((r) => r.code)).toEqual(['310101002']);

    const streets = await ok<OrgListItem[]>(admin, 'GET', '/api/sysOrg/list?Type=street');
    expect(streets.length).toBeGreaterThan(1);
    expect(streets.every((r) => r.type === 'street')).toBe(true);

    const gridsUnder = await ok<OrgListItem[]>(
      admin,
      'GET',
      `/api/sysOrg/list?Id=${ids['310101002']}&Type=grid`,
    );
    expect(gridsUnder.every((r) => r.code.startsWith('310101002'))).toBe(true);
    expect(gridsUnder.length).toBe(6);
  });

  it('pages with filters and sorting', async () => {
    const page = await ok<PageResult<OrgRow>>(admin, 'POST', '/api/sysOrg/page', {
      type: 'community',
      page: 1,
      pageSize: 2,
      field: 'code',
      order: 'ascending',
    });
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThan(2);
    expect(page.items[0]?.code < (page.items[1]?.code ?? '')).toBe(true);
    const byPid = await ok<PageResult<OrgRow>>(admin, 'GET', `/api/sysOrg/page?pid=${ids['310101002001']}`);
    expect(byPid.items.map((r) => r.name).sort()).toEqual(['第一网格', '第二网格']);
  });

  it('shows a scoped user only the orgs of their scope', async () => {
    const page = await ok<PageResult<OrgRow>>(njd, 'POST', '/api/sysOrg/page', { pageSize: 1000 });
    expect(page.items.every((r) => r.fullIds.split(',').includes(String(ids['310101002'])))).toBe(true);
    expect(page.items.map((r) => r.code)).toContain('310101002');
    const list = await ok<OrgListItem[]>(njd, 'GET', '/api/sysOrg/list?Type=street');
    expect(list.map((r) => r.code)).toEqual(['310101002']);
    // Without filters the tree starts at the highest visible org: the district is not theirs.
    const tree = await ok<OrgListItem[]>(njd, 'GET', '/api/sysOrg/list');
    expect(tree.map((r) => r.code)).toEqual(['310101002']);
    expect(await code(njd, 'GET', `/api/sysOrg/detail?Id=${ids['HPQ-FGW']}`)).toBe('D1002');
    // A scope-3 user sees their own org only.
    const mzj = (await login(t.app, 'mzjchief')).accessToken;
    expect(await code(mzj, 'GET', `/api/sysOrg/detail?Id=${ids['310101002']}`)).toBe('D1002');
    expect((await detail(ids['HPQ-MZJ-JZK'] as number, mzj)).code).toBe('HPQ-MZJ-JZK');
    const own = await ok<PageResult<OrgRow>>(mzj, 'POST', '/api/sysOrg/page', {});
    expect(own.items.map((r) => r.code)).toEqual(['HPQ-MZJ-JZK']);
  });

  it('exports an xlsx', async () => {
    const res = await authed(t.app, admin, {
      method: 'POST',
      url: '/api/sysOrg/export',
      payload: { type: 'street' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('sysOrg writes', () => {
  it('adds a child with level and paths from its parent; codes are unique per tenant', async () => {
    const parent = await detail(ids['310101002'] as number);
    const id = await add({ pid: parent.id, code: 'T-ADD-1', name: '测试科室', orderNo: 5 });
    const row = await detail(id);
    expect(row).toMatchObject({
      pid: parent.id,
      level: parent.level + 1,
      fullIds: `${parent.fullIds},${id}`,
      fullNames: `${parent.fullNames}/测试科室`,
      status: 1,
      orderNo: 5,
    });
    expect(
      await code(admin, 'POST', '/api/sysOrg/add', {
        pid: parent.id,
        code: 'T-ADD-1',
        name: 'x',
        type: 'grid',
      }),
    ).toBe('D1006');
    expect(
      await code(admin, 'POST', '/api/sysOrg/add', {
        pid: 987654321,
        code: 'T-ADD-2',
        name: 'x',
        type: 'grid',
      }),
    ).toBe('D1002');
    const bad = await call(admin, 'POST', '/api/sysOrg/add', {
      pid: parent.id,
      code: 'T-ADD-3',
      name: 'x',
      type: 'planet',
    });
    expect(bad.code).toBe(400);
    expect(Object.keys(bad.errors as object)).toContain('type');
    const missing = await call(admin, 'POST', '/api/sysOrg/add', { pid: parent.id, name: 'x' });
    expect(missing.code).toBe(400);
    // A deleted org's code is free again.
    await ok(admin, 'POST', '/api/sysOrg/delete', { id });
    expect(await code(admin, 'GET', `/api/sysOrg/detail?Id=${id}`)).toBe('D1002');
    await add({ pid: parent.id, code: 'T-ADD-1', name: '测试科室二' });
  });

  it('moves and renames a subtree, cascading level and paths; never under itself', async () => {
    const s1 = await detail(ids['310101002'] as number);
    const s2 = await detail(ids['310101013'] as number);
    const a = await add({ pid: s1.id, code: 'T-MV-A', name: '甲' });
    const b = await add({ pid: a, code: 'T-MV-B', name: '乙' });
    const c = await add({ pid: b, code: 'T-MV-C', name: '丙' });

    expect(await code(admin, 'POST', '/api/sysOrg/update', { id: a, pid: c })).toBe('D2002');
    expect(await code(admin, 'POST', '/api/sysOrg/update', { id: a, pid: a })).toBe('D2002');
    expect(await code(admin, 'POST', '/api/sysOrg/update', { id: b, pid: b })).toBe('D2002');

    await ok(admin, 'POST', '/api/sysOrg/update', { id: a, pid: s2.id, name: '甲改' });
    const [ra, rb, rc] = await Promise.all([detail(a), detail(b), detail(c)]);
    expect(ra).toMatchObject({
      pid: s2.id,
      level: s2.level + 1,
      fullIds: `${s2.fullIds},${a}`,
      fullNames: `${s2.fullNames}/甲改`,
    });
    expect(rb).toMatchObject({
      level: s2.level + 2,
      fullIds: `${s2.fullIds},${a},${b}`,
      fullNames: `${s2.fullNames}/甲改/乙`,
    });
    expect(rc).toMatchObject({
      level: s2.level + 3,
      fullIds: `${s2.fullIds},${a},${b},${c}`,
      fullNames: `${s2.fullNames}/甲改/乙/丙`,
    });

    // A rename in place reaches the descendants too.
    await ok(admin, 'PUT', '/api/sysOrg/update', { id: b, name: '乙改' });
    expect((await detail(c)).fullNames).toBe(`${s2.fullNames}/甲改/乙改/丙`);
    // Moving to the root.
    await ok(admin, 'POST', '/api/sysOrg/update', { id: b, pid: 0 });
    expect(await detail(b)).toMatchObject({ level: 1, fullIds: String(b), fullNames: '乙改' });
    expect(await detail(c)).toMatchObject({ level: 2, fullIds: `${b},${c}`, fullNames: '乙改/丙' });
    // Data scope caches follow the tree: the district's leader no longer sees the moved root.
    const hp = await login(t.app, 'hpleader');
    const tree = flatten(await ok<OrgNode[]>(hp.accessToken, 'GET', '/api/sysOrg/treeAll'));
    expect(tree.map((n) => n.id)).not.toContain(b);
    expect(tree.map((n) => n.id)).toContain(a);
    await ok(admin, 'POST', '/api/sysOrg/update', { id: b, pid: a });
    expect((await detail(c)).fullIds).toBe(`${s2.fullIds},${a},${b},${c}`);
  });

  it('refuses to delete an org with children (D2000) or users (D2001)', async () => {
    const street = await detail(ids['310101002'] as number);
    expect(await code(admin, 'POST', '/api/sysOrg/delete', { id: street.id })).toBe('D2000');
    expect(await code(admin, 'POST', '/api/sysOrg/delete', { id: ids['HPQ-FGW'] })).toBe('D2001');
    // The second grid has no users of its own, but it is gridstaff's extra org.
    const grid2 = ids['31010100200102'] as number;
    const own = await t.app.ctx.db.selectFrom('sys_user').select('id').where('org_id', '=', grid2).execute();
    expect(own).toHaveLength(0);
    expect(await code(admin, 'POST', '/api/sysOrg/delete', { id: grid2 })).toBe('D2001');
    const empty = await add({ pid: street.id, code: 'T-DEL-1', name: '空机构' });
    const env = await call(admin, 'DELETE', `/api/sysOrg/delete?id=${empty}`);
    expect(env.code).toBe(200);
  });

  it('switches status', async () => {
    const id = await add({ pid: ids['310101002'], code: 'T-ST-1', name: '停用测试' });
    await ok(admin, 'POST', '/api/sysOrg/setStatus', { id, status: 2 });
    expect((await detail(id)).status).toBe(2);
    const tree = flatten(await ok<OrgNode[]>(admin, 'GET', '/api/sysOrg/treeAll'));
    expect(tree.find((n) => n.id === id)?.status).toBe(2);
  });
});

describe('sysOrg data scope of writes', () => {
  it('lets a scoped user write inside their scope only', async () => {
    const street = ids['310101002'] as number;
    const other = ids['310101013'] as number;
    const id = await add({ pid: street, code: 'T-SC-1', name: '街道新科室' }, njd);
    // The new org is in the user's scope at once (the scope cache was dropped).
    expect((await detail(id, njd)).pid).toBe(street);
    expect(flatten(await ok<OrgNode[]>(njd, 'GET', '/api/sysOrg/treeAll')).map((n) => n.id)).toContain(id);

    expect(
      await code(njd, 'POST', '/api/sysOrg/add', { pid: other, code: 'T-SC-2', name: 'x', type: 'grid' }),
    ).toBe('D2003');
    expect(
      await code(njd, 'POST', '/api/sysOrg/add', { pid: 0, code: 'T-SC-3', name: 'x', type: 'grid' }),
    ).toBe('D2003');
    // Out of scope orgs are not theirs to see, so not to change either.
    expect(await code(njd, 'POST', '/api/sysOrg/update', { id: other, name: 'x' })).toBe('D1002');
    expect(await code(njd, 'POST', '/api/sysOrg/delete', { id: other })).toBe('D1002');
    expect(await code(njd, 'POST', '/api/sysOrg/setStatus', { id: other, status: 2 })).toBe('D1002');
    // Moving their org out of their scope is refused.
    expect(await code(njd, 'POST', '/api/sysOrg/update', { id, pid: other })).toBe('D2003');
    // Their own street keeps its out-of-scope parent when renamed.
    await ok(njd, 'POST', '/api/sysOrg/update', { id: id, name: '街道新科室二' });
    expect((await detail(id)).fullNames.endsWith('/街道新科室二')).toBe(true);
    await ok(njd, 'POST', '/api/sysOrg/delete', { id });
  });

  it('refuses writes without the permission', async () => {
    const res = await authed(t.app, fgw, {
      method: 'POST',
      url: '/api/sysOrg/add',
      payload: { pid: ids['HPQ-FGW'], code: 'T-NP', name: 'x', type: 'grid' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('sysOrg moves carry the users’ area fields', () => {
  const areaOf = (account: string) =>
    t.app.ctx.db
      .selectFrom('sys_user')
      .select(['id', 'area', 'area_code', 'street', 'street_code', 'community', 'community_code', 'wangge'])
      .where('account', '=', account)
      .executeTakeFirstOrThrow();

  it('moves a community under another street: its users and those below get the new street', async () => {
    const s1 = ids['310101002'] as number;
    const s2 = ids['310101013'] as number;
    const community = ids['310101002001'] as number;
    expect(await areaOf('gzlleader')).toMatchObject({
      area: '黄浦区',
      street: '南京东路街道',
      street_code: '310101002',
      community: '贵州路居民委员会',
      community_code: '310101002001',
    });
    // An admin typed gzlstaff's street by hand: that entry is theirs and stays.
    const gzlstaff = await areaOf('gzlstaff');
    await ok(admin, 'POST', '/api/sysUser/update', {
      id: gzlstaff.id,
      street: '手填街道',
      streetCode: 'X-1',
    });

    await ok(admin, 'POST', '/api/sysOrg/update', { id: community, pid: s2 });
    expect(await areaOf('gzlleader')).toMatchObject({
      area: '黄浦区',
      street: '外滩街道',
      street_code: '310101013',
      community: '贵州路居民委员会',
      community_code: '310101002001',
    });
    // A user of a grid below the community follows too.
    expect(await areaOf('gridstaff')).toMatchObject({
      street: '外滩街道',
      street_code: '310101013',
      community: '贵州路居民委员会',
      wangge: '第一网格',
    });
    expect(await areaOf('gzlstaff')).toMatchObject({
      street: '手填街道',
      street_code: 'X-1',
      community: '贵州路居民委员会',
    });
    // Users of the street it left keep theirs.
    expect(await areaOf('njdlstaff')).toMatchObject({ street: '南京东路街道', street_code: '310101002' });

    await ok(admin, 'POST', '/api/sysOrg/update', { id: community, pid: s1 });
    expect(await areaOf('gzlleader')).toMatchObject({ street: '南京东路街道', street_code: '310101002' });
    expect(await areaOf('gridstaff')).toMatchObject({ street: '南京东路街道', street_code: '310101002' });
  });

  it('renames a street and recodes a community: users below get the new name and code', async () => {
    const street = ids['310101002'] as number;
    const community = ids['310101002001'] as number;
    const gzl = (await login(t.app, 'gzlleader')).accessToken;
    type Info = { street: string; streetCode: string };
    expect((await ok<Info>(gzl, 'GET', '/api/sysAuth/userInfo')).street).toBe('南京东路街道');
    await ok(admin, 'POST', '/api/sysOrg/update', { id: street, name: '南京东路街道（新）' });
    for (const account of ['njdleader', 'njdlstaff', 'gzlleader', 'gridstaff']) {
      expect(await areaOf(account), account).toMatchObject({
        area: '黄浦区',
        street: '南京东路街道（新）',
        street_code: '310101002',
      });
    }
    // The district's own users are above the street: untouched.
    expect((await areaOf('hpleader')).street).toBeNull();
    // The signed-in user's info follows at once (the userInfo cache was dropped).
    expect(await ok<Info>(gzl, 'GET', '/api/sysAuth/userInfo')).toMatchObject({
      street: '南京东路街道（新）',
      streetCode: '310101002',
    });

    await ok(admin, 'POST', '/api/sysOrg/update', { id: community, regionCode: '310101002901' });
    expect(await areaOf('gridstaff')).toMatchObject({
      community: '贵州路居民委员会',
      community_code: '310101002901',
    });
    await ok(admin, 'POST', '/api/sysOrg/update', {
      id: community,
      regionCode: '310101002001',
    });
    await ok(admin, 'POST', '/api/sysOrg/update', { id: street, name: '南京东路街道' });
    expect(await areaOf('gzlleader')).toMatchObject({
      street: '南京东路街道',
      community_code: '310101002001',
    });
  });
});
