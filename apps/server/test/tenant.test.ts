import type { PageResult } from '@shuzhi/contracts/envelope';
import { type MenuNode, PLATFORM_ONLY_MENUS } from '@shuzhi/contracts/menu';
import type { TenantResetPwdResult, TenantRow } from '@shuzhi/contracts/tenant';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../src/db/migrations/migrations.ts';
import { DEFAULT_TENANT_ID, DEMO_DATA, seed } from '../src/db/seeds/seed.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { openDatabase } from '../src/platform/db/db.ts';
import { createIdGenerator } from '../src/platform/db/ids.ts';
import { migrate } from '../src/platform/db/migrator.ts';
import {
  apiCalls,
  body,
  createTestApp,
  createTestEnv,
  DEFAULT_PASSWORD,
  login,
  loginAsIs,
  loginRequest,
  type Method,
  TEST_HASH_COST,
  type TestApp,
} from './helpers.ts';

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
const db = () => t.app.ctx.db;

async function menuIdsByName(...names: string[]) {
  const rows = await db()
    .selectFrom('sys_menu')
    .select(['id', 'name'])
    .where('name', 'in', names)
    .where('type', '!=', 3)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.name, r.id])) as Record<string, number>;
}

async function platformOnlyIds(): Promise<number[]> {
  const pages = Object.values(await menuIdsByName(...PLATFORM_ONLY_MENUS));
  const rows = await db()
    .selectFrom('sys_menu')
    .select('id')
    .where((eb) => eb.or([eb('id', 'in', pages), eb('pid', 'in', pages)]))
    .execute();
  return rows.map((r) => r.id);
}

async function addTenant(code: string, name: string, adminAccount: string): Promise<number> {
  return ok<number>(root, 'POST', '/api/sysTenant/add', { code, name, adminAccount, remark: 'test' });
}

describe('tenant access', () => {
  it('declares a sysTenant permission on every route but the login page picker', () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysTenant/') && r.method !== 'HEAD');
    expect(routes.length).toBeGreaterThanOrEqual(11);
    for (const r of routes) {
      const picker = r.method === 'GET' && r.url === '/api/sysTenant/list';
      expect(r.access, `${r.method} ${r.url}`).toMatch(picker ? /^public$/ : /^sysTenant:/);
    }
    const urls = new Set(routes.map((r) => r.url));
    for (const action of [
      'page',
      'list',
      'detail',
      'add',
      'update',
      'delete',
      'setStatus',
      'grantMenu',
      'ownMenuList',
      'resetPwd',
      'export',
    ]) {
      expect(urls.has(`/api/sysTenant/${action}`), action).toBe(true);
    }
  });

  it('keeps tenant and menu management out of the demo tenant: its admin gets 403', async () => {
    const own = await db()
      .selectFrom('sys_tenant_menu')
      .select('menu_id')
      .where('tenant_id', '=', DEFAULT_TENANT_ID)
      .execute();
    const excluded = new Set(await platformOnlyIds());
    expect(excluded.size).toBeGreaterThan(2);
    expect(own.length).toBeGreaterThan(0);
    expect(own.filter((m) => excluded.has(m.menu_id))).toEqual([]);
    // Nor do the demo tenant's roles hold them.
    const roleMenus = await db().selectFrom('sys_role_menu').select('menu_id').execute();
    expect(roleMenus.filter((m) => excluded.has(m.menu_id))).toEqual([]);

    const tree = flatten(await ok<MenuNode[]>(admin, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(tree.map((n) => n.name)).toContain('sysUser');
    expect(tree.map((n) => n.name)).not.toContain('sysTenant');
    expect(tree.map((n) => n.name)).not.toContain('sysMenu');
    const buttons = await ok<string[]>(admin, 'GET', '/api/sysMenu/ownBtnPermList');
    expect(buttons.some((b) => b.startsWith('sysTenant:') || b.startsWith('sysMenu:'))).toBe(false);

    const requests: [Method, string, unknown?][] = [
      ['POST', '/api/sysTenant/page', {}],
      ['GET', `/api/sysTenant/detail?Id=${DEFAULT_TENANT_ID}`],
      ['POST', '/api/sysTenant/add', { code: 'x1', name: 'x1', adminAccount: 'x1admin' }],
      ['POST', '/api/sysTenant/update', { id: DEFAULT_TENANT_ID, remark: 'x' }],
      ['POST', '/api/sysTenant/delete', { id: DEFAULT_TENANT_ID }],
      ['POST', '/api/sysTenant/setStatus', { id: DEFAULT_TENANT_ID, status: 2 }],
      ['POST', '/api/sysTenant/grantMenu', { id: DEFAULT_TENANT_ID, menuIdList: [] }],
      ['GET', `/api/sysTenant/ownMenuList?id=${DEFAULT_TENANT_ID}`],
      ['POST', '/api/sysTenant/resetPwd', { id: DEFAULT_TENANT_ID }],
      ['POST', '/api/sysTenant/export', {}],
    ];
    for (const [method, url, payload] of requests) {
      const res = await call(admin, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      const anon = await t.app.inject({ method, url, ...(payload ? { payload: payload as object } : {}) });
      expect(anon.statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses a tenant admin even when a role hands them the permission (server-side check)', async () => {
    // Give the demo tenant's menu set the sysTenant buttons by hand: the permission check then passes,
    // the account-type check must not.
    const pageButton = await db()
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', '=', 'sysTenant:page')
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('sys_tenant_menu')
      .values({ id: t.app.ctx.newId(), tenant_id: DEFAULT_TENANT_ID, menu_id: pageButton.id })
      .execute();
    const token = (await login(t.app, 'admin')).accessToken;
    try {
      expect(await ok<string[]>(token, 'GET', '/api/sysMenu/ownBtnPermList')).toContain('sysTenant:page');
      expect((await call(token, 'POST', '/api/sysTenant/page', {})).statusCode).toBe(403);
    } finally {
      await db().deleteFrom('sys_tenant_menu').where('menu_id', '=', pageButton.id).execute();
    }
  });
});

describe('tenant lifecycle', () => {
  let tenantId: number;

  it('creates a tenant with its root org, admin role, admin account and default menus, in one go', async () => {
    tenantId = await addTenant('pudong', '浦东新区', 'pdadmin');
    const row = await ok<TenantRow>(root, 'GET', `/api/sysTenant/detail?Id=${tenantId}`);
    expect(row).toMatchObject({ code: 'pudong', name: '浦东新区', status: 1, remark: 'test' });
    expect(row.orgId).toBeGreaterThan(0);

    const org = await db()
      .selectFrom('sys_org')
      .selectAll()
      .where('id', '=', row.orgId as number)
      .executeTakeFirstOrThrow();
    expect(org).toMatchObject({ tenant_id: tenantId, pid: 0, name: '浦东新区', code: 'pudong', level: 1 });
    expect(org.full_ids).toBe(String(org.id));

    const role = await db()
      .selectFrom('sys_role')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .executeTakeFirstOrThrow();
    expect(role).toMatchObject({ code: 'sys_admin', data_scope: 1, status: 1 });

    const user = await db()
      .selectFrom('sys_user')
      .selectAll()
      .where('account', '=', 'pdadmin')
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      tenant_id: tenantId,
      account_type: 888,
      org_id: org.id,
      is_def_pwd: 1,
      status: 1,
    });
    const link = await db()
      .selectFrom('sys_user_role')
      .select('role_id')
      .where('user_id', '=', user.id)
      .execute();
    expect(link.map((l) => l.role_id)).toEqual([role.id]);

    // Every enabled menu except tenant and menu management with their buttons.
    const excluded = new Set(await platformOnlyIds());
    const enabled = await db()
      .selectFrom('sys_menu')
      .select('id')
      .where('status', '=', 1)
      .where('is_delete', '=', 0)
      .execute();
    const expected = enabled.map((m) => m.id).filter((id) => !excluded.has(id));
    const own = await ok<number[]>(root, 'GET', `/api/sysTenant/ownMenuList?id=${tenantId}`);
    expect([...own].sort()).toEqual([...expected].sort());
  });

  it('refuses duplicates (D1006) and bad input (400) without writing anything', async () => {
    const counts = async () => ({
      tenants: (await db().selectFrom('sys_tenant').select('id').execute()).length,
      orgs: (await db().selectFrom('sys_org').select('id').execute()).length,
      users: (await db().selectFrom('sys_user').select('id').execute()).length,
      roles: (await db().selectFrom('sys_role').select('id').execute()).length,
      links: (await db().selectFrom('sys_tenant_menu').select('id').execute()).length,
    });
    const before = await counts();
    const dup = async (payload: object) => env(root, 'POST', '/api/sysTenant/add', payload);
    expect((await dup({ code: 'pudong', name: '其他', adminAccount: 'other1' })).code).toBe('D1006');
    expect((await dup({ code: 'other', name: '浦东新区', adminAccount: 'other1' })).code).toBe('D1006');
    const account = await dup({ code: 'other', name: '其他', adminAccount: 'admin' });
    expect(account.code).toBe('D1006');
    expect(account.message).toContain('admin');
    const bad = await dup({ code: '', name: '其他' });
    expect(bad.code).toBe(400);
    expect(JSON.stringify(bad.errors)).toContain('adminAccount');
    expect(await counts()).toEqual(before);
  });

  it('lets the new admin sign in to their own tenant only', async () => {
    expect((await loginAsIs(t.app, 'pdadmin')).isDefPwd).toBe(true);
    const tokens = await login(t.app, 'pdadmin');
    const tree = flatten(await ok<MenuNode[]>(tokens.accessToken, 'GET', '/api/sysMenu/loginMenuTree'));
    const names = tree.map((n) => n.name);
    expect(names).toEqual(expect.arrayContaining(['system', 'sysUser', 'sysRole']));
    expect(names).not.toContain('sysTenant');
    expect(names).not.toContain('sysMenu');

    // Tenant resources: only the new tenant's rows.
    const roles = await ok<PageResult<{ code: string; tenantId?: number }>>(
      tokens.accessToken,
      'POST',
      '/api/sysRole/page',
      { pageSize: 100 },
    );
    expect(roles.items.map((r) => r.code)).toEqual(['sys_admin']);
    const routes = new Set(t.app.registeredRoutes().map((r) => `${r.method} ${r.url}`));
    if (routes.has('GET /api/sysOrg/treeAll')) {
      const orgs = await ok<{ name: string; children?: unknown[] }[]>(
        tokens.accessToken,
        'GET',
        '/api/sysOrg/treeAll',
      );
      expect(orgs.map((o) => o.name)).toEqual(['浦东新区']);
    }
    if (routes.has('POST /api/sysUser/page')) {
      const users = await ok<PageResult<{ account: string }>>(
        tokens.accessToken,
        'POST',
        '/api/sysUser/page',
        {
          pageSize: 100,
        },
      );
      expect(users.items.map((u) => u.account)).toEqual(['pdadmin']);
    }
  });

  it('pages, lists, filters and exports tenants', async () => {
    const page = await ok<PageResult<TenantRow>>(root, 'POST', '/api/sysTenant/page', { name: '浦东' });
    expect(page.items.map((r) => r.code)).toEqual(['pudong']);
    // `list` is the login page's public picker (test/wire-compat.test.ts): names, ids and hosts only.
    const all = await ok<{ label: string; value: number }[]>(root, 'GET', '/api/sysTenant/list');
    expect(all.map((r) => r.value)).toEqual(expect.arrayContaining(page.items.map((r) => r.id)));
    const byQuery = await ok<PageResult<TenantRow>>(root, 'GET', '/api/sysTenant/page?code=pud&status=1');
    expect(byQuery.total).toBe(1);
    const res = await call(root, 'POST', '/api/sysTenant/export', { code: 'pudong' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });

  it('renames the root org with the tenant and keeps names unique', async () => {
    await ok(root, 'POST', '/api/sysTenant/update', { id: tenantId, name: '浦东', remark: 'r' });
    const row = await ok<TenantRow>(root, 'GET', `/api/sysTenant/detail?Id=${tenantId}`);
    expect(row.name).toBe('浦东');
    const org = await db()
      .selectFrom('sys_org')
      .select(['name', 'code'])
      .where('id', '=', row.orgId as number)
      .executeTakeFirstOrThrow();
    expect(org).toEqual({ name: '浦东', code: 'pudong' });
    const defaultName = (
      await db()
        .selectFrom('sys_tenant')
        .select('name')
        .where('id', '=', DEFAULT_TENANT_ID)
        .executeTakeFirstOrThrow()
    ).name;
    expect(await codeOf(root, 'POST', '/api/sysTenant/update', { id: tenantId, name: defaultName })).toBe(
      'D1006',
    );
    expect(await codeOf(root, 'POST', '/api/sysTenant/update', { id: 424242, name: 'x' })).toBe('D1002');
    // The default tenant keeps its code (the seed finds it by it); its name may change.
    expect(
      await codeOf(root, 'POST', '/api/sysTenant/update', { id: DEFAULT_TENANT_ID, code: 'other' }),
    ).toBe('Z1004');
    await ok(root, 'POST', '/api/sysTenant/update', {
      id: DEFAULT_TENANT_ID,
      code: 'default',
      remark: '默认',
    });
  });

  it('grants menus with their ancestors and applies them at once to signed-in users', async () => {
    const adminToken = (await login(t.app, 'pdadmin')).accessToken;
    expect(await ok<string[]>(adminToken, 'GET', '/api/sysMenu/ownBtnPermList')).toContain('sysRole:page');

    const ids = await menuIdsByName('sysNotice', 'system', 'sysTenant');
    const button = await db()
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', '=', 'sysNotice:page')
      .where('pid', '=', ids.sysNotice as number)
      .executeTakeFirstOrThrow();
    // The button brings its page and directory; tenant management and the platform-wide parameters are never
    // granted to a tenant.
    const config = await menuIdsByName('sysConfig');
    await ok(root, 'POST', '/api/sysTenant/grantMenu', {
      id: tenantId,
      menuIdList: [button.id, ids.sysTenant, config.sysConfig],
    });
    const own = await ok<number[]>(root, 'GET', `/api/sysTenant/ownMenuList?id=${tenantId}`);
    const platform = await db()
      .selectFrom('sys_menu')
      .select('id')
      .where('name', '=', 'platform')
      .executeTakeFirstOrThrow();
    expect([...own].sort()).toEqual([button.id, ids.sysNotice, platform.id].sort());

    // Same token: the new menus and buttons show on the next request.
    expect(await ok<string[]>(adminToken, 'GET', '/api/sysMenu/ownBtnPermList')).toEqual(['sysNotice:page']);
    const tree = flatten(await ok<MenuNode[]>(adminToken, 'GET', '/api/sysMenu/loginMenuTree'));
    expect(tree.map((n) => n.name).sort()).toEqual(['platform', 'sysNotice']);
    expect((await call(adminToken, 'POST', '/api/sysRole/page', {})).statusCode).toBe(403);
    // The tenant's roles lost what the tenant no longer has.
    const roleMenus = await db()
      .selectFrom('sys_role_menu as rm')
      .innerJoin('sys_role as r', 'r.id', 'rm.role_id')
      .select('rm.menu_id')
      .where('r.tenant_id', '=', tenantId)
      .execute();
    expect(roleMenus.every((m) => own.includes(m.menu_id))).toBe(true);

    expect(
      await codeOf(root, 'POST', '/api/sysTenant/grantMenu', { id: tenantId, menuIdList: [987654321] }),
    ).toBe('D1002');
    expect(await codeOf(root, 'POST', '/api/sysTenant/grantMenu', { id: 987654321, menuIdList: [] })).toBe(
      'D1002',
    );
    expect(await codeOf(root, 'GET', '/api/sysTenant/ownMenuList')).toBe(400);

    // Back to the default set for what follows.
    const everything = await db().selectFrom('sys_menu').select('id').where('status', '=', 1).execute();
    await ok(root, 'POST', '/api/sysTenant/grantMenu', {
      id: tenantId,
      menuIdList: everything.map((m) => m.id),
    });
    const restored = await ok<number[]>(root, 'GET', `/api/sysTenant/ownMenuList?Id=${tenantId}`);
    expect(restored.some((id) => ids.sysTenant === id)).toBe(false);
    expect(restored.length).toBeGreaterThan(50);
  });

  it("resets the tenant admin's password to the default, once, and ends their sessions", async () => {
    const adminToken = (await login(t.app, 'pdadmin')).accessToken;
    await db()
      .updateTable('sys_user')
      .set({ password: 'x', is_def_pwd: 0 })
      .where('account', '=', 'pdadmin')
      .execute();
    const result = await ok<TenantResetPwdResult>(root, 'POST', '/api/sysTenant/resetPwd', { id: tenantId });
    expect(result).toEqual({ account: 'pdadmin', password: DEFAULT_PASSWORD });
    expect((await call(adminToken, 'GET', '/api/sysMenu/loginMenuTree')).statusCode).toBe(401);
    const tokens = await loginAsIs(t.app, 'pdadmin', result.password);
    expect(tokens.isDefPwd).toBe(true);
    expect(await codeOf(root, 'POST', '/api/sysTenant/resetPwd', { id: 987654321 })).toBe('D1002');
  });

  it('disables a tenant: its users are signed out at once and cannot sign in (Z1003)', async () => {
    const adminToken = (await login(t.app, 'pdadmin')).accessToken;
    await ok(root, 'POST', '/api/sysTenant/setStatus', { id: tenantId, status: 2 });
    expect((await call(adminToken, 'GET', '/api/sysMenu/loginMenuTree')).statusCode).toBe(401);
    expect(body(await loginRequest(t.app, 'pdadmin')).code).toBe('Z1003');
    await ok(root, 'POST', '/api/sysTenant/setStatus', { id: tenantId, status: 1 });
    await login(t.app, 'pdadmin');
  });

  it('never disables or deletes the default tenant (Z1000)', async () => {
    expect(await codeOf(root, 'POST', '/api/sysTenant/setStatus', { id: DEFAULT_TENANT_ID, status: 2 })).toBe(
      'Z1000',
    );
    expect(await codeOf(root, 'POST', '/api/sysTenant/delete', { id: DEFAULT_TENANT_ID })).toBe('Z1000');
    // Enabling it is harmless.
    await ok(root, 'POST', '/api/sysTenant/setStatus', { id: DEFAULT_TENANT_ID, status: 1 });
    await login(t.app, 'admin');
  });

  it('refuses to delete a tenant with users besides its admin (Z1001), then deletes it with its parts', async () => {
    const extra = await db()
      .selectFrom('sys_user')
      .selectAll()
      .where('account', '=', 'pdadmin')
      .executeTakeFirstOrThrow();
    const extraId = t.app.ctx.newId();
    await db()
      .insertInto('sys_user')
      .values({ ...extra, id: extraId, account: 'pdstaff', account_type: 777 })
      .execute();
    expect(await codeOf(root, 'POST', '/api/sysTenant/delete', { id: tenantId })).toBe('Z1001');
    await db().updateTable('sys_user').set({ is_delete: 1 }).where('id', '=', extraId).execute();

    const adminToken = (await login(t.app, 'pdadmin')).accessToken;
    await ok(root, 'POST', '/api/sysTenant/delete', { id: tenantId });
    expect(await codeOf(root, 'GET', `/api/sysTenant/detail?Id=${tenantId}`)).toBe('D1002');
    expect((await call(adminToken, 'GET', '/api/sysMenu/loginMenuTree')).statusCode).toBe(401);
    const live = async (table: 'sys_org' | 'sys_role' | 'sys_user') =>
      (
        await db()
          .selectFrom(table)
          .select('id')
          .where('tenant_id', '=', tenantId)
          .where('is_delete', '=', 0)
          .execute()
      ).length;
    expect(await live('sys_org')).toBe(0);
    expect(await live('sys_role')).toBe(0);
    expect(await live('sys_user')).toBe(0);
    expect(body(await loginRequest(t.app, 'pdadmin')).code).not.toBe(200);

    // Code, name and admin account are free again.
    const again = await addTenant('pudong', '浦东新区', 'pdadmin');
    expect(again).not.toBe(tenantId);
    // A new account: the default password again.
    await login(t.app, 'pdadmin', DEFAULT_PASSWORD);
  });
});

describe('migration 0007', () => {
  it("takes tenant and menu management out of every tenant's menus and roles", async () => {
    const testEnv = await createTestEnv();
    try {
      const config = loadConfig(testEnv.env);
      const { db: raw, dialect } = openDatabase(config.database);
      const before = MIGRATIONS.filter((m) => m.name < '0007');
      await migrate(raw, dialect, before);
      const ctx = { db: raw, newId: createIdGenerator(1), passwordHashing: TEST_HASH_COST };
      // User groups came with 0007 itself (jobs with 0008, forms with 0009): the previous release had none to seed.
      await seed(ctx, { ...DEMO_DATA, userGroups: [], jobs: [], formCategories: [], forms: [] });
      // What the previous release's seed did: the tenant and its all-menus role held every menu.
      const menus = await raw.selectFrom('sys_menu').select('id').execute();
      const role = await raw
        .selectFrom('sys_role')
        .select('id')
        .where('code', '=', 'sys_admin')
        .executeTakeFirstOrThrow();
      await raw.deleteFrom('sys_tenant_menu').execute();
      await raw.deleteFrom('sys_role_menu').where('role_id', '=', role.id).execute();
      for (const m of menus) {
        await raw
          .insertInto('sys_tenant_menu')
          .values({ id: ctx.newId(), tenant_id: DEFAULT_TENANT_ID, menu_id: m.id })
          .execute();
        await raw
          .insertInto('sys_role_menu')
          .values({ id: ctx.newId(), role_id: role.id, menu_id: m.id })
          .execute();
      }
      expect(await migrate(raw, dialect, MIGRATIONS)).toContain('0007-identity');

      const pages = await raw
        .selectFrom('sys_menu')
        .select('id')
        .where('name', 'in', [...PLATFORM_ONLY_MENUS])
        .where('type', '=', 2)
        .execute();
      const pageIds = pages.map((p) => p.id);
      const excluded = (
        await raw
          .selectFrom('sys_menu')
          .select('id')
          .where((eb) => eb.or([eb('id', 'in', pageIds), eb('pid', 'in', pageIds)]))
          .execute()
      ).map((r) => r.id);
      expect(excluded.length).toBeGreaterThan(10);
      const tenantMenus = (await raw.selectFrom('sys_tenant_menu').select('menu_id').execute()).map(
        (r) => r.menu_id,
      );
      const roleMenus = (await raw.selectFrom('sys_role_menu').select('menu_id').execute()).map(
        (r) => r.menu_id,
      );
      expect(tenantMenus.filter((id) => excluded.includes(id))).toEqual([]);
      expect(roleMenus.filter((id) => excluded.includes(id))).toEqual([]);
      expect(tenantMenus.length).toBe(menus.length - excluded.length);
      await raw.destroy();
    } finally {
      await testEnv.cleanup();
    }
  });
});
