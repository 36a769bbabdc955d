import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoginResult } from '@shuzhi/contracts/auth';
import type { ScanLoginCreateResult, ScanLoginStatus } from '@shuzhi/contracts/login-modes';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { scanKeys } from '../src/modules/login-modes/scan-login.service.ts';
import { smsKeys } from '../src/modules/login-modes/sms-login.service.ts';
import { flushAudit } from '../src/platform/audit/audit.ts';
import { loadConfig } from '../src/platform/config/config.ts';
import { ConfigError } from '../src/platform/config/config-error.ts';
import { claimFromAnswer, identityAdapterFor } from '../src/platform/identity/identity.ts';
import { authed, body, createTestApp, lockOut, login, type TestApp } from './helpers.ts';

/**
 * Mobile, scan and automatic sign-in. A fake SMS gateway and a fake identity provider run on 127.0.0.1 in
 * this process; the app reaches them through the real `http` SMS sender and `http` identity adapter.
 */

const ADMIN_PHONE = '13816520071';
const LEADER_PHONE = '13901652318';
const FAILING_PHONE = '13601728845'; // fgwleader: the fake gateway refuses this number
const UNKNOWN_PHONE = '13000000001';

type Sms = { phone: string; code: string; template: string };
type IdpCall = { path: string; body: Record<string, unknown> };
const sms: Sms[] = [];
const idpCalls: IdpCall[] = [];

/** What the fake provider answers per credential. */
const IDP_ANSWERS: Record<string, { status: number; json?: unknown; raw?: string; hang?: boolean }> = {
  'acc-admin': { status: 200, json: { account: 'admin' } },
  'phone-leader': { status: 200, json: { phone: LEADER_PHONE } },
  'card-staff': { status: 200, json: { idCardNum: '310104199106074636' } },
  'usi-ok': { status: 200, json: { usi: 'echo' } },
  refused: { status: 401, json: { error: 'invalid code' } },
  garbage: { status: 200, raw: 'not json' },
  empty: { status: 200, json: {} },
  ghost: { status: 200, json: { account: 'nobody_here' } },
  slow: { status: 200, hang: true },
};

let fake: Server;
let t: TestApp;
let adminToken: string;
let leaderToken: string;

function readJson(req: import('node:http').IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => {
      data += chunk;
    });
    req.on('end', () => resolve(JSON.parse(data || '{}') as Record<string, unknown>));
  });
}

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    const json = await readJson(req);
    if (req.url === '/sms') {
      if (json.phone === FAILING_PHONE) {
        res.writeHead(502).end('gateway down');
        return;
      }
      sms.push(json as Sms);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    idpCalls.push({ path: req.url ?? '', body: json });
    const answer = IDP_ANSWERS[String(json.code)] ?? { status: 404, json: {} };
    if (answer.hang) return; // never answers: the adapter's timeout must end it
    const payload =
      answer.raw ??
      JSON.stringify(answer.json && 'usi' in (answer.json as object) ? { usi: json.usi } : answer.json);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(payload);
  });
  await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await createTestApp({
    env: {
      SMS_PROVIDER: 'http',
      SMS_HTTP_URL: `${base}/sms`,
      SMS_DAILY_LIMIT: '3',
      AUTO_LOGIN_PROVIDER_URL: `${base}/idp/{type}`,
      AUTO_LOGIN_TIMEOUT_MS: '400',
    },
  });
  adminToken = (await login(t.app, 'admin')).accessToken;
  leaderToken = (await login(t.app, 'hpleader')).accessToken;
});

afterAll(async () => {
  await t?.close();
  fake?.closeAllConnections();
  await new Promise((resolve) => fake?.close(resolve));
});

const post = (url: string, payload: object, token?: string) =>
  token
    ? authed(t.app, token, { method: 'POST', url, payload })
    : t.app.inject({ method: 'POST', url, payload });
const sendSms = async (phone: string) => body(await post('/api/sysAuth/sendSmsCode', { phone }));
const loginPhone = async (phone: string, code: string) =>
  body<LoginResult>(await post('/api/sysAuth/loginPhone', { phone, code }));
const lastCode = (phone: string) => sms.filter((m) => m.phone === phone).at(-1)?.code ?? '';
const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
const userInfo = async (token: string) =>
  body<{ account: string }>(await authed(t.app, token, { method: 'GET', url: '/api/sysAuth/userInfo' }))
    .result?.account;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mobile sign-in', () => {
  beforeEach(async () => {
    // Each test starts without the per-minute limit of the previous one.
    for (const phone of [ADMIN_PHONE, LEADER_PHONE, FAILING_PHONE, UNKNOWN_PHONE]) {
      await t.app.ctx.cache.del(smsKeys.gap(phone), smsKeys.code(phone));
    }
    const days = await dayKeys();
    if (days.length > 0) await t.app.ctx.cache.del(...days);
  });

  it('signs in by SMS although wrong passwords from elsewhere locked another source out', async () => {
    expect((await lockOut(t.app, 'admin', '203.0.113.50')).at(-1)).toBe('D1027');
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
    expect((await loginPhone(ADMIN_PHONE, lastCode(ADMIN_PHONE))).code).toBe(200);
    await t.app.ctx.cache.delPrefix('signin:');
  });

  it('refuses a malformed number with a field error', async () => {
    const env = await sendSms('12345');
    expect(env.code).toBe(400);
    expect(JSON.stringify(env.errors)).toContain('phone');
    expect((await loginPhone(ADMIN_PHONE, '12ab56')).code).toBe(400);
  });

  it('sends a 6-digit code, keeps only its hash, and signs in once with it', async () => {
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
    const code = lastCode(ADMIN_PHONE);
    expect(code).toMatch(/^\d{6}$/);
    expect(sms.at(-1)?.template).toBe('login');
    const stored = await t.app.ctx.cache.inspect(smsKeys.code(ADMIN_PHONE));
    expect(JSON.stringify(stored?.value)).not.toContain(code);
    expect(stored?.ttlSeconds).toBeGreaterThan(290);
    expect(stored?.ttlSeconds).toBeLessThanOrEqual(300);

    const env = await loginPhone(ADMIN_PHONE, code);
    expect(env.code).toBe(200);
    // The stored flag: admin changed the default password when it first signed in (helpers' login).
    expect(env.result?.isDefPwd).toBe(false);
    expect(await userInfo(env.result?.accessToken ?? '')).toBe('admin');
    // Single use.
    expect((await loginPhone(ADMIN_PHONE, code)).code).toBe('D1013');

    await flushAudit(t.app.ctx);
    const visits = await t.app.ctx.db
      .selectFrom('sys_log_vis')
      .select(['action', 'code'])
      .where('account', '=', 'admin')
      .where('action', '=', 'login')
      .execute();
    expect(visits.length).toBeGreaterThan(0);
  });

  it('allows one SMS a minute per phone (D1014 with the seconds to wait)', async () => {
    expect((await sendSms(LEADER_PHONE)).code).toBe(200);
    const again = await sendSms(LEADER_PHONE);
    expect(again.code).toBe('D1014');
    const seconds = Number(/(\d+)/.exec(again.message ?? '')?.[1]);
    expect(seconds).toBeGreaterThan(50);
    expect(seconds).toBeLessThanOrEqual(60);
    // Another phone is not affected.
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
  });

  it('caps SMS per phone and day', async () => {
    // SMS_DAILY_LIMIT is 3 here.
    for (let i = 0; i < 3; i++) {
      expect((await sendSms(LEADER_PHONE)).code).toBe(200);
      await t.app.ctx.cache.del(smsKeys.gap(LEADER_PHONE)); // a minute passes
    }
    const capped = await sendSms(LEADER_PHONE);
    expect(capped.code).toBe('D1014');
  });

  it('answers success for an unbound number without sending, and D1015 at sign-in', async () => {
    const before = sms.length;
    expect((await sendSms(UNKNOWN_PHONE)).code).toBe(200);
    expect(sms.length).toBe(before);
    // The per-minute limit applies alike, so it reveals nothing either.
    expect((await sendSms(UNKNOWN_PHONE)).code).toBe('D1014');
    expect((await loginPhone(UNKNOWN_PHONE, '123456')).code).toBe('D1015');
  });

  it('voids a code after 5 wrong tries', async () => {
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
    const code = lastCode(ADMIN_PHONE);
    for (let i = 0; i < 5; i++) expect((await loginPhone(ADMIN_PHONE, wrong(code))).code).toBe('D1013');
    expect((await loginPhone(ADMIN_PHONE, code)).code).toBe('D1013');
  });

  it('accepts the right code after fewer than 5 wrong tries', async () => {
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
    const code = lastCode(ADMIN_PHONE);
    for (let i = 0; i < 4; i++) expect((await loginPhone(ADMIN_PHONE, wrong(code))).code).toBe('D1013');
    expect((await loginPhone(ADMIN_PHONE, code)).code).toBe(200);
  });

  it('refuses an expired code', async () => {
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
    const code = lastCode(ADMIN_PHONE);
    const stored = await t.app.ctx.cache.get<object>(smsKeys.code(ADMIN_PHONE));
    // Age it: its cache entry now lives 1 s.
    await t.app.ctx.cache.set(smsKeys.code(ADMIN_PHONE), stored, 1);
    await sleep(1200);
    expect((await loginPhone(ADMIN_PHONE, code)).code).toBe('D1013');
    // And one whose own expiry passed while the cache still holds it.
    await t.app.ctx.cache.del(smsKeys.gap(ADMIN_PHONE));
    expect((await sendSms(ADMIN_PHONE)).code).toBe(200);
    const second = lastCode(ADMIN_PHONE);
    const entry = await t.app.ctx.cache.get<{ expiresAt: number }>(smsKeys.code(ADMIN_PHONE));
    await t.app.ctx.cache.set(smsKeys.code(ADMIN_PHONE), { ...entry, expiresAt: Date.now() - 1 }, 60);
    expect((await loginPhone(ADMIN_PHONE, second)).code).toBe('D1013');
  });

  it('reports a gateway failure as D1031 and lets the user retry at once', async () => {
    expect((await sendSms(FAILING_PHONE)).code).toBe('D1031');
    expect((await sendSms(FAILING_PHONE)).code).toBe('D1031');
    expect(await t.app.ctx.cache.get(smsKeys.code(FAILING_PHONE))).toBeUndefined();
  });

  it('applies the account gates: disabled user D1017, disabled tenant Z1003', async () => {
    const db = t.app.ctx.db;
    const leader = await db
      .selectFrom('sys_user')
      .select(['id', 'tenant_id'])
      .where('account', '=', 'hpleader')
      .executeTakeFirstOrThrow();
    await db.updateTable('sys_user').set({ status: 2 }).where('id', '=', leader.id).execute();
    try {
      await t.app.ctx.cache.del(smsKeys.gap(LEADER_PHONE));
      expect((await sendSms(LEADER_PHONE)).code).toBe(200);
      expect((await loginPhone(LEADER_PHONE, lastCode(LEADER_PHONE))).code).toBe('D1017');
    } finally {
      await db.updateTable('sys_user').set({ status: 1 }).where('id', '=', leader.id).execute();
    }
    await db.updateTable('sys_tenant').set({ status: 2 }).where('id', '=', leader.tenant_id).execute();
    try {
      await t.app.ctx.cache.del(smsKeys.gap(LEADER_PHONE));
      expect((await sendSms(LEADER_PHONE)).code).toBe(200);
      expect((await loginPhone(LEADER_PHONE, lastCode(LEADER_PHONE))).code).toBe('Z1003');
    } finally {
      await db.updateTable('sys_tenant').set({ status: 1 }).where('id', '=', leader.tenant_id).execute();
    }
  });
});

const dayKeys = async () => (await t.app.ctx.cache.keys('sms:day:', 100)).keys;

describe('scan sign-in', () => {
  const create = async () => {
    const env = body<ScanLoginCreateResult>(await post('/api/sysAuth/scanLogin/create', {}));
    expect(env.code).toBe(200);
    return env.result as ScanLoginCreateResult;
  };
  const status = async (id: string) =>
    body<ScanLoginStatus>(
      await t.app.inject({
        method: 'GET',
        url: `/api/sysAuth/scanLogin/status?id=${encodeURIComponent(id)}`,
      }),
    ).result as ScanLoginStatus;
  const act = async (action: 'scan' | 'confirm' | 'cancel', id: string, token: string) =>
    body<ScanLoginStatus | null>(await post(`/api/sysAuth/scanLogin/${action}`, { id }, token));

  it('runs waiting → scanned → confirmed and hands the desktop its own session once', async () => {
    const ticket = await create();
    expect(ticket.expireSeconds).toBe(120);
    expect(ticket.url).toBe(`/scanLogin?id=${encodeURIComponent(ticket.id)}`);
    expect(await status(ticket.id)).toEqual({ status: 'waiting' });

    expect((await post('/api/sysAuth/scanLogin/scan', { id: ticket.id })).statusCode).toBe(401);
    const scanned = await act('scan', ticket.id, adminToken);
    expect(scanned.code).toBe(200);
    expect(await status(ticket.id)).toEqual({ status: 'scanned', realName: '系统管理员' });

    // Only the user who scanned may confirm or cancel.
    expect((await act('confirm', ticket.id, leaderToken)).code).toBe('D1018');
    expect((await act('cancel', ticket.id, leaderToken)).code).toBe('D1018');
    expect((await act('scan', ticket.id, leaderToken)).code).toBe('D1018');

    expect((await act('confirm', ticket.id, adminToken)).code).toBe(200);
    const done = await status(ticket.id);
    expect(done.status).toBe('confirmed');
    expect(done.accessToken).toBeTruthy();
    expect(done.refreshToken).toBeTruthy();
    expect(done.accessToken).not.toBe(adminToken);
    expect(await userInfo(done.accessToken ?? '')).toBe('admin');
    const desktop = await t.app.ctx.tokens.verifyAccess(done.accessToken ?? '');
    const phone = await t.app.ctx.tokens.verifyAccess(adminToken);
    expect(desktop.status === 'valid' && phone.status === 'valid').toBe(true);
    if (desktop.status === 'valid' && phone.status === 'valid') {
      expect(desktop.payload.SessionId).not.toBe(phone.payload.SessionId);
    }
    // The tokens come out once.
    const later = await status(ticket.id);
    expect(later.status).toBe('confirmed');
    expect(later.accessToken).toBeUndefined();
    // A confirmed ticket is spent.
    expect((await act('scan', ticket.id, adminToken)).code).toBe('D1018');
    expect((await act('confirm', ticket.id, adminToken)).code).toBe('D1018');
  });

  it('refuses confirming a ticket nobody scanned', async () => {
    const ticket = await create();
    expect((await act('confirm', ticket.id, adminToken)).code).toBe('D1018');
    expect(await status(ticket.id)).toEqual({ status: 'waiting' });
  });

  it('cancel ends the ticket for the desktop', async () => {
    const ticket = await create();
    expect((await act('scan', ticket.id, leaderToken)).code).toBe(200);
    expect((await act('cancel', ticket.id, leaderToken)).code).toBe(200);
    expect((await status(ticket.id)).status).toBe('expired');
    expect((await act('confirm', ticket.id, leaderToken)).code).toBe('D1018');
  });

  it('expires: D1018 on scan and confirm, status expired', async () => {
    const ticket = await create();
    const stored = await t.app.ctx.cache.get<object>(scanKeys.ticket(ticket.id));
    await t.app.ctx.cache.set(scanKeys.ticket(ticket.id), stored, 1);
    await sleep(1200);
    expect((await status(ticket.id)).status).toBe('expired');
    expect((await act('scan', ticket.id, adminToken)).code).toBe('D1018');

    // A ticket past its own deadline while the cache still has it counts as expired too.
    const other = await create();
    expect((await act('scan', other.id, adminToken)).code).toBe(200);
    const entry = await t.app.ctx.cache.get<object>(scanKeys.ticket(other.id));
    await t.app.ctx.cache.set(scanKeys.ticket(other.id), { ...entry, expiresAt: Date.now() - 1 }, 60);
    expect((await act('confirm', other.id, adminToken)).code).toBe('D1018');
    expect((await status(other.id)).status).toBe('expired');
  });

  it('rejects a malformed id and unknown ids read as expired', async () => {
    expect((await act('scan', 'x', adminToken)).code).toBe(400);
    expect((await status('a'.repeat(32))).status).toBe('expired');
    expect((await act('scan', 'a'.repeat(32), adminToken)).code).toBe('D1018');
  });
});

describe('automatic login by URL parameter', () => {
  const auto = async (payload: object) => body<LoginResult>(await post('/api/autoLogin/autoLogin', payload));

  it('signs in the account the provider names, calling the endpoint of the type', async () => {
    const env = await auto({ code: 'acc-admin', type: 1, paramName: 'code' });
    expect(env.code).toBe(200);
    expect(await userInfo(env.result?.accessToken ?? '')).toBe('admin');
    expect(env.result).toMatchObject({ isDefPwd: false, isUpdatePwd: false });
    expect(idpCalls.at(-1)).toEqual({
      path: '/idp/1',
      body: { type: 1, code: 'acc-admin', paramName: 'code', usi: null },
    });
  });

  it('maps phone and ID card claims', async () => {
    const byPhone = await auto({ code: 'phone-leader', type: 3, paramName: 'userid' });
    expect(await userInfo(byPhone.result?.accessToken ?? '')).toBe('hpleader');
    expect(idpCalls.at(-1)?.path).toBe('/idp/3');
    const byCard = await auto({ code: 'card-staff', type: 5 });
    expect(await userInfo(byCard.result?.accessToken ?? '')).toBe('fgwstaff');
  });

  it('type 9 finds the enterprise user by the unified social credit code and records the type', async () => {
    const first = await auto({ code: 'usi-ok', type: 9, usi: '91310101MA1FP7K316' });
    expect(first.code).toBe(200);
    expect(await userInfo(first.result?.accessToken ?? '')).toBe('qyfiller');
    const second = await auto({ code: 'usi-ok', type: 9, usi: '91310101MA1G0XQ514' });
    expect(await userInfo(second.result?.accessToken ?? '')).toBe('qyfiller2');
    const check = await t.app.ctx.tokens.verifyAccess(second.result?.accessToken ?? '');
    const sessionId = check.status === 'valid' ? check.payload.SessionId : 0;
    const session = await t.app.ctx.db
      .selectFrom('sys_session')
      .select('login_type')
      .where('id', '=', sessionId)
      .executeTakeFirst();
    expect(session?.login_type).toBe(9);
  });

  it('answers D1020 for unknown types, refusals, nonsense and silence; D0009 for an unknown account', async () => {
    const calls = idpCalls.length;
    expect((await auto({ code: 'acc-admin', type: 2 })).code).toBe('D1020');
    expect(idpCalls.length).toBe(calls); // never asked the provider
    for (const code of ['refused', 'garbage', 'empty', 'unknown-code', 'slow']) {
      expect((await auto({ code, type: 1 })).code, code).toBe('D1020');
    }
    expect((await auto({ code: 'ghost', type: 1 })).code).toBe('D0009');
    expect((await auto({ type: 1 })).code).toBe(400);
  });

  it('is off without a provider, and reads only the claim fields', () => {
    expect(identityAdapterFor({ ...t.config, autoLogin: { providerUrl: null, timeoutMs: 1000 } }).name).toBe(
      'none',
    );
    expect(claimFromAnswer({ realName: 'x', account: ' admin ' })).toEqual({ by: 'account', value: 'admin' });
    expect(claimFromAnswer({ account: 42 })).toBeNull();
    expect(claimFromAnswer([{ account: 'admin' }])).toBeNull();
  });
});

describe('configuration', () => {
  const base = () => ({ DATA_DIR: t.testEnv.dataDir });
  it('validates the SMS and identity provider variables', () => {
    expect(() => loadConfig({ ...base(), SMS_PROVIDER: 'carrier-pigeon' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base(), SMS_PROVIDER: 'http' })).toThrow(/SMS_HTTP_URL/);
    expect(() => loadConfig({ ...base(), AUTO_LOGIN_PROVIDER_URL: 'ftp://idp' })).toThrow(ConfigError);
    const config = loadConfig(base());
    expect(config.sms).toEqual({ provider: 'log', httpUrl: null, dailyLimit: 10 });
    expect(config.autoLogin.providerUrl).toBeNull();
  });
});
