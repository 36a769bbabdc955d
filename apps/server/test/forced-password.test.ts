import { createHmac, randomBytes } from 'node:crypto';
import {
  type OpenAccessSecret,
  type OpenAccessToken,
  openAccessSignText,
} from '@shuzhi/contracts/open-access';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PASSWORD_CHANGE_ROUTES,
  unknownPasswordChangeRoutes,
} from '../src/platform/access/password-change-gate.ts';
import {
  apiCalls,
  authed,
  body,
  CHANGED_PASSWORD,
  createTestApp,
  DEFAULT_PASSWORD,
  encrypt,
  login,
  loginAsIs,
  setConfig,
  type TestApp,
} from './helpers.ts';

/** Issue 14 §5: an account that must change its password is served only the forced-change screen's calls. */
let t: TestApp;
let admin: string;
const { ok, envelope, call } = apiCalls(() => t.app);

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const userId = async (account: string) =>
  (
    await t.app.ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', account)
      .executeTakeFirstOrThrow()
  ).id;

const changePassword = (token: string, from: string, to: string) =>
  call(token, 'POST', '/api/sysUser/changePwd', {
    passwordOld: encrypt(t.app, from),
    passwordNew: encrypt(t.app, to),
  });

const BUSINESS = '/api/sysNotice/pageReceived';

/** What the web app calls between signing in with the default password and finishing the change. */
const FORCED_CHANGE_SCREEN = [
  '/api/sysAuth/userInfo',
  '/api/sysMenu/loginMenuTree',
  '/api/sysMenu/ownBtnPermList',
  '/api/sysAuth/watermarkConfig',
  '/api/sysConfig/list',
  '/api/sysDictType/allDictList',
  '/api/sysDictType/version',
  '/api/sysNotice/unReadList',
  '/api/sysNotice/unReadSummary',
  '/api/sysUser/baseInfo',
];

describe('an account signed in with the default password', () => {
  it('is refused business calls with D1034 until it changes the password, then served everywhere', async () => {
    const signedIn = await loginAsIs(t.app, 'fgwstaff', DEFAULT_PASSWORD);
    expect(signedIn.isDefPwd).toBe(true);
    const token = signedIn.accessToken;

    const refused = await call(token, 'GET', BUSINESS);
    expect(refused.statusCode).toBe(200);
    expect(body(refused)).toMatchObject({ code: 'D1034', message: '请先修改初始密码', result: null });
    const english = await authed(t.app, token, { url: BUSINESS, headers: { 'accept-language': 'en' } });
    expect(body(english).message).toBe('Change your initial password first');

    for (const url of FORCED_CHANGE_SCREEN) await ok(token, 'GET', url);
    for (const url of ['/api/sysAuth/captcha', '/api/sysAuth/loginConfig', '/api/sysProfile/current']) {
      expect((await envelope(token, 'GET', url)).code, url).toBe(200);
    }

    expect(body(await changePassword(token, DEFAULT_PASSWORD, 'Fresh@2026ab')).code).toBe(200);
    // The same session, at once: the cached principal was dropped with the change.
    await ok(token, 'GET', BUSINESS);
    expect((await loginAsIs(t.app, 'fgwstaff', 'Fresh@2026ab')).isDefPwd).toBe(false);
  });

  it('is refused with D1035 while the password has expired', async () => {
    await login(t.app, 'njdlstaff');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ password_update_time: '2020-01-01 00:00:00' })
      .where('account', '=', 'njdlstaff')
      .execute();
    await setConfig(t.app, 'sys_password_max_age_days', '90');
    try {
      const signedIn = await loginAsIs(t.app, 'njdlstaff', CHANGED_PASSWORD);
      expect(signedIn).toMatchObject({ isDefPwd: false, isUpdatePwd: true });
      expect((await envelope(signedIn.accessToken, 'GET', BUSINESS)).code).toBe('D1035');
      await ok(signedIn.accessToken, 'GET', '/api/sysAuth/userInfo');
    } finally {
      await setConfig(t.app, 'sys_password_max_age_days', '0');
    }
  });

  it('is refused again after an administrator resets the password', async () => {
    const { accessToken } = await login(t.app, 'gzlstaff');
    await ok(accessToken, 'GET', BUSINESS);
    const plain = await ok<string>(admin, 'POST', '/api/sysUser/resetPwd', { id: await userId('gzlstaff') });
    expect(plain).toBe(DEFAULT_PASSWORD);
    const again = await loginAsIs(t.app, 'gzlstaff', plain);
    expect(again.isDefPwd).toBe(true);
    expect((await envelope(again.accessToken, 'GET', BUSINESS)).code).toBe('D1034');
    // Changing the password back to the default one does not lift it.
    expect(body(await changePassword(again.accessToken, plain, plain)).code).toBe(200);
    expect((await envelope(again.accessToken, 'GET', BUSINESS)).code).toBe('D1034');
  });
});

describe('accounts with no password to change', () => {
  const signed = (key: OpenAccessSecret, url: string) => {
    const timestamp = String(Math.floor(Date.now() / 1000));
    const nonce = randomBytes(12).toString('hex');
    const text = openAccessSignText({ method: 'GET', path: url, accessKey: key.accessKey, timestamp, nonce });
    const sign = createHmac('sha256', key.accessSecret).update(text).digest('base64');
    return t.app.inject({ url, headers: { accessKey: key.accessKey, timestamp, nonce, sign } });
  };

  it('serve open-access keys and their /api/auth/token sessions bound to a default-password user', async () => {
    const bound = await userId('tjjdirector');
    const row = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('is_def_pwd')
      .where('id', '=', bound)
      .executeTakeFirstOrThrow();
    expect(row.is_def_pwd).toBe(1);
    const key = await ok<OpenAccessSecret>(admin, 'POST', '/api/sysOpenAccess/add', { bindUserId: bound });

    expect(body(await signed(key, BUSINESS)).code).toBe(200);
    const token = body<OpenAccessToken>(await signed(key, '/api/auth/token')).result?.accessToken ?? '';
    await ok(token, 'GET', BUSINESS);
    // The same user signing in with the password still owes the change.
    const person = await loginAsIs(t.app, 'tjjdirector', DEFAULT_PASSWORD);
    expect((await envelope(person.accessToken, 'GET', BUSINESS)).code).toBe('D1034');
  });
});

describe('the allow-list', () => {
  it('names only registered routes, and start-up would fail on one that is not', () => {
    const routes = t.app.registeredRoutes();
    expect(unknownPasswordChangeRoutes(routes)).toEqual([]);
    const withoutChangePwd = routes.filter((r) => r.url !== '/api/sysUser/changePwd');
    expect(unknownPasswordChangeRoutes(withoutChangePwd)).toEqual(['POST /api/sysUser/changePwd']);
    expect(PASSWORD_CHANGE_ROUTES.has('POST /api/sysUser/changePwd')).toBe(true);
  });
});
