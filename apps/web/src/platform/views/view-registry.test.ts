import type { MenuNode } from '@shuzhi/contracts/menu';
import { describe, expect, it } from 'vitest';
import { buildMenuRoutes, filterMenuTree, findMenuRoute } from './menu-routes.ts';
import { matchViewKey, normalizeComponentPath } from './view-registry.ts';

const KEYS = [
  '/home/dashboard/index',
  '/system/userCenter/index',
  '/about/index',
  '/system/user/index',
  '/report/user/index',
];

describe('view matching', () => {
  it('normalises component paths', () => {
    expect(normalizeComponentPath('/system/user/index.vue')).toBe('system/user');
    expect(normalizeComponentPath('system/user/')).toBe('system/user');
    expect(normalizeComponentPath('/about/index')).toBe('about');
    expect(normalizeComponentPath('/index')).toBe('');
  });

  it('uses a view when exactly one matches, by equality or suffix', () => {
    expect(matchViewKey(KEYS, '/home/dashboard/index')).toBe('/home/dashboard/index');
    expect(matchViewKey(KEYS, 'home/dashboard')).toBe('/home/dashboard/index');
    expect(matchViewKey(KEYS, 'dashboard/index')).toBe('/home/dashboard/index');
    expect(matchViewKey(KEYS, '/system/userCenter/index.vue')).toBe('/system/userCenter/index');
    expect(matchViewKey(KEYS, '/system/about/index')).toBe('/about/index');
  });

  it('uses no view when none or several match', () => {
    expect(matchViewKey(KEYS, 'user/index')).toBeNull();
    expect(matchViewKey(KEYS, '/system/missing/index')).toBeNull();
    expect(matchViewKey(KEYS, 'Layout')).toBeNull();
    expect(matchViewKey(KEYS, null)).toBeNull();
    expect(matchViewKey(KEYS, '/index')).toBeNull();
  });
});

function node(partial: Partial<MenuNode> & { id: number; path: string }): MenuNode {
  return {
    pid: 0,
    type: 2,
    name: `m${partial.id}`,
    component: null,
    redirect: null,
    permission: null,
    orderNo: partial.id,
    status: 1,
    children: [],
    ...partial,
    meta: {
      title: `menu ${partial.id}`,
      icon: null,
      isIframe: false,
      isLink: null,
      isHide: false,
      isKeepAlive: false,
      isAffix: false,
      ...partial.meta,
    },
  };
}

describe('menu routes', () => {
  const tree: MenuNode[] = [
    node({
      id: 1,
      type: 1,
      path: '/system',
      redirect: '/system/user',
      children: [
        node({
          id: 2,
          path: '/system/user',
          component: '/system/user/index',
          meta: { isKeepAlive: true } as MenuNode['meta'],
        }),
        node({ id: 3, path: '/system/user/:id', component: '/system/user/index' }),
        node({
          id: 4,
          path: '/system/secret',
          component: '/system/user/index',
          meta: { roles: ['city_admin'] } as MenuNode['meta'],
        }),
        node({ id: 5, path: '/system/off', status: 2 }),
        node({ id: 6, type: 3, path: '', permission: 'sysUser:add' }),
      ],
    }),
    node({
      id: 7,
      type: 1,
      path: '/empty',
      meta: { roles: ['nobody'] } as MenuNode['meta'],
      children: [node({ id: 8, path: '/empty/a' })],
    }),
  ];

  it('filters by roles and status and drops buttons', () => {
    const filtered = filterMenuTree(tree, ['staff']);
    expect(filtered.map((n) => n.id)).toEqual([1]);
    expect(filtered[0].children.map((n) => n.id)).toEqual([2, 3]);
    expect(filterMenuTree(tree, ['city_admin'])[0].children.map((n) => n.id)).toEqual([2, 3, 4]);
  });

  it('flattens pages with crumbs, dynamic flags and views', () => {
    const routes = buildMenuRoutes(filterMenuTree(tree, []), KEYS);
    expect(routes.map((r) => [r.path, r.isDynamic, r.viewKey, r.isKeepAlive])).toEqual([
      ['/system/user', false, '/system/user/index', true],
      ['/system/user/:id', true, '/system/user/index', false],
    ]);
    expect(routes[0].crumbs.map((c) => c.title)).toEqual(['menu 1', 'menu 2']);
    expect(findMenuRoute(routes, '/system/user/42')?.id).toBe(3);
    expect(findMenuRoute(routes, '/system/user')?.id).toBe(2);
  });
});
