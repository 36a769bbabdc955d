import type { UserInfo } from '@shuzhi/contracts/auth';
import { decodeJwt, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authed,
  body,
  createTestApp,
  DEFAULT_PASSWORD,
  encrypt,
  lockOut,
  login,
  loginAsIs,
  loginRequest,
  passwordOf,
  setConfig,
  solvedCaptcha,
  type TestApp,
} from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Re-signs an access token's claims with an expiry in the past, as the client would hold after a while. */
async function expired(accessToken: string): Promise<string> {
  const claims = decodeJwt(accessToken);
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({ ...claims, exp: undefined, iat: undefined, nbf: undefined })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(past - 60)
    .setNotBefore(past - 60)
    .setExpirationTime(past)
    .sign(new TextEncoder().encode(t.config.jwtSecret));
}

describe('captcha and login config', () => {
  it('returns a one-use captcha image', async () => {
    const res = await t.app.inject({ url: '/api/sysAuth/captcha' });
    const env = body<{ id: number; img: string }>(res);
    expect(env.code).toBe(200);
    // Bare base64 of a PNG (the family's clients add the data: prefix) and a numeric id (docs/wire.md).
    expect(
      Buffer.from(env.result?.img ?? '', 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(Number.isSafeInteger(env.result?.id)).toBe(true);
  });

  it('returns the login switches and the SM2 public key', async () => {
    const env = body<{ captchaEnabled: boolean; secondVerEnabled: boolean; publicKey: string }>(
      await t.app.inject({ url: '/api/sysAuth/loginConfig' }),
    );
    expect(env.result).toEqual({
      captchaEnabled: false,
      secondVerEnabled: false,
      publicKey: t.config.sm2.publicKey,
    });
    expect(env.result?.publicKey).toMatch(/^04[0-9a-f]{128}$/);
  });
});

describe('login', () => {
  it('rejects missing and malformed fields with field errors', async () => {
    const missing = body(await t.app.inject({ method: 'POST', url: '/api/sysAuth/login', payload: {} }));
    expect(missing.code).toBe(400);
    expect(missing.errors).toMatchObject({ account: ['account不能为空'], password: ['password不能为空'] });

    const malformed = body(
      await t.app.inject({
        method: 'POST',
        url: '/api/sysAuth/login',
        payload: { account: 42, password: 'x', loginType: 'a' },
      }),
    );
    expect(malformed.code).toBe(400);
    expect(Object.keys(malformed.errors as object).sort()).toEqual(['account', 'loginType']);

    const noBody = await t.app.inject({ method: 'POST', url: '/api/sysAuth/login' });
    expect(body(noBody).code).toBe(400);

    const badJson = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"account":',
    });
    expect(badJson.statusCode).toBe(200);
    expect(body(badJson).code).toBe(400);
  });

  it('answers in the request language', async () => {
    const en = body(
      await t.app.inject({
        method: 'POST',
        url: '/api/sysAuth/login',
        payload: {},
        headers: { 'accept-language': 'en-US,en;q=0.9' },
      }),
    );
    expect(en.errors).toMatchObject({ account: ['account is required'] });
    const tw = body(
      await loginRequest(t.app, 'nobody', DEFAULT_PASSWORD, {}, { 'accept-language': 'zh-TW' }),
    );
    expect(tw).toMatchObject({ code: 'D0009', message: '帳號不存在' });
    const enBiz = body(
      await loginRequest(t.app, 'nobody', DEFAULT_PASSWORD, {}, { 'accept-language': 'en' }),
    );
    expect(enBiz.message).toBe('The account does not exist');
  });

  it('signs a seeded user in with tokens in body and headers', async () => {
    const res = await loginRequest(t.app, 'fgwstaff');
    const env = body<{ accessToken: string; refreshToken: string; isDefPwd: boolean; isUpdatePwd: boolean }>(
      res,
    );
    expect(res.statusCode).toBe(200);
    expect(env.code).toBe(200);
    expect(env.result).toMatchObject({ isDefPwd: true, isUpdatePwd: false });
    expect(res.headers['access-token']).toBe(env.result?.accessToken);
    expect(res.headers['x-access-token']).toBe(env.result?.refreshToken);
    const claims = decodeJwt(env.result?.accessToken ?? '');
    expect(claims).toMatchObject({ Account: 'fgwstaff', RealName: '张伟', AccountType: 777, iss: 'shuzhi' });
    for (const claim of ['UserId', 'TenantId', 'OrgId', 'SessionId', 'exp', 'iat', 'nbf']) {
      expect(typeof claims[claim]).toBe('number');
    }
    expect(claims.OrgName).toBe('区发展和改革委员会');
  });

  it('rejects an unknown account (D0009) and an undecryptable password (D0010)', async () => {
    expect(body(await loginRequest(t.app, 'nobody')).code).toBe('D0009');
    for (const password of ['not-hex', 'ab'.repeat(120), `04${encrypt(t.app, 'x').slice(4)}ff`]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sysAuth/login',
        payload: { account: 'fgwstaff', password },
      });
      expect(res.statusCode).toBe(200);
      expect(body(res).code).toBe('D0010');
    }
  });

  it('accepts a cipher that keeps the 04 prefix', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      payload: { account: 'njdlstaff', password: `04${encrypt(t.app, DEFAULT_PASSWORD)}` },
    });
    expect(body(res).code).toBe(200);
  });

  it('throttles wrong passwords per account and source: a captcha from the third try, a lock for that source only', async () => {
    const from = (remoteAddress: string, password: string, extra: Record<string, unknown> = {}) =>
      t.app
        .inject({
          method: 'POST',
          url: '/api/sysAuth/login',
          remoteAddress,
          payload: { account: 'gzlstaff', password: encrypt(t.app, password), ...extra },
        })
        .then((res) => body(res).code);
    const attacker = '203.0.113.9';
    expect(await from(attacker, 'Wrong@123456')).toBe('D1000');
    expect(await from(attacker, 'Wrong@123456')).toBe('D1000');
    // The captcha is off, but this source has guessed twice: it must solve one now (D0008 without).
    expect(await from(attacker, 'Wrong@123456')).toBe('D0008');
    expect(await from(attacker, DEFAULT_PASSWORD)).toBe('D0008');
    expect(await from(attacker, 'Wrong@123456', await solvedCaptcha(t.app))).toBe('D1000');
    expect(await from(attacker, 'Wrong@123456', await solvedCaptcha(t.app))).toBe('D1000');
    expect(await from(attacker, 'Wrong@123456', await solvedCaptcha(t.app))).toBe('D1027');
    // Locked out of the account, that source: the right password does not help.
    expect(await from(attacker, DEFAULT_PASSWORD, await solvedCaptcha(t.app))).toBe('D1027');
    // The owner, elsewhere, is not locked out; five wrong passwords on the account ask them for a captcha.
    const owner = '198.51.100.7';
    expect(await from(owner, DEFAULT_PASSWORD)).toBe('D0008');
    expect(await from(owner, DEFAULT_PASSWORD, await solvedCaptcha(t.app))).toBe(200);
    // The administrator's unlock lifts the source's lock and the counts.
    const admin = await login(t.app, 'admin');
    const id = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', 'gzlstaff')
      .executeTakeFirstOrThrow();
    const unlock = await authed(t.app, admin.accessToken, {
      method: 'POST',
      url: '/api/sysUser/unlockLogin',
      payload: { id: id.id },
    });
    expect(body(unlock).code).toBe(200);
    expect(await from(attacker, DEFAULT_PASSWORD)).toBe(200);
  });

  it('cannot be turned against the admin: wrong passwords from elsewhere never lock them out', async () => {
    expect((await lockOut(t.app, 'admin', '203.0.113.10')).at(-1)).toBe('D1027');
    expect((await lockOut(t.app, 'admin', '203.0.113.11')).at(-1)).toBe('D1027');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/login',
      remoteAddress: '192.0.2.1',
      payload: {
        account: 'admin',
        password: encrypt(t.app, passwordOf(t.app, 'admin')),
        ...(await solvedCaptcha(t.app)),
      },
    });
    expect(body(res).code).toBe(200);
    // The account-wide count would ask the later tests' admin sign-ins for a captcha.
    await t.app.ctx.cache.delPrefix('signin:');
  });

  it('rejects a frozen account (D1017) and a disabled tenant (Z1003)', async () => {
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ status: 2 })
      .where('account', '=', 'scjgclerk')
      .execute();
    expect(body(await loginRequest(t.app, 'scjgclerk')).code).toBe('D1017');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ status: 1 })
      .where('account', '=', 'scjgclerk')
      .execute();

    await t.app.ctx.db.updateTable('sys_tenant').set({ status: 2 }).execute();
    try {
      expect(body(await loginRequest(t.app, 'scjgclerk')).code).toBe('Z1003');
    } finally {
      await t.app.ctx.db.updateTable('sys_tenant').set({ status: 1 }).execute();
    }
  });

  it('flags a password older than sys_password_max_age_days', async () => {
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ password_update_time: '2020-01-01 00:00:00' })
      .where('account', '=', 'mzjchief')
      .execute();
    await setConfig(t.app, 'sys_password_max_age_days', '90');
    try {
      expect((await loginAsIs(t.app, 'mzjchief')).isUpdatePwd).toBe(true);
    } finally {
      await setConfig(t.app, 'sys_password_max_age_days', '0');
    }
    expect((await loginAsIs(t.app, 'mzjchief')).isUpdatePwd).toBe(false);
  });
});

describe('captcha on login', () => {
  it('needs the right captcha once, case-insensitively', async () => {
    await setConfig(t.app, 'sys_captcha', 'true');
    try {
      expect(body(await loginRequest(t.app, 'tjjdirector')).code).toBe('D0008');
      const captcha = async () => {
        const id = body<{ id: number }>(await t.app.inject({ url: '/api/sysAuth/captcha' })).result?.id ?? 0;
        const answer = (await t.app.ctx.cache.get<string>(`captcha:${id}`)) ?? '';
        return { id, answer };
      };
      const wrong = await captcha();
      expect(
        body(await loginRequest(t.app, 'tjjdirector', DEFAULT_PASSWORD, { codeId: wrong.id, code: 'zzzz' }))
          .code,
      ).toBe('D0008');
      // A captcha is spent by the wrong attempt.
      expect(
        body(
          await loginRequest(t.app, 'tjjdirector', DEFAULT_PASSWORD, {
            codeId: wrong.id,
            code: wrong.answer,
          }),
        ).code,
      ).toBe('D0008');
      const right = await captcha();
      const ok = await loginRequest(t.app, 'tjjdirector', DEFAULT_PASSWORD, {
        codeId: right.id,
        code: right.answer.toUpperCase(),
      });
      expect(body(ok).code).toBe(200);
      expect(
        body(
          await loginRequest(t.app, 'tjjdirector', DEFAULT_PASSWORD, {
            codeId: right.id,
            code: right.answer,
          }),
        ).code,
      ).toBe('D0008');
    } finally {
      await setConfig(t.app, 'sys_captcha', 'false');
    }
  });
});

describe('tokens and sessions', () => {
  it('rejects requests without, with tampered or with expired tokens', async () => {
    const { accessToken } = await login(t.app, 'fgwleader');
    expect((await t.app.inject({ url: '/api/sysAuth/userInfo' })).statusCode).toBe(401);
    const [h, p, s] = accessToken.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...decodeJwt(accessToken), AccountType: 999 }),
    ).toString('base64url');
    for (const token of [`${h}.${forgedPayload}.${s}`, `${h}.${p}.${(s ?? '').slice(0, -2)}AA`, 'garbage']) {
      const res = await authed(t.app, token, { url: '/api/sysAuth/userInfo' });
      expect(res.statusCode).toBe(401);
      expect(body(res)).toMatchObject({ code: 401, message: '401 登录已过期，请重新登录' });
    }
    const old = await expired(accessToken);
    expect((await authed(t.app, old, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(401);
    // A refresh token is no access token.
    const { refreshToken } = await login(t.app, 'fgwleader');
    expect((await authed(t.app, refreshToken, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(401);
  });

  it('refreshes an expired access token via X-Authorization, the same pair within the grace window', async () => {
    const first = await login(t.app, 'njdleader');
    const old = await expired(first.accessToken);
    const res = await authed(t.app, old, {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${first.refreshToken}` },
    });
    expect(res.statusCode).toBe(200);
    expect(body<UserInfo>(res).result?.account).toBe('njdleader');
    const newAccess = res.headers['access-token'] as string;
    const newRefresh = res.headers['x-access-token'] as string;
    expect(newAccess).toBeTruthy();
    expect(newRefresh).toBeTruthy();
    expect(newRefresh).not.toBe(first.refreshToken);
    expect((await authed(t.app, newAccess, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(200);

    // Within the grace window (parallel requests of one client) the retired token answers the same pair;
    // after it, it is refused (test/wire-compat.test.ts).
    const reuse = await authed(t.app, old, {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${first.refreshToken}` },
    });
    expect(reuse.statusCode).toBe(200);
    expect(reuse.headers['access-token']).toBe(newAccess);
    expect(reuse.headers['x-access-token']).toBe(newRefresh);

    // The rotated refresh token still works once.
    const again = await authed(t.app, old, {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${newRefresh}` },
    });
    expect(again.statusCode).toBe(200);
  });

  it('rejects a refresh token of another session', async () => {
    const a = await login(t.app, 'yjjchief');
    const b = await login(t.app, 'yjjchief');
    const res = await authed(t.app, await expired(a.accessToken), {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${b.refreshToken}` },
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['access-token']).toBe('invalid_token');
  });

  it('issues a new refresh token for the current session', async () => {
    const { accessToken, refreshToken } = await login(t.app, 'hpleader');
    const missing = await authed(t.app, accessToken, { url: '/api/sysAuth/refreshToken' });
    expect(body(missing).code).toBe(400);
    const res = await authed(t.app, accessToken, {
      url: `/api/sysAuth/refreshToken?accessToken=${encodeURIComponent(accessToken)}`,
    });
    const next = body<string>(res).result ?? '';
    expect(res.headers['x-access-token']).toBe(next);
    const old = await expired(accessToken);
    const stale = await authed(t.app, old, {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${refreshToken}` },
    });
    expect(stale.statusCode).toBe(401);
    const fresh = await authed(t.app, old, {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${next}` },
    });
    expect(fresh.statusCode).toBe(200);
    const other = await login(t.app, 'hpleader');
    const foreign = await authed(t.app, accessToken, {
      url: `/api/sysAuth/refreshToken?accessToken=${encodeURIComponent(other.accessToken)}`,
    });
    expect(foreign.statusCode).toBe(401);
  });

  it('logout revokes the session for real', async () => {
    const { accessToken, refreshToken } = await login(t.app, 'cityadmin');
    expect((await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(200);
    const out = await authed(t.app, accessToken, { method: 'POST', url: '/api/sysAuth/logout' });
    expect(body(out).code).toBe(200);
    expect(out.headers['access-token']).toBe('invalid_token');
    const after = await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' });
    expect(after.statusCode).toBe(401);
    const refresh = await authed(t.app, await expired(accessToken), {
      url: '/api/sysAuth/userInfo',
      headers: { 'x-authorization': `Bearer ${refreshToken}` },
    });
    expect(refresh.statusCode).toBe(401);
  });

  it('a disabled user loses the session at once', async () => {
    const { accessToken } = await login(t.app, 'qyfiller2');
    expect((await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(200);
    const { revokeUserSessions } = await import('../src/platform/auth/sessions.ts');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ status: 2 })
      .where('account', '=', 'qyfiller2')
      .execute();
    const user = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', 'qyfiller2')
      .executeTakeFirstOrThrow();
    await revokeUserSessions(t.app.ctx, user.id, 'disabled');
    expect((await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(401);
  });
});

describe('userInfo', () => {
  // As signed in, so that isDefPwd shows (userInfo is served before the password change).
  const info = async (account: string) => {
    const { accessToken } = await loginAsIs(t.app, account);
    const res = await authed(t.app, accessToken, { url: '/api/sysAuth/userInfo' });
    expect(res.statusCode).toBe(200);
    return body<UserInfo>(res).result as UserInfo;
  };

  it('describes a grid worker with area levels from the org ancestry', async () => {
    const u = await info('gridstaff');
    expect(u).toMatchObject({
      account: 'gridstaff',
      accountType: 777,
      area: '黄浦区',
      areaCode: '310101',
      street: '南京东路街道',
      streetCode: '310101002',
      communityCode: '310101002001',
      wanggeCode: '31010100200101',
      weiwangge: null,
      orgRank: 4,
      isStaff: true,
      isAreaLeader: false,
      isAdmin: false,
      isSuperAdmin: false,
      isDefPwd: true,
      roleCodes: ['staff'],
    });
    expect(u.community).toContain('贵州路');
    expect(u.streetId).toEqual(expect.any(Number));
    expect(u.communityId).toEqual(expect.any(Number));
    expect(u.extOrgIds).toHaveLength(1);
    expect(u.orgIds).toEqual(expect.arrayContaining([u.orgId, ...u.extOrgIds]));
    expect(u.fullOrgIds?.split(',').map(Number).at(-1)).toBe(u.orgId);
    expect(u.fullOrgNames?.startsWith('黄浦区/南京东路街道/')).toBe(true);
    expect(u.orgParentDep).toBe(u.community);
    expect(u.superiorDept).toBe('南京东路街道');
    expect(u.buttons).toEqual(u.authBtnList);
    expect(u.buttons).toContain('dashboard:view');
    for (const key of Object.keys(u)) expect(u[key as keyof UserInfo]).not.toBeUndefined();
  });

  it('derives the special role flags', async () => {
    expect((await info('hpleader')).isAreaLeader).toBe(true);
    expect((await info('njdleader')).isDeptTownLeader).toBe(true);
    expect((await info('gzlleader')).isCommunityLeader).toBe(true);
    const city = await info('cityadmin');
    expect(city.isCityAdmin).toBe(true);
    expect(city.isStaff).toBe(false);
  });

  it('describes the admins', async () => {
    const su = await info('superadmin');
    expect(su).toMatchObject({ isSuperAdmin: true, isAdmin: true, accountType: 999, street: null });
    expect(su.buttons).toContain('sysUser:add');
    const admin = await info('admin');
    expect(admin).toMatchObject({ isSuperAdmin: false, isAdmin: true, accountType: 888 });
    expect(admin.orgIds.length).toBe(su.orgIds.length);
  });

  it('describes an enterprise user', async () => {
    const u = await info('qyfiller');
    expect(u).toMatchObject({
      accountType: 666,
      enterprise: '上海黄浦数智科技有限公司',
      posName: '企业填报员',
    });
  });
});

describe('watermarkConfig', () => {
  it('carries the system title, the real name and today', async () => {
    const { accessToken } = await login(t.app, 'fgwstaff');
    const res = body<{ enabled: boolean; content: string[] }>(
      await authed(t.app, accessToken, { url: '/api/sysAuth/watermarkConfig' }),
    );
    expect(res.result?.enabled).toBe(false);
    expect(res.result?.content[0]).toBe('黄浦数智报表平台');
    expect(res.result?.content[1]).toBe('张伟');
    expect(res.result?.content[2]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect((await t.app.inject({ url: '/api/sysAuth/watermarkConfig' })).statusCode).toBe(401);
  });
});

describe('changePwd', () => {
  const change = (token: string, oldPwd: string, newPwd: string) =>
    authed(t.app, token, {
      method: 'POST',
      url: '/api/sysUser/changePwd',
      payload: { passwordOld: encrypt(t.app, oldPwd), passwordNew: encrypt(t.app, newPwd) },
    });

  it('validates and changes the own password', async () => {
    const first = await loginAsIs(t.app, 'tjjdirector');
    const second = await loginAsIs(t.app, 'tjjdirector');
    expect(
      body(
        await authed(t.app, first.accessToken, {
          method: 'POST',
          url: '/api/sysUser/changePwd',
          payload: {},
        }),
      ).code,
    ).toBe(400);
    expect(
      body(
        await authed(t.app, first.accessToken, {
          method: 'POST',
          url: '/api/sysUser/changePwd',
          payload: { passwordOld: 'zz', passwordNew: 'zz' },
        }),
      ).code,
    ).toBe('D0010');
    expect(body(await change(first.accessToken, 'Wrong@2026', 'NewPass@2026')).code).toBe('D1000');
    expect(body(await change(first.accessToken, DEFAULT_PASSWORD, '12345')).code).toBe('D1028');
    expect(body(await change(first.accessToken, DEFAULT_PASSWORD, 'a'.repeat(17))).code).toBe('D1028');

    await setConfig(t.app, 'sys_password_strong', 'true');
    try {
      expect(body(await change(first.accessToken, DEFAULT_PASSWORD, 'abcdef123456')).code).toBe('D1029');
      expect(body(await change(first.accessToken, DEFAULT_PASSWORD, 'Ab1@x')).code).toBe('D1028');
      expect(body(await change(first.accessToken, DEFAULT_PASSWORD, 'Strong@2026ab')).code).toBe(200);
    } finally {
      await setConfig(t.app, 'sys_password_strong', 'false');
    }
    const info = body<UserInfo>(await authed(t.app, first.accessToken, { url: '/api/sysAuth/userInfo' }));
    expect(info.result?.isDefPwd).toBe(false);
    // Other sessions of the user end; the new password signs in, the old one no longer does.
    expect((await authed(t.app, second.accessToken, { url: '/api/sysAuth/userInfo' })).statusCode).toBe(401);
    expect(body(await loginRequest(t.app, 'tjjdirector')).code).toBe('D1000');
    const again = await login(t.app, 'tjjdirector', 'Strong@2026ab');
    expect(again.isDefPwd).toBe(false);
  });

  it('needs a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/sysUser/changePwd', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
