import { filterDateRange, filterIds, filterNumber, filterText } from '@shuzhi/contracts/crud';
import { idSchema, type PageResult, pageInputSchema, statusSchema } from '@shuzhi/contracts/envelope';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineCrud, type WriteAction } from '../src/platform/crud/crud.ts';
import { AppError } from '../src/platform/errors/app-error.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * The CRUD factory on a tenant table (sys_pos, served here under `sysTag`, a catalogue resource no module
 * serves, so as not to clash with the real positions module), declared the way a module would, with a
 * second tenant beside the seeded one.
 */
let t: TestApp;
const changes: { action: WriteAction; ids: number[] }[] = [];
let tokens: { admin: string; admin2: string; superadmin: string; staff: string; viewer: string };
let tenant2: number;

const LABEL = { 'zh-CN': '职位编码', en: 'Position code', 'zh-TW': '職位編碼' };

const posItem = z.object({
  id: z.number(),
  tenantId: z.number(),
  code: z.string(),
  name: z.string(),
  orderNo: z.number(),
  status: z.number(),
  remark: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string().nullable(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  updateUserId: z.number().nullable(),
  updateUserName: z.string().nullable(),
});
type Pos = z.infer<typeof posItem>;

beforeAll(async () => {
  t = await createTestApp();
  defineCrud(t.app, t.app.ctx, {
    resource: 'sysTag',
    table: 'sys_pos',
    tenant: true,
    title: { 'zh-CN': '职位', en: 'Positions', 'zh-TW': '職位' },
    item: posItem,
    page: pageInputSchema.extend({
      keyword: filterText,
      code: filterText,
      status: filterNumber,
      ids: filterIds,
      createTime: filterDateRange,
    }),
    filters: {
      keyword: { like: ['code', 'name'] },
      code: { eq: 'code' },
      status: { eq: 'status' },
      ids: { in: 'id' },
      createTime: { range: 'create_time' },
    },
    sortable: ['code', 'orderNo', 'createTime'],
    add: z.object({
      code: z.string().trim().min(1).max(64),
      name: z.string().trim().min(1).max(128),
      orderNo: z.coerce.number().int().min(0).default(100),
      status: statusSchema.default(1),
      remark: z.string().max(256).nullable().optional(),
    }),
    update: z.object({
      id: idSchema,
      code: z.string().trim().min(1).max(64).optional(),
      name: z.string().trim().min(1).max(128).optional(),
      orderNo: z.coerce.number().int().min(0).optional(),
      remark: z.string().max(256).nullable().optional(),
    }),
    unique: [{ field: 'code', label: LABEL }],
    setStatus: true,
    batchDelete: true,
    // The catalogue has no sysTag:setStatus / sysTag:export: borrow update and detail.
    access: { setStatus: 'sysTag:update', export: 'sysTag:detail' },
    export: [
      { field: 'code', label: LABEL },
      { field: 'name', label: { 'zh-CN': '职位名称', en: 'Name', 'zh-TW': '職位名稱' } },
      { field: 'status', label: { 'zh-CN': '状态', en: 'Status', 'zh-TW': '狀態' }, constant: 'status' },
    ],
    hooks: {
      async beforeDelete({ trx, rows }) {
        // Touches the rows first, so that a refusal shows the transaction rolling back.
        await trx
          .updateTable('sys_pos')
          .set({ remark: 'touched' })
          .where(
            'id',
            'in',
            rows.map((r) => r.id),
          )
          .execute();
        if (rows.some((r) => r.code === 'locked')) throw new AppError('D9001');
      },
      afterChange({ action, ids }) {
        changes.push({ action, ids });
      },
    },
  });

  const db = t.app.ctx.db;
  // The tag page is not built: switch it and its buttons on in this database only, and let mzjchief's
  // role (sys_dept) list them, as it lists positions.
  const page = await db
    .selectFrom('sys_menu')
    .select(['id', 'pid'])
    .where('name', '=', 'sysTag')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('id', '=', page.id), eb('pid', '=', page.id), eb('id', '=', page.pid)]))
    .execute();
  const viewerRole = await db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', 'sys_dept')
    .executeTakeFirstOrThrow();
  const viewerMenus = await db
    .selectFrom('sys_menu')
    .select('id')
    .where((eb) =>
      eb.or([eb('id', 'in', [page.id, page.pid]), eb('permission', 'in', ['sysTag:page', 'sysTag:list'])]),
    )
    .execute();
  await db
    .insertInto('sys_role_menu')
    .values(viewerMenus.map((m) => ({ id: t.app.ctx.newId(), role_id: viewerRole.id, menu_id: m.id })))
    .execute();

  // A second tenant with its own admin (888), granted every menu.
  tenant2 = t.app.ctx.newId();
  const now = '2026-01-01 00:00:00';
  const base = { create_time: now, is_delete: 0 };
  await db
    .insertInto('sys_tenant')
    .values({ ...base, id: tenant2, code: 't2', name: '第二租户', status: 1, order_no: 2 } as never)
    .execute();
  const orgId = t.app.ctx.newId();
  await db
    .insertInto('sys_org')
    .values({
      ...base,
      id: orgId,
      tenant_id: tenant2,
      pid: 0,
      code: 't2root',
      name: '第二租户',
      type: 'district',
      level: 1,
      full_ids: String(orgId),
      full_names: '第二租户',
    } as never)
    .execute();
  const admin = await db
    .selectFrom('sys_user')
    .selectAll()
    .where('account', '=', 'admin')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('sys_user')
    .values({
      ...admin,
      id: t.app.ctx.newId(),
      tenant_id: tenant2,
      account: 'admin2',
      real_name: '二号管理员',
      org_id: orgId,
    })
    .execute();
  const menus = await db.selectFrom('sys_menu').select('id').execute();
  await db
    .insertInto('sys_tenant_menu')
    .values(menus.map((m) => ({ id: t.app.ctx.newId(), tenant_id: tenant2, menu_id: m.id })))
    .execute();

  tokens = {
    admin: (await login(t.app, 'admin')).accessToken,
    admin2: (await login(t.app, 'admin2')).accessToken,
    superadmin: (await login(t.app, 'superadmin')).accessToken,
    staff: (await login(t.app, 'fgwstaff')).accessToken,
    viewer: (await login(t.app, 'mzjchief')).accessToken,
  };
});
afterAll(async () => {
  await t?.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  authed(t.app, token, { method, url, ...(payload === undefined ? {} : { payload: payload as object }) });

async function page(token: string, input: Record<string, unknown> = {}): Promise<PageResult<Pos>> {
  const env = body<PageResult<Pos>>(
    await call(token, 'POST', '/api/sysTag/page', { pageSize: 100, ...input }),
  );
  expect(env.code, JSON.stringify(env)).toBe(200);
  return env.result as PageResult<Pos>;
}

async function add(token: string, input: Record<string, unknown>): Promise<number> {
  const env = body<number>(await call(token, 'POST', '/api/sysTag/add', input));
  expect(env.code, JSON.stringify(env)).toBe(200);
  return env.result as number;
}

describe('CRUD factory: paging, sorting, filters', () => {
  it('pages newest first with the REFERENCE result shape', async () => {
    for (let i = 1; i <= 5; i++)
      await add(tokens.admin, { code: `pg${i}`, name: `分页${i}`, orderNo: 10 - i });
    const first = await page(tokens.admin, { keyword: 'pg', pageSize: 2 });
    expect(first).toMatchObject({
      page: 1,
      pageSize: 2,
      total: 5,
      totalPages: 3,
      hasPrevPage: false,
      hasNextPage: true,
    });
    expect(first.items.map((i) => i.code)).toEqual(['pg5', 'pg4']);
    const last = await page(tokens.admin, { keyword: 'pg', pageSize: 2, page: 3 });
    expect(last).toMatchObject({ hasPrevPage: true, hasNextPage: false });
    expect(last.items.map((i) => i.code)).toEqual(['pg1']);
    const beyond = await page(tokens.admin, { keyword: 'pg', pageSize: 2, page: 9 });
    expect(beyond.items).toEqual([]);
  });

  it('sorts by whitelisted fields only and ignores any other field', async () => {
    const byOrder = await page(tokens.admin, { keyword: 'pg', field: 'orderNo', order: 'ascending' });
    expect(byOrder.items.map((i) => i.orderNo)).toEqual([5, 6, 7, 8, 9]);
    const desc = await page(tokens.admin, { keyword: 'pg', field: 'code', order: 'descending' });
    expect(desc.items.map((i) => i.code)).toEqual(['pg5', 'pg4', 'pg3', 'pg2', 'pg1']);
    const customDesc = await page(tokens.admin, {
      keyword: 'pg',
      field: 'code',
      order: 'down',
      descStr: 'down',
    });
    expect(customDesc.items[0]?.code).toBe('pg5');
    // Not whitelisted (a real column, and an unknown one): newest first, as with no sorting at all.
    for (const field of ['remark', 'password', 'code; drop table sys_pos']) {
      const ignored = await page(tokens.admin, { keyword: 'pg', field, order: 'ascending' });
      expect(
        ignored.items.map((i) => i.code),
        field,
      ).toEqual(['pg5', 'pg4', 'pg3', 'pg2', 'pg1']);
    }
    // Only field without order: no sorting either.
    expect((await page(tokens.admin, { keyword: 'pg', field: 'code' })).items[0]?.code).toBe('pg5');
  });

  it('filters: like (literal % and _), exact, in, status and date range; empty means none', async () => {
    await add(tokens.admin, { code: 'flt_a', name: '百分之100%' });
    await add(tokens.admin, { code: 'fltxb', name: '普通', status: 2 });
    const all = await page(tokens.admin);
    expect((await page(tokens.admin, { keyword: '' })).total).toBe(all.total);
    expect((await page(tokens.admin, { keyword: null, code: '', status: '' })).total).toBe(all.total);
    // `_` and `%` are literal, not wildcards.
    expect((await page(tokens.admin, { keyword: 'flt_' })).items.map((i) => i.code)).toEqual(['flt_a']);
    expect((await page(tokens.admin, { keyword: '100%' })).items.map((i) => i.code)).toEqual(['flt_a']);
    // Case-insensitive contains.
    expect((await page(tokens.admin, { keyword: 'FLTX' })).items.map((i) => i.code)).toEqual(['fltxb']);
    expect((await page(tokens.admin, { code: 'flt' })).total).toBe(0);
    expect((await page(tokens.admin, { code: 'flt_a' })).total).toBe(1);
    expect((await page(tokens.admin, { keyword: 'flt', status: 2 })).items.map((i) => i.code)).toEqual([
      'fltxb',
    ]);
    const two = (await page(tokens.admin, { keyword: 'pg', pageSize: 2 })).items.map((i) => i.id);
    const byIds = await page(tokens.admin, { ids: two });
    expect(byIds.items.map((i) => i.id).sort()).toEqual([...two].sort());

    const db = t.app.ctx.db;
    await db
      .updateTable('sys_pos')
      .set({ create_time: '2025-03-10 08:00:00' })
      .where('code', '=', 'flt_a')
      .execute();
    await db
      .updateTable('sys_pos')
      .set({ create_time: '2025-03-11 23:30:00' })
      .where('code', '=', 'fltxb')
      .execute();
    const range = async (createTime: unknown) =>
      (await page(tokens.admin, { keyword: 'flt', createTime })).items.map((i) => i.code).sort();
    expect(await range(['2025-03-10', '2025-03-10'])).toEqual(['flt_a']);
    expect(await range(['2025-03-10', '2025-03-11'])).toEqual(['flt_a', 'fltxb']);
    expect(await range(['2025-03-10 09:00:00', null])).toEqual(['fltxb']);
    expect(await range(['', '2025-03-11 12:00'])).toEqual(['flt_a']);
    expect(await range(null)).toEqual(['flt_a', 'fltxb']);
  });

  it('serves GET /page from the query string, with nested arrays as clients send them', async () => {
    const res = await call(
      tokens.admin,
      'GET',
      '/api/sysTag/page?page=1&pageSize=10&keyword=flt&createTime[0]=2025-03-11&createTime[1]=&field=code&order=ascending',
    );
    expect(body<PageResult<Pos>>(res).result?.items.map((i) => i.code)).toEqual(['fltxb']);
    const ids = (await page(tokens.admin, { keyword: 'pg', pageSize: 2 })).items.map((i) => i.id);
    const byIds = await call(tokens.admin, 'GET', `/api/sysTag/page?ids=${ids.join(',')}`);
    expect(body<PageResult<Pos>>(byIds).result?.total).toBe(2);
    const list = await call(tokens.admin, 'GET', '/api/sysTag/list?keyword=pg');
    expect(body<Pos[]>(list).result?.map((i) => i.code)).toEqual(['pg5', 'pg4', 'pg3', 'pg2', 'pg1']);
  });
});

describe('CRUD factory: writes', () => {
  it('stamps audit columns, answers the id, reads by Id and by path', async () => {
    const id = await add(tokens.admin, { code: 'audit1', name: '审计' });
    const admin = await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['id', 'real_name', 'tenant_id'])
      .where('account', '=', 'admin')
      .executeTakeFirstOrThrow();
    const detail = body<Pos>(await call(tokens.admin, 'GET', `/api/sysTag/detail?Id=${id}`)).result;
    expect(detail).toMatchObject({
      id,
      code: 'audit1',
      orderNo: 100,
      status: 1,
      remark: null,
      tenantId: admin.tenant_id,
      createUserId: admin.id,
      createUserName: admin.real_name,
      updateTime: null,
      updateUserId: null,
    });
    expect(detail?.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(body(await call(tokens.admin, 'GET', `/api/sysTag/${id}`)).result).toEqual(detail);

    const su = await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['id', 'real_name'])
      .where('account', '=', 'superadmin')
      .executeTakeFirstOrThrow();
    expect(
      body(await call(tokens.superadmin, 'POST', '/api/sysTag/update', { id, name: '审计二', remark: 'r' }))
        .code,
    ).toBe(200);
    const updated = body<Pos>(await call(tokens.admin, 'GET', `/api/sysTag/${id}`)).result;
    expect(updated).toMatchObject({
      name: '审计二',
      code: 'audit1',
      remark: 'r',
      updateUserId: su.id,
      updateUserName: su.real_name,
    });
    expect(updated?.updateTime).toMatch(/^\d{4}-/);
    // PUT forms, and a field left out keeps its value; null clears a nullable one.
    expect(body(await call(tokens.admin, 'PUT', '/api/sysTag/update', { id, orderNo: 7 })).code).toBe(200);
    expect(body(await call(tokens.admin, 'PUT', '/api/sysTag/put', { id, remark: null })).code).toBe(200);
    expect(body<Pos>(await call(tokens.admin, 'GET', `/api/sysTag/${id}`)).result).toMatchObject({
      name: '审计二',
      orderNo: 7,
      remark: null,
    });
    expect(changes).toContainEqual({ action: 'add', ids: [id] });
    expect(changes).toContainEqual({ action: 'update', ids: [id] });
  });

  it('refuses a duplicate code among live rows with D1006 in the request language, per tenant', async () => {
    const id = await add(tokens.admin, { code: 'dup1', name: '重复' });
    const zh = body(await call(tokens.admin, 'POST', '/api/sysTag/add', { code: 'dup1', name: 'x' }));
    expect(zh).toMatchObject({ code: 'D1006', message: '记录已存在：职位编码“dup1”' });
    const en = await authed(t.app, tokens.admin, {
      method: 'POST',
      url: '/api/sysTag/add',
      payload: { code: 'dup1', name: 'x' },
      headers: { 'accept-language': 'en' },
    });
    expect(body(en).message).toBe('Position code "dup1" already exists');
    const other = await add(tokens.admin, { code: 'dup2', name: '另一个' });
    expect(
      body(await call(tokens.admin, 'POST', '/api/sysTag/update', { id: other, code: 'dup1' })).code,
    ).toBe('D1006');
    // Saving a row with its own code is no conflict.
    expect(
      body(await call(tokens.admin, 'POST', '/api/sysTag/update', { id, code: 'dup1', name: '重复' })).code,
    ).toBe(200);
    // Another tenant may use the same code.
    expect(await add(tokens.admin2, { code: 'dup1', name: '二号的' })).toBeGreaterThan(0);
    // A deleted row frees its code.
    expect(body(await call(tokens.admin, 'POST', '/api/sysTag/delete', { id })).code).toBe(200);
    expect(await add(tokens.admin, { code: 'dup1', name: '又一个' })).toBeGreaterThan(0);
  });

  it('deletes softly in every form; a deleted or unknown id is D1002 for reads and writes', async () => {
    const ids = [];
    for (const code of ['del1', 'del2', 'del3', 'del4'])
      ids.push(await add(tokens.admin, { code, name: code }));
    const [a, b, c, d] = ids as [number, number, number, number];
    expect(body(await call(tokens.admin, 'DELETE', '/api/sysTag/delete', { id: d })).code).toBe(200);
    expect(body(await call(tokens.admin, 'POST', '/api/sysTag/delete', { id: a })).code).toBe(200);
    expect(body(await call(tokens.admin, 'DELETE', `/api/sysTag/delete?id=${b}`)).code).toBe(200);
    expect(body(await call(tokens.admin, 'DELETE', `/api/sysTag/${c}`)).code).toBe(200);
    const row = await t.app.ctx.db
      .selectFrom('sys_pos')
      .selectAll()
      .where('id', '=', a)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ is_delete: 1, update_user_name: expect.any(String) });
    expect((await page(tokens.admin, { keyword: 'del' })).total).toBe(0);
    expect(body(await call(tokens.admin, 'GET', '/api/sysTag/list?keyword=del')).result).toEqual([]);
    for (const [method, url, payload] of [
      ['GET', `/api/sysTag/detail?Id=${a}`],
      ['GET', `/api/sysTag/${b}`],
      ['POST', '/api/sysTag/update', { id: a, name: 'x' }],
      ['POST', '/api/sysTag/delete', { id: a }],
      ['DELETE', `/api/sysTag/${c}`],
      ['POST', '/api/sysTag/setStatus', { id: a, status: 2 }],
      ['POST', '/api/sysTag/update', { id: 123456789, name: 'x' }],
      ['GET', '/api/sysTag/detail?Id=123456789'],
    ] as const) {
      expect(body(await call(tokens.admin, method, url, payload)).code, `${method} ${url}`).toBe('D1002');
    }
    const env = body(await call(tokens.admin, 'GET', '/api/sysTag/detail?Id=123456789', undefined));
    expect(env.message).toBe('记录不存在');
  });

  it('batch deletes all or nothing, and a refused delete rolls its transaction back', async () => {
    const ids = [];
    for (const code of ['bd1', 'bd2', 'locked']) ids.push(await add(tokens.admin, { code, name: code }));
    const [x, y, locked] = ids as [number, number, number];
    expect(
      body(await call(tokens.admin, 'POST', '/api/sysTag/batchDelete', { ids: [x, 987654321] })).code,
    ).toBe('D1002');
    const refused = body(await call(tokens.admin, 'POST', '/api/sysTag/batchDelete', [x, locked]));
    expect(refused.code).toBe('D9001');
    const rows = await t.app.ctx.db
      .selectFrom('sys_pos')
      .select(['is_delete', 'remark'])
      .where('id', 'in', ids)
      .execute();
    expect(rows.every((r) => r.is_delete === 0 && r.remark === null)).toBe(true);
    expect(body(await call(tokens.admin, 'POST', '/api/sysTag/batchDelete', { ids: [x, y] })).code).toBe(200);
    expect((await page(tokens.admin, { keyword: 'bd' })).total).toBe(0);
    expect(changes).toContainEqual({ action: 'delete', ids: expect.arrayContaining([x, y]) });
  });

  it('sets the status', async () => {
    const id = await add(tokens.admin, { code: 'st1', name: '状态' });
    expect(body(await call(tokens.admin, 'POST', '/api/sysTag/setStatus', { id, status: 2 })).code).toBe(200);
    expect(body<Pos>(await call(tokens.admin, 'GET', `/api/sysTag/${id}`)).result?.status).toBe(2);
    expect(body(await call(tokens.admin, 'POST', '/api/sysTag/setStatus', { id, status: 3 })).code).toBe(400);
  });
});

describe('CRUD factory: tenants and access', () => {
  it('keeps tenants apart; the super admin sees all of them', async () => {
    const mine = await add(tokens.admin2, { code: 'iso2', name: '二号' });
    const theirs = await add(tokens.admin, { code: 'iso1', name: '一号' });
    const seen2 = await page(tokens.admin2, { pageSize: 1000 });
    expect(seen2.items.every((i) => i.tenantId === tenant2)).toBe(true);
    expect(seen2.items.map((i) => i.id)).toContain(mine);
    const seen1 = await page(tokens.admin, { pageSize: 1000 });
    expect(seen1.items.some((i) => i.tenantId === tenant2)).toBe(false);
    const all = await page(tokens.superadmin, { pageSize: 1000 });
    expect(all.total).toBe(seen1.total + seen2.total);
    expect(body<Pos>(await call(tokens.admin2, 'GET', `/api/sysTag/${mine}`)).result?.tenantId).toBe(tenant2);
    // Another tenant's row does not exist for them, for reading or writing.
    for (const [method, url, payload] of [
      ['GET', `/api/sysTag/${theirs}`],
      ['POST', '/api/sysTag/update', { id: theirs, name: '改' }],
      ['POST', '/api/sysTag/delete', { id: theirs }],
      ['POST', '/api/sysTag/setStatus', { id: theirs, status: 2 }],
      ['POST', '/api/sysTag/batchDelete', { ids: [mine, theirs] }],
    ] as const) {
      expect(body(await call(tokens.admin2, method, url, payload)).code, `${method} ${url}`).toBe('D1002');
    }
    expect(body<Pos>(await call(tokens.admin, 'GET', `/api/sysTag/${theirs}`)).result?.name).toBe('一号');
    expect(body<Pos>(await call(tokens.admin2, 'GET', `/api/sysTag/${mine}`)).result?.name).toBe('二号');
  });

  it('answers 401 without a session, 403 without the permission, and runs with it', async () => {
    const id = await add(tokens.admin, { code: 'acc1', name: '权限' });
    const routes = [
      ['POST', '/api/sysTag/page', {}, 'sysTag:page'],
      ['GET', '/api/sysTag/page', undefined, 'sysTag:page'],
      ['GET', '/api/sysTag/list', undefined, 'sysTag:list'],
      ['GET', `/api/sysTag/detail?Id=${id}`, undefined, 'sysTag:detail'],
      ['GET', `/api/sysTag/${id}`, undefined, 'sysTag:detail'],
      ['POST', '/api/sysTag/add', { code: 'acc-new', name: '新' }, 'sysTag:add'],
      ['POST', '/api/sysTag/update', { id, name: '权限二' }, 'sysTag:update'],
      ['PUT', '/api/sysTag/update', { id, name: '权限三' }, 'sysTag:update'],
      ['PUT', '/api/sysTag/put', { id, name: '权限四' }, 'sysTag:update'],
      ['POST', '/api/sysTag/setStatus', { id, status: 1 }, 'sysTag:update'],
      ['POST', '/api/sysTag/export', {}, 'sysTag:detail'],
      ['POST', '/api/sysTag/batchDelete', { ids: [987654321] }, 'sysTag:delete'],
      ['POST', '/api/sysTag/delete', { id: 987654321 }, 'sysTag:delete'],
      ['DELETE', '/api/sysTag/delete?id=987654321', undefined, 'sysTag:delete'],
      ['DELETE', '/api/sysTag/987654321', undefined, 'sysTag:delete'],
    ] as const;
    const registered = t.app.registeredRoutes().filter((r) => r.url.startsWith('/api/sysTag/'));
    for (const r of registered) expect(r.access, `${r.method} ${r.url}`).toMatch(/^sysTag:/);
    // mzjchief's role may list tags (page, list) but not open or change them.
    const viewerMay = new Set(['sysTag:page', 'sysTag:list']);
    for (const [method, url, payload, permission] of routes) {
      const options = { method, url, ...(payload === undefined ? {} : { payload }) };
      const anonymous = await t.app.inject(options);
      expect(anonymous.statusCode, `anonymous ${method} ${url}`).toBe(401);
      expect(body(anonymous).code).toBe(401);
      const staff = await authed(t.app, tokens.staff, options);
      expect(staff.statusCode, `staff ${method} ${url}`).toBe(403);
      expect(body(staff)).toMatchObject({ code: 403, message: '403 禁止访问，没有权限' });
      const viewer = await authed(t.app, tokens.viewer, options);
      expect(viewer.statusCode, `viewer ${method} ${url}`).toBe(viewerMay.has(permission) ? 200 : 403);
      const admin = await authed(t.app, tokens.admin, options);
      expect(admin.statusCode, `admin ${method} ${url}`).toBe(200);
      if (!url.endsWith('/export')) {
        const code = body(admin).code;
        expect(code === 200 || code === 'D1002', `admin ${method} ${url}: ${code}`).toBe(true);
      }
    }
  });
});

describe('CRUD factory: bad input', () => {
  it('answers code 400 with field errors', async () => {
    const cases: [string, string, unknown, string[]][] = [
      ['POST', '/api/sysTag/page', { page: -1 }, ['page']],
      ['POST', '/api/sysTag/page', { page: 0, pageSize: 100_000 }, ['page', 'pageSize']],
      ['GET', '/api/sysTag/page?page=abc', undefined, ['page']],
      [
        'POST',
        '/api/sysTag/page',
        { status: 'x', ids: ['a'], createTime: ['yesterday'] },
        ['status', 'ids', 'createTime'],
      ],
      ['POST', '/api/sysTag/add', {}, ['code', 'name']],
      [
        'POST',
        '/api/sysTag/add',
        { code: 'x', name: 'y', orderNo: 'many', status: 5 },
        ['orderNo', 'status'],
      ],
      ['POST', '/api/sysTag/add', { code: 'x'.repeat(65), name: '' }, ['code', 'name']],
      ['POST', '/api/sysTag/update', { name: 'y' }, ['id']],
      ['POST', '/api/sysTag/update', { id: -5 }, ['id']],
      ['POST', '/api/sysTag/delete', {}, ['id']],
      ['DELETE', '/api/sysTag/delete', undefined, ['id']],
      ['POST', '/api/sysTag/batchDelete', { ids: [] }, []],
      ['POST', '/api/sysTag/setStatus', { id: 1 }, ['status']],
      ['GET', '/api/sysTag/detail', undefined, ['Id']],
      ['GET', '/api/sysTag/detail?Id=abc', undefined, ['Id']],
    ];
    for (const [method, url, payload, fields] of cases) {
      const res = await call(tokens.admin, method as 'GET', url, payload);
      const env = body(res);
      expect(res.statusCode, `${method} ${url}`).toBe(200);
      expect(env.code, `${method} ${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(env.type).toBe('error');
      const keys = Object.keys(env.errors ?? {});
      for (const field of fields) {
        expect(
          keys.some((key) => key === field || key.startsWith(`${field}.`)),
          `${method} ${url}: ${keys}`,
        ).toBe(true);
      }
    }
    // A path id that is not a number is no route at all.
    expect((await call(tokens.admin, 'GET', '/api/sysTag/abc')).statusCode).toBe(404);
  });
});

describe('CRUD factory: export', () => {
  it('streams a real xlsx of the current filter, headers and labels in the request language', async () => {
    await add(tokens.admin, { code: 'xl1', name: '导出一' });
    const off = await add(tokens.admin, { code: 'xl2', name: '导出二' });
    await call(tokens.admin, 'POST', '/api/sysTag/setStatus', { id: off, status: 2 });
    const read = async (language: string, filter: Record<string, unknown>) => {
      const res = await authed(t.app, tokens.admin, {
        method: 'POST',
        url: '/api/sysTag/export',
        payload: filter,
        headers: { 'accept-language': language },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe(
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      );
      expect(String(res.headers['content-disposition'])).toMatch(/^attachment; .*filename\*=UTF-8''/);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      const rows: unknown[][] = [];
      sheet?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      return { rows, name: sheet?.name, disposition: String(res.headers['content-disposition']) };
    };
    const zh = await read('zh-CN', { keyword: 'xl', field: 'code', order: 'ascending' });
    expect(zh.name).toBe('职位');
    expect(decodeURIComponent(zh.disposition)).toContain('职位_');
    expect(zh.rows).toEqual([
      ['职位编码', '职位名称', '状态'],
      ['xl1', '导出一', '启用'],
      ['xl2', '导出二', '停用'],
    ]);
    const en = await read('en', { keyword: 'xl', status: 2 });
    expect(en.rows).toEqual([
      ['Position code', 'Name', 'Status'],
      ['xl2', '导出二', 'Disabled'],
    ]);
    // Every row of the filter, beyond one export batch.
    const many = Array.from({ length: 1203 }, (_, i) => ({
      id: t.app.ctx.newId(),
      tenant_id: tenant2,
      code: `bulk${i}`,
      name: `批量${i}`,
      order_no: i,
      status: 1,
      create_time: '2026-01-01 00:00:00',
      is_delete: 0,
    }));
    for (let i = 0; i < many.length; i += 200) {
      await t.app.ctx.db
        .insertInto('sys_pos')
        .values(many.slice(i, i + 200) as never)
        .execute();
    }
    const res = await authed(t.app, tokens.admin2, {
      method: 'POST',
      url: '/api/sysTag/export',
      payload: { keyword: 'bulk' },
    });
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(workbook.worksheets[0]?.actualRowCount).toBe(1204);
    // The other tenant's admin exports none of them.
    const none = await authed(t.app, tokens.admin, {
      method: 'POST',
      url: '/api/sysTag/export',
      payload: { keyword: 'bulk' },
    });
    const empty = new ExcelJS.Workbook();
    await empty.xlsx.load(none.rawPayload as unknown as ArrayBuffer);
    expect(empty.worksheets[0]?.actualRowCount).toBe(1);
  });
});
