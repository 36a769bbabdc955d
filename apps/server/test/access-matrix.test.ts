import { PLATFORM_ERRORS } from '@shuzhi/contracts/errors';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRoute } from '../src/platform/access/access.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 3 §2: every registered route × {anonymous, signed-in user without the permission, a user holding
 * it, the admin of another tenant}. Anonymous callers get 401 on every non-public route; a user without
 * the permission 403; a holder is admitted (never 401/403, and never a 500 even for an empty request);
 * another tenant's admin never receives a row of the seeded tenant from a page or list route.
 * Issue 14 §3: nor does any write of that admin, aimed at the seeded tenant's rows and the platform's,
 * change what the seeded tenant reads; platform-wide screens and settings refuse them (docs/tenancy.md).
 */
let t: TestApp;
let routes: RegisteredRoute[];
let tenant1: number;
let tenant2: number;
const tenant1Ids = new Set<number>();
const tenant2Ids = new Set<number>();
let tokens: { nobody: string; admin: string; superadmin: string; admin2: string };
let adminPermissions: Set<string>;

// Routes that must not run with an empty request in this matrix: they start long work or end the caller's
// own session; their access is still checked for the anonymous caller and the user without permission.
const NOT_EXECUTED = new Set(['POST /api/sysRegion/sync', 'POST /api/sysAuth/logout']);

/** This app's tables: on PostgreSQL, introspection lists every schema, other test files' included. */
async function ownTables() {
  const tables = await t.app.ctx.db.introspection.getTables();
  if (t.app.ctx.dialect !== 'postgres') return tables;
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.app.ctx.db);
  return tables.filter((table) => table.schema === rows[0]?.schema);
}

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

  // A second tenant, created the way the platform operator does it; its admin (888) holds the tenant's
  // default menu set: every page but the platform's own.
  const superadminToken = (await login(t.app, 'superadmin')).accessToken;
  const added = body<number>(
    await authed(t.app, superadminToken, {
      method: 'POST',
      url: '/api/sysTenant/add',
      payload: { code: 'matrix2', name: '矩阵租户', adminAccount: 'matrixadmin' },
    }),
  );
  expect(added.code).toBe(200);
  tenant2 = added.result as number;

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
  const tables = await ownTables();
  for (const table of tables) {
    if (!table.columns.some((c) => c.name === 'tenant_id')) continue;
    const rows = await db
      .selectFrom(table.name as 'sys_user')
      .select('id')
      .where('tenant_id', '=', tenant1)
      .execute();
    for (const row of rows) tenant1Ids.add(Number(row.id));
    const own = await db
      .selectFrom(table.name as 'sys_user')
      .select('id')
      .where('tenant_id', '=', tenant2)
      .execute();
    for (const row of own) tenant2Ids.add(Number(row.id));
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

/**
 * Writes another tenant's admin may make although every tenant sees the result, each with the reason.
 * Empty: whatever is platform-wide is the super admin's (docs/tenancy.md).
 */
const PLATFORM_WIDE_WRITES = new Map<string, string>([]);

/** Reads every signed-in user makes that show platform-wide data (the shell's config and dictionaries). */
const SHELL_READS = ['/api/sysConfig/list', '/api/sysDictType/allDictList', '/api/sysAuth/loginConfig'];

/** Log pages record the seeded admin's own reads below (a refused read is an operation): they always move. */
const VOLATILE_READS = /^(POST|GET) \/api\/sysLog/;

/**
 * Tables that change whoever calls (logs, sessions, caches of the runtime), not the tenant's data; and the text
 * search index's own tables (FTS5 segments shared by every tenant, rewritten by any write; what the index answers
 * is checked in text-search.test.ts).
 */
const VOLATILE_TABLES =
  /^(sys_log_|sys_session|sys_job_record|sys_job_cluster|sys_lease|sys_open_access_nonce|sys_user_fts|diy_fts_)/;

/** Every write route (anything but GET) another tenant's admin may call. */
function writes(): RegisteredRoute[] {
  return routes.filter(
    (r) =>
      r.access !== 'public' &&
      r.method !== 'GET' &&
      !NOT_EXECUTED.has(`${r.method} ${r.url}`) &&
      !PLATFORM_WIDE_WRITES.has(`${r.method} ${r.url}`),
  );
}

/** What the seeded tenant's admin reads: every page, list and tree route, and the shell's reads. */
async function tenant1Reads(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const route of reads()) {
    if (VOLATILE_READS.test(`${route.method} ${route.url}`)) continue;
    const envelope = body(await call(tokens.admin, route));
    out.set(`${route.method} ${route.url}`, JSON.stringify([envelope.code, envelope.result]));
  }
  for (const url of SHELL_READS) {
    const envelope = body(await authed(t.app, tokens.admin, { method: 'GET', url }));
    out.set(`GET ${url}`, JSON.stringify([envelope.code, envelope.result]));
  }
  return out;
}

/**
 * The stored rows the seeded tenant depends on: its own (tenant tables) and the platform's (tables without
 * a tenant), by `table:id`. Rows the other tenant adds to a platform table show through the reads above.
 */
async function tenant1Rows(): Promise<Map<string, string>> {
  const db = t.app.ctx.db;
  const out = new Map<string, string>();
  for (const table of await ownTables()) {
    if (VOLATILE_TABLES.test(table.name) || !table.columns.some((c) => c.name === 'id')) continue;
    let query = db.selectFrom(table.name as 'sys_user').selectAll();
    if (table.columns.some((c) => c.name === 'tenant_id')) query = query.where('tenant_id', '=', tenant1);
    for (const row of await query.execute()) {
      if (tenant2Ids.has(Number(row.id))) continue;
      out.set(`${table.name}:${row.id}`, JSON.stringify(row));
    }
  }
  return out;
}

/** Keys whose value differs (or that are gone) after, among those present before. */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...before].filter(([key, value]) => after.get(key) !== value).map(([key]) => key);
}

/** Up to three rows of a resource the super admin reads that are not the other tenant's. */
async function sampleRows(resource: string): Promise<Record<string, unknown>[]> {
  const token = tokens.superadmin;
  const page = body<{ items?: Record<string, unknown>[] }>(
    await authed(t.app, token, {
      method: 'POST',
      url: `/api/${resource}/page`,
      payload: { page: 1, pageSize: 50 },
    }),
  );
  let rows = page.code === 200 ? (page.result?.items ?? []) : [];
  if (rows.length === 0) {
    const list = body<Record<string, unknown>[]>(
      await authed(t.app, token, { method: 'GET', url: `/api/${resource}/list` }),
    );
    rows = list.code === 200 && Array.isArray(list.result) ? list.result : [];
  }
  return rows
    .filter((row) => typeof row.id === 'number' && !tenant2Ids.has(row.id) && row.tenantId !== tenant2)
    .slice(0, 3);
}

/** A row sent back changed: each text a character longer, a status switched off. */
function edited(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (/Time$|^create|^update/.test(key)) continue;
    out[key] = typeof value === 'string' && value !== '' ? `${value}2` : value;
  }
  return { ...out, status: 2, ids: [row.id], Id: row.id };
}

/** The same row with only its free texts changed: keys and codes kept, so that no rule refuses the edit. */
function retitled(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { id: row.id, Id: row.id, ids: [row.id] };
  for (const key of ['name', 'label', 'value', 'title', 'remark', 'realName']) {
    const value = row[key];
    if (typeof value === 'string') out[key] = `${value}2`;
  }
  return out;
}

/** A write aimed at one row: its id in the path, the query and the body. */
function aimed(route: RegisteredRoute, row: Record<string, unknown> | null, payload: unknown) {
  const id = row ? Number(row.id) : 1;
  const url = route.url.replace(/:(\w+)(\([^/]*\))?/g, (_, name: string) =>
    /id$/i.test(name) ? String(id) : 'x',
  );
  const query = row ? `${url.includes('?') ? '&' : '?'}id=${id}&Id=${id}` : '';
  return authed(t.app, tokens.admin2, {
    method: route.method as 'POST' | 'PUT' | 'DELETE',
    url: `${url}${query}`,
    ...(route.method === 'DELETE' ? {} : { payload: payload as object }),
  });
}

describe('another tenant’s admin writing', () => {
  it('refuses them the super admin’s screens (cache, server monitor) with the catalogue’s 403', async () => {
    const session = (await t.app.ctx.cache.keys('sess:', 10)).keys[0];
    expect(session).toBeTruthy();
    const requests = [
      ['GET', '/api/sysCache/keyList', undefined],
      ['GET', `/api/sysCache/value?key=${encodeURIComponent(session as string)}`, undefined],
      ['POST', '/api/sysCache/delete', { key: session }],
      ['POST', '/api/sysCache/deleteByPrefix', { prefix: 'sess:' }],
      ['GET', '/api/sysServer/info', undefined],
    ] as const;
    for (const [method, url, payload] of requests) {
      const envelope = body(
        await authed(t.app, tokens.admin2, { method, url, ...(payload ? { payload } : {}) }),
      );
      expect(envelope.code, url).toBe(403);
      expect(envelope.message, url).toBe(PLATFORM_ERRORS[403]['zh-CN']);
      expect(envelope.result, url).toBeNull();
    }
    // The seeded tenant's sessions are still there: the admin is still signed in.
    expect((await t.app.ctx.cache.keys('sess:', 10)).keys).toContain(session);
    expect(
      body(await authed(t.app, tokens.admin, { method: 'GET', url: '/api/sysAuth/userInfo' })).code,
    ).toBe(200);
  });

  it('refuses them the platform-wide security settings, and does not show them', async () => {
    const security = [
      'sys_captcha',
      'sys_passwd_max_error_times',
      'sys_token_expire',
      'sys_lock_screen_time',
    ];
    const rows = await t.app.ctx.db
      .selectFrom('sys_config')
      .select(['id', 'code', 'value'])
      .where('code', 'in', [...security, 'sys_password'])
      .execute();
    expect(rows.length).toBe(security.length + 1);
    for (const row of rows) {
      for (const [url, payload] of [
        ['/api/sysConfig/update', { id: row.id, value: '1' }],
        ['/api/sysConfig/batchUpdate', [{ code: row.code, value: '1' }]],
        ['/api/sysConfig/delete', { id: row.id }],
      ] as const) {
        const envelope = body(await authed(t.app, tokens.admin2, { method: 'POST', url, payload }));
        expect(envelope.code, `${url} ${row.code}`).toBe(403);
        expect(envelope.message, url).toBe(PLATFORM_ERRORS[403]['zh-CN']);
      }
      const detail = body(
        await authed(t.app, tokens.admin2, { method: 'GET', url: `/api/sysConfig/detail?Id=${row.id}` }),
      );
      expect(detail.code, row.code).toBe(403);
    }
    const after = await t.app.ctx.db
      .selectFrom('sys_config')
      .select(['id', 'code', 'value'])
      .where('code', 'in', [...security, 'sys_password'])
      .execute();
    expect(after).toEqual(rows);
    const listed = body<{ code: string }[]>(
      await authed(t.app, tokens.admin2, { method: 'GET', url: '/api/sysConfig/list' }),
    ).result?.map((item) => item.code);
    for (const code of [
      'sys_password',
      'sys_passwd_max_error_times',
      'sys_token_expire',
      'sys_refresh_token_expire',
    ]) {
      expect(listed, code).not.toContain(code);
    }
    const loginConfig = body<{ captchaEnabled: boolean }>(
      await t.app.inject({ url: '/api/sysAuth/loginConfig' }),
    );
    expect(loginConfig.result?.captchaEnabled).toBe(
      rows.find((r) => r.code === 'sys_captcha')?.value === 'true',
    );
  });

  it('leaves what the seeded tenant reads unchanged, whatever write route they aim at its rows', async () => {
    const targets = writes();
    expect(targets.length).toBeGreaterThan(100);
    const readsBefore = await tenant1Reads();
    const rowsBefore = await tenant1Rows();
    expect(rowsBefore.size).toBeGreaterThan(tenant1Ids.size);
    const samples = new Map<string, Record<string, unknown>[]>();
    let aimedWrites = 0;
    for (const route of targets) {
      const resource = route.url.split('/')[2] as string;
      if (!samples.has(resource)) samples.set(resource, await sampleRows(resource));
      const rows = samples.get(resource) ?? [];
      const attempts: [Record<string, unknown> | null, unknown][] = [[null, {}]];
      for (const row of rows) attempts.push([row, edited(row)], [row, retitled(row)], [row, [row.id]]);
      for (const [row, payload] of attempts) {
        const response = await aimed(route, row, payload);
        expect(response.statusCode, `${route.method} ${route.url}`).toBeLessThan(500);
        if (row) aimedWrites++;
      }
      // A write that ended the caller's own session (a password or profile change): sign in again.
      const still = body(await authed(t.app, tokens.admin2, { method: 'GET', url: '/api/sysAuth/userInfo' }));
      if (still.code === 401) tokens.admin2 = (await login(t.app, 'matrixadmin')).accessToken;
    }
    expect(aimedWrites).toBeGreaterThan(100);
    expect(changed(rowsBefore, await tenant1Rows())).toEqual([]);
    expect(changed(readsBefore, await tenant1Reads())).toEqual([]);
    // Every write route, several times each: its own limit, so that a growing route list does not time out.
  }, 180_000);
});
