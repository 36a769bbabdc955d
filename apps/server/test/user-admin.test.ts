import type { PageResult } from '@shuzhi/contracts/envelope';
import type { UserExtOrg, UserImportResult, UserPageItem, UserRow } from '@shuzhi/contracts/user';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USER_IMPORT_MAX_BYTES } from '../src/modules/user/user-import.ts';
import {
  apiCalls,
  authed,
  body,
  createTestApp,
  DEFAULT_PASSWORD,
  lockOut,
  login,
  loginAsIs,
  loginRequest,
  type TestApp,
} from './helpers.ts';
import { multipart } from './upload.fixture.ts';
import { workbookZip } from './zip.fixture.ts';

/** `/api/sysUser/…` administration: every endpoint and rule, with the seeded district. */

let t: TestApp;
let admin: string;
let superadmin: string;
/** 南京东路街道 leader: scope 2 (street and below); granted the user write buttons below. */
let streetLeader: string;
/** 发改委 clerk: no user permissions at all. */
let staff: string;

const { call, ok, code } = apiCalls(() => t.app);

const db = () => t.app.ctx.db;
const userId = async (account: string) =>
  (
    await db()
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', account)
      .where('is_delete', '=', 0)
      .executeTakeFirstOrThrow()
  ).id;
const orgId = async (orgCode: string) =>
  (await db().selectFrom('sys_org').select('id').where('code', '=', orgCode).executeTakeFirstOrThrow()).id;
const roleId = async (roleCode: string) =>
  (await db().selectFrom('sys_role').select('id').where('code', '=', roleCode).executeTakeFirstOrThrow()).id;
const posId = async (posCode: string) =>
  (await db().selectFrom('sys_pos').select('id').where('code', '=', posCode).executeTakeFirstOrThrow()).id;
const page = (token: string, filters: Record<string, unknown> = {}) =>
  ok<PageResult<UserPageItem>>(token, 'POST', '/api/sysUser/page', { pageSize: 100, ...filters });
const accounts = async (token: string, filters: Record<string, unknown> = {}) =>
  (await page(token, filters)).items.map((u) => u.account).sort();

/** A fresh user added by the admin; answers its id. */
let serial = 0;
async function addUser(extra: Record<string, unknown> = {}, token = admin): Promise<number> {
  serial += 1;
  return ok<number>(token, 'POST', '/api/sysUser/add', {
    account: `tmpuser${serial}`,
    realName: `临时${serial}`,
    orgId: await orgId('HPQ-FGW'),
    ...extra,
  });
}

const WRITE_BUTTONS = [
  'add',
  'update',
  'delete',
  'setStatus',
  'resetPwd',
  'unlockLogin',
  'grantRole',
  'import',
];

beforeAll(async () => {
  t = await createTestApp();
  // The street leaders' role gets the user write buttons, so that scope rules of writes can be shown.
  const menus = await db()
    .selectFrom('sys_menu')
    .select('id')
    .where(
      'permission',
      'in',
      WRITE_BUTTONS.map((b) => `sysUser:${b}`),
    )
    .execute();
  const role = await roleId('dept_town_leader');
  await db()
    .insertInto('sys_role_menu')
    .values(menus.map((m) => ({ id: t.app.ctx.newId(), role_id: role, menu_id: m.id })))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  superadmin = (await login(t.app, 'superadmin')).accessToken;
  streetLeader = (await login(t.app, 'njdleader')).accessToken;
  staff = (await login(t.app, 'fgwstaff')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

describe('access', () => {
  it('declares a sysUser permission on every route; 401 anonymous, 403 without the permission', async () => {
    // The administration routes (the user centre's own sysUser routes are for every signed-in user).
    const own = new Set(['changePwd', 'baseInfo', 'setOpPassword', 'checkOpPassword']);
    const routes = t.app
      .registeredRoutes()
      .filter(
        (r) =>
          r.url.startsWith('/api/sysUser/') &&
          r.method !== 'HEAD' &&
          !own.has(r.url.slice('/api/sysUser/'.length)),
      );
    expect(routes.length).toBeGreaterThan(15);
    for (const r of routes) expect(String(r.access), `${r.method} ${r.url}`).toMatch(/^sysUser:/);
    const anon = await t.app.inject({ method: 'POST', url: '/api/sysUser/page', payload: {} });
    expect(anon.statusCode).toBe(401);
    for (const [method, url] of [
      ['POST', '/api/sysUser/page'],
      ['POST', '/api/sysUser/add'],
      ['POST', '/api/sysUser/resetPwd'],
      ['POST', '/api/sysUser/export'],
      ['POST', '/api/sysUser/import'],
      ['GET', '/api/sysUser/downloadImportTemplate'],
    ] as const) {
      const response = await call(staff, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, url).toBe(403);
    }
  });
});

describe('page, list, detail', () => {
  it('pages with the org and position names joined, never a password, the super admin hidden from others', async () => {
    const result = await page(admin);
    const fgw = result.items.find((u) => u.account === 'fgwstaff');
    expect(fgw).toMatchObject({ orgName: '区发展和改革委员会', realName: '张伟', accountType: 777 });
    expect(fgw?.posName).toBeTruthy();
    for (const item of result.items) {
      expect(item).not.toHaveProperty('password');
      expect(item).not.toHaveProperty('opPassword');
    }
    expect(result.items.map((u) => u.account)).not.toContain('superadmin');
    expect(await accounts(superadmin)).toContain('superadmin');
  });

  it('filters: keyword over account, name and phone; account, realName, phone, status, accountType', async () => {
    expect(await accounts(admin, { keyword: 'leader' })).toEqual(
      ['fgwleader', 'gzlleader', 'hpleader', 'njdleader'].sort(),
    );
    expect(await accounts(admin, { keyword: '张伟' })).toEqual(['fgwstaff']);
    expect(await accounts(admin, { keyword: '15821376604' })).toEqual(['fgwstaff']);
    expect(await accounts(admin, { account: 'qyfill' })).toEqual(['qyfiller', 'qyfiller2']);
    expect(await accounts(admin, { realName: '周敏' })).toEqual(['njdlstaff']);
    expect(await accounts(admin, { phone: '1381652' })).toEqual(['admin']);
    expect(await accounts(admin, { accountType: 666 })).toEqual(['qyfiller', 'qyfiller2']);
    expect(await accounts(admin, { status: 2, keyword: '' })).toEqual([]);
    // Wildcards are literal.
    expect(await accounts(admin, { keyword: '%' })).toEqual([]);
  });

  it('orgId filter: the org and every org below it', async () => {
    expect(await accounts(admin, { orgId: await orgId('310101002') })).toEqual([
      'gridstaff',
      'gzlleader',
      'gzlstaff',
      'njdleader',
      'njdlstaff',
      'qyfiller',
    ]);
    expect(await accounts(admin, { orgId: await orgId('310101002001') })).toEqual([
      'gridstaff',
      'gzlleader',
      'gzlstaff',
    ]);
    expect(await accounts(admin, { orgId: await orgId('HPQ-MZJ') })).toEqual(['mzjchief']);
  });

  it('sorts by whitelisted fields, pages, and answers GET page and list alike', async () => {
    const asc = await page(admin, { field: 'account', order: 'ascending' });
    const sorted = asc.items.map((u) => u.account);
    expect(sorted).toEqual([...sorted].sort());
    const desc = await page(admin, { field: 'account', order: 'descending' });
    expect(desc.items.map((u) => u.account)).toEqual([...sorted].reverse());
    const second = await page(admin, { field: 'account', order: 'ascending', page: 2, pageSize: 5 });
    expect(second.items.map((u) => u.account)).toEqual(sorted.slice(5, 10));
    expect(second.total).toBe(asc.total);
    // A text search pages the same way (it reads its few matches in one go).
    const staffAsc = await page(admin, { keyword: 'staff', field: 'account', order: 'ascending' });
    const staffSecond = await page(admin, {
      keyword: 'staff',
      field: 'account',
      order: 'ascending',
      page: 2,
      pageSize: 2,
    });
    expect(staffSecond.total).toBe(staffAsc.total);
    expect(staffSecond.items.map((u) => u.account)).toEqual(staffAsc.items.slice(2, 4).map((u) => u.account));
    expect(staffSecond.totalPages).toBe(Math.ceil(staffAsc.total / 2));
    // An unknown sort field falls back to newest first instead of failing.
    expect((await page(admin, { field: 'password', order: 'ascending' })).total).toBe(asc.total);

    const viaGet = await ok<PageResult<UserPageItem>>(
      admin,
      'GET',
      '/api/sysUser/page?pageSize=3&keyword=staff',
    );
    expect(viaGet.items.length).toBe(3);
    const list = await ok<UserPageItem[]>(
      admin,
      'GET',
      `/api/sysUser/list?orgId=${await orgId('310101002001')}`,
    );
    expect(list.map((u) => u.account).sort()).toEqual(['gridstaff', 'gzlleader', 'gzlstaff']);
    expect(list[0]).toHaveProperty('orgName');
  });

  it('narrows every read to the data scope', async () => {
    expect(await accounts(streetLeader)).toEqual([
      'gridstaff',
      'gzlleader',
      'gzlstaff',
      'njdleader',
      'njdlstaff',
      'qyfiller',
    ]);
    // A filter on an org outside the scope finds nothing, not the org's users.
    expect(await accounts(streetLeader, { orgId: await orgId('HPQ-FGW') })).toEqual([]);
    const fgw = await userId('fgwstaff');
    expect(await code(streetLeader, 'GET', `/api/sysUser/detail?Id=${fgw}`)).toBe('D1002');
    expect(await code(streetLeader, 'GET', `/api/sysUser/ownRoleList/${fgw}`)).toBe('D1002');
    const list = await ok<UserPageItem[]>(streetLeader, 'GET', '/api/sysUser/list');
    expect(list.map((u) => u.account)).not.toContain('fgwstaff');
  });

  it('detail by query and by path, without password hashes', async () => {
    const id = await userId('gzlstaff');
    const detail = await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`);
    expect(detail).toMatchObject({ id, account: 'gzlstaff', realName: '吴静' });
    expect(detail).not.toHaveProperty('password');
    expect(detail).not.toHaveProperty('opPassword');
    expect(await ok<UserRow>(admin, 'GET', `/api/sysUser/${id}`)).toEqual(detail);
    expect(await code(admin, 'GET', '/api/sysUser/detail?Id=123456789')).toBe('D1002');
  });
});

describe('add and update', () => {
  it('adds a user with roles, position, extra orgs and area fields; default password, isDefPwd', async () => {
    const staffRole = await roleId('staff');
    const leaderRole = await roleId('community_leader');
    const clerk = await posId('clerk');
    const grid = await orgId('31010100200101');
    const id = await ok<number>(admin, 'POST', '/api/sysUser/add', {
      account: 'newclerk01',
      realName: '钱多多',
      nickName: '多多',
      sex: 2,
      phone: '13912345678',
      email: 'qian@huangpu.example.com',
      idCardNum: '310101198607082374',
      address: '上海市黄浦区',
      accountType: 777,
      orgId: await orgId('310101002001'),
      posId: clerk,
      roleIdList: [staffRole, leaderRole, staffRole],
      extOrgList: [{ orgId: grid, posId: clerk }],
      area: '黄浦区',
      areaCode: '310101',
      street: '南京东路街道',
      streetCode: '310101002',
      community: '贵州路居民委员会',
      communityCode: '310101002001',
      wangge: '第一网格',
      wanggeCode: '31010100200101',
      weiwangge: '一号楼',
      weiwanggeCode: '3101010020010101',
      regionId: '310101002001',
      regionName: '贵州路居民委员会',
      enterprise: '',
      orderNo: 5,
      remark: '新人',
    });
    const detail = await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`);
    expect(detail).toMatchObject({
      account: 'newclerk01',
      realName: '钱多多',
      sex: 2,
      isDefPwd: 1,
      status: 1,
      posId: clerk,
      wangge: '第一网格',
      weiwanggeCode: '3101010020010101',
      regionName: '贵州路居民委员会',
      enterprise: null,
      orderNo: 5,
    });
    expect(await ok<number[]>(admin, 'GET', `/api/sysUser/ownRoleList/${id}`)).toEqual(
      [staffRole, leaderRole].sort((a, b) => a - b),
    );
    const ext = await ok<UserExtOrg[]>(admin, 'GET', `/api/sysUser/ownExtOrgList/${id}`);
    expect(ext).toEqual([{ orgId: grid, orgName: '第一网格', posId: clerk, posName: expect.any(String) }]);
    const row = await db()
      .selectFrom('sys_user')
      .select(['password', 'is_def_pwd'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password).toMatch(/^\$argon2id\$/);
    const tokens = await loginAsIs(t.app, 'newclerk01', DEFAULT_PASSWORD);
    expect(tokens.isDefPwd).toBe(true);
  });

  it('refuses bad formats with field errors, and account types 888 / 999', async () => {
    const base = { account: 'goodacct1', realName: '好', orgId: await orgId('HPQ-FGW') };
    for (const [field, value] of [
      ['account', '1abc'],
      ['account', 'ab'],
      ['account', 'abc-def'],
      ['phone', '12345'],
      ['idCardNum', '310101198607082375'],
      ['email', 'not-mail'],
      ['accountType', 888],
      ['accountType', 999],
      ['sex', 3],
    ] as const) {
      const env = body(await call(admin, 'POST', '/api/sysUser/add', { ...base, [field]: value }));
      expect(env.code, `${field}=${value}`).toBe(400);
      expect(Object.keys(env.errors as object), `${field}=${value}`).toContain(field);
    }
    // Empty optional boxes are fine: they mean no value.
    const id = await addUser({ phone: '', idCardNum: '', email: '' });
    expect((await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`)).phone).toBeNull();
  });

  it('keeps accounts unique among live users of every tenant (D1006)', async () => {
    expect(
      await code(admin, 'POST', '/api/sysUser/add', {
        account: 'fgwstaff',
        realName: '重',
        orgId: await orgId('HPQ-FGW'),
      }),
    ).toBe('D1006');
    // A user of another tenant holds the account: still taken.
    await db()
      .insertInto('sys_user')
      .values({
        id: t.app.ctx.newId(),
        tenant_id: 424242,
        account: 'othertenant1',
        password: 'x',
        real_name: '外租户',
        account_type: 777,
        status: 1,
        order_no: 1,
        is_def_pwd: 1,
        login_fail_count: 0,
        create_time: '2026-01-01 00:00:00',
        is_delete: 0,
      })
      .execute();
    expect(
      await code(admin, 'POST', '/api/sysUser/add', {
        account: 'othertenant1',
        realName: '重',
        orgId: await orgId('HPQ-FGW'),
      }),
    ).toBe('D1006');
    // A deleted user's account may be taken again.
    const id = await addUser({ account: 'reusable01' });
    await ok(admin, 'POST', '/api/sysUser/delete', { id });
    await addUser({ account: 'reusable01' });
    // Renaming onto a taken account.
    const other = await addUser();
    expect(await code(admin, 'POST', '/api/sysUser/update', { id: other, account: 'fgwstaff' })).toBe(
      'D1006',
    );
  });

  it('refuses orgs, positions and roles that are not the tenant’s (D1002), with nothing written', async () => {
    const foreignRole = t.app.ctx.newId();
    await db()
      .insertInto('sys_role')
      .values({
        id: foreignRole,
        tenant_id: 424242,
        code: 'foreign',
        name: '外',
        data_scope: 1,
        order_no: 1,
        status: 1,
        create_time: '2026-01-01 00:00:00',
        is_delete: 0,
      })
      .execute();
    const fgw = await orgId('HPQ-FGW');
    expect(
      await code(admin, 'POST', '/api/sysUser/add', {
        account: 'roleless01',
        realName: '甲',
        orgId: fgw,
        roleIdList: [foreignRole],
      }),
    ).toBe('D1002');
    expect(
      await code(admin, 'POST', '/api/sysUser/add', {
        account: 'roleless01',
        realName: '甲',
        orgId: 987654321,
      }),
    ).toBe('D1002');
    expect(
      await code(admin, 'POST', '/api/sysUser/add', {
        account: 'roleless01',
        realName: '甲',
        orgId: fgw,
        posId: 987654321,
      }),
    ).toBe('D1002');
    expect(
      await code(admin, 'POST', '/api/sysUser/add', {
        account: 'roleless01',
        realName: '甲',
        orgId: fgw,
        extOrgList: [{ orgId: 987654321 }],
      }),
    ).toBe('D1002');
    const none = await db().selectFrom('sys_user').select('id').where('account', '=', 'roleless01').execute();
    expect(none).toEqual([]);
    const id = await addUser();
    expect(
      await code(admin, 'POST', '/api/sysUser/grantRole', { userId: id, roleIdList: [foreignRole] }),
    ).toBe('D1002');
  });

  it('updates fields and replaces roles and extra orgs; leaves out what is not sent', async () => {
    const id = await addUser({ roleIdList: [await roleId('staff')], phone: '13912340000' });
    const leader = await roleId('community_leader');
    const grid2 = await orgId('31010100200102');
    await ok(admin, 'POST', '/api/sysUser/update', {
      id,
      realName: '改名',
      roleIdList: [leader],
      extOrgList: [{ orgId: grid2 }],
      street: '南京东路街道',
    });
    const detail = await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`);
    expect(detail).toMatchObject({ realName: '改名', phone: '13912340000', street: '南京东路街道' });
    expect(detail.updateUserName).toBe('系统管理员');
    expect(await ok<number[]>(admin, 'GET', `/api/sysUser/ownRoleList/${id}`)).toEqual([leader]);
    expect(
      (await ok<UserExtOrg[]>(admin, 'GET', `/api/sysUser/ownExtOrgList/${id}`)).map((e) => e.orgId),
    ).toEqual([grid2]);
    // PUT works too; an update without the lists keeps them.
    await ok(admin, 'PUT', '/api/sysUser/update', { id, remark: 'r' });
    expect(await ok<number[]>(admin, 'GET', `/api/sysUser/ownRoleList/${id}`)).toEqual([leader]);
    // The account type of an admin account is never changed here; 777 ↔ 666 is.
    await ok(admin, 'POST', '/api/sysUser/update', { id, accountType: 666 });
    expect((await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`)).accountType).toBe(666);
  });

  it('copies blank area levels from the org chain; an org change carries them, typed ones stay', async () => {
    const id = await addUser({ orgId: await orgId('31010100200101'), weiwangge: '一号楼' });
    let detail = await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`);
    expect(detail).toMatchObject({
      area: '黄浦区',
      areaCode: '310101',
      street: '南京东路街道',
      streetCode: '310101002',
      community: '贵州路居民委员会',
      communityCode: '310101002001',
      wangge: '第一网格',
      wanggeCode: '31010100200101',
      weiwangge: '一号楼',
      weiwanggeCode: null,
    });
    // The form sends the stored values back with the new org: those the old org gave follow the new one.
    await ok(admin, 'POST', '/api/sysUser/update', {
      id,
      orgId: await orgId('310101013'),
      area: detail.area,
      areaCode: detail.areaCode,
      street: detail.street,
      streetCode: detail.streetCode,
      community: detail.community,
      communityCode: detail.communityCode,
      wangge: detail.wangge,
      wanggeCode: detail.wanggeCode,
      weiwangge: detail.weiwangge,
    });
    detail = await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${id}`);
    expect(detail).toMatchObject({
      area: '黄浦区',
      street: '外滩街道',
      streetCode: '310101013',
      community: null,
      communityCode: null,
      wangge: null,
      weiwangge: '一号楼',
    });
  });

  it('admins (999, 888) are the super admin’s alone to change (D1005); nobody disables or deletes themself', async () => {
    const superId = await userId('superadmin');
    const adminId = await userId('admin');
    expect(await code(admin, 'POST', '/api/sysUser/update', { id: superId, realName: 'x' })).toBe('D1005');
    expect(await code(admin, 'POST', '/api/sysUser/update', { id: adminId, realName: 'x' })).toBe('D1005');
    expect(await code(admin, 'POST', '/api/sysUser/setStatus', { id: superId, status: 2 })).toBe('D1005');
    expect(await code(admin, 'POST', '/api/sysUser/delete', { id: superId })).toBe('D1005');
    expect(await code(admin, 'POST', '/api/sysUser/resetPwd', { id: superId })).toBe('D1005');
    expect(await code(admin, 'POST', '/api/sysUser/setStatus', { id: adminId, status: 2 })).toBe('D1003');
    expect(await code(admin, 'POST', '/api/sysUser/delete', { id: adminId })).toBe('D1001');
    expect(await code(superadmin, 'POST', '/api/sysUser/delete', { id: superId })).toBe('D1001');
    expect(await code(superadmin, 'POST', '/api/sysUser/setStatus', { id: superId, status: 2 })).toBe(
      'D1003',
    );
    // The super admin may edit the tenant admin, but not turn it into a normal account here.
    await ok(superadmin, 'POST', '/api/sysUser/update', {
      id: adminId,
      remark: '租户管理员',
      accountType: 777,
    });
    const row = await db()
      .selectFrom('sys_user')
      .select(['account_type', 'remark'])
      .where('id', '=', adminId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ account_type: 888, remark: '租户管理员' });
    // A tenant admin with scope over themself still cannot disable themself through update.
    const leaderId = await userId('njdleader');
    expect(await code(streetLeader, 'POST', '/api/sysUser/update', { id: leaderId, status: 2 })).toBe(
      'D1003',
    );
  });

  it('writes stay inside the data scope: D1002 for users out of sight, D2003 for orgs out of scope', async () => {
    const street = await orgId('310101002');
    const community = await orgId('310101002001');
    const fgw = await orgId('HPQ-FGW');
    expect(
      await code(streetLeader, 'POST', '/api/sysUser/add', {
        account: 'outside01',
        realName: '外',
        orgId: fgw,
      }),
    ).toBe('D2003');
    expect(
      await code(streetLeader, 'POST', '/api/sysUser/add', {
        account: 'outside01',
        realName: '外',
        orgId: community,
        extOrgList: [{ orgId: fgw }],
      }),
    ).toBe('D2003');
    const id = await ok<number>(streetLeader, 'POST', '/api/sysUser/add', {
      account: 'inside01',
      realName: '内',
      orgId: community,
    });
    expect(await code(streetLeader, 'POST', '/api/sysUser/update', { id, orgId: fgw })).toBe('D2003');
    await ok(streetLeader, 'POST', '/api/sysUser/update', { id, orgId: street });
    const outsider = await userId('fgwstaff');
    for (const [url, payload] of [
      ['/api/sysUser/update', { id: outsider, realName: 'x' }],
      ['/api/sysUser/setStatus', { id: outsider, status: 2 }],
      ['/api/sysUser/delete', { id: outsider }],
      ['/api/sysUser/resetPwd', { id: outsider }],
      ['/api/sysUser/unlockLogin', { id: outsider }],
      ['/api/sysUser/grantRole', { userId: outsider, roleIdList: [] }],
    ] as const) {
      expect(await code(streetLeader, 'POST', url, payload), url).toBe('D1002');
    }
    expect((await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${outsider}`)).status).toBe(1);
  });
});

describe('status, password, lock, roles, delete', () => {
  it('disabling ends the user’s sessions at once; enabling lets them sign in again', async () => {
    const id = await addUser();
    const account = `tmpuser${serial}`;
    const token = (await login(t.app, account)).accessToken;
    expect((await call(token, 'GET', '/api/sysAuth/userInfo')).statusCode).toBe(200);
    await ok(admin, 'POST', '/api/sysUser/setStatus', { id, status: 2 });
    expect((await call(token, 'GET', '/api/sysAuth/userInfo')).statusCode).toBe(401);
    expect(body(await loginRequest(t.app, account)).code).not.toBe(200);
    expect(await accounts(admin, { status: 2 })).toContain(account);
    await ok(admin, 'POST', '/api/sysUser/setStatus', { id, status: 1 });
    const again = (await login(t.app, account)).accessToken;
    expect((await call(again, 'GET', '/api/sysAuth/userInfo')).statusCode).toBe(200);
    // The old session stays ended.
    expect((await call(token, 'GET', '/api/sysAuth/userInfo')).statusCode).toBe(401);
  });

  it('resetPwd sets the default password, answers it once, and signs the user out', async () => {
    const id = await addUser();
    const account = `tmpuser${serial}`;
    const token = (await login(t.app, account)).accessToken;
    await db()
      .updateTable('sys_user')
      .set({ password: 'not-a-hash', is_def_pwd: 0 })
      .where('id', '=', id)
      .execute();
    const password = await ok<string>(admin, 'POST', '/api/sysUser/resetPwd', { id });
    expect(password).toBe(DEFAULT_PASSWORD);
    const row = await db()
      .selectFrom('sys_user')
      .select(['is_def_pwd', 'password'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.is_def_pwd).toBe(1);
    expect(row.password).toMatch(/^\$argon2id\$/);
    expect((await call(token, 'GET', '/api/sysAuth/userInfo')).statusCode).toBe(401);
    expect((await loginAsIs(t.app, account, password)).isDefPwd).toBe(true);
    expect(await code(admin, 'POST', '/api/sysUser/resetPwd', { id: 987654321 })).toBe('D1002');
  });

  it('unlockLogin clears the lock and the failure count', async () => {
    const id = await addUser();
    const account = `tmpuser${serial}`;
    expect((await lockOut(t.app, account)).at(-1)).toBe('D1027');
    expect(body(await loginRequest(t.app, account)).code).toBe('D1027');
    const listed = (await page(admin, { account })).items[0];
    expect(listed?.lockUntil).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await ok(admin, 'POST', '/api/sysUser/unlockLogin', { id });
    const row = await db()
      .selectFrom('sys_user')
      .select(['lock_until', 'login_fail_count'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ lock_until: null, login_fail_count: 0 });
    await login(t.app, account);
  });

  it('grantRole replaces the roles and applies at once to the user’s live session (permissions and scope)', async () => {
    const id = await userId('gzlstaff');
    const token = (await login(t.app, 'gzlstaff')).accessToken;
    expect((await call(token, 'POST', '/api/sysUser/page', {})).statusCode).toBe(403);
    const staffRole = await roleId('staff');
    const sysAdmin = await roleId('sys_admin');
    await ok(admin, 'POST', '/api/sysUser/grantRole', { userId: id, roleIdList: [staffRole, sysAdmin] });
    expect(await ok<number[]>(admin, 'GET', `/api/sysUser/ownRoleList/${id}`)).toEqual(
      [staffRole, sysAdmin].sort((a, b) => a - b),
    );
    // Same token: the new permissions and the new scope (sys_admin is scope 1) apply now.
    const all = await accounts(token);
    expect(all).toContain('fgwstaff');
    await ok(admin, 'POST', '/api/sysUser/grantRole', { userId: id, roleIdList: [staffRole] });
    expect((await call(token, 'POST', '/api/sysUser/page', {})).statusCode).toBe(403);
  });

  it('an org change applies to the user’s data scope at once', async () => {
    const id = await addUser({ roleIdList: [await roleId('sys_dept')], orgId: await orgId('HPQ-MZJ-JZK') });
    const account = `tmpuser${serial}`;
    const token = (await login(t.app, account)).accessToken;
    expect(await accounts(token)).toEqual([account, 'mzjchief'].sort());
    await ok(admin, 'POST', '/api/sysUser/update', { id, orgId: await orgId('HPQ-TJJ') });
    // The access token names the org it was issued for; the next token (refresh or sign-in) has the new one.
    const next = (await login(t.app, account)).accessToken;
    expect(await accounts(next)).toEqual(['tjjdirector', account].sort());
    void token;
  });

  it('deletes softly: the user disappears, their session ends, their roles go; self-delete is refused', async () => {
    const id = await addUser({ roleIdList: [await roleId('staff')] });
    const account = `tmpuser${serial}`;
    const token = (await login(t.app, account)).accessToken;
    await ok(admin, 'POST', '/api/sysUser/delete', { id });
    expect(await accounts(admin, { account })).toEqual([]);
    expect((await call(token, 'GET', '/api/sysAuth/userInfo')).statusCode).toBe(401);
    expect(await db().selectFrom('sys_user_role').select('id').where('user_id', '=', id).execute()).toEqual(
      [],
    );
    expect(await code(admin, 'POST', '/api/sysUser/delete', { id })).toBe('D1002');
    const second = await addUser();
    await ok(admin, 'DELETE', `/api/sysUser/${second}`);
    expect(await code(admin, 'GET', `/api/sysUser/detail?Id=${second}`)).toBe('D1002');
  });
});

async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('账号');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
/** Cell values of a row, from column 1. */
const rowValues = (sheet: ExcelJS.Worksheet | undefined, row: number): unknown[] =>
  ((sheet?.getRow(row).values as unknown[] | undefined) ?? []).slice(1);
async function readXlsx(data: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  return workbook;
}
const upload = (token: string, data: Buffer, name = 'users.xlsx') => {
  const form = multipart(name, data, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  return authed(t.app, token, {
    method: 'POST',
    url: '/api/sysUser/import',
    payload: form.payload,
    headers: form.headers,
  });
};

describe('export and import', () => {
  it('exports the filtered rows as .xlsx with org names and labels', async () => {
    const response = await call(admin, 'POST', '/api/sysUser/export', {
      orgId: await orgId('310101002001'),
      field: 'account',
      order: 'ascending',
    });
    expect(response.headers['content-type']).toContain('spreadsheetml');
    const sheet = (await readXlsx(response.rawPayload)).worksheets[0];
    const header = rowValues(sheet, 1);
    expect(header).toContain('账号');
    expect(header).toContain('所属机构');
    expect(header).not.toContain('密码');
    const listed = [2, 3, 4, 5].map((n) => sheet?.getRow(n).getCell(1).value);
    expect(listed).toEqual(['gridstaff', 'gzlleader', 'gzlstaff', 'newclerk01']);
    expect(sheet?.actualRowCount).toBe(5);
    expect(JSON.stringify(sheet?.getRow(3).values)).toContain('贵州路居民委员会');
  });

  it('downloadImportTemplate lists the columns and the codes in the caller’s scope', async () => {
    const response = await call(staff, 'GET', '/api/sysUser/downloadImportTemplate');
    expect(response.statusCode).toBe(403);
    const ok200 = await call(admin, 'GET', '/api/sysUser/downloadImportTemplate');
    expect(ok200.headers['content-type']).toContain('spreadsheetml');
    const workbook = await readXlsx(ok200.rawPayload);
    const header = rowValues(workbook.worksheets[0], 1);
    expect(header.slice(0, 5)).toEqual(['*账号', '*姓名', '*机构编码', '职位编码', '角色编码']);
    const orgSheet = workbook.getWorksheet('机构编码');
    expect(JSON.stringify(orgSheet?.getSheetValues())).toContain('HPQ-FGW');
    const en = await authed(t.app, admin, {
      method: 'GET',
      url: '/api/sysUser/downloadImportTemplate',
      headers: { 'accept-language': 'en' },
    });
    expect(rowValues((await readXlsx(en.rawPayload)).worksheets[0], 1)[0]).toBe('*Account');
  });

  it('imports the valid rows in one go and reports the others per row, with an error report', async () => {
    const data = await xlsx([
      ['*账号', '*姓名', '*机构编码', '职位编码', '角色编码', '账号类型', '性别', '手机号码', '身份证号'],
      ['import01', '导入一', 'HPQ-FGW', 'clerk', 'staff,community_leader', '', '女', '13911112222', ''],
      ['import02', '导入二', 'NO-SUCH-ORG', '', 'no_role', '', '', '12345', ''],
      ['fgwstaff', '重复', 'HPQ-FGW', '', '', '888', '', '', ''],
      [],
      ['import01', '文件内重复', 'HPQ-FGW', '', '', '', '', '', ''],
      ['import03', '会员', '310101002', '', '', 666, 1, 13911113333, ''],
    ]);
    const response = await upload(admin, data);
    const env = body<UserImportResult>(response);
    expect(env.code, JSON.stringify(env)).toBe(200);
    const result = env.result as UserImportResult;
    expect(result).toMatchObject({ total: 5, imported: 2, failed: 3 });
    expect(result.errors.map((e) => e.row)).toEqual([3, 4, 6]);
    const [bad, dup, inFile] = result.errors;
    expect(bad?.messages.join('|')).toContain('NO-SUCH-ORG');
    expect(bad?.messages.join('|')).toContain('no_role');
    expect(bad?.messages.join('|')).toContain('手机号码');
    expect(dup?.messages.join('|')).toContain('fgwstaff');
    expect(dup?.messages.join('|')).toContain('账号类型');
    expect(inFile?.messages.join('|')).toContain('import01');

    const imported = await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${await userId('import01')}`);
    expect(imported).toMatchObject({
      realName: '导入一',
      sex: 2,
      phone: '13911112222',
      isDefPwd: 1,
      posId: await posId('clerk'),
    });
    expect((await ok<number[]>(admin, 'GET', `/api/sysUser/ownRoleList/${imported.id}`)).length).toBe(2);
    expect(
      (await ok<UserRow>(admin, 'GET', `/api/sysUser/detail?Id=${await userId('import03')}`)).accountType,
    ).toBe(666);
    expect((await loginAsIs(t.app, 'import01')).isDefPwd).toBe(true);

    // The error report: the uploaded sheet with an error column, for the uploader only.
    const reportUrl = `/api/sysUser/importErrorReport?id=${result.errorReportId}`;
    expect(await code(superadmin, 'GET', reportUrl)).toBe('D1002');
    const report = await call(admin, 'GET', reportUrl);
    expect(report.headers['content-type']).toContain('spreadsheetml');
    const sheet = (await readXlsx(report.rawPayload)).worksheets[0];
    expect(sheet?.getRow(1).getCell(10).value).toBe('错误信息');
    expect(String(sheet?.getRow(3).getCell(10).value)).toContain('NO-SUCH-ORG');
    expect(sheet?.getRow(2).getCell(10).value).toBeNull();
  });

  it('imports into the caller’s scope only', async () => {
    const data = await xlsx([
      ['账号', '姓名', '机构编码'],
      ['scoped01', '范围内', '310101002001'],
      ['scoped02', '范围外', 'HPQ-FGW'],
    ]);
    const result = body<UserImportResult>(await upload(streetLeader, data)).result as UserImportResult;
    expect(result).toMatchObject({ total: 2, imported: 1, failed: 1 });
    expect(result.errors[0]?.row).toBe(3);
  });

  it('refuses a zip-bomb workbook (F1031) and imports nothing from it', async () => {
    const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
    const sheet =
      `<worksheet><sheetData><row r="1">${inline('A1', '*账号')}${inline('B1', '*姓名')}${inline('C1', '*机构编码')}</row>` +
      `<row r="2">${inline('A2', 'bomb01')}${inline('B2', '炸弹')}${inline('C2', 'HPQ-FGW')}</row></sheetData></worksheet>`;
    // 30 MB of blanks packed 1000 : 1: refused from the zip directory before anything is unpacked.
    const bomb = workbookZip(sheet, 30 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(USER_IMPORT_MAX_BYTES);
    expect(body(await upload(admin, bomb)).code).toBe('F1031');
    // The same sheet whose directory understates its size: unpacking stops at the declared size.
    const liar = workbookZip(sheet, 30 * 1024 * 1024, 64 * 1024);
    expect(body(await upload(admin, liar)).code).toBe('F1031');
    const found = await ok<PageResult<UserPageItem>>(admin, 'POST', '/api/sysUser/page', {
      account: 'bomb01',
    });
    expect(found.total).toBe(0);
    // The sheet itself is fine: without the padding it imports.
    const plain = body<UserImportResult>(await upload(admin, workbookZip(sheet)));
    expect(plain.result).toMatchObject({ imported: 1, failed: 0 });
  });

  it('refuses unreadable files and sheets without the required columns (D1010)', async () => {
    expect(body(await upload(admin, Buffer.from('not a workbook'))).code).toBe('D1010');
    expect(
      body(
        await upload(
          admin,
          await xlsx([
            ['账号', '姓名'],
            ['x1234', '甲'],
          ]),
        ),
      ).code,
    ).toBe('D1010');
    const none = await authed(t.app, admin, { method: 'POST', url: '/api/sysUser/import', payload: {} });
    expect(body(none).code).not.toBe(200);
  });
});
