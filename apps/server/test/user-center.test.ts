import type { BaseInfo } from '@shuzhi/contracts/user-center';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { verifyOpPassword } from '../src/platform/auth/op-password.ts';
import type { AuthUser } from '../src/platform/context.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import {
  authed,
  body,
  createTestApp,
  encrypt,
  login,
  loginAsIs,
  passwordOf,
  setConfig,
  type TestApp,
} from './helpers.ts';

/** Issue 3 §4: own profile, operation password, password expiry. */
let t: TestApp;
let token: string;

const post = (url: string, payload: unknown, as = token) =>
  authed(t.app, as, { method: 'POST', url, payload: payload as object });

beforeAll(async () => {
  t = await createTestApp();
  token = (await login(t.app, 'njdlstaff')).accessToken;
});

afterAll(async () => {
  await t?.close();
});

describe('baseInfo', () => {
  const valid = {
    realName: '张  三 ',
    nickName: '小张',
    phone: '13912345678',
    email: 'zhang@example.cn',
    sex: 1,
    address: '黄浦区人民大道200号',
    idCardNum: '',
    remark: null,
  };

  it('reads the own profile without the operation password hash', async () => {
    const envelope = body<BaseInfo>(
      await authed(t.app, token, { method: 'GET', url: '/api/sysUser/baseInfo' }),
    );
    expect(envelope.code).toBe(200);
    expect(envelope.result).toMatchObject({ account: 'njdlstaff', hasOpPassword: false });
    expect(JSON.stringify(envelope.result)).not.toContain('argon2');
  });

  it('saves the fields, trimmed, empties as null, and the user info follows at once', async () => {
    // Cache the user info first, so a missing invalidation would show.
    await authed(t.app, token, { method: 'GET', url: '/api/sysAuth/userInfo' });
    expect(body(await post('/api/sysUser/baseInfo', valid)).code).toBe(200);
    const info = body<BaseInfo>(
      await authed(t.app, token, { method: 'GET', url: '/api/sysUser/baseInfo' }),
    ).result;
    expect(info).toMatchObject({
      realName: '张  三',
      nickName: '小张',
      phone: '13912345678',
      email: 'zhang@example.cn',
      sex: 1,
      address: '黄浦区人民大道200号',
      idCardNum: null,
      remark: null,
    });
    const userInfo = body<{ realName: string; phone: string }>(
      await authed(t.app, token, { method: 'GET', url: '/api/sysAuth/userInfo' }),
    ).result;
    expect(userInfo).toMatchObject({ realName: '张  三', phone: '13912345678' });
  });

  it('answers field errors for each bad field and writes nothing', async () => {
    const envelope = body(
      await post('/api/sysUser/baseInfo', {
        ...valid,
        realName: '',
        phone: '1391234',
        email: 'not-an-email',
        sex: 5,
        idCardNum: '310101198513150011',
        address: 'x'.repeat(300),
      }),
    );
    expect(envelope.code).toBe(400);
    expect(Object.keys(envelope.errors as object).sort()).toEqual(
      ['address', 'email', 'idCardNum', 'phone', 'realName', 'sex'].sort(),
    );
    const row = await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['real_name', 'phone'])
      .where('account', '=', 'njdlstaff')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ real_name: '张  三', phone: '13912345678' });
  });

  it('accepts a valid ID number and refuses a phone another account uses', async () => {
    expect(
      body(await post('/api/sysUser/baseInfo', { ...valid, idCardNum: '11010519491231002X' })).code,
    ).toBe(200);
    const other = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('phone')
      .where('account', '=', 'admin')
      .executeTakeFirstOrThrow();
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ phone: '13700000001' })
      .where('account', '=', 'admin')
      .execute();
    const envelope = body(await post('/api/sysUser/baseInfo', { ...valid, phone: '13700000001' }));
    expect(envelope.code).toBe('D1006');
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ phone: other.phone })
      .where('account', '=', 'admin')
      .execute();
  });

  it('does not let a user change account, status or roles through it', async () => {
    const envelope = body(await post('/api/sysUser/baseInfo', { ...valid, account: 'hacker', status: 2 }));
    // Unknown keys are refused (or at least never written).
    const row = await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['account', 'status'])
      .where('account', '=', 'njdlstaff')
      .executeTakeFirst();
    expect(row).toEqual({ account: 'njdlstaff', status: 1 });
    expect([200, 400]).toContain(envelope.code);
  });
});

describe('operation password', () => {
  const OP = 'Op#pass2026';

  it('check before any is set: D1012', async () => {
    expect(body(await post('/api/sysUser/checkOpPassword', { opPassword: encrypt(t.app, OP) })).code).toBe(
      'D1012',
    );
  });

  it('refuses a wrong login password, a short one, a weak one when strong passwords are on', async () => {
    expect(
      body(
        await post('/api/sysUser/setOpPassword', {
          password: encrypt(t.app, 'wrong-pass'),
          opPassword: encrypt(t.app, OP),
        }),
      ).code,
    ).toBe('D1000');
    expect(
      body(
        await post('/api/sysUser/setOpPassword', {
          password: encrypt(t.app, passwordOf(t.app, 'njdlstaff')),
          opPassword: encrypt(t.app, '123'),
        }),
      ).code,
    ).toBe('D1028');
    await setConfig(t.app, 'sys_password_strong', 'true');
    try {
      expect(
        body(
          await post('/api/sysUser/setOpPassword', {
            password: encrypt(t.app, passwordOf(t.app, 'njdlstaff')),
            opPassword: encrypt(t.app, 'abcdef123456'),
          }),
        ).code,
      ).toBe('D1029');
    } finally {
      await setConfig(t.app, 'sys_password_strong', 'false');
    }
    expect(
      body(await post('/api/sysUser/setOpPassword', { password: 'garbage', opPassword: encrypt(t.app, OP) }))
        .code,
    ).toBe('D0010');
  });

  it('sets it (argon2 in sys_user.op_password), then verifies right and wrong', async () => {
    expect(
      body(
        await post('/api/sysUser/setOpPassword', {
          password: encrypt(t.app, passwordOf(t.app, 'njdlstaff')),
          opPassword: encrypt(t.app, OP),
        }),
      ).code,
    ).toBe(200);
    const row = await t.app.ctx.db
      .selectFrom('sys_user')
      .select(['op_password', 'op_password_time'])
      .where('account', '=', 'njdlstaff')
      .executeTakeFirstOrThrow();
    expect(row.op_password).toMatch(/^\$argon2id\$/);
    expect(row.op_password_time).toBeTruthy();

    const ok = body(await post('/api/sysUser/checkOpPassword', { opPassword: encrypt(t.app, OP) }));
    expect(ok).toMatchObject({ code: 200, result: true });
    expect(
      body(await post('/api/sysUser/checkOpPassword', { opPassword: encrypt(t.app, 'Other#2026') })).code,
    ).toBe('D1011');
    expect(body(await post('/api/sysUser/checkOpPassword', { opPassword: 'not-a-cipher' })).code).toBe(
      'D0010',
    );
    const info = body<BaseInfo>(
      await authed(t.app, token, { method: 'GET', url: '/api/sysUser/baseInfo' }),
    ).result;
    expect(info?.hasOpPassword).toBe(true);
  });

  it('is per user: another user still has none', async () => {
    const other = (await login(t.app, 'gzlstaff')).accessToken;
    expect(
      body(await post('/api/sysUser/checkOpPassword', { opPassword: encrypt(t.app, OP) }, other)).code,
    ).toBe('D1012');
  });

  it('verifyOpPassword is usable by other services', async () => {
    const user = await t.app.ctx.db
      .selectFrom('sys_user')
      .selectAll()
      .where('account', '=', 'njdlstaff')
      .executeTakeFirstOrThrow();
    const caller = { userId: user.id, tenantId: user.tenant_id, accountType: 777 } as AuthUser;
    await expect(verifyOpPassword(t.app.ctx, caller, encrypt(t.app, OP))).resolves.toBeUndefined();
    await expect(verifyOpPassword(t.app.ctx, caller, encrypt(t.app, 'nope-nope'))).rejects.toMatchObject({
      code: 'D1011',
    });
  });

  it('refuses checks for 30 minutes from the 5th wrong one (D1033); a right one resets the count', async () => {
    const other = (await login(t.app, 'gzlstaff')).accessToken;
    const check = async (plain: string, as = other) =>
      body(await post('/api/sysUser/checkOpPassword', { opPassword: encrypt(t.app, plain) }, as)).code;
    expect(
      body(
        await post(
          '/api/sysUser/setOpPassword',
          { password: encrypt(t.app, passwordOf(t.app, 'gzlstaff')), opPassword: encrypt(t.app, OP) },
          other,
        ),
      ).code,
    ).toBe(200);
    for (let i = 0; i < 4; i++) expect(await check('Wrong#2026')).toBe('D1011');
    expect(await check(OP)).toBe(200);
    // The right one reset the count: four more wrong ones answer D1011, the fifth already D1033 (like D1027).
    for (let i = 0; i < 4; i++) expect(await check('Wrong#2026')).toBe('D1011');
    expect(await check('Wrong#2026')).toBe('D1033');
    expect(await check(OP)).toBe('D1033');
    expect(await check('Wrong#2026')).toBe('D1033');
    // Undecryptable input is refused too while locked, and other users are not affected.
    expect(body(await post('/api/sysUser/checkOpPassword', { opPassword: 'not-a-cipher' }, other)).code).toBe(
      'D1033',
    );
    expect(await check(OP, token)).toBe(200);
    const { id } = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', 'gzlstaff')
      .executeTakeFirstOrThrow();
    const entry = await t.app.ctx.cache.inspect(`op-pwd-fail:${id}`);
    expect(entry?.ttlSeconds).toBeGreaterThan(29 * 60);
    expect(entry?.ttlSeconds).toBeLessThanOrEqual(30 * 60);

    // Half an hour later checks run again, with a fresh count.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 31 * 60_000);
      expect(await check('Wrong#2026')).toBe('D1011');
      expect(await check(OP)).toBe(200);
      expect(await t.app.ctx.cache.inspect(`op-pwd-fail:${id}`)).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('isUpdatePwd', () => {
  it('is set when the password is older than sys_password_max_age_days, and off with 0', async () => {
    const old = formatDateTime(new Date(Date.now() - 100 * 24 * 3600 * 1000));
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ password_update_time: old })
      .where('account', '=', 'yjjchief')
      .execute();
    expect((await loginAsIs(t.app, 'yjjchief')).isUpdatePwd).toBe(false);
    await setConfig(t.app, 'sys_password_max_age_days', '90');
    try {
      expect((await loginAsIs(t.app, 'yjjchief')).isUpdatePwd).toBe(true);
      await t.app.ctx.db
        .updateTable('sys_user')
        .set({ password_update_time: formatDateTime() })
        .where('account', '=', 'yjjchief')
        .execute();
      expect((await loginAsIs(t.app, 'yjjchief')).isUpdatePwd).toBe(false);
    } finally {
      await setConfig(t.app, 'sys_password_max_age_days', '0');
    }
  });
});
