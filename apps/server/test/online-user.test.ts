import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OnlineUser } from '@shuzhi/contracts/online-user';
import { type ForceOfflinePayload, REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { emitToTenant, emitToUser } from '../src/platform/realtime/hub.ts';
import {
  authed,
  body,
  createTestApp,
  encrypt,
  login,
  passwordOf,
  setConfig,
  TEST_HASH_COST,
  type TestApp,
} from './helpers.ts';

let t: TestApp;
let base: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestApp();
  // A real port: socket.io needs the HTTP server, not inject.
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.disconnect();
});
afterAll(async () => {
  await t?.close();
});

/** A socket.io client as the web app opens it; resolves once connected, rejects with the refusal. */
function open(token: string | undefined): Promise<Socket> {
  const socket = connect(base, {
    path: '/socket.io/',
    transports: ['websocket'],
    reconnection: false,
    auth: token === undefined ? {} : { token },
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

function next<T = unknown>(socket: Socket, event: string, ms = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${ms} ms`)), ms);
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

const post = (token: string, url: string, payload: object) =>
  authed(t.app, token, { method: 'POST', url, payload });
const page = async (token: string, filters: object = {}) => {
  const env = body<PageResult<OnlineUser>>(
    await post(token, '/api/sysOnlineUser/page', { page: 1, pageSize: 100, ...filters }),
  );
  expect(env.code, JSON.stringify(env)).toBe(200);
  return env.result as PageResult<OnlineUser>;
};
const userInfoStatus = async (token: string) =>
  (await authed(t.app, token, { method: 'GET', url: '/api/sysAuth/userInfo' })).statusCode;
const sessionOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).SessionId as number;

describe('realtime handshake', () => {
  it('refuses a missing, forged or revoked token and admits a live one', async () => {
    await expect(open(undefined)).rejects.toThrow('unauthorized');
    await expect(open('not-a-jwt')).rejects.toThrow('unauthorized');
    const tokens = await login(t.app, 'fgwstaff');
    const forged = `${tokens.accessToken.slice(0, -4)}AAAA`;
    await expect(open(forged)).rejects.toThrow('unauthorized');

    const socket = await open(tokens.accessToken);
    expect(socket.connected).toBe(true);

    await authed(t.app, tokens.accessToken, { method: 'POST', url: '/api/sysAuth/logout' });
    await expect(open(tokens.accessToken)).rejects.toThrow('unauthorized');
  });

  it('delivers emitToUser and emitToTenant to the rooms they name', async () => {
    const a = await login(t.app, 'tjjdirector');
    const b = await login(t.app, 'mzjchief');
    const sa = await open(a.accessToken);
    const sb = await open(b.accessToken);
    const toA = next(sa, 'notice');
    let bGotUserEvent = false;
    sb.on('notice', () => {
      bGotUserEvent = true;
    });
    emitToUser(t.app.ctx, sessionUser(a.accessToken), 'notice', { title: 'hello' });
    expect(await toA).toEqual({ title: 'hello' });

    const tenantA = next(sa, 'broadcast');
    const tenantB = next(sb, 'broadcast');
    emitToTenant(t.app.ctx, tenantOf(a.accessToken), 'broadcast', 1);
    expect(await Promise.all([tenantA, tenantB])).toEqual([1, 1]);
    expect(bGotUserEvent).toBe(false);
  });
});

const sessionUser = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).UserId as number;
const tenantOf = (token: string) =>
  JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).TenantId as number;

describe('online users and force offline', () => {
  it('lists live sessions with their user, org, client and connection state', async () => {
    const admin = (await login(t.app, 'admin')).accessToken;
    const staff = await login(t.app, 'scjgclerk');
    await open(staff.accessToken);
    const rows = (await page(admin, { account: 'scjgclerk' })).items;
    const row = rows.find((r) => r.id === sessionOf(staff.accessToken));
    expect(row).toMatchObject({ account: 'scjgclerk', online: true, current: false });
    expect(row?.orgName).toBeTruthy();
    expect(row?.loginTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const mine = (await page(admin, { account: 'admin' })).items.find((r) => r.current);
    expect(mine).toMatchObject({ account: 'admin', online: false });
    // realName filter and the page shape
    const byName = await page(admin, { realName: row?.realName ?? '' });
    expect(byName.items.every((r) => r.realName === row?.realName)).toBe(true);
    expect((await page(admin, { account: 'nobody-such' })).total).toBe(0);
  });

  it('forces a session off: its socket is told, its tokens stop working, it leaves the list', async () => {
    const admin = (await login(t.app, 'admin')).accessToken;
    const victim = await login(t.app, 'yjjchief');
    const other = await login(t.app, 'yjjchief');
    const socket = await open(victim.accessToken);
    const told = next<ForceOfflinePayload>(socket, REALTIME_EVENTS.forceOffline);
    const gone = next(socket, 'disconnect');

    const env = body(
      await post(admin, '/api/sysOnlineUser/forceOffline', { id: sessionOf(victim.accessToken) }),
    );
    expect(env.code).toBe(200);
    expect(await told).toEqual({ reason: 'force_offline' });
    await gone;
    expect(await userInfoStatus(victim.accessToken)).toBe(401);
    // The refresh token is dead too.
    const refreshed = await t.app.inject({
      method: 'GET',
      url: '/api/sysAuth/userInfo',
      headers: {
        authorization: `Bearer ${victim.accessToken}`,
        'x-authorization': `Bearer ${victim.refreshToken}`,
      },
    });
    expect(refreshed.statusCode).toBe(401);
    // Only that session: the user's other session lives on.
    expect(await userInfoStatus(other.accessToken)).toBe(200);
    const ids = (await page(admin, { account: 'yjjchief' })).items.map((r) => r.id);
    expect(ids).not.toContain(sessionOf(victim.accessToken));
    expect(ids).toContain(sessionOf(other.accessToken));
    // Forcing it again: the session is gone.
    expect(
      body(await post(admin, '/api/sysOnlineUser/forceOffline', { id: sessionOf(victim.accessToken) })).code,
    ).toBe('D1002');
  });

  it('refuses forcing yourself off, unknown ids and callers without the permission', async () => {
    const admin = (await login(t.app, 'admin')).accessToken;
    expect(body(await post(admin, '/api/sysOnlineUser/forceOffline', { id: sessionOf(admin) })).code).toBe(
      'D1032',
    );
    expect(body(await post(admin, '/api/sysOnlineUser/forceOffline', { id: 123456789 })).code).toBe('D1002');
    expect(body(await post(admin, '/api/sysOnlineUser/forceOffline', {})).code).toBe(400);
    const staff = (await login(t.app, 'fgwstaff')).accessToken;
    expect((await post(staff, '/api/sysOnlineUser/page', { page: 1, pageSize: 10 })).statusCode).toBe(403);
    expect((await post(staff, '/api/sysOnlineUser/forceOffline', { id: sessionOf(admin) })).statusCode).toBe(
      403,
    );
    expect(await userInfoStatus(admin)).toBe(200);
  });

  it('tells the tenant when sessions open and end', async () => {
    const admin = (await login(t.app, 'admin')).accessToken;
    const watcher = await open(admin);
    const opened = next(watcher, REALTIME_EVENTS.onlineUsersChanged);
    const staff = await login(t.app, 'gridstaff');
    await opened;
    const ended = next(watcher, REALTIME_EVENTS.onlineUsersChanged);
    await authed(t.app, staff.accessToken, { method: 'POST', url: '/api/sysAuth/logout' });
    await ended;
  });

  it('exports the list as .xlsx', async () => {
    const admin = (await login(t.app, 'admin')).accessToken;
    const response = await post(admin, '/api/sysOnlineUser/export', {});
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    expect(response.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});

describe('tenant and data scope', () => {
  it('shows only the caller tenant; the super admin sees every tenant', async () => {
    const db = t.app.ctx.db;
    const otherTenant = 880_001;
    await db
      .insertInto('sys_tenant')
      .values({
        id: otherTenant,
        code: 'other',
        name: '其他租户',
        org_id: null,
        host: null,
        status: 1,
        order_no: 99,
        remark: null,
        create_time: '2026-01-01 00:00:00',
        update_time: null,
        create_user_id: null,
        create_user_name: null,
        update_user_id: null,
        update_user_name: null,
        is_delete: 0,
      })
      .execute();
    // A seeded user moved to the other tenant, with no org there.
    await db
      .updateTable('sys_user')
      .set({ tenant_id: otherTenant, org_id: null })
      .where('account', '=', 'qyfiller2')
      .execute();
    const outsider = await login(t.app, 'qyfiller2');
    const admin = (await login(t.app, 'admin')).accessToken;
    expect((await page(admin)).items.map((r) => r.account)).not.toContain('qyfiller2');
    expect(
      body(await post(admin, '/api/sysOnlineUser/forceOffline', { id: sessionOf(outsider.accessToken) }))
        .code,
    ).toBe('D1002');
    expect(await userInfoStatus(outsider.accessToken)).toBe(200);

    const superAdmin = (await login(t.app, 'superadmin')).accessToken;
    const all = (await page(superAdmin)).items;
    expect(all.find((r) => r.account === 'qyfiller2')?.tenantId).toBe(otherTenant);
  });

  it('limits a scoped user to sessions of their orgs', async () => {
    const db = t.app.ctx.db;
    // Give njdleader's roles (org and below) the online-user page.
    const leader = await db
      .selectFrom('sys_user')
      .select(['id', 'tenant_id'])
      .where('account', '=', 'njdleader')
      .executeTakeFirstOrThrow();
    const roles = await db
      .selectFrom('sys_user_role')
      .select('role_id')
      .where('user_id', '=', leader.id)
      .execute();
    const menus = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', 'in', ['sysOnlineUser:page'])
      .execute();
    let id = 990_000;
    for (const role of roles)
      for (const menu of menus)
        await db
          .insertInto('sys_role_menu')
          .values({ id: id++, role_id: role.role_id, menu_id: menu.id } as never)
          .execute();
    const scoped = (await login(t.app, 'njdleader')).accessToken;
    await login(t.app, 'gzlstaff'); // org under the street
    await login(t.app, 'fgwstaff'); // another department
    const accounts = new Set((await page(scoped)).items.map((r) => r.account));
    expect(accounts.has('njdleader')).toBe(true);
    expect(accounts.has('gzlstaff')).toBe(true);
    expect(accounts.has('fgwstaff')).toBe(false);
    expect(accounts.has('admin')).toBe(false);
  });
});

describe('single login', () => {
  it('ends the older sessions of the account and tells their browsers (D1025)', async () => {
    await setConfig(t.app, 'sys_single_login', 'true');
    try {
      const first = await login(t.app, 'gzlleader');
      const socket = await open(first.accessToken);
      const told = next<ForceOfflinePayload>(socket, REALTIME_EVENTS.forceOffline);
      const second = await login(t.app, 'gzlleader');
      expect(await told).toEqual({ reason: 'single_login', code: 'D1025' });
      expect(await userInfoStatus(first.accessToken)).toBe(401);
      expect(await userInfoStatus(second.accessToken)).toBe(200);
      // Another account keeps its sessions.
      const staff = await login(t.app, 'njdlstaff');
      expect(await userInfoStatus(staff.accessToken)).toBe(200);
      expect(await userInfoStatus(second.accessToken)).toBe(200);
    } finally {
      await setConfig(t.app, 'sys_single_login', 'false');
    }
  });

  it('keeps several sessions while single login is off', async () => {
    const first = await login(t.app, 'gzlleader');
    const second = await login(t.app, 'gzlleader');
    expect(await userInfoStatus(first.accessToken)).toBe(200);
    expect(await userInfoStatus(second.accessToken)).toBe(200);
  });
});

describe('lock screen', () => {
  it('unlocks with the right password only', async () => {
    const tokens = await login(t.app, 'hpleader');
    const unlock = (password: string, token = tokens.accessToken) =>
      post(token, '/api/sysAuth/unLockScreen', { password: encrypt(t.app, password) });
    expect(body(await unlock('wrong-password')).code).toBe('D1000');
    expect(body(await unlock(passwordOf(t.app, 'hpleader'))).code).toBe(200);
    expect(
      body(await post(tokens.accessToken, '/api/sysAuth/unLockScreen', { password: 'garbage' })).code,
    ).toBe('D0010');
    expect(body(await post(tokens.accessToken, '/api/sysAuth/unLockScreen', {})).code).toBe(400);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/sysAuth/unLockScreen',
      payload: { password: encrypt(t.app, 'Shuzhi@2026') },
    });
    expect(anonymous.statusCode).toBe(401);
    // A wrong unlock does not end the session.
    expect(await userInfoStatus(tokens.accessToken)).toBe(200);
  });
});

// Two processes behind a load balancer: a browser connected to one, the admin's call served by the other.
describe.runIf(Boolean(process.env.TEST_REDIS_URL))('several processes (Redis adapter)', () => {
  it('forces off a session whose socket is held by another process, and sees it connected', async () => {
    const second = await buildApp({
      config: t.config,
      logger: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
      regionSource: null,
      seed: false,
    });
    try {
      const secondBase = await second.listen({ port: 0, host: '127.0.0.1' });
      const victim = await login(t.app, 'tjjdirector');
      const socket = connect(secondBase, {
        path: '/socket.io/',
        transports: ['websocket'],
        reconnection: false,
        auth: { token: victim.accessToken },
      });
      sockets.push(socket);
      await next(socket, 'connect');
      const admin = (await login(t.app, 'admin')).accessToken;
      const row = (await page(admin, { account: 'tjjdirector' })).items.find(
        (r) => r.id === sessionOf(victim.accessToken),
      );
      expect(row?.online).toBe(true);
      const told = next<ForceOfflinePayload>(socket, REALTIME_EVENTS.forceOffline);
      expect(
        body(await post(admin, '/api/sysOnlineUser/forceOffline', { id: sessionOf(victim.accessToken) }))
          .code,
      ).toBe(200);
      expect(await told).toEqual({ reason: 'force_offline' });
      // The other process refuses the token at once too (its principal cache was dropped through Redis).
      const onSecond = await second.inject({
        method: 'GET',
        url: '/api/sysAuth/userInfo',
        headers: { authorization: `Bearer ${victim.accessToken}` },
      });
      expect(onSecond.statusCode).toBe(401);
    } finally {
      await second.close();
    }
  });
});
