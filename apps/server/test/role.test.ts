import type { PageResult } from '@shuzhi/contracts/envelope';
import type { MenuNode } from '@shuzhi/contracts/menu';
import type { RoleMenuNode, RoleOption, RoleRow } from '@shuzhi/contracts/role';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetDataScope } from '../src/platform/access/data-scope.ts';
import { forgetUserSessions } from '../src/platform/auth/sessions.ts';
import { apiCalls, body, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let superadmin: string;
let admin: string;
let staff: string; // fgwstaff: role `staff` (scope 3, 区发展和改革委员会), later also the test role manager role

const { call, ok, code } = apiCalls(() => t.app);

const flatten = (nodes: RoleMenuNode[]): RoleMenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

async function userId(account: string): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
  return row.id;
}
async function orgId(orgCode: string): Promise<number> {
  const row = await t.app.ctx.db
    .selectFrom('sys_org')
    .select('id')
    .where('code', '=', orgCode)
    .executeTakeFirstOrThrow();
  return row.id;
}
async function roleByCode(roleCode: string): Promise<RoleRow> {
  const page = await ok<PageResult<RoleRow>>(superadmin, 'POST', '/api/sysRole/page', {
    code: roleCode,
    pageSize: 100,
  });
  const row = page.items.find((r) => r.code === roleCode);
  if (!row) throw new Error(`no role ${roleCode}`);
  return row;
}
async function menuIds(where: { names?: string[]; permissions?: string[] }): Promise<number[]> {
  let query = t.app.ctx.db.selectFrom('sys_menu').select('id').where('is_delete', '=', 0);
  query = query.where((eb) =>
    eb.or([
      ...(where.names?.length ? [eb('name', 'in', where.names)] : []),
      ...(where.permissions?.length ? [eb('permission', 'in', where.permissions)] : []),
    ]),
  );
  return (await query.execute()).map((r) => r.id);
}
/** Gives a seeded user a role directly (the users admin is not under test here), dropping their caches. */
async function holdRole(account: string, roleId: number) {
  const uid = await userId(account);
  await t.app.ctx.db
    .insertInto('sys_user_role')
    .values({ id: t.app.ctx.newId(), user_id: uid, role_id: roleId })
    .execute();
  await forgetUserSessions(t.app.ctx, uid);
  await forgetDataScope(t.app.ctx, uid);
}

beforeAll(async () => {
  t = await createTestApp();
  superadmin = (await login(t.app, 'superadmin')).accessToken;
  admin = (await login(t.app, 'admin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

describe('role access', () => {
  it('declares a permission on every role route and refuses callers without it', async () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysRole/') && r.method !== 'HEAD');
    for (const r of routes) expect(r.access, `${r.method} ${r.url}`).toMatch(/^sysRole:/);
    const urls = new Set(routes.map((r) => r.url));
    for (const action of [
      'page',
      'list',
      'detail',
      'add',
      'update',
      'delete',
      'setStatus',
      'export',
      'grantMenu',
      'ownMenuList',
      'grantDataScope',
      'ownOrgList',
      'menuTree',
    ]) {
      expect(urls.has(`/api/sysRole/${action}`), action).toBe(true);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/sysRole/list' })).statusCode).toBe(401);
    expect((await call(staff, 'POST', '/api/sysRole/page', {})).statusCode).toBe(403);
    expect((await call(staff, 'GET', '/api/sysRole/menuTree')).statusCode).toBe(403);
  });
});

describe('role CRUD', () => {
  it('adds, finds, updates, exports and deletes a role; codes are unique per tenant', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysRole/add', {
      code: 'qc_inspector',
      name: '质检员',
      remark: '测试',
    });
    const detail = await ok<RoleRow>(admin, 'GET', `/api/sysRole/detail?Id=${id}`);
    // A new role starts with the least data scope and no menus.
    expect(detail).toMatchObject({
      code: 'qc_inspector',
      name: '质检员',
      dataScope: 4,
      status: 1,
      orderNo: 100,
    });
    expect(await ok<number[]>(admin, 'GET', `/api/sysRole/ownMenuList?id=${id}`)).toEqual([]);

    expect(await code(admin, 'POST', '/api/sysRole/add', { code: 'qc_inspector', name: 'x' })).toBe('D1006');
    const invalid = body(await call(admin, 'POST', '/api/sysRole/add', { code: '1bad code', name: '' }));
    expect(invalid.code).toBe(400);

    const page = await ok<PageResult<RoleRow>>(admin, 'POST', '/api/sysRole/page', { name: '质检' });
    expect(page.items.map((r) => r.code)).toEqual(['qc_inspector']);
    const byCode = await ok<PageResult<RoleRow>>(admin, 'POST', '/api/sysRole/page', { code: 'sys_' });
    expect(byCode.items.map((r) => r.code).sort()).toEqual(
      ['sys_admin', 'sys_dept', 'sys_deptChild', 'sys_define', 'sys_self'].sort(),
    );
    const sorted = await ok<PageResult<RoleRow>>(admin, 'POST', '/api/sysRole/page', {
      field: 'orderNo',
      order: 'ascend',
      pageSize: 3,
    });
    expect(sorted.items[0]?.code).toBe('sys_admin');

    const list = await ok<RoleOption[]>(admin, 'GET', '/api/sysRole/list');
    expect(list[0]).toEqual({
      id: expect.any(Number),
      code: 'sys_admin',
      name: '系统管理员',
      dataScope: 1,
      status: 1,
    });
    expect(list.some((r) => r.id === id)).toBe(true);

    await ok(admin, 'POST', '/api/sysRole/update', { id, name: '质量检查员', orderNo: 50 });
    expect(await ok<RoleRow>(admin, 'GET', `/api/sysRole/detail?Id=${id}`)).toMatchObject({
      name: '质量检查员',
      orderNo: 50,
      code: 'qc_inspector',
    });
    expect(await code(admin, 'POST', '/api/sysRole/update', { id, code: 'sys_dept' })).toBe('D1006');

    await ok(admin, 'POST', '/api/sysRole/setStatus', { id, status: 2 });
    const disabled = await ok<PageResult<RoleRow>>(admin, 'POST', '/api/sysRole/page', { status: 2 });
    expect(disabled.items.map((r) => r.id)).toEqual([id]);

    const xlsx = await call(admin, 'POST', '/api/sysRole/export', { code: 'qc_' });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');

    await ok(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: await menuIds({ names: ['home'] }) });
    await ok(admin, 'POST', '/api/sysRole/delete', { id });
    expect(await code(admin, 'GET', `/api/sysRole/detail?Id=${id}`)).toBe('D1002');
    const links = await t.app.ctx.db
      .selectFrom('sys_role_menu')
      .select('id')
      .where('role_id', '=', id)
      .execute();
    expect(links).toEqual([]);
    // The code is free again once the role is deleted (partial unique index on live rows).
    const again = await ok<number>(admin, 'POST', '/api/sysRole/add', {
      code: 'qc_inspector',
      name: '质检员',
    });
    await ok(admin, 'POST', '/api/sysRole/delete', { id: again });
  });

  it('keeps the tenant administrator role: no delete (D1019), no disable, no re-coding', async () => {
    const sysAdmin = await roleByCode('sys_admin');
    expect(await code(admin, 'POST', '/api/sysRole/delete', { id: sysAdmin.id })).toBe('D1019');
    expect(await code(superadmin, 'POST', '/api/sysRole/delete', { id: sysAdmin.id })).toBe('D1019');
    expect(await code(admin, 'POST', '/api/sysRole/setStatus', { id: sysAdmin.id, status: 2 })).toBe('D1019');
    expect(await code(admin, 'POST', '/api/sysRole/update', { id: sysAdmin.id, code: 'boss' })).toBe('D1019');
    await ok(admin, 'POST', '/api/sysRole/update', { id: sysAdmin.id, remark: '租户管理员' });
    expect((await roleByCode('sys_admin')).status).toBe(1);
  });

  it('refuses to delete a role users still hold (D1008)', async () => {
    const staffRole = await roleByCode('staff');
    expect(await code(admin, 'POST', '/api/sysRole/delete', { id: staffRole.id })).toBe('D1008');
    expect(await code(admin, 'GET', `/api/sysRole/detail?Id=${staffRole.id}`)).toBe(200);
  });

  it('never shows or changes another tenant’s roles to a tenant admin', async () => {
    const foreign = t.app.ctx.newId();
    await t.app.ctx.db
      .insertInto('sys_role')
      .values({
        id: foreign,
        tenant_id: 424242,
        code: 'foreign_role',
        name: '他租户角色',
        data_scope: 4,
        order_no: 1,
        status: 1,
        remark: null,
        create_time: '2026-01-01 00:00:00',
        update_time: null,
        create_user_id: null,
        create_user_name: null,
        update_user_id: null,
        update_user_name: null,
        is_delete: 0,
      })
      .execute();
    const page = await ok<PageResult<RoleRow>>(admin, 'POST', '/api/sysRole/page', { code: 'foreign' });
    expect(page.total).toBe(0);
    for (const [method, url, payload] of [
      ['GET', `/api/sysRole/detail?Id=${foreign}`, undefined],
      ['GET', `/api/sysRole/ownMenuList?id=${foreign}`, undefined],
      ['POST', '/api/sysRole/grantMenu', { id: foreign, menuIdList: [] }],
      ['POST', '/api/sysRole/grantDataScope', { id: foreign, dataScope: 3 }],
      ['POST', '/api/sysRole/delete', { id: foreign }],
    ] as const) {
      expect(await code(admin, method, url, payload), url).toBe('D1002');
    }
    // The super admin sees across tenants.
    expect(await code(superadmin, 'GET', `/api/sysRole/detail?Id=${foreign}`)).toBe(200);
  });
});

describe('menu grants', () => {
  it('offers the super admin every enabled menu and the tenant admin the tenant’s menus', async () => {
    const all = flatten(await ok<RoleMenuNode[]>(superadmin, 'GET', '/api/sysRole/menuTree'));
    const enabled = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('is_delete', '=', 0)
      .where('status', '=', 1)
      .execute();
    expect(all.length).toBeGreaterThan(20);
    expect(all.length).toBeLessThanOrEqual(enabled.length);
    const role = all.find((n) => n.name === 'sysRole');
    expect(role).toMatchObject({ type: 2, title: '角色管理' });
    expect(role?.children.map((c) => c.permission)).toContain('sysRole:grantMenu');
    expect(role?.children.every((c) => c.type === 3 && c.children.length === 0)).toBe(true);
    const adminTree = flatten(await ok<RoleMenuNode[]>(admin, 'GET', '/api/sysRole/menuTree'));
    const tenantMenus = new Set(
      (await t.app.ctx.db.selectFrom('sys_tenant_menu').select('menu_id').execute()).map((r) => r.menu_id),
    );
    const allIds = new Set(all.map((n) => n.id));
    expect(adminTree.length).toBeGreaterThan(20);
    // The tenant's enabled menus and the directories that lead to them, nothing else.
    for (const n of adminTree) {
      expect(allIds.has(n.id)).toBe(true);
      expect(tenantMenus.has(n.id) || n.children.length > 0).toBe(true);
    }
    for (const n of all) if (tenantMenus.has(n.id)) expect(adminTree.some((a) => a.id === n.id)).toBe(true);
    // Disabled menus are not on offer.
    const disabled = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('status', '=', 2)
      .executeTakeFirstOrThrow();
    expect(all.some((n) => n.id === disabled.id)).toBe(false);
  });

  it('stores a granted button with its page and directory, and keeps grants of disabled menus', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysRole/add', { code: 'viewer', name: '查看员' });
    const [button] = await menuIds({ permissions: ['sysOrg:page'] });
    const [page] = await menuIds({ names: ['sysOrg'] });
    const [dir] = await menuIds({ names: ['system'] });
    const disabledMenu = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('status', '=', 2)
      .where('type', '=', 2)
      .executeTakeFirstOrThrow();
    // A grant from before the menu was switched off (as the seed does for pages not built yet).
    await t.app.ctx.db
      .insertInto('sys_role_menu')
      .values({ id: t.app.ctx.newId(), role_id: id, menu_id: disabledMenu.id })
      .execute();

    await ok(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: [button] });
    const own = await ok<number[]>(admin, 'GET', `/api/sysRole/ownMenuList?Id=${id}`);
    expect(own.sort()).toEqual([button, page, dir, disabledMenu.id].sort());
    // Sending the kept grant back (as ownMenuList listed it) is fine; granting another disabled menu is not.
    await ok(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: own });
    const otherDisabled = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('status', '=', 2)
      .where('id', '!=', disabledMenu.id)
      .executeTakeFirstOrThrow();
    expect(
      await code(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: [button, otherDisabled.id] }),
    ).toBe('D1007');
    expect(await code(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: [987654321] })).toBe(
      'D1007',
    );
    // Clearing the grants clears what the admin can see; the rest stays.
    await ok(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: [] });
    expect(await ok<number[]>(admin, 'GET', `/api/sysRole/ownMenuList?id=${id}`)).toEqual([disabledMenu.id]);
    expect(body(await call(admin, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: ['x'] })).code).toBe(
      400,
    );
  });

  it('applies a grant to a holder on their very next request, without signing in again', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysRole/add', { code: 'org_reader', name: '机构查看' });
    await holdRole('scjgclerk', id);
    const clerk = (await login(t.app, 'scjgclerk')).accessToken;
    // Warm every cache the request path uses.
    expect((await call(clerk, 'POST', '/api/sysRole/page', {})).statusCode).toBe(403);
    const menusBefore = await ok<MenuNode[]>(clerk, 'GET', '/api/sysMenu/loginMenuTree');
    expect(JSON.stringify(menusBefore)).not.toContain('"sysRole"');
    const buttonsBefore = await ok<string[]>(clerk, 'GET', '/api/sysMenu/ownBtnPermList');
    expect(buttonsBefore).not.toContain('sysRole:page');

    await ok(admin, 'POST', '/api/sysRole/grantMenu', {
      id,
      menuIdList: await menuIds({ permissions: ['sysRole:page', 'sysRole:list'] }),
    });
    expect((await call(clerk, 'POST', '/api/sysRole/page', {})).statusCode).toBe(200);
    expect(await ok<string[]>(clerk, 'GET', '/api/sysMenu/ownBtnPermList')).toContain('sysRole:page');
    const menusAfter = await ok<MenuNode[]>(clerk, 'GET', '/api/sysMenu/loginMenuTree');
    const system = menusAfter.find((m) => m.name === 'system');
    expect(system?.children.map((c) => c.name)).toContain('sysRole');

    // Disabling the role takes it away again at once; enabling gives it back.
    await ok(admin, 'POST', '/api/sysRole/setStatus', { id, status: 2 });
    expect((await call(clerk, 'POST', '/api/sysRole/page', {})).statusCode).toBe(403);
    await ok(admin, 'POST', '/api/sysRole/setStatus', { id, status: 1 });
    expect((await call(clerk, 'POST', '/api/sysRole/page', {})).statusCode).toBe(200);
  });
});

describe('data scope grants', () => {
  it('lets only the super admin grant scope 1 (D1016); custom orgs are stored for 5 only', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysRole/add', { code: 'scoped', name: '范围测试' });
    expect(await code(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 1 })).toBe('D1016');
    await ok(superadmin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 1 });
    expect((await ok<RoleRow>(admin, 'GET', `/api/sysRole/detail?Id=${id}`)).dataScope).toBe(1);
    // A role that has scope 1 may be saved with it again (nothing new is granted).
    await ok(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 1 });

    const orgs = [await orgId('310101002'), await orgId('HPQ-TJJ')];
    await ok(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 5, orgIdList: orgs });
    expect((await ok<number[]>(admin, 'GET', `/api/sysRole/ownOrgList?id=${id}`)).sort()).toEqual(
      orgs.sort(),
    );
    expect((await ok<RoleRow>(admin, 'GET', `/api/sysRole/detail?Id=${id}`)).dataScope).toBe(5);
    expect(
      await code(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 5, orgIdList: [987654321] }),
    ).toBe('D1002');
    await ok(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 3, orgIdList: orgs });
    expect(await ok<number[]>(admin, 'GET', `/api/sysRole/ownOrgList?Id=${id}`)).toEqual([]);
    expect(body(await call(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 6 })).code).toBe(
      400,
    );
    expect(body(await call(admin, 'GET', '/api/sysRole/ownOrgList')).code).toBe(400);
  });

  it('changes a holder’s data scope on their next request', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysRole/add', { code: 'scope_probe', name: '范围探针' });
    await holdRole('mzjchief', id);
    const { dataScopeOf } = await import('../src/platform/access/data-scope.ts');
    const subject = await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['id', 'tenant_id', 'account_type', 'org_id'])
      .where('account', '=', 'mzjchief')
      .executeTakeFirstOrThrow();
    const scopeOf = () =>
      dataScopeOf(t.app.ctx, {
        userId: subject.id,
        tenantId: subject.tenant_id,
        accountType: subject.account_type,
        orgId: subject.org_id,
      });
    const before = await scopeOf();
    const yuyuan = await orgId('310101018');
    expect(before.orgIds).not.toContain(yuyuan);
    await ok(admin, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 5, orgIdList: [yuyuan] });
    expect((await scopeOf()).orgIds).toContain(yuyuan);
  });
});

describe('a role manager who is not an admin', () => {
  let managerRole: number;
  let manager: string;

  beforeAll(async () => {
    managerRole = await ok<number>(admin, 'POST', '/api/sysRole/add', {
      code: 'role_mgr',
      name: '角色管理员',
    });
    await ok(admin, 'POST', '/api/sysRole/grantMenu', {
      id: managerRole,
      menuIdList: await menuIds({
        permissions: [
          'sysRole:page',
          'sysRole:list',
          'sysRole:detail',
          'sysRole:add',
          'sysRole:update',
          'sysRole:grantMenu',
          'sysRole:grantDataScope',
        ],
      }),
    });
    await holdRole('fgwstaff', managerRole);
    manager = staff;
  });

  it('may grant only menus they hold themselves (D1007)', async () => {
    const tree = flatten(await ok<RoleMenuNode[]>(manager, 'GET', '/api/sysRole/menuTree'));
    const perms = new Set(tree.map((n) => n.permission).filter(Boolean));
    expect(perms.has('sysRole:grantMenu')).toBe(true);
    expect(perms.has('sysRole:delete')).toBe(false);
    expect(perms.has('sysUser:add')).toBe(false);
    // Their own role `staff` gives the home page; directories of granted pages come along.
    expect(tree.some((n) => n.name === 'home')).toBe(true);
    expect(tree.some((n) => n.name === 'system')).toBe(true);

    const id = await ok<number>(manager, 'POST', '/api/sysRole/add', { code: 'mgr_made', name: '下级角色' });
    const [deleteButton] = await menuIds({ permissions: ['sysRole:delete'] });
    expect(await code(manager, 'POST', '/api/sysRole/grantMenu', { id, menuIdList: [deleteButton] })).toBe(
      'D1007',
    );
    await ok(manager, 'POST', '/api/sysRole/grantMenu', {
      id,
      menuIdList: await menuIds({ permissions: ['sysRole:page'] }),
    });
  });

  it('grants custom orgs only within their own orgs (D1009), never scope 1 (D1016)', async () => {
    const id = await ok<number>(manager, 'POST', '/api/sysRole/add', { code: 'mgr_scope', name: '下级范围' });
    const own = await orgId('HPQ-FGW');
    const foreign = await orgId('HPQ-TJJ');
    expect(await code(manager, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 1 })).toBe('D1016');
    expect(
      await code(manager, 'POST', '/api/sysRole/grantDataScope', {
        id,
        dataScope: 5,
        orgIdList: [own, foreign],
      }),
    ).toBe('D1009');
    await ok(manager, 'POST', '/api/sysRole/grantDataScope', { id, dataScope: 5, orgIdList: [own] });
    expect(await ok<number[]>(manager, 'GET', `/api/sysRole/ownOrgList?id=${id}`)).toEqual([own]);
  });

  it('sees the roles they hold and those created in their row scope, no others', async () => {
    // A role created by a colleague of the same org (区发展和改革委员会) is in scope, one by 统计局 is not.
    const colleague = await userId('fgwleader');
    const outsider = await userId('tjjdirector');
    const insert = async (roleCode: string, creator: number) =>
      t.app.ctx.db
        .insertInto('sys_role')
        .values({
          id: t.app.ctx.newId(),
          tenant_id: (await roleByCode('staff')).tenantId,
          code: roleCode,
          name: roleCode,
          data_scope: 4,
          order_no: 100,
          status: 1,
          remark: null,
          create_time: '2026-01-01 00:00:00',
          update_time: null,
          create_user_id: creator,
          create_user_name: null,
          update_user_id: null,
          update_user_name: null,
          is_delete: 0,
        })
        .execute();
    await insert('by_colleague', colleague);
    await insert('by_outsider', outsider);
    const page = await ok<PageResult<RoleRow>>(manager, 'POST', '/api/sysRole/page', { pageSize: 100 });
    const codes = page.items.map((r) => r.code).sort();
    expect(codes).toEqual(['by_colleague', 'mgr_made', 'mgr_scope', 'role_mgr', 'staff'].sort());
    const list = await ok<RoleOption[]>(manager, 'GET', '/api/sysRole/list');
    expect(list.map((r) => r.code).sort()).toEqual(codes);
    const sysDefine = await roleByCode('sys_define');
    expect(await code(manager, 'GET', `/api/sysRole/detail?Id=${sysDefine.id}`)).toBe('D1002');
    expect(await code(manager, 'POST', '/api/sysRole/grantMenu', { id: sysDefine.id, menuIdList: [] })).toBe(
      'D1002',
    );
    // The admin sees every role of the tenant.
    const all = await ok<PageResult<RoleRow>>(admin, 'POST', '/api/sysRole/page', { pageSize: 100 });
    expect(all.items.map((r) => r.code)).toEqual(expect.arrayContaining(['by_outsider', 'sys_define']));
  });
});
