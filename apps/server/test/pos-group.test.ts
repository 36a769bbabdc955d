import type { PageResult } from '@shuzhi/contracts/envelope';
import type { PosRow } from '@shuzhi/contracts/pos';
import type { UserGroupMember, UserGroupRow } from '@shuzhi/contracts/user-group';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, authed, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;
let admin: string;
let njd: string; // njdleader: scope 2 on 南京东路街道, granted group writes below
let mzj: string; // mzjchief: may list positions only
const users: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  for (const u of await db.selectFrom('sys_user').select(['id', 'account']).execute())
    users[u.account] = u.id;
  const role = await db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', 'dept_town_leader')
    .executeTakeFirstOrThrow();
  const menus = await db
    .selectFrom('sys_menu')
    .select('id')
    .where((eb) =>
      eb.or([
        eb('name', '=', 'sysUserGroup'),
        eb('permission', 'in', [
          'sysUserGroup:page',
          'sysUserGroup:detail',
          'sysUserGroup:add',
          'sysUserGroup:update',
        ]),
      ]),
    )
    .execute();
  await db
    .insertInto('sys_role_menu')
    .values(menus.map((m) => ({ id: t.app.ctx.newId(), role_id: role.id, menu_id: m.id })))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  njd = (await login(t.app, 'njdleader')).accessToken;
  mzj = (await login(t.app, 'mzjchief')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

const { ok, code } = apiCalls(() => t.app);

describe('sysPos', () => {
  it('lists the seeded positions of the tenant, pages, filters and sorts', async () => {
    const page = await ok<PageResult<PosRow>>(admin, 'POST', '/api/sysPos/page', {
      pageSize: 100,
      field: 'code',
      order: 'ascending',
    });
    const codes = page.items.map((p) => p.code);
    expect(codes).toContain('clerk');
    expect(codes).toEqual([...codes].sort());
    const byName = await ok<PageResult<PosRow>>(admin, 'POST', '/api/sysPos/page', { name: '科长' });
    expect(byName.items.every((p) => p.name.includes('科长'))).toBe(true);
    const list = await ok<PosRow[]>(mzj, 'GET', '/api/sysPos/list');
    expect(list.length).toBe(page.total);
  });

  it('adds, updates, switches status, refuses duplicates, deletes and exports', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysPos/add', { code: 'T-POS', name: '测试职位' });
    expect(await code(admin, 'POST', '/api/sysPos/add', { code: 'T-POS', name: 'x' })).toBe('D1006');
    expect(await code(admin, 'POST', '/api/sysPos/add', { code: 'clerk', name: 'x' })).toBe('D1006');
    expect(await code(admin, 'POST', '/api/sysPos/add', { code: '', name: 'x' })).toBe(400);
    await ok(admin, 'POST', '/api/sysPos/update', { id, name: '测试职位二', orderNo: 3 });
    await ok(admin, 'POST', '/api/sysPos/setStatus', { id, status: 2 });
    expect(await ok<PosRow>(admin, 'GET', `/api/sysPos/detail?Id=${id}`)).toMatchObject({
      name: '测试职位二',
      orderNo: 3,
      status: 2,
    });
    const res = await authed(t.app, admin, { method: 'POST', url: '/api/sysPos/export', payload: {} });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    await ok(admin, 'POST', '/api/sysPos/delete', { id });
    expect(await code(admin, 'GET', `/api/sysPos/detail?Id=${id}`)).toBe('D1002');
    // The code is free again once deleted.
    await ok<number>(admin, 'POST', '/api/sysPos/add', { code: 'T-POS', name: '再来' });
  });

  it('refuses to delete a position users hold (D2004), also as an extra org position', async () => {
    const clerk = await t.app.ctx.db
      .selectFrom('sys_pos')
      .select('id')
      .where('code', '=', 'clerk')
      .executeTakeFirstOrThrow();
    expect(await code(admin, 'POST', '/api/sysPos/delete', { id: clerk.id })).toBe('D2004');
    const extOnly = await ok<number>(admin, 'POST', '/api/sysPos/add', { code: 'T-EXT', name: '兼职' });
    const db = t.app.ctx.db;
    const link = await db
      .selectFrom('sys_user_ext_org')
      .select('id')
      .where('user_id', '=', users.gridstaff as number)
      .executeTakeFirstOrThrow();
    await db.updateTable('sys_user_ext_org').set({ pos_id: extOnly }).where('id', '=', link.id).execute();
    expect(await code(admin, 'POST', '/api/sysPos/delete', { id: extOnly })).toBe('D2004');
    await db.updateTable('sys_user_ext_org').set({ pos_id: null }).where('id', '=', link.id).execute();
    await ok(admin, 'POST', '/api/sysPos/delete', { id: extOnly });
  });

  it('answers 403 without the permission', async () => {
    const res = await authed(t.app, mzj, {
      method: 'POST',
      url: '/api/sysPos/add',
      payload: { code: 'T-NO', name: 'x' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('sysUserGroup', () => {
  it('keeps groups with unique codes, status, export', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysUserGroup/add', { code: 'G-1', name: '防汛小组' });
    expect(await code(admin, 'POST', '/api/sysUserGroup/add', { code: 'G-1', name: 'x' })).toBe('D1006');
    await ok(admin, 'POST', '/api/sysUserGroup/setStatus', { id, status: 2 });
    const page = await ok<PageResult<UserGroupRow>>(admin, 'POST', '/api/sysUserGroup/page', {
      name: '防汛',
    });
    expect(page.items.map((g) => [g.code, g.status])).toEqual([['G-1', 2]]);
    const res = await authed(t.app, admin, { method: 'POST', url: '/api/sysUserGroup/export', payload: {} });
    expect(res.headers['content-type']).toContain('spreadsheetml');
  });

  it('replaces the members in one go and drops them with the group', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysUserGroup/add', { code: 'G-2', name: '普查小组' });
    await ok(admin, 'POST', '/api/sysUserGroup/setMembers', {
      id,
      userIds: [users.fgwstaff, users.gzlstaff, users.gzlstaff],
    });
    let members = await ok<UserGroupMember[]>(admin, 'GET', `/api/sysUserGroup/members?id=${id}`);
    expect(members.map((m) => m.account).sort()).toEqual(['fgwstaff', 'gzlstaff']);
    expect(members.find((m) => m.account === 'gzlstaff')).toMatchObject({
      realName: '吴静',
      orgName: '贵州路居民委员会',
      status: 1,
    });
    await ok(admin, 'POST', '/api/sysUserGroup/setMembers', {
      id,
      userIds: [users.gzlstaff, users.njdlstaff],
    });
    members = await ok<UserGroupMember[]>(admin, 'GET', `/api/sysUserGroup/members?id=${id}`);
    expect(members.map((m) => m.account).sort()).toEqual(['gzlstaff', 'njdlstaff']);

    // A bad id refuses the whole change.
    expect(
      await code(admin, 'POST', '/api/sysUserGroup/setMembers', { id, userIds: [users.fgwstaff, 987654321] }),
    ).toBe('D1002');
    expect(await code(admin, 'POST', '/api/sysUserGroup/setMembers', { id: 987654321, userIds: [] })).toBe(
      'D1002',
    );
    expect(await code(admin, 'GET', '/api/sysUserGroup/members?id=987654321')).toBe('D1002');
    members = await ok<UserGroupMember[]>(admin, 'GET', `/api/sysUserGroup/members?id=${id}`);
    expect(members.map((m) => m.account).sort()).toEqual(['gzlstaff', 'njdlstaff']);

    await ok(admin, 'POST', '/api/sysUserGroup/delete', { id });
    const left = await t.app.ctx.db
      .selectFrom('sys_user_group_member')
      .select('id')
      .where('group_id', '=', id)
      .execute();
    expect(left).toHaveLength(0);
  });

  it('lets a scoped user see and change only the members inside their scope', async () => {
    const id = await ok<number>(admin, 'POST', '/api/sysUserGroup/add', { code: 'G-3', name: '联络小组' });
    await ok(admin, 'POST', '/api/sysUserGroup/setMembers', {
      id,
      userIds: [users.fgwstaff, users.gzlstaff],
    });
    // njdleader's scope is 南京东路街道 and below: gzlstaff (贵州路居委会) yes, fgwstaff (区发改委) no.
    let members = await ok<UserGroupMember[]>(njd, 'GET', `/api/sysUserGroup/members?id=${id}`);
    expect(members.map((m) => m.account)).toEqual(['gzlstaff']);
    expect(
      await code(njd, 'POST', '/api/sysUserGroup/setMembers', {
        id,
        userIds: [users.gzlstaff, users.fgwleader],
      }),
    ).toBe('D2003');
    await ok(njd, 'POST', '/api/sysUserGroup/setMembers', { id, userIds: [users.njdlstaff] });
    members = await ok<UserGroupMember[]>(admin, 'GET', `/api/sysUserGroup/members?id=${id}`);
    // gzlstaff was replaced; fgwstaff, outside njdleader's scope, stays.
    expect(members.map((m) => m.account).sort()).toEqual(['fgwstaff', 'njdlstaff']);
  });

  it('answers 403 without the permission', async () => {
    const res = await authed(t.app, mzj, { method: 'GET', url: '/api/sysUserGroup/members?id=1' });
    expect(res.statusCode).toBe(403);
    const res2 = await authed(t.app, mzj, {
      method: 'POST',
      url: '/api/sysUserGroup/setMembers',
      payload: { id: 1, userIds: [] },
    });
    expect(res2.statusCode).toBe(403);
  });
});
