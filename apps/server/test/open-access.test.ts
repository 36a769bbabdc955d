import { createHmac, randomBytes } from 'node:crypto';
import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  type OpenAccessItem,
  type OpenAccessSecret,
  type OpenAccessToken,
  openAccessSignText,
} from '@shuzhi/contracts/open-access';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetOpenAccessKey } from '../src/platform/access/signed-request.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  const users = await t.app.ctx.db.selectFrom('sys_user').select(['id', 'account']).execute();
  for (const u of users) ids[u.account] = u.id;
});
afterAll(async () => {
  await t?.close();
});

type Method = 'GET' | 'POST';
const call = (method: Method, url: string, payload?: object) =>
  authed(t.app, admin, { method, url, ...(payload ? { payload } : {}) });
async function ok<T>(method: Method, url: string, payload?: object): Promise<T> {
  const env = body<T>(await call(method, url, payload));
  expect(env.code, `${method} ${url} ${JSON.stringify(env)}`).toBe(200);
  return env.result as T;
}

const addKey = (account: string, remark?: string) =>
  ok<OpenAccessSecret>('POST', '/api/sysOpenAccess/add', { bindUserId: ids[account], remark });

type SignOptions = { timestamp?: number | string; nonce?: string; sign?: string; secret?: string };

/** Headers of a signed call, per REFERENCE: Base64(HMAC-SHA256(secret, METHOD&path&key&timestamp&nonce)). */
function signedHeaders(key: OpenAccessSecret, method: string, url: string, options: SignOptions = {}) {
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomBytes(12).toString('hex');
  const path = url.split('?')[0] ?? '';
  const text = openAccessSignText({ method, path, accessKey: key.accessKey, timestamp, nonce });
  const sign =
    options.sign ??
    createHmac('sha256', options.secret ?? key.accessSecret)
      .update(text)
      .digest('base64');
  return { accessKey: key.accessKey, timestamp, nonce, sign };
}

function signedCall(key: OpenAccessSecret, url: string, options: SignOptions = {}, method: Method = 'GET') {
  const payload = method === 'POST' ? { payload: {} } : {};
  return t.app.inject({ method, url, headers: signedHeaders(key, method, url, options), ...payload });
}

describe('managing keys', () => {
  it('creates a key bound to a tenant user and shows the secret only in the answer of add', async () => {
    const key = await addKey('admin', 'reporting sync');
    expect(key.accessKey).toMatch(/^[\w-]{16,}$/);
    expect(key.accessSecret).toMatch(/^[\w-]{43,}$/);

    const stored = await t.app.ctx.db
      .selectFrom('sys_open_access')
      .selectAll()
      .where('id', '=', key.id)
      .executeTakeFirstOrThrow();
    expect(stored.access_secret).not.toContain(key.accessSecret);
    expect(stored.tenant_id).toBeGreaterThan(0);

    const page = await ok<PageResult<OpenAccessItem>>('POST', '/api/sysOpenAccess/page', {
      accessKey: key.accessKey,
    });
    expect(page.total).toBe(1);
    expect(page.items[0]).toMatchObject({
      id: key.id,
      accessKey: key.accessKey,
      bindUserId: ids.admin,
      bindUserAccount: 'admin',
      status: 1,
      remark: 'reporting sync',
    });
    const detail = await ok<OpenAccessItem>('GET', `/api/sysOpenAccess/detail?Id=${key.id}`);
    const list = await ok<OpenAccessItem[]>('GET', '/api/sysOpenAccess/list');
    for (const answer of [page, detail, list]) {
      const json = JSON.stringify(answer);
      expect(json).not.toContain(key.accessSecret);
      expect(json).not.toContain(stored.access_secret);
      expect(json).not.toContain('ccessSecret');
    }

    const exported = await call('POST', '/api/sysOpenAccess/export', { accessKey: key.accessKey });
    expect(exported.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const cells: string[] = [];
    workbook.worksheets[0]?.eachRow((row) => {
      row.eachCell((cell) => {
        cells.push(String(cell.value));
      });
    });
    expect(cells).toContain(key.accessKey);
    expect(cells).toContain('admin');
    expect(cells.join('|')).not.toContain(key.accessSecret);
    expect(cells.join('|')).not.toContain(stored.access_secret);
  });

  it('filters by the bound user and refuses users it may not bind', async () => {
    await addKey('fgwstaff');
    const byName = await ok<PageResult<OpenAccessItem>>('POST', '/api/sysOpenAccess/page', {
      bindUser: '张伟',
    });
    expect(byName.items.map((i) => i.bindUserAccount)).toEqual(['fgwstaff']);
    const byId = await ok<PageResult<OpenAccessItem>>('POST', '/api/sysOpenAccess/page', {
      bindUserId: ids.fgwstaff,
    });
    expect(byId.total).toBe(1);

    const missing = body(await call('POST', '/api/sysOpenAccess/add', { bindUserId: 987654321 }));
    expect(missing.code).toBe('D1002');
    // A tenant admin cannot hand out the super admin's rights through a key.
    const higher = body(await call('POST', '/api/sysOpenAccess/add', { bindUserId: ids.superadmin }));
    expect(higher.code).not.toBe(200);
    const invalid = body(await call('POST', '/api/sysOpenAccess/add', {}));
    expect(invalid.code).toBe(400);
  });

  it('needs the sysOpenAccess permissions', async () => {
    const staff = (await login(t.app, 'fgwstaff')).accessToken;
    const res = await authed(t.app, staff, { method: 'POST', url: '/api/sysOpenAccess/page', payload: {} });
    expect(res.statusCode).toBe(403);
  });
});

describe('signed requests', () => {
  it("acts as the bound user, with that user's permissions only", async () => {
    const role = await t.app.ctx.db.selectFrom('sys_role').select('id').executeTakeFirstOrThrow();
    const roleUrl = `/api/sysRole/detail?Id=${role.id}`;
    const adminKey = await addKey('admin');
    const res = await signedCall(adminKey, roleUrl);
    expect(body(res).code).toBe(200);

    const staffKey = await addKey('fgwstaff');
    const info = body<{ account: string }>(await signedCall(staffKey, '/api/sysAuth/userInfo'));
    expect(info.code).toBe(200);
    expect(info.result?.account).toBe('fgwstaff');
    const denied = await signedCall(staffKey, roleUrl);
    expect(denied.statusCode).toBe(403);

    // POST bodies are not signed; the method is.
    const page = body(await signedCall(adminKey, '/api/sysOpenAccess/page', {}, 'POST'));
    expect(page.code).toBe(200);

    // last_used_time is written off the request path.
    await expect
      .poll(async () => {
        const row = await t.app.ctx.db
          .selectFrom('sys_open_access')
          .select('last_used_time')
          .where('id', '=', adminKey.id)
          .executeTakeFirstOrThrow();
        return row.last_used_time;
      })
      .not.toBeNull();
  });

  it('refuses wrong signatures, stale timestamps, replayed nonces and unknown keys with their codes', async () => {
    const key = await addKey('admin');
    const url = '/api/sysAuth/userInfo';
    const code = async (options: SignOptions, k = key) => body(await signedCall(k, url, options)).code;

    expect(await code({ secret: 'not-the-secret' })).toBe('D1021');
    expect(await code({ sign: 'garbage' })).toBe('D1021');
    const headers = signedHeaders(key, 'GET', url);
    // Signed for another path.
    const other = await t.app.inject({ url: '/api/sysOpenAccess/list', headers });
    expect(body(other).code).toBe('D1021');
    const { nonce: _n, ...noNonce } = signedHeaders(key, 'GET', url);
    expect(body(await t.app.inject({ url, headers: noNonce })).code).toBe('D1021');

    const now = Math.floor(Date.now() / 1000);
    expect(await code({ timestamp: now - 301 })).toBe('D1022');
    expect(await code({ timestamp: now + 301 })).toBe('D1022');
    expect(await code({ timestamp: now - 200 })).toBe(200);

    const nonce = randomBytes(8).toString('hex');
    expect(await code({ nonce })).toBe(200);
    expect(await code({ nonce })).toBe('D1023');

    const unknown = { ...key, accessKey: 'no-such-key-0000' };
    expect(await code({}, unknown)).toBe('D1024');

    // Without any signature header the request is an ordinary unauthenticated one.
    expect((await t.app.inject({ url })).statusCode).toBe(401);
  });

  it('refuses disabled keys, keys of disabled users, and deleted keys', async () => {
    const key = await addKey('admin');
    const url = '/api/sysAuth/userInfo';
    expect(body(await signedCall(key, url)).code).toBe(200);
    await ok('POST', '/api/sysOpenAccess/setStatus', { id: key.id, status: 2 });
    expect(body(await signedCall(key, url)).code).toBe('D1024');
    await ok('POST', '/api/sysOpenAccess/setStatus', { id: key.id, status: 1 });
    expect(body(await signedCall(key, url)).code).toBe(200);

    const userKey = await addKey('njdlstaff');
    await t.app.ctx.db.updateTable('sys_user').set({ status: 2 }).where('id', '=', ids.njdlstaff).execute();
    await forgetOpenAccessKey(t.app.ctx, userKey.accessKey);
    expect(body(await signedCall(userKey, url)).code).toBe('D1024');
    await t.app.ctx.db.updateTable('sys_user').set({ status: 1 }).where('id', '=', ids.njdlstaff).execute();

    await ok('POST', '/api/sysOpenAccess/delete', { id: key.id });
    expect(body(await signedCall(key, url)).code).toBe('D1024');
  });

  it('resetSecret gives a new secret and the old one stops working', async () => {
    const key = await addKey('admin');
    const url = '/api/sysAuth/userInfo';
    expect(body(await signedCall(key, url)).code).toBe(200);
    const fresh = await ok<OpenAccessSecret>('POST', '/api/sysOpenAccess/resetSecret', { id: key.id });
    expect(fresh.accessKey).toBe(key.accessKey);
    expect(fresh.accessSecret).not.toBe(key.accessSecret);
    expect(body(await signedCall(key, url)).code).toBe('D1021');
    expect(body(await signedCall(fresh, url)).code).toBe(200);
    const detail = JSON.stringify(await ok('GET', `/api/sysOpenAccess/detail?Id=${key.id}`));
    expect(detail).not.toContain(fresh.accessSecret);
    expect(body(await call('POST', '/api/sysOpenAccess/resetSecret', { id: 12345 })).code).toBe('D1002');
  });

  it('updates the bound user and the remark, never the key', async () => {
    const key = await addKey('admin');
    await ok('POST', '/api/sysOpenAccess/update', {
      id: key.id,
      bindUserId: ids.fgwstaff,
      remark: 'moved',
      accessKey: 'mine',
    });
    const detail = await ok<OpenAccessItem>('GET', `/api/sysOpenAccess/detail?Id=${key.id}`);
    expect(detail).toMatchObject({ accessKey: key.accessKey, bindUserAccount: 'fgwstaff', remark: 'moved' });
    const info = body<{ account: string }>(await signedCall(key, '/api/sysAuth/userInfo'));
    expect(info.result?.account).toBe('fgwstaff');
    const bad = body(await call('POST', '/api/sysOpenAccess/update', { id: key.id, bindUserId: 987654321 }));
    expect(bad.code).toBe('D1002');
  });
});

describe('GET /api/auth/token', () => {
  it('opens a session for the bound user', async () => {
    const key = await addKey('fgwstaff');
    const res = await signedCall(key, '/api/auth/token');
    const env = body<OpenAccessToken>(res);
    expect(env.code).toBe(200);
    expect(env.result?.accessToken).toBeTruthy();
    expect(env.result?.refreshToken).toBeTruthy();
    const info = body<{ account: string }>(
      await authed(t.app, env.result?.accessToken ?? '', { url: '/api/sysAuth/userInfo' }),
    );
    expect(info.result?.account).toBe('fgwstaff');
    const session = await t.app.ctx.db
      .selectFrom('sys_session')
      .select('user_id')
      .where('user_id', '=', ids.fgwstaff)
      .where('revoked', '=', 0)
      .execute();
    expect(session.length).toBeGreaterThan(0);
  });

  it('refuses stale timestamps, replayed nonces, wrong signatures and unknown keys', async () => {
    const key = await addKey('admin');
    const url = '/api/auth/token';
    const code = async (options: SignOptions, k = key) => body(await signedCall(k, url, options)).code;
    expect(await code({ timestamp: Math.floor(Date.now() / 1000) - 3600 })).toBe('D1022');
    const nonce = randomBytes(8).toString('hex');
    expect(await code({ nonce })).toBe(200);
    expect(await code({ nonce })).toBe('D1023');
    expect(await code({ secret: 'wrong' })).toBe('D1021');
    expect(await code({}, { ...key, accessKey: 'unknown-key' })).toBe('D1024');
    const plain = await t.app.inject({ url });
    expect(body(plain).code).toBe('D1021');
  });
});
