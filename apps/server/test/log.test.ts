import type { PageResult } from '@shuzhi/contracts/envelope';
import type { DiffLog, ExLog, OpLog, VisitLog } from '@shuzhi/contracts/log';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID } from '../src/db/seeds/seed.ts';
import { flushAudit } from '../src/platform/audit/audit.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import {
  authed,
  body,
  createTestApp,
  encrypt,
  login,
  loginRequest,
  passwordOf,
  setConfig,
  type TestApp,
} from './helpers.ts';

let t: TestApp;
let admin: string;
let superadmin: string;
let staff: string;

const CHROME_WIN =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

beforeAll(async () => {
  t = await createTestApp();
  // A test-only route that fails, to produce a 500 with a trace id.
  t.app.post('/api/testFault/boom', { config: { access: 'loggedIn' } }, async () => {
    throw new Error('boom: the disk is on fire');
  });
  // The log pages are not in the web app yet, so their menus and buttons are seeded disabled; the page that
  // lands enables them. Here the buttons (the API permissions) are switched on as that will do.
  await t.app.ctx.db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where('type', '=', 3)
    .where('permission', 'like', 'sysLog%')
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  superadmin = (await login(t.app, 'superadmin')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
  authed(t.app, token, {
    method,
    url,
    headers: { 'user-agent': CHROME_WIN },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

async function page<T>(resource: string, filters: Record<string, unknown> = {}, token = admin) {
  await flushAudit(t.app.ctx);
  const env = body<PageResult<T>>(
    await call(token, 'POST', `/api/${resource}/page`, { pageSize: 100, ...filters }),
  );
  if (env.code !== 200 || !env.result) throw new Error(JSON.stringify(env));
  return env.result;
}

const db = () => t.app.ctx.db;

describe('operation log', () => {
  it('records a write once, with masked passwords, code, elapsed, ip, browser and os; reads leave none', async () => {
    await flushAudit(t.app.ctx);
    await db().deleteFrom('sys_log_op').execute();
    const bad = await call(staff, 'POST', '/api/sysUser/changePwd', {
      passwordOld: encrypt(t.app, 'wrong-old-password'),
      passwordNew: encrypt(t.app, 'Another#Pass1'),
    });
    const code = body(bad).code;
    expect(code).not.toBe(200);
    // Reads, even POSTed ones, leave nothing.
    await call(admin, 'POST', '/api/sysConfig/page', { pageSize: 5 });
    await call(admin, 'GET', '/api/sysConfig/list');
    await call(admin, 'POST', '/api/sysConfig/export', {});
    await flushAudit(t.app.ctx);
    const rows = await db().selectFrom('sys_log_op').selectAll().execute();
    expect(rows).toHaveLength(1);
    const row = rows[0];
    expect(row).toMatchObject({
      http_method: 'POST',
      route_url: '/api/sysUser/changePwd',
      url: '/api/sysUser/changePwd',
      controller: 'sysUser',
      action: 'changePwd',
      code: String(code),
      status: 2,
      account: 'fgwstaff',
      tenant_id: DEFAULT_TENANT_ID,
      ip: '127.0.0.1',
      browser: 'Chrome 126',
      os: 'Windows 10',
    });
    expect(row?.message).toBeTruthy();
    expect(row?.elapsed).toBeGreaterThanOrEqual(0);
    expect(row?.trace_id).toBeTruthy();
    expect(JSON.parse(row?.params ?? '')).toEqual({ passwordOld: '******', passwordNew: '******' });
  });

  it('masks the login password and captcha answer but keeps the structure and the account', async () => {
    await flushAudit(t.app.ctx);
    await db().deleteFrom('sys_log_op').execute();
    const response = await loginRequest(t.app, 'admin', passwordOf(t.app, 'admin'), {
      codeId: 123,
      code: 'abcd',
    });
    expect(body(response).code).toBe(200);
    const items = (await page<OpLog>('sysLogOp', { keyword: 'sysAuth/login' })).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ account: 'admin', code: '200', status: 1, action: 'login' });
    expect(JSON.parse(items[0]?.params ?? '')).toEqual({
      account: 'admin',
      password: '******',
      codeId: 123,
      code: '******',
    });
  });

  it('records nothing when sys_oplog is false', async () => {
    await setConfig(t.app, 'sys_oplog', 'false');
    try {
      await flushAudit(t.app.ctx);
      const before = (await page<OpLog>('sysLogOp')).total;
      await call(admin, 'POST', '/api/sysConfig/batchUpdate', [{ code: 'sys_watermark', value: 'false' }]);
      await flushAudit(t.app.ctx);
      expect((await page<OpLog>('sysLogOp')).total).toBe(before);
    } finally {
      await setConfig(t.app, 'sys_oplog', 'true');
    }
  });
});

describe('visit log', () => {
  it('records a failed login with its code, a login and a logout', async () => {
    await flushAudit(t.app.ctx);
    await db().deleteFrom('sys_log_vis').execute();
    const failed = await loginRequest(
      t.app,
      'fgwstaff',
      'not-the-password',
      {},
      { 'user-agent': CHROME_WIN },
    );
    expect(body(failed).code).toBe('D1000');
    const tokens = await login(t.app, 'fgwstaff');
    expect(
      body(await authed(t.app, tokens.accessToken, { method: 'POST', url: '/api/sysAuth/logout' })).code,
    ).toBe(200);
    await loginRequest(t.app, 'nobody-here');
    const items = (await page<VisitLog>('sysLogVis')).items;
    const byAction = (action: string) => items.filter((i) => i.action === action);
    expect(
      byAction('loginFail')
        .map((i) => i.code)
        .sort(),
    ).toEqual(['D0009', 'D1000']);
    const fail = byAction('loginFail').find((i) => i.code === 'D1000');
    expect(fail).toMatchObject({ account: 'fgwstaff', status: 2, browser: 'Chrome 126', os: 'Windows 10' });
    expect(fail?.message).toBe('密码不正确');
    expect(byAction('login')[0]).toMatchObject({ account: 'fgwstaff', status: 1, code: '200' });
    expect(byAction('login')[0]?.realName).toBeTruthy();
    expect(byAction('logout')[0]).toMatchObject({ account: 'fgwstaff', status: 1 });
    // Newest first.
    expect(items[0]?.action).toBe('loginFail');
    expect((await page<VisitLog>('sysLogVis', { status: 2 })).items.every((i) => i.status === 2)).toBe(true);
  });
});

describe('exception log', () => {
  it('records a 500 under the trace id the client saw', async () => {
    const response = await call(admin, 'POST', '/api/testFault/boom', { password: 'secret!', keep: 1 });
    expect(response.statusCode).toBe(500);
    const traceId = response.headers['x-trace-id'] as string;
    expect(traceId).toBeTruthy();
    expect(body(response).message).toContain(traceId);
    const items = (await page<ExLog>('sysLogEx', { traceId })).items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      traceId,
      httpMethod: 'POST',
      url: '/api/testFault/boom',
      account: 'admin',
    });
    expect(items[0]?.message).toContain('the disk is on fire');
    expect(items[0]?.stack).toContain('Error');
    expect(JSON.parse(items[0]?.params ?? '')).toEqual({ password: '******', keep: 1 });
    const op = (await page<OpLog>('sysLogOp', { keyword: 'testFault' })).items[0];
    expect(op).toMatchObject({ code: '500', status: 2, traceId });
  });
});

describe('diff log', () => {
  it('keeps before and after of a config update and of a dictionary add and delete', async () => {
    const row = (await db()
      .selectFrom('sys_config')
      .select(['id', 'value'])
      .where('code', '=', 'sys_web_title')
      .executeTakeFirstOrThrow()) as { id: number; value: string | null };
    const update = await call(superadmin, 'POST', '/api/sysConfig/update', {
      id: row.id,
      value: '数智测试区',
    });
    expect(body(update).code).toBe(200);
    const items = (await page<DiffLog>('sysLogDiff', { tableName: 'sys_config', recordId: row.id })).items;
    expect(items).toHaveLength(1);
    const diff = items[0] as DiffLog;
    expect(diff).toMatchObject({ operation: 'update', changedFields: 'value', account: 'superadmin' });
    expect(JSON.parse(diff.beforeData ?? '')).toMatchObject({ code: 'sys_web_title', value: row.value });
    expect(JSON.parse(diff.afterData ?? '')).toMatchObject({ code: 'sys_web_title', value: '数智测试区' });
    expect(diff.traceId).toBeTruthy();

    const added = body<number>(
      await call(superadmin, 'POST', '/api/sysDictType/add', { code: 'log_probe', name: '日志探针' }),
    );
    expect(added.code).toBe(200);
    expect(body(await call(superadmin, 'POST', '/api/sysDictType/delete', { id: added.result })).code).toBe(
      200,
    );
    const dict = (await page<DiffLog>('sysLogDiff', { tableName: 'sys_dict_type', recordId: added.result }))
      .items;
    expect(dict.map((d) => d.operation)).toEqual(['delete', 'add']);
    expect(dict[1]?.beforeData).toBeNull();
    expect(JSON.parse(dict[0]?.beforeData ?? '')).toMatchObject({ code: 'log_probe' });
    expect(dict[0]?.afterData).toBeNull();
  });
});

describe('pages, detail, export, clear and access', () => {
  it('filters by time range, account, ip and keyword, and keeps tenants apart', async () => {
    await flushAudit(t.app.ctx);
    const old = {
      id: t.app.ctx.newId(),
      create_time: '2020-01-01 10:00:00',
      is_delete: 0,
      tenant_id: DEFAULT_TENANT_ID,
      account: 'oldtimer',
      http_method: 'POST',
      url: '/api/sysOld/thing',
      route_url: '/api/sysOld/thing',
      controller: 'sysOld',
      action: 'thing',
      status: 1,
      code: '200',
      elapsed: 5,
      ip: '10.0.0.9',
    };
    const otherTenant = { ...old, id: t.app.ctx.newId(), tenant_id: 42, account: 'elsewhere' };
    await db().insertInto('sys_log_op').values([old, otherTenant]).execute();

    const day = await page<OpLog>('sysLogOp', { startTime: '2020-01-01', endTime: '2020-01-01' });
    expect(day.items.map((i) => i.account)).toEqual(['oldtimer']);
    expect(
      (await page<OpLog>('sysLogOp', { startTime: '2020-01-01 10:00:01', endTime: '2020-01-01' })).total,
    ).toBe(0);
    expect((await page<OpLog>('sysLogOp', { endTime: '2020-01-02' })).items.map((i) => i.account)).toEqual([
      'oldtimer',
    ]);
    expect((await page<OpLog>('sysLogOp', { ip: '10.0.0.9' })).total).toBe(1);
    expect((await page<OpLog>('sysLogOp', { keyword: 'SYSOLD' })).total).toBe(1);
    expect((await page<OpLog>('sysLogOp', { account: 'oldtim' })).total).toBe(1);
    // The super admin sees every tenant.
    expect((await page<OpLog>('sysLogOp', { ip: '10.0.0.9' }, superadmin)).total).toBe(2);

    const detail = body<OpLog>(await call(admin, 'GET', `/api/sysLogOp/detail?Id=${old.id}`));
    expect(detail.result).toMatchObject({
      id: old.id,
      account: 'oldtimer',
      createTime: '2020-01-01 10:00:00',
    });
    expect(body(await call(admin, 'GET', `/api/sysLogOp/detail?Id=${otherTenant.id}`)).code).toBe('D1002');
  });

  it('exports a real .xlsx', async () => {
    const response = await call(admin, 'POST', '/api/sysLogOp/export', { account: 'oldtimer' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).values).toEqual(expect.arrayContaining(['oldtimer', '/api/sysOld/thing']));
  });

  it('is read-only, and answers 401 / 403 / 200 for anonymous, staff and the tenant admin', async () => {
    const routes = t.app
      .registeredRoutes()
      .filter((r) => r.url.startsWith('/api/sysLogOp/') && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url} ${r.access}`)
      .sort();
    expect(routes).toEqual([
      'GET /api/sysLogOp/:id(^\\d+$) sysLogOp:detail',
      'GET /api/sysLogOp/detail sysLogOp:detail',
      'GET /api/sysLogOp/page sysLogOp:page',
      'POST /api/sysLogOp/clear sysLogOp:clear',
      'POST /api/sysLogOp/export sysLogOp:export',
      'POST /api/sysLogOp/page sysLogOp:page',
    ]);
    for (const resource of ['sysLogVis', 'sysLogOp', 'sysLogEx', 'sysLogDiff']) {
      for (const [method, url] of [
        ['POST', `/api/${resource}/page`],
        ['GET', `/api/${resource}/detail?Id=1`],
        ['POST', `/api/${resource}/export`],
        ['POST', `/api/${resource}/clear`],
      ] as const) {
        const anonymous = await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
        expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
        const denied = await authed(t.app, staff, {
          method,
          url,
          ...(method === 'POST' ? { payload: {} } : {}),
        });
        expect(denied.statusCode, `${method} ${url}`).toBe(403);
      }
      expect(body(await call(admin, 'POST', `/api/${resource}/page`, {})).code).toBe(200);
    }
    expect((await call(admin, 'POST', '/api/sysLogOp/add', {})).statusCode).toBe(404);
    expect((await call(admin, 'POST', '/api/sysLogOp/delete', { id: 1 })).statusCode).toBe(404);
  });

  it('clears the tenant’s rows and answers how many went; the super admin clears every tenant', async () => {
    await flushAudit(t.app.ctx);
    const count = async () =>
      Number(
        (
          await db()
            .selectFrom('sys_log_op')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('tenant_id', '=', DEFAULT_TENANT_ID)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const mine = await count();
    expect(mine).toBeGreaterThan(0);
    const cleared = body<number>(await call(admin, 'POST', '/api/sysLogOp/clear'));
    expect(cleared).toMatchObject({ code: 200, result: mine });
    await flushAudit(t.app.ctx);
    // The clear itself is a write and is logged afterwards; the other tenant's row stays.
    expect(await count()).toBe(1);
    const rest = await db()
      .selectFrom('sys_log_op')
      .select('tenant_id')
      .where('tenant_id', '=', 42)
      .execute();
    expect(rest).toHaveLength(1);
    const all = body<number>(await call(superadmin, 'POST', '/api/sysLogOp/clear'));
    expect(all.result).toBe(2);
  });
});

describe('batch writer', () => {
  it('takes a burst of 10 000 entries without holding up requests and writes them all', async () => {
    const { auditWriterOf } = await import('../src/platform/audit/audit.ts');
    const writer = auditWriterOf(t.app.ctx);
    if (!writer) throw new Error('no audit writer');
    await flushAudit(t.app.ctx);
    const now = formatDateTime();
    for (let i = 0; i < 10_000; i++) {
      writer.enqueue('sys_log_vis', {
        id: t.app.ctx.newId(),
        create_time: now,
        is_delete: 0,
        tenant_id: DEFAULT_TENANT_ID,
        account: 'burst',
        action: 'login',
        status: 1,
      });
    }
    // Enqueueing returned at once; a request is served meanwhile.
    expect(body(await call(admin, 'GET', '/api/sysAuth/userInfo')).code).toBe(200);
    await flushAudit(t.app.ctx);
    expect(writer.queued).toBe(0);
    expect(writer.dropped).toBe(0);
    const n = await db()
      .selectFrom('sys_log_vis')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('account', '=', 'burst')
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(10_000);
  });
});
