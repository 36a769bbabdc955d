import type { MenuNode, MenuRow } from '@shuzhi/contracts/menu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, createTestApp, login, type Method, type TestApp } from './helpers.ts';

let t: TestApp;
let root: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  root = (await login(t.app, 'superadmin')).accessToken;
  admin = (await login(t.app, 'admin')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const { call, envelope: env, ok, code: codeOf } = apiCalls(() => t.app);

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);
const add = (payload: object) => ok<number>(root, 'POST', '/api/sysMenu/add', payload);
const addCode = (payload: object) => codeOf(root, 'POST', '/api/sysMenu/add', payload);

async function idOf(name: string, type = 2): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_menu')
    .select('id')
    .where('name', '=', name)
    .where('type', '=', type)
    .where('is_delete', '=', 0)
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('menu administration access', () => {
  it('declares sysMenu permissions and keeps writes to the super admin', async () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysMenu/') && r.method !== 'HEAD');
    for (const r of routes) {
      if (['/api/sysMenu/loginMenuTree', '/api/sysMenu/ownBtnPermList'].includes(r.url)) {
        expect(r.access).toBe('loggedIn');
      } else {
        expect(r.access, `${r.method} ${r.url}`).toMatch(
          /^sysMenu:(list|detail|add|update|delete|setStatus|export)$/,
        );
      }
    }
    const id = await idOf('sysConfig');
    const requests: [Method, string, unknown?][] = [
      ['GET', '/api/sysMenu/list'],
      ['GET', `/api/sysMenu/detail?Id=${id}`],
      ['POST', '/api/sysMenu/add', { type: 1, name: 'x', title: 'x' }],
      ['POST', '/api/sysMenu/update', { id, title: 'x' }],
      ['POST', '/api/sysMenu/delete', { id }],
      ['POST', '/api/sysMenu/setStatus', { id, status: 2 }],
      ['POST', '/api/sysMenu/export', {}],
    ];
    for (const [method, url, payload] of requests) {
      expect((await call(admin, method, url, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses writes by anyone but the super admin even with the permission', async () => {
    const db = t.app.ctx.db;
    const buttons = await db
      .selectFrom('sys_menu')
      .select(['id', 'permission'])
      .where('permission', 'in', ['sysMenu:list', 'sysMenu:update', 'sysMenu:setStatus'])
      .execute();
    const tenant = await db.selectFrom('sys_tenant').select('id').executeTakeFirstOrThrow();
    for (const b of buttons) {
      await db
        .insertInto('sys_tenant_menu')
        .values({ id: t.app.ctx.newId(), tenant_id: tenant.id, menu_id: b.id })
        .execute();
    }
    try {
      const token = (await login(t.app, 'admin')).accessToken;
      const id = await idOf('sysConfig');
      // Reading is what the permission gives; changing the global menus is not.
      expect((await ok<MenuNode[]>(token, 'GET', '/api/sysMenu/list')).length).toBeGreaterThan(0);
      expect((await call(token, 'POST', '/api/sysMenu/update', { id, title: 'x' })).statusCode).toBe(403);
      expect((await call(token, 'POST', '/api/sysMenu/setStatus', { id, status: 2 })).statusCode).toBe(403);
      const row = await ok<MenuRow>(root, 'GET', `/api/sysMenu/detail?Id=${id}`);
      expect(row.title).toBe('参数配置');
      expect(row.status).toBe(1);
    } finally {
      await db
        .deleteFrom('sys_tenant_menu')
        .where(
          'menu_id',
          'in',
          buttons.map((b) => b.id),
        )
        .execute();
    }
  });
});

describe('menu list', () => {
  it('answers the whole tree with buttons and disabled nodes, ordered', async () => {
    const tree = await ok<MenuNode[]>(root, 'GET', '/api/sysMenu/list');
    const nodes = flatten(tree);
    const count = await t.app.ctx.db.selectFrom('sys_menu').select('id').where('is_delete', '=', 0).execute();
    expect(nodes.length).toBe(count.length);
    expect(nodes.some((n) => n.type === 3)).toBe(true);
    expect(nodes.some((n) => n.status === 2)).toBe(true);
    for (const n of nodes) {
      for (let i = 1; i < n.children.length; i++) {
        const a = n.children[i - 1] as MenuNode;
        const b = n.children[i] as MenuNode;
        expect(a.orderNo < b.orderNo || (a.orderNo === b.orderNo && a.id < b.id)).toBe(true);
      }
    }
    const system = nodes.find((n) => n.name === 'system');
    expect(system?.children.map((c) => c.name)).toContain('sysTenant');
    const tenant = nodes.find((n) => n.name === 'sysTenant');
    expect(tenant?.children.map((c) => c.permission)).toContain('sysTenant:grantMenu');
    expect(tenant?.meta).toMatchObject({ title: '租户管理', icon: 'ClusterOutlined', isHide: false });
  });

  it('filters by title and type, keeping the ancestors', async () => {
    const byTitle = flatten(
      await ok<MenuNode[]>(root, 'GET', `/api/sysMenu/list?Title=${encodeURIComponent('租户')}`),
    );
    // The page with its directory and its buttons.
    expect(
      byTitle
        .filter((n) => n.type !== 3)
        .map((n) => n.name)
        .sort(),
    ).toEqual(['sysTenant', 'system']);
    expect(byTitle.filter((n) => n.type === 3).map((n) => n.permission)).toContain('sysTenant:resetPwd');
    expect(byTitle.filter((n) => n.type === 3).every((n) => n.permission?.startsWith('sysTenant:'))).toBe(
      true,
    );
    const tenantPages = flatten(
      await ok<MenuNode[]>(root, 'GET', `/api/sysMenu/list?Type=2&Title=${encodeURIComponent('租户')}`),
    );
    expect(tenantPages.map((n) => n.name).sort()).toEqual(['sysTenant', 'system']);
    const dirs = flatten(await ok<MenuNode[]>(root, 'GET', '/api/sysMenu/list?Type=1'));
    expect(dirs.length).toBeGreaterThan(3);
    expect(dirs.every((n) => n.type === 1)).toBe(true);
    const buttons = flatten(
      await ok<MenuNode[]>(root, 'GET', `/api/sysMenu/list?Type=3&Title=${encodeURIComponent('授权')}`),
    );
    expect(buttons.filter((n) => n.type === 3).map((n) => n.permission)).toEqual(
      expect.arrayContaining(['sysTenant:grantMenu', 'sysRole:grantMenu']),
    );
    expect(buttons.filter((n) => n.type !== 3).every((n) => n.children.length > 0)).toBe(true);
    expect(await ok<MenuNode[]>(root, 'GET', '/api/sysMenu/list?Title=nothing-like-this')).toEqual([]);
    expect(await codeOf(root, 'GET', '/api/sysMenu/list?Type=9')).toBe(400);
    // Empty search boxes mean no filter.
    expect(
      flatten(await ok<MenuNode[]>(root, 'GET', '/api/sysMenu/list?Title=&Type=')).length,
    ).toBeGreaterThan(100);
  });
});

describe('menu writes', () => {
  let dirId: number;
  let pageId: number;
  let buttonId: number;

  it('adds a directory, a page and a button with their meta flags', async () => {
    dirId = await add({
      type: 1,
      name: 'testDir',
      title: '测试目录',
      path: '/test',
      icon: 'AppstoreOutlined',
      orderNo: 90,
    });
    pageId = await add({
      pid: dirId,
      type: 2,
      name: 'testPage',
      title: '测试页',
      path: '/test/page',
      component: '/test/page/index',
      icon: 'FileOutlined',
      isKeepAlive: true,
      isAffix: 1,
      isHide: false,
      isIframe: 0,
      outLink: '',
    });
    buttonId = await add({
      pid: pageId,
      type: 3,
      name: 'sysConfig:page',
      title: '查询',
      permission: 'sysConfig:page',
    });

    const dir = await ok<MenuRow>(root, 'GET', `/api/sysMenu/detail?Id=${dirId}`);
    expect(dir).toMatchObject({ type: 1, component: 'Layout', permission: null, status: 1, orderNo: 90 });
    const page = await ok<MenuRow>(root, 'GET', `/api/sysMenu/${pageId}`);
    expect(page).toMatchObject({
      pid: dirId,
      component: '/test/page/index',
      isKeepAlive: 1,
      isAffix: 1,
      isHide: 0,
      outLink: null,
    });
    const button = await ok<MenuRow>(root, 'GET', `/api/sysMenu/detail?Id=${buttonId}`);
    expect(button).toMatchObject({ pid: pageId, type: 3, permission: 'sysConfig:page', component: null });

    // The super admin sees the new page on the next request (trees are forgotten).
    const tree = flatten(await ok<MenuNode[]>(root, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(tree.find((n) => n.name === 'testPage')).toMatchObject({
      pid: dirId,
      meta: { title: '测试页', isKeepAlive: true, isAffix: true },
    });
  });

  it('enforces the tree rules: parent type (D4002), catalogue (D4001), names (D1006), parent exists (D1002)', async () => {
    const sysConfig = await idOf('sysConfig');
    expect(await addCode({ pid: dirId, type: 3, name: 'b1', title: 'b', permission: 'sysConfig:page' })).toBe(
      'D4002',
    );
    expect(await addCode({ type: 3, name: 'b1', title: 'b', permission: 'sysConfig:page' })).toBe('D4002');
    expect(await addCode({ pid: pageId, type: 2, name: 'p1', title: 'p' })).toBe('D4002');
    expect(await addCode({ pid: buttonId, type: 2, name: 'p1', title: 'p' })).toBe('D4002');
    expect(await addCode({ pid: pageId, type: 1, name: 'd1', title: 'd' })).toBe('D4002');

    const bogus = await env(root, 'POST', '/api/sysMenu/add', {
      pid: pageId,
      type: 3,
      name: 'sysConfig:fly',
      title: 'x',
      permission: 'sysConfig:fly',
    });
    expect(bogus.code).toBe('D4001');
    expect(bogus.message).toContain('sysConfig:fly');
    expect(await addCode({ pid: pageId, type: 3, name: 'b2', title: 'x' })).toBe('D4001');

    // Route names are unique; a button's name may repeat on another page, not on the same one.
    expect(await addCode({ pid: dirId, type: 2, name: 'sysConfig', title: 'x' })).toBe('D1006');
    expect(await addCode({ type: 1, name: 'testPage', title: 'x' })).toBe('D1006');
    expect(
      await addCode({
        pid: pageId,
        type: 3,
        name: 'sysConfig:page',
        title: 'x',
        permission: 'sysConfig:page',
      }),
    ).toBe('D1006');
    await add({
      pid: sysConfig,
      type: 3,
      name: 'sysRegion:page',
      title: 'x',
      permission: 'sysRegion:page',
    }).then((id) => ok(root, 'POST', '/api/sysMenu/delete', { id }));

    expect(await addCode({ pid: 987654321, type: 2, name: 'p9', title: 'x' })).toBe('D1002');
    const invalid = await env(root, 'POST', '/api/sysMenu/add', { type: 4, name: '', title: '' });
    expect(invalid.code).toBe(400);
    expect(Object.keys(invalid.errors ?? {})).toEqual(expect.arrayContaining(['type', 'name', 'title']));
  });

  it('updates: no moving under itself or below (D2002), children must fit a new type (D4002)', async () => {
    const sub = await add({ pid: dirId, type: 1, name: 'testSub', title: '子目录' });
    expect(await codeOf(root, 'POST', '/api/sysMenu/update', { id: dirId, pid: dirId })).toBe('D2002');
    expect(await codeOf(root, 'POST', '/api/sysMenu/update', { id: dirId, pid: sub })).toBe('D2002');
    expect(await codeOf(root, 'POST', '/api/sysMenu/update', { id: pageId, type: 1 })).toBe('D4002');
    expect(await codeOf(root, 'POST', '/api/sysMenu/update', { id: dirId, type: 2 })).toBe('D4002');
    expect(await codeOf(root, 'POST', '/api/sysMenu/update', { id: buttonId, permission: 'nope:x' })).toBe(
      'D4001',
    );
    expect(await codeOf(root, 'POST', '/api/sysMenu/update', { id: sub, name: 'testPage' })).toBe('D1006');
    // Moving the sub-directory to the root and back is fine.
    await ok(root, 'POST', '/api/sysMenu/update', { id: sub, pid: 0 });
    await ok(root, 'PUT', '/api/sysMenu/update', { id: sub, pid: dirId, title: '子目录二' });
    expect((await ok<MenuRow>(root, 'GET', `/api/sysMenu/detail?Id=${sub}`)).title).toBe('子目录二');
    await ok(root, 'POST', '/api/sysMenu/delete', { id: sub });
  });

  it('shows edits, status changes and deletions to signed-in users at once', async () => {
    const sysNotice = await idOf('sysNotice');
    // The tenant admin holds 通知公告: a new title shows in their tree on the next request.
    const before = flatten(await ok<MenuNode[]>(admin, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(before.find((n) => n.id === sysNotice)?.meta.title).toBe('通知公告');
    await ok(root, 'POST', '/api/sysMenu/update', { id: sysNotice, title: '公告通知' });
    const renamed = flatten(await ok<MenuNode[]>(admin, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(renamed.find((n) => n.id === sysNotice)?.meta.title).toBe('公告通知');
    await ok(root, 'POST', '/api/sysMenu/update', { id: sysNotice, title: '通知公告' });

    // Disabling a button takes its permission away from the same token at once.
    const button = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', '=', 'sysNotice:page')
      .executeTakeFirstOrThrow();
    expect((await call(admin, 'POST', '/api/sysNotice/page', {})).statusCode).toBe(200);
    await ok(root, 'POST', '/api/sysMenu/setStatus', { id: button.id, status: 2 });
    expect(await ok<string[]>(admin, 'GET', '/api/sysMenu/ownBtnPermList')).not.toContain('sysNotice:page');
    expect((await call(admin, 'POST', '/api/sysNotice/page', {})).statusCode).toBe(403);
    await ok(root, 'POST', '/api/sysMenu/setStatus', { id: button.id, status: 1 });
    expect((await call(admin, 'POST', '/api/sysNotice/page', {})).statusCode).toBe(200);

    // Disabling a page hides it.
    await ok(root, 'POST', '/api/sysMenu/setStatus', { id: sysNotice, status: 2 });
    const hidden = flatten(await ok<MenuNode[]>(admin, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(hidden.some((n) => n.id === sysNotice)).toBe(false);
    await ok(root, 'POST', '/api/sysMenu/setStatus', { id: sysNotice, status: 1 });
  });

  it('deletes leaves only (D4000), exports', async () => {
    expect(await codeOf(root, 'POST', '/api/sysMenu/delete', { id: pageId })).toBe('D4000');
    expect(await codeOf(root, 'POST', '/api/sysMenu/delete', { id: dirId })).toBe('D4000');
    await ok(root, 'POST', '/api/sysMenu/delete', { id: buttonId });
    await ok(root, 'DELETE', `/api/sysMenu/${pageId}`);
    await ok(root, 'POST', '/api/sysMenu/delete', { id: dirId });
    expect(await codeOf(root, 'GET', `/api/sysMenu/detail?Id=${dirId}`)).toBe('D1002');
    const tree = flatten(await ok<MenuNode[]>(root, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(tree.some((n) => n.name === 'testDir' || n.name === 'testPage')).toBe(false);
    expect(await codeOf(root, 'POST', '/api/sysMenu/delete', { id: 987654321 })).toBe('D1002');

    const res = await call(root, 'POST', '/api/sysMenu/export', { type: 2, title: '管理' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
