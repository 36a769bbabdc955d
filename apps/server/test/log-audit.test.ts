import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TENANT_ID } from '../src/db/seeds/seed.ts';
import { flushAudit } from '../src/platform/audit/audit.ts';
import { maskParams } from '../src/platform/audit/mask.ts';
import { pruneLogs } from '../src/platform/audit/retention.ts';
import { parseUserAgent } from '../src/platform/audit/user-agent.ts';
import { createAuditWriter } from '../src/platform/audit/writer.ts';
import { openDatabase } from '../src/platform/db/db.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import { authed, body, createTestApp, login, loginRequest, setConfig, type TestApp } from './helpers.ts';

describe('parseUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome 126',
      'Windows 10',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
      'Edge 126',
      'Windows 10',
    ],
    ['Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0', 'Firefox 128', 'Linux'],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari 17',
      'macOS 10.15.7',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.49(0x18003133) NetType/WIFI Language/zh_CN',
      'WeChat 8',
      'iOS 17.5',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; V2145A) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/108.0.5359.128 Mobile Safari/537.36 QQBrowser/14.8',
      'QQ Browser 14',
      'Android 13',
    ],
    [
      'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.198 Safari/537.36 QIHU 360SE',
      '360',
      'Windows 7',
    ],
  ])('%s', (ua, browser, os) => {
    expect(parseUserAgent(ua)).toEqual({ browser, os });
  });

  it('answers nulls for a missing or unknown agent', () => {
    expect(parseUserAgent(undefined)).toEqual({ browser: null, os: null });
    expect(parseUserAgent('curl/8.5.0')).toEqual({ browser: null, os: null });
  });
});

describe('maskParams', () => {
  it('masks secrets at any depth and keeps the structure and business codes', () => {
    const json = maskParams({
      account: 'admin',
      password: 'p',
      nested: { passwordNew: 'x', pwd: 'y', clientSecret: 's', accessToken: 't', list: [{ oldPwd: 'z' }] },
      code: 'sys_oplog',
      captcha: '1234',
    });
    expect(JSON.parse(json ?? '')).toEqual({
      account: 'admin',
      password: '******',
      nested: {
        passwordNew: '******',
        pwd: '******',
        clientSecret: '******',
        accessToken: '******',
        list: [{ oldPwd: '******' }],
      },
      code: 'sys_oplog',
      captcha: '******',
    });
    // With a codeId the code is a captcha answer.
    expect(JSON.parse(maskParams({ codeId: 'a', code: '1234' }) ?? '')).toEqual({
      codeId: 'a',
      code: '******',
    });
  });

  it('caps the size at about 8 KB and answers null for no parameters', () => {
    const big = maskParams({ rows: Array.from({ length: 5000 }, (_, i) => ({ i, text: 'x'.repeat(50) })) });
    expect(big?.length).toBeLessThanOrEqual(8 * 1024 + 1);
    expect(maskParams({})).toBeNull();
    expect(maskParams(undefined)).toBeNull();
  });
});

describe('audit writer and retention', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const visit = (account: string, time = formatDateTime()) => ({
    id: t.app.ctx.newId(),
    create_time: time,
    is_delete: 0,
    tenant_id: DEFAULT_TENANT_ID,
    account,
    action: 'login',
    status: 1,
  });
  const countOf = async (table: 'sys_log_vis' | 'sys_log_op', account: string) =>
    Number(
      (
        await t.app.ctx.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('account', '=', account)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('drops the oldest entries beyond its bound and counts them', async () => {
    const writer = createAuditWriter(t.app.ctx, { maxQueue: 10, batchSize: 1000, intervalMs: 60_000 });
    const rows = Array.from({ length: 25 }, (_, i) => visit(`overflow-${i}`));
    for (const row of rows) writer.enqueue('sys_log_vis', row);
    expect(writer.queued).toBe(10);
    expect(writer.dropped).toBe(15);
    await writer.close();
    expect(await countOf('sys_log_vis', 'overflow-0')).toBe(0);
    expect(await countOf('sys_log_vis', 'overflow-24')).toBe(1);
    expect(await countOf('sys_log_vis', 'overflow-15')).toBe(1);
    expect(await countOf('sys_log_vis', 'overflow-14')).toBe(0);
  });

  it('prunes rows older than sys_log_retention_days and keeps recent ones; 0 keeps everything', async () => {
    const old = formatDateTime(new Date(Date.now() - 200 * 86_400_000));
    const recent = formatDateTime(new Date(Date.now() - 10 * 86_400_000));
    await t.app.ctx.db
      .insertInto('sys_log_vis')
      .values([visit('pruned', old), visit('pruned', old), visit('kept', recent)])
      .execute();
    await setConfig(t.app, 'sys_log_retention_days', '0');
    expect(await pruneLogs(t.app.ctx)).toBe(0);
    expect(await countOf('sys_log_vis', 'pruned')).toBe(2);
    await setConfig(t.app, 'sys_log_retention_days', '180');
    expect(await pruneLogs(t.app.ctx)).toBeGreaterThanOrEqual(2);
    expect(await countOf('sys_log_vis', 'pruned')).toBe(0);
    expect(await countOf('sys_log_vis', 'kept')).toBe(1);
  });

  it('writes what is queued when the app closes', async () => {
    const other = await createTestApp();
    const { accessToken } = await login(other.app, 'superadmin');
    const response = await authed(other.app, accessToken, {
      method: 'POST',
      url: '/api/sysConfig/batchUpdate',
      payload: [{ code: 'sys_watermark', value: 'false' }],
    });
    expect(body(response).code).toBe(200);
    // No flush: closing must write the visit and the operation.
    await other.app.close();
    const { db } = openDatabase(other.config.database);
    try {
      const ops = await db.selectFrom('sys_log_op').select(['action', 'account']).execute();
      expect(ops).toContainEqual({ action: 'batchUpdate', account: 'superadmin' });
      const visits = await db.selectFrom('sys_log_vis').select(['action', 'account']).execute();
      expect(visits).toContainEqual({ action: 'login', account: 'superadmin' });
    } finally {
      await db.destroy();
      await other.testEnv.cleanup();
    }
  });

  it('flushAudit makes queued rows visible at once', async () => {
    await flushAudit(t.app.ctx);
    const { accessToken } = await login(t.app, 'admin');
    await flushAudit(t.app.ctx);
    expect(await countOf('sys_log_op', 'admin')).toBeGreaterThanOrEqual(1);
    expect(accessToken).toBeTruthy();
  });
});

/** A sign-in is anonymous; its operation row still belongs to the tenant of the account it was for. */
describe('the operation log of signing in and out', () => {
  let t: TestApp;
  let tenantId: number;
  beforeAll(async () => {
    t = await createTestApp();
    const root = (await login(t.app, 'superadmin')).accessToken;
    const added = await authed(t.app, root, {
      method: 'POST',
      url: '/api/sysTenant/add',
      payload: { code: 'oplogt', name: '操作日志租户', adminAccount: 'oplogadmin', remark: 'test' },
    });
    tenantId = body<number>(added).result as number;
    expect(tenantId).not.toBe(DEFAULT_TENANT_ID);
  });
  afterAll(async () => {
    await t?.close();
  });

  const opRows = async (action: string) => {
    await flushAudit(t.app.ctx);
    return t.app.ctx.db
      .selectFrom('sys_log_op')
      .select(['tenant_id', 'user_id', 'account', 'code'])
      .where('account', '=', 'oplogadmin')
      .where('action', '=', action)
      .orderBy('id')
      .execute();
  };

  it("files the sign-in, failed or not, and the sign-out in the account's tenant", async () => {
    const user = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', 'oplogadmin')
      .executeTakeFirstOrThrow();
    expect(body(await loginRequest(t.app, 'oplogadmin', 'Wrong@2026')).code).toBe('D1000');
    const { accessToken } = await login(t.app, 'oplogadmin');
    const logins = await opRows('login');
    expect(logins.length).toBeGreaterThanOrEqual(2);
    for (const row of logins) expect(row).toMatchObject({ tenant_id: tenantId, user_id: user.id });
    expect(logins.map((row) => row.code)).toEqual(expect.arrayContaining(['D1000', '200']));

    const out = await authed(t.app, accessToken, { method: 'POST', url: '/api/sysAuth/logout' });
    expect(body(out).code).toBe(200);
    expect(await opRows('logout')).toEqual([
      { tenant_id: tenantId, user_id: user.id, account: 'oplogadmin', code: '200' },
    ]);
  });

  it('keeps an unknown account in the default tenant, named as typed', async () => {
    expect(body(await loginRequest(t.app, 'nobody-here', 'Wrong@2026')).code).toBe('D0009');
    await flushAudit(t.app.ctx);
    const row = await t.app.ctx.db
      .selectFrom('sys_log_op')
      .select(['tenant_id', 'user_id'])
      .where('account', '=', 'nobody-here')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ tenant_id: DEFAULT_TENANT_ID, user_id: null });
  });
});
