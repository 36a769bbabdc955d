import type { RoleMenuNode } from '@shuzhi/contracts/role';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GrantMenuDrawer } from './grant-menu-drawer.tsx';
import type { RoleRow } from './role.api.ts';

// The check logic and the tree itself are tested with the shared component (components/menu-grant-tree);
// this is the role's wiring: its api, ids, texts and test ids.

const node = (
  id: number,
  pid: number,
  type: number,
  name: string,
  children: RoleMenuNode[] = [],
): RoleMenuNode => ({
  id,
  pid,
  type,
  name,
  title: name,
  permission: type === 3 ? name : null,
  icon: null,
  children,
});

// 系统管理 (1) → 用户管理 (10: buttons 11, 12) and 角色管理 (20: buttons 21, 22); 首页 (30) has no buttons.
const TREE: RoleMenuNode[] = [
  node(1, 0, 1, 'system', [
    node(10, 1, 2, 'sysUser', [node(11, 10, 3, 'sysUser:page'), node(12, 10, 3, 'sysUser:add')]),
    node(20, 1, 2, 'sysRole', [node(21, 20, 3, 'sysRole:page'), node(22, 20, 3, 'sysRole:add')]),
  ]),
  node(30, 0, 2, 'home'),
];

const api = vi.hoisted(() => ({
  menuTree: vi.fn(async () => [] as RoleMenuNode[]),
  ownMenuList: vi.fn(async (_id: number) => [] as number[]),
  ownOrgList: vi.fn(),
  grantMenu: vi.fn(async (_body: { id: number; menuIdList: number[] }) => null),
  grantDataScope: vi.fn(),
}));
vi.mock('./role.api.ts', async (original) => ({
  ...(await original<typeof import('./role.api.ts')>()),
  roleApi: api,
}));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

const ROLE = { id: 7, name: '查看员', code: 'viewer', dataScope: 4, status: 1 } as RoleRow;

afterEach(() => {
  vi.clearAllMocks();
});

describe('role grant menu drawer', () => {
  it('loads the role’s menus and saves them back for the role, with the role’s texts and test ids', async () => {
    api.menuTree.mockResolvedValue(TREE);
    api.ownMenuList.mockResolvedValue([1, 10, 11]);
    const onClose = vi.fn();
    render(wrap(<GrantMenuDrawer role={ROLE} onClose={onClose} />));

    await screen.findByTestId('role-menu-sysUser');
    expect(api.ownMenuList).toHaveBeenCalledWith(7);
    expect(screen.getByText('授权菜单：查看员')).toBeTruthy();
    expect(screen.getByTestId('role-grant-menu')).toBeTruthy();
    expect(screen.getByTestId('role-menu-tree')).toBeTruthy();
    fireEvent.click(screen.getByTestId('role-grant-menu-save'));
    await waitFor(() => expect(api.grantMenu).toHaveBeenCalled());
    expect(api.grantMenu.mock.calls[0]?.[0]).toEqual({ id: 7, menuIdList: [1, 10, 11] });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(await screen.findByText('授权已保存')).toBeTruthy();
  });

  it('tags a button without a permission as 按钮', async () => {
    api.menuTree.mockResolvedValue([
      node(10, 0, 2, 'page', [{ ...node(11, 10, 3, 'bare'), permission: null }]),
    ]);
    api.ownMenuList.mockResolvedValue([]);
    render(wrap(<GrantMenuDrawer role={ROLE} onClose={() => {}} />));
    await screen.findByTestId('role-menu-page');
    fireEvent.click(screen.getByTestId('role-menu-expand'));
    expect((await screen.findByTestId('role-menu-bare')).textContent).toBe('bare 按钮');
  });
});
