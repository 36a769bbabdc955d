import type { RoleMenuNode } from '@shuzhi/contracts/role';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GrantMenuDrawer } from './grant-menu-drawer.tsx';
import { checkedFromOwn, conduct, grantPayload, leafIds, parentIds } from './menu-check.ts';
import type { RoleRow } from './role.api.ts';

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

describe('menu grant check logic', () => {
  it('tells leaves from parents', () => {
    expect(leafIds(TREE).sort((a, b) => a - b)).toEqual([11, 12, 21, 22, 30]);
    expect(parentIds(TREE).sort((a, b) => a - b)).toEqual([1, 10, 20]);
  });

  it('gives the tree only the stored leaves, so stored ancestors do not check whole branches', () => {
    // Stored: one button of 用户管理 with its page and directory.
    expect(checkedFromOwn(TREE, [1, 10, 11])).toEqual([11]);
    expect(checkedFromOwn(TREE, [30, 99])).toEqual([30]);
  });

  it('derives checked and half-checked parents from the checked leaves', () => {
    expect(conduct(TREE, [11])).toEqual({ checked: [11], halfChecked: [10, 1] });
    expect(conduct(TREE, [11, 12])).toEqual({ checked: [11, 12, 10], halfChecked: [1] });
    expect(conduct(TREE, [11, 12, 21, 22, 30])).toEqual({
      checked: [11, 12, 10, 21, 22, 20, 1, 30],
      halfChecked: [],
    });
  });

  it('sends checked and half-checked ids, and reading them back gives the same checks', () => {
    const sent = grantPayload(TREE, [11, 10, 30]);
    // 10 came in as "checked" from a stale state but only one of its buttons is: it is half-checked, still sent.
    expect(sent).toEqual([1, 10, 11, 30]);
    expect(checkedFromOwn(TREE, sent)).toEqual([11, 30]);
    expect(grantPayload(TREE, [])).toEqual([]);
  });
});

describe('grant menu drawer', () => {
  it('shows a granted button’s page and directory half-checked and saves checked + half-checked ids', async () => {
    api.menuTree.mockResolvedValue(TREE);
    api.ownMenuList.mockResolvedValue([1, 10, 11]);
    render(wrap(<GrantMenuDrawer role={ROLE} onClose={() => {}} />));

    await screen.findByTestId('role-menu-sysUser');
    // Pages start closed; their buttons show once opened.
    expect(screen.queryByTestId('role-menu-sysUser:add')).toBeNull();
    fireEvent.click(screen.getByTestId('role-menu-expand'));
    await screen.findByTestId('role-menu-sysUser:add');
    const checkbox = (name: string) =>
      screen
        .getByTestId(`role-menu-${name}`)
        .closest('.ant-tree-treenode')
        ?.querySelector('.ant-tree-checkbox');
    expect(checkbox('sysUser:page')?.className).toContain('ant-tree-checkbox-checked');
    expect(checkbox('sysUser:add')?.className).not.toContain('ant-tree-checkbox-checked');
    expect(checkbox('sysUser')?.className).toContain('ant-tree-checkbox-indeterminate');
    expect(checkbox('system')?.className).toContain('ant-tree-checkbox-indeterminate');
    expect(checkbox('sysRole')?.className).not.toMatch(/checkbox-(checked|indeterminate)/);

    // Checking the second button checks 用户管理; then save.
    fireEvent.click(checkbox('sysUser:add') as Element);
    await waitFor(() => expect(checkbox('sysUser')?.className).toContain('ant-tree-checkbox-checked'));
    fireEvent.click(screen.getByTestId('role-grant-menu-save'));
    await waitFor(() => expect(api.grantMenu).toHaveBeenCalled());
    expect(api.grantMenu.mock.calls[0]?.[0]).toEqual({ id: 7, menuIdList: [1, 10, 11, 12] });
  });

  it('checks everything with one click and expands or collapses every branch', async () => {
    api.menuTree.mockResolvedValue(TREE);
    api.ownMenuList.mockResolvedValue([]);
    render(wrap(<GrantMenuDrawer role={ROLE} onClose={() => {}} />));
    await screen.findByTestId('role-menu-system');
    fireEvent.click(screen.getByTestId('role-menu-collapse'));
    await waitFor(() => expect(screen.queryByTestId('role-menu-sysUser')).toBeNull());
    fireEvent.click(screen.getByTestId('role-menu-expand'));
    await screen.findByTestId('role-menu-sysRole:add');
    fireEvent.click(screen.getByTestId('role-menu-check-all'));
    await new Promise((r) => setTimeout(r, 600)); // the save button's re-click guard
    fireEvent.click(screen.getByTestId('role-grant-menu-save'));
    await waitFor(() => expect(api.grantMenu).toHaveBeenCalled());
    expect(api.grantMenu.mock.calls[0]?.[0].menuIdList).toEqual([1, 10, 11, 12, 20, 21, 22, 30]);
  });
});
