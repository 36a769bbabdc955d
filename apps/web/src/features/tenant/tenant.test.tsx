import type { MenuNode } from '@shuzhi/contracts/menu';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { TenantGrantMenuDrawer } from './grant-menu-drawer.tsx';
import { grantableTree } from './grantable-tree.ts';
import type { TenantRow } from './tenant.api.ts';

const node = (
  id: number,
  pid: number,
  type: number,
  name: string,
  children: MenuNode[] = [],
  status = 1,
): MenuNode => ({
  id,
  pid,
  type,
  name,
  path: '',
  component: null,
  redirect: null,
  permission: type === 3 ? name : null,
  orderNo: id,
  status,
  meta: {
    title: `T-${name}`,
    icon: null,
    isIframe: false,
    isLink: null,
    isHide: false,
    isKeepAlive: false,
    isAffix: false,
  },
  children,
});

// 系统管理 (1) → 账号管理 (10: buttons 11, 12), 租户管理 (20: button 21), 停用页 (40, disabled); 首页 (30).
const TREE: MenuNode[] = [
  node(1, 0, 1, 'system', [
    node(10, 1, 2, 'sysUser', [node(11, 10, 3, 'sysUser:page'), node(12, 10, 3, 'sysUser:add')]),
    node(20, 1, 2, 'sysTenant', [node(21, 20, 3, 'sysTenant:page')]),
    node(40, 1, 2, 'offPage', [], 2),
  ]),
  node(30, 0, 2, 'home'),
];

const api = vi.hoisted(() => ({
  menuTree: vi.fn(async () => [] as MenuNode[]),
  ownMenuList: vi.fn(async (_id: number) => [] as number[]),
  grantMenu: vi.fn(async (_body: { id: number; menuIdList: number[] }) => null),
  resetPwd: vi.fn(),
}));
vi.mock('./tenant.api.ts', async (original) => ({
  ...(await original<typeof import('./tenant.api.ts')>()),
  tenantApi: api,
}));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

const TENANT = { id: 7, name: '浦东新区', code: 'pudong', status: 1 } as TenantRow;

beforeEach(() => useThemeStore.setState({ globalI18n: 'zh-cn' }));
afterEach(() => vi.clearAllMocks());

// The check logic and the tree itself are tested with the shared component (components/menu-grant-tree);
// these are the tenant's own parts: which menus may be granted, and the wiring of its api, texts and test ids.

describe('tenant grant tree', () => {
  it('leaves out tenant/menu management and disabled nodes', () => {
    const tree = grantableTree(TREE);
    expect(tree[0]?.children.map((n) => n.name)).toEqual(['sysUser']);
    expect(tree.map((n) => n.name)).toEqual(['system', 'home']);
  });

  it('shows each menu with its title and icon from the menu meta', () => {
    const [system] = grantableTree([{ ...TREE[0], meta: { ...TREE[0].meta, icon: 'setting' } } as MenuNode]);
    expect(system).toMatchObject({ id: 1, type: 1, name: 'system', title: 'T-system', icon: 'setting' });
    expect(system?.children[0]?.children[1]).toMatchObject({
      title: 'T-sysUser:add',
      permission: 'sysUser:add',
    });
  });
});

describe('tenant grant drawer', () => {
  it('shows the grantable menus with the hint and saves them back for the tenant', async () => {
    api.menuTree.mockResolvedValue(TREE);
    api.ownMenuList.mockResolvedValue([1, 10, 11, 30]);
    render(wrap(<TenantGrantMenuDrawer tenant={TENANT} onClose={() => {}} />));
    await screen.findByTestId('tenant-menu-sysUser');
    expect(api.ownMenuList).toHaveBeenCalledWith(7);
    expect(screen.getByText('授权菜单：浦东新区')).toBeTruthy();
    expect(screen.queryByTestId('tenant-menu-sysTenant')).toBeNull();
    expect(screen.getByText('租户管理、菜单管理仅平台超级管理员可用，不能授予租户')).toBeTruthy();
    expect(screen.getByTestId('tenant-menu-summary').textContent).toBe('已选 2 项');
    fireEvent.click(screen.getByTestId('tenant-menu-expand'));
    expect((await screen.findByTestId('tenant-menu-sysUser:add')).textContent).toBe(
      'T-sysUser:add sysUser:add',
    );

    fireEvent.click(screen.getByTestId('tenant-grant-menu-save'));
    await waitFor(() => expect(api.grantMenu).toHaveBeenCalled());
    expect(api.grantMenu.mock.calls[0]?.[0]).toEqual({ id: 7, menuIdList: [1, 10, 11, 30] });
  });
});
