import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OrgNode } from '@shuzhi/contracts/org';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DataScopeView, dataScopeOf, forgetDataScope } from '../src/platform/access/data-scope.ts';
import { forgetUserSessions } from '../src/platform/auth/sessions.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * One test per data scope (REFERENCE "Role data scope") with the seeded users: what `dataScopeOf` computes,
 * and what the user listing (`sysUser/page`) and the org tree (`sysOrg/treeAll`) then show that user.
 */

let t: TestApp;
let admin: string;

type Method = 'GET' | 'POST';
const ok = async <T>(token: string, method: Method, url: string, payload?: unknown) => {
  const env = body<T>(
    await authed(t.app, token, {
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    }),
  );
  expect(env.code, `${method} ${url} ${JSON.stringify(env)}`).toBe(200);
  return env.result as T;
};

type UserRow = {
  id: number;
  tenant_id: number;
  account_type: number;
  org_id: number | null;
  account: string;
};
async function user(account: string): Promise<UserRow> {
  return t.app.ctx.db
    .selectFrom('sys_user')
    .select(['id', 'tenant_id', 'account_type', 'org_id', 'account'])
    .where('account', '=', account)
    .executeTakeFirstOrThrow();
}
async function scopeOf(account: string): Promise<DataScopeView> {
  const u = await user(account);
  return dataScopeOf(t.app.ctx, {
    userId: u.id,
    tenantId: u.tenant_id,
    accountType: u.account_type,
    orgId: u.org_id,
  });
}
async function orgIdsOf(...codes: string[]): Promise<number[]> {
  const rows = await t.app.ctx.db.selectFrom('sys_org').select('id').where('code', 'in', codes).execute();
  expect(rows.length).toBe(codes.length);
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
/** The org and every org below it. */
async function subtreeOf(code: string): Promise<number[]> {
  const [root] = await orgIdsOf(code);
  const rows = await t.app.ctx.db
    .selectFrom('sys_org')
    .select(['id', 'full_ids'])
    .where('is_delete', '=', 0)
    .execute();
  return rows
    .filter((r) => r.full_ids.split(',').includes(String(root)))
    .map((r) => r.id)
    .sort((a, b) => a - b);
}
async function allOrgIds(): Promise<number[]> {
  const rows = await t.app.ctx.db.selectFrom('sys_org').select('id').where('is_delete', '=', 0).execute();
  return rows.map((r) => r.id).sort((a, b) => a - b);
}
/** Accounts a view admits in a user listing: users of its row orgs, and the user themself. */
async function accountsIn(view: DataScopeView, self: string): Promise<string[]> {
  const rows = await t.app.ctx.db
    .selectFrom('sys_user')
    .select(['account', 'org_id', 'account_type'])
    .where('is_delete', '=', 0)
    .execute();
  const orgs = new Set(view.selfOnly ? [] : view.orgIds);
  return rows
    .filter((r) => r.account_type !== 999)
    .filter((r) => view.all || (r.org_id !== null && orgs.has(r.org_id)) || r.account === self)
    .map((r) => r.account)
    .sort();
}
async function listedAccounts(token: string): Promise<string[]> {
  const page = await ok<PageResult<{ account: string }>>(token, 'POST', '/api/sysUser/page', {
    pageSize: 100,
  });
  expect(page.total).toBe(page.items.length);
  return page.items.map((u) => u.account).sort();
}
/** Orgs of the tree the user may pick (ancestors shown only to connect the tree are left out). */
async function treeOrgIds(token: string): Promise<number[]> {
  const flat = (nodes: OrgNode[]): OrgNode[] => nodes.flatMap((n) => [n, ...flat(n.children)]);
  const tree = flat(await ok<OrgNode[]>(token, 'GET', '/api/sysOrg/treeAll'));
  return tree
    .filter((n) => !n.outOfScope)
    .map((n) => n.id)
    .sort((a, b) => a - b);
}
async function signIn(account: string): Promise<string> {
  return (await login(t.app, account)).accessToken;
}
async function giveRole(account: string, roleCode: string) {
  const u = await user(account);
  const role = await t.app.ctx.db
    .selectFrom('sys_role')
    .select('id')
    .where('code', '=', roleCode)
    .where('tenant_id', '=', u.tenant_id)
    .executeTakeFirstOrThrow();
  await t.app.ctx.db
    .insertInto('sys_user_role')
    .values({ id: t.app.ctx.newId(), user_id: u.id, role_id: role.id })
    .execute();
  await forgetDataScope(t.app.ctx, u.id);
  await forgetUserSessions(t.app.ctx, u.id);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
});
afterAll(async () => {
  await t?.close();
});

describe('data scope with the seeded users', () => {
  it('1 all: the tenant admin and a holder of a scope-1 role (city_admin) see the whole tenant', async () => {
    const all = await allOrgIds();
    for (const account of ['admin', 'cityadmin']) {
      const view = await scopeOf(account);
      expect(view).toMatchObject({ all: true, selfOnly: false });
      expect([...view.orgIds].sort((a, b) => a - b)).toEqual(all);
      const token = account === 'admin' ? admin : await signIn(account);
      const listed = await listedAccounts(token);
      expect(listed).toEqual(await accountsIn(view, account));
      expect(listed).toEqual(expect.arrayContaining(['admin', 'hpleader', 'qyfiller', 'yjjchief']));
      expect(await treeOrgIds(token)).toEqual(all);
    }
  });

  it('2 own org and below: 统计局 director (sys_deptChild) sees 统计局 and its sections', async () => {
    const view = await scopeOf('tjjdirector');
    const subtree = await subtreeOf('HPQ-TJJ');
    expect(subtree).toEqual(await orgIdsOf('HPQ-TJJ', 'HPQ-TJJ-ZHK', 'HPQ-TJJ-SHK'));
    expect(view).toMatchObject({ all: false, selfOnly: false, orgIds: subtree });
    const token = await signIn('tjjdirector');
    expect(await listedAccounts(token)).toEqual(await accountsIn(view, 'tjjdirector'));
    expect(await treeOrgIds(token)).toEqual(subtree);

    // The same rule for a street leader reaches the street's communities, grids and enterprises.
    const street = await scopeOf('njdleader');
    expect(street.orgIds).toEqual(await subtreeOf('310101002'));
    const streetToken = await signIn('njdleader');
    const listed = await listedAccounts(streetToken);
    expect(listed).toEqual(await accountsIn(street, 'njdleader'));
    expect(listed).toEqual(['gridstaff', 'gzlleader', 'gzlstaff', 'njdleader', 'njdlstaff', 'qyfiller']);
  });

  it('3 own org only: 社会救助科 chief (sys_dept) sees the section, not 民政局 above it', async () => {
    const view = await scopeOf('mzjchief');
    const own = await orgIdsOf('HPQ-MZJ-JZK');
    expect(view).toMatchObject({ all: false, selfOnly: false, orgIds: own });
    const token = await signIn('mzjchief');
    expect(await listedAccounts(token)).toEqual(['mzjchief']);
    expect(await treeOrgIds(token)).toEqual(own);
    // The parent only connects the tree.
    const [parent] = await orgIdsOf('HPQ-MZJ');
    const tree = JSON.stringify(await ok<OrgNode[]>(token, 'GET', '/api/sysOrg/treeAll'));
    expect(tree).toContain(`"id":${parent},`);
  });

  it('4 self only: 市场监管局 clerk (sys_self) sees only their own user row', async () => {
    // sys_self carries no user list: the admin grants it the list button for this test.
    const role = await t.app.ctx.db
      .selectFrom('sys_role')
      .select('id')
      .where('code', '=', 'sys_self')
      .executeTakeFirstOrThrow();
    const own = await ok<number[]>(admin, 'GET', `/api/sysRole/ownMenuList?id=${role.id}`);
    const extra = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select('id')
      .where('permission', 'in', ['sysUser:page'])
      .execute();
    await ok(admin, 'POST', '/api/sysRole/grantMenu', {
      id: role.id,
      menuIdList: [...own, ...extra.map((m) => m.id)],
    });

    const view = await scopeOf('scjgclerk');
    const ownOrg = await orgIdsOf('HPQ-SCJGJ');
    // Rows narrow to the user; the own org still shows in pickers.
    expect(view).toMatchObject({ all: false, selfOnly: true, orgIds: ownOrg });
    const token = await signIn('scjgclerk');
    expect(await listedAccounts(token)).toEqual(['scjgclerk']);
    expect(await treeOrgIds(token)).toEqual(ownOrg);
  });

  it('5 custom: 应急管理局 chief (sys_define) sees 外滩 and 豫园 streets with their communities, plus the own org', async () => {
    const view = await scopeOf('yjjchief');
    const custom = await orgIdsOf(
      '310101013',
      '310101013001',
      '310101013002',
      '310101018',
      '310101018001',
      '310101018002',
    );
    const expected = [...custom, ...(await orgIdsOf('HPQ-YJGLJ'))].sort((a, b) => a - b);
    expect(view).toMatchObject({ all: false, selfOnly: false, orgIds: expected });
    // Only the listed orgs: an enterprise or grid below 豫园 that is not listed stays out.
    const below = await subtreeOf('310101018');
    expect(below.length).toBeGreaterThan(3);
    expect(below.filter((id) => !expected.includes(id)).length).toBeGreaterThan(0);
    const token = await signIn('yjjchief');
    const listed = await listedAccounts(token);
    expect(listed).toEqual(await accountsIn(view, 'yjjchief'));
    expect(listed).toContain('yjjchief');
    expect(await treeOrgIds(token)).toEqual(expected);
  });

  it('union: own org, extra orgs and every role add up; self-only holds only when every role is scope 4', async () => {
    // gridstaff: staff (3) in 第一网格, extra org 第二网格.
    const grid = await scopeOf('gridstaff');
    expect(grid).toMatchObject({ all: false, selfOnly: false });
    expect(grid.orgIds).toEqual(await orgIdsOf('31010100200101', '31010100200102'));
    const gridToken = await signIn('gridstaff');
    expect(await treeOrgIds(gridToken)).toEqual(grid.orgIds);

    // tjjdirector gains sys_define: own subtree ∪ the custom orgs.
    await giveRole('tjjdirector', 'sys_define');
    const both = await scopeOf('tjjdirector');
    const custom = await orgIdsOf(
      '310101013',
      '310101013001',
      '310101013002',
      '310101018',
      '310101018001',
      '310101018002',
    );
    expect(both.orgIds).toEqual([...(await subtreeOf('HPQ-TJJ')), ...custom].sort((a, b) => a - b));
    const token = await signIn('tjjdirector');
    expect(await listedAccounts(token)).toEqual(await accountsIn(both, 'tjjdirector'));

    // scjgclerk gains sys_dept: no longer self only, the own org's rows show.
    await giveRole('scjgclerk', 'sys_dept');
    const clerk = await scopeOf('scjgclerk');
    expect(clerk).toMatchObject({ all: false, selfOnly: false, orgIds: await orgIdsOf('HPQ-SCJGJ') });

    // A disabled role no longer counts.
    const define = await t.app.ctx.db
      .selectFrom('sys_role')
      .select('id')
      .where('code', '=', 'sys_define')
      .executeTakeFirstOrThrow();
    await ok(admin, 'POST', '/api/sysRole/setStatus', { id: define.id, status: 2 });
    expect((await scopeOf('tjjdirector')).orgIds).toEqual(await subtreeOf('HPQ-TJJ'));
    await ok(admin, 'POST', '/api/sysRole/setStatus', { id: define.id, status: 1 });
  });
});
