import type { MenuNode } from '@shuzhi/contracts/menu';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetAllMenuTrees } from '../src/modules/menu/menu.service.ts';
import { authed, body, createTestApp, login, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const flatten = (nodes: MenuNode[]): MenuNode[] => nodes.flatMap((n) => [n, ...flatten(n.children)]);

async function tree(account: string): Promise<MenuNode[]> {
  const { accessToken } = await login(t.app, account);
  const res = await authed(t.app, accessToken, { url: '/api/sysMenu/loginMenuTree' });
  expect(res.statusCode).toBe(200);
  return body<MenuNode[]>(res).result ?? [];
}

describe('loginMenuTree', () => {
  it('gives the super admin every enabled directory and menu, without buttons', async () => {
    const nodes = flatten(await tree('superadmin'));
    const enabled = await t.app.ctx.db
      .selectFrom('sys_menu')
      .select(['id', 'type', 'pid'])
      .where('status', '=', 1)
      .where('type', 'in', [1, 2])
      .execute();
    expect(nodes.length).toBeGreaterThan(0);
    expect(nodes.every((n) => n.type !== 3 && n.status === 1)).toBe(true);
    expect(nodes.map((n) => n.name)).toEqual(expect.arrayContaining(['home']));
    // Every enabled page whose ancestors are enabled is there.
    const byId = new Map(enabled.map((m) => [m.id, m]));
    const reachable = enabled.filter((m) => {
      let node = m;
      while (node.pid !== 0) {
        const parent = byId.get(node.pid);
        if (!parent) return false;
        node = parent;
      }
      return m.type === 2;
    });
    expect(
      nodes
        .filter((n) => n.type === 2)
        .map((n) => n.id)
        .sort(),
    ).toEqual(reachable.map((m) => m.id).sort());
  });

  it('is ordered by orderNo then id, with the REFERENCE node shape', async () => {
    const roots = await tree('superadmin');
    const check = (list: MenuNode[]) => {
      for (let i = 1; i < list.length; i++) {
        const a = list[i - 1] as MenuNode;
        const b = list[i] as MenuNode;
        expect(a.orderNo < b.orderNo || (a.orderNo === b.orderNo && a.id < b.id)).toBe(true);
      }
      for (const n of list) check(n.children);
    };
    check(roots);
    const home = flatten(roots).find((n) => n.name === 'home');
    expect(home).toMatchObject({
      path: '/dashboard',
      component: '/home/dashboard/index',
      meta: { title: '首页', isAffix: true, isKeepAlive: true, isHide: false, isIframe: false, isLink: null },
    });
  });

  it('hides disabled menus and their branch', async () => {
    const before = flatten(await tree('superadmin'));
    const page = before.find((n) => n.type === 2 && n.pid !== 0);
    expect(page).toBeDefined();
    await t.app.ctx.db
      .updateTable('sys_menu')
      .set({ status: 2 })
      .where('id', '=', page?.id ?? 0)
      .execute();
    // As the menu editor does after writing.
    await forgetAllMenuTrees(t.app.ctx);
    try {
      const after = flatten(await tree('superadmin'));
      expect(after.find((n) => n.id === page?.id)).toBeUndefined();
    } finally {
      await t.app.ctx.db
        .updateTable('sys_menu')
        .set({ status: 1 })
        .where('id', '=', page?.id ?? 0)
        .execute();
      await forgetAllMenuTrees(t.app.ctx);
    }
  });

  it('gives a staff member only the menus of their roles', async () => {
    const staff = flatten(await tree('fgwstaff'));
    const all = flatten(await tree('superadmin'));
    expect(staff.length).toBeGreaterThan(0);
    expect(staff.length).toBeLessThanOrEqual(all.length);
    expect(staff.some((n) => n.name === 'home')).toBe(true);
    expect(staff.every((n) => n.type !== 3 && n.status === 1)).toBe(true);
    // Directories never come empty.
    expect(staff.filter((n) => n.type === 1).every((n) => n.children.length > 0)).toBe(true);
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ url: '/api/sysMenu/loginMenuTree' })).statusCode).toBe(401);
  });
});

describe('ownBtnPermList', () => {
  it('lists the button permissions of the user', async () => {
    const { accessToken } = await login(t.app, 'fgwstaff');
    const perms =
      body<string[]>(await authed(t.app, accessToken, { url: '/api/sysMenu/ownBtnPermList' })).result ?? [];
    expect(perms).toContain('dashboard:view');
    expect(perms).not.toContain('sysUser:delete');
    const su = await login(t.app, 'superadmin');
    const all =
      body<string[]>(await authed(t.app, su.accessToken, { url: '/api/sysMenu/ownBtnPermList' })).result ??
      [];
    expect(all).toContain('sysUser:delete');
    expect(all).toContain('sysConfig:list');
  });
});
