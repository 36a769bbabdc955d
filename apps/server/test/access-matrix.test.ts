import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/platform/access/access.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 3 §2: every registered route × {anonymous, signed-in user without the permission, a user holding
 * it, the admin of another tenant}. Anonymous callers get 401 on every non-public route; a user without
 * the permission 403; a holder is admitted (never 401/403, and never a 500 even for an empty request);
 * another tenant's admin never receives a row of the seeded tenant from a page or list route.
 */
let t: TestApp;
let routes: RegisteredRoute[];
let tenant1: number;
let tenant2: number;
const tenant1Ids = new Set<number>();
let tokens: { nobody: string; admin: string; superadmin: string; admin2: string };
let adminPermissions: Set<string>;

// Routes that must not run with an empty request in this matrix: they start long work or end the caller's
// own session; their access is still checked for the anonymous caller and the user without permission.
const NOT_EXECUTED = new Set(['POST /api/sysRegion/sync', 'POST /api/sysAuth/logout']);

function concreteUrl(url: string): string {
  return url.replace(/:(\w+)(\([^/]*\))?/g, (_, name: string) => (/id$/i.test(name) ? '1' : 'x'));
}

function call(token: string | null, route: RegisteredRoute): Promise<LightMyRequestResponse> {
  const options = {
    method: route.method as 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: concreteUrl(route.url),
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} }),
  };
  return token ? authed(t.app, token, options) : t.app.inject(options);
}

/** Page, list and tree reads: where another tenant's rows could leak. */
function reads(): RegisteredRoute[] {
  return routes.filter(
    (r) =>
      r.access !== 'public' &&
      ((r.method === 'POST' && r.url.endsWith('/page')) ||
        (r.method === 'GET' && (r.url.endsWith('/list') || r.url.endsWith('/treeAll')))),
  );
}

/** The `id` and `tenantId` numbers anywhere in a result (rows, trees, nested children). */
function collect(value: unknown, ids: number[], tenants: number[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collect(item, ids, tenants);
  } else if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      if (key === 'id' && typeof inner === 'number') ids.push(inner);
      else if (key === 'tenantId' && typeof inner === 'number') tenants.push(inner);
      else collect(inner, ids, tenants);
    }
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  routes = t.app
    .registeredRoutes()
    .filter((r) => r.method !== 'HEAD' && r.url.startsWith('/api/') && !r.url.includes('*'));

  const admin = await db
    .selectFrom('sys_user')
    .selectAll()
    .where('account', '=', 'admin')
    .executeTakeFirstOrThrow();
  tenant1 = admin.tenant_id;

  // A signed-in user of the seeded tenant without any role: holds no permission at all.
  await db
    .insertInto('sys_user')
    .values({
      ...admin,
      id: t.app.ctx.newId(),
      account: 'nobody01',
      real_name: '无权限用户',
      account_type: 777,
    })
    .execute();

  // A second tenant with its own admin (888), granted every menu.
  tenant2 = t.app.ctx.newId();
  const now = '2026-01-01 00:00:00';
  await db
    .insertInto('sys_tenant')
    .values({
      id: tenant2,
      create_time: now,
      is_delete: 0,
      code: 'matrix2',
      name: '矩阵租户',
      status: 1,
      order_no: 9,
    } as never)
    .execute();
  const orgId = t.app.ctx.newId();
  await db
    .insertInto('sys_org')
    .values({
      id: orgId,
      create_time: now,
      is_delete: 0,
      tenant_id: tenant2,
      pid: 0,
      code: 'matrix2',
      name: '矩阵租户',
      type: 'district',
      level: 1,
      full_ids: String(orgId),
      full_names: '矩阵租户',
      order_no: 1,
      status: 1,
    } as never)
    .execute();
  await db
    .insertInto('sys_user')
    .values({ ...admin, id: t.app.ctx.newId(), tenant_id: tenant2, account: 'matrixadmin', org_id: orgId })
    .execute();
  const menus = await db.selectFrom('sys_menu').select('id').execute();
  await db
    .insertInto('sys_tenant_menu')
    .values(menus.map((m) => ({ id: t.app.ctx.newId(), tenant_id: tenant2, menu_id: m.id })))
    .execute();

  tokens = {
    nobody: (await login(t.app, 'nobody01')).accessToken,
    admin: (await login(t.app, 'admin')).accessToken,
    superadmin: (await login(t.app, 'superadmin')).accessToken,
    admin2: (await login(t.app, 'matrixadmin')).accessToken,
  };
  const own = body<string[]>(
    await authed(t.app, tokens.admin, { method: 'GET', url: '/api/sysMenu/ownBtnPermList' }),
  );
  adminPermissions = new Set(own.result ?? []);

  // Every row id of every tenant table that belongs to the seeded tenant (ids are unique across tables).
  const tables = await db.introspection.getTables();
  for (const table of tables) {
    if (!table.columns.some((c) => c.name === 'tenant_id')) continue;
    const rows = await db
      .selectFrom(table.name as 'sys_user')
      .select('id')
      .where('tenant_id', '=', tenant1)
      .execute();
    for (const row of rows) tenant1Ids.add(Number(row.id));
  }
});

afterAll(async () => {
  await t?.close();
});

describe('access matrix over every route', () => {
  it('declares access on every route and covers a meaningful number of them', () => {
    expect(routes.length).toBeGreaterThan(100);
    for (const route of routes) expect(route.access, `${route.method} ${route.url}`).toBeDefined();
  });

  it('answers 401 to an anonymous caller on every non-public route', async () => {
    for (const route of routes.filter((r) => r.access !== 'public')) {
      const response = await call(null, route);
      const code = response.statusCode === 401 ? 401 : body(response).code;
      expect(code, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it('answers 403 to a signed-in user without the permission, and admits them on logged-in routes', async () => {
    for (const route of routes) {
      if (route.access === 'public' || NOT_EXECUTED.has(`${route.method} ${route.url}`)) continue;
      const response = await call(tokens.nobody, route);
      const name = `${route.method} ${route.url}`;
      if (route.access === 'loggedIn') {
        expect(response.statusCode, name).not.toBe(401);
        expect(response.statusCode, name).not.toBe(403);
        expect(response.statusCode, name).toBeLessThan(500);
      } else {
        const code = response.statusCode === 403 ? 403 : body(response).code;
        expect(code, name).toBe(403);
      }
    }
  });

  it('never hands another tenant’s admin a row of the seeded tenant', async () => {
    expect(tenant1Ids.size).toBeGreaterThan(50);
    expect(reads().length).toBeGreaterThan(10);
    for (const route of reads()) {
      const response = await call(tokens.admin2, route);
      const name = `${route.method} ${route.url}`;
      expect(response.statusCode, name).toBeLessThan(500);
      const envelope = body(response);
      if (envelope.code !== 200) continue;
      const ids: number[] = [];
      const tenants: number[] = [];
      collect(envelope.result, ids, tenants);
      expect(
        ids.filter((id) => tenant1Ids.has(id)),
        name,
      ).toEqual([]);
      expect(
        tenants.filter((id) => id === tenant1),
        name,
      ).toEqual([]);
    }
  });

  it('lets the seeded tenant’s admin see its own rows through the same routes (the check above is not vacuous)', async () => {
    let routesWithOwnRows = 0;
    for (const route of reads()) {
      const envelope = body(await call(tokens.admin, route));
      if (envelope.code !== 200) continue;
      const ids: number[] = [];
      collect(envelope.result, ids, []);
      if (ids.some((id) => tenant1Ids.has(id))) routesWithOwnRows++;
    }
    expect(routesWithOwnRows).toBeGreaterThan(8);
  });

  it('admits a holder of the permission, and an empty request is never a server error', async () => {
    for (const route of routes) {
      if (route.access === 'public' || route.access === 'loggedIn') continue;
      if (NOT_EXECUTED.has(`${route.method} ${route.url}`)) continue;
      const token = adminPermissions.has(route.access as string) ? tokens.admin : tokens.superadmin;
      const response = await call(token, route);
      const name = `${route.method} ${route.url}`;
      expect(response.statusCode, name).toBeLessThan(500);
      expect(response.statusCode, name).not.toBe(401);
      expect(response.statusCode, name).not.toBe(403);
      const type = String(response.headers['content-type'] ?? '');
      if (type.includes('json')) {
        const code = body(response).code;
        expect(code, name).not.toBe(401);
        expect(code, name).not.toBe(403);
        expect(code, name).not.toBe(500);
      }
    }
  });
});
