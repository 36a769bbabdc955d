import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import {
  checkedFromOwn,
  conduct,
  type GrantMenuNode,
  grantPayload,
  leafIds,
  parentIds,
} from './menu-check.ts';
import { MenuGrantDrawer, type MenuGrantDrawerProps } from './menu-grant-drawer.tsx';

const node = (id: number, type: number, name: string, children: GrantMenuNode[] = []): GrantMenuNode => ({
  id,
  type,
  name,
  title: `T-${name}`,
  permission: type === 3 ? name : null,
  icon: null,
  children,
});

// 系统管理 (1) → 用户管理 (10: buttons 11, 12) and 角色管理 (20: buttons 21, 22); 首页 (30) has no buttons.
const TREE: GrantMenuNode[] = [
  node(1, 1, 'system', [
    node(10, 2, 'sysUser', [node(11, 3, 'sysUser:page'), node(12, 3, 'sysUser:add')]),
    node(20, 2, 'sysRole', [node(21, 3, 'sysRole:page'), node(22, 3, 'sysRole:add')]),
  ]),
  node(30, 2, 'home'),
];

function renderDrawer(own: number[], props: Partial<MenuGrantDrawerProps> = {}) {
  const save = vi.fn(async (_body: { id: number; menuIdList: number[] }) => null);
  const onClose = vi.fn();
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  const wrap = (children: ReactNode) => (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
  render(
    wrap(
      <MenuGrantDrawer
        subject={{ id: 7, name: '查看员' }}
        onClose={onClose}
        texts="sysRole"
        testId="grant"
        treeKey={['test', 'menuTree']}
        loadTree={async () => TREE}
        ownKey={(id) => ['test', 'own', id]}
        loadOwn={async () => own}
        save={save}
        invalidate={['test']}
        {...props}
      />,
    ),
  );
  const checkbox = (name: string) =>
    screen
      .getByTestId(`grant-menu-${name}`)
      .closest('.ant-tree-treenode')
      ?.querySelector('.ant-tree-checkbox');
  return { save, onClose, checkbox };
}

beforeEach(() => useThemeStore.setState({ globalI18n: 'zh-cn' }));

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

describe('menu grant drawer', () => {
  it('shows a granted button’s page and directory half-checked and saves checked + half-checked ids', async () => {
    const { save, onClose, checkbox } = renderDrawer([1, 10, 11]);
    await screen.findByTestId('grant-menu-sysUser');
    expect(screen.getByText('授权菜单：查看员')).toBeTruthy();
    // Pages start closed; their buttons show once opened.
    expect(screen.queryByTestId('grant-menu-sysUser:add')).toBeNull();
    fireEvent.click(screen.getByTestId('grant-menu-expand'));
    await screen.findByTestId('grant-menu-sysUser:add');
    expect(checkbox('sysUser:page')?.className).toContain('ant-tree-checkbox-checked');
    expect(checkbox('sysUser:add')?.className).not.toContain('ant-tree-checkbox-checked');
    expect(checkbox('sysUser')?.className).toContain('ant-tree-checkbox-indeterminate');
    expect(checkbox('system')?.className).toContain('ant-tree-checkbox-indeterminate');
    expect(checkbox('sysRole')?.className).not.toMatch(/checkbox-(checked|indeterminate)/);
    expect(screen.getByTestId('grant-menu-summary').textContent).toBe('已选 1 项');

    // Checking the second button checks 用户管理; then save.
    fireEvent.click(checkbox('sysUser:add') as Element);
    await waitFor(() => expect(checkbox('sysUser')?.className).toContain('ant-tree-checkbox-checked'));
    fireEvent.click(screen.getByTestId('grant-grant-menu-save'));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]?.[0]).toEqual({ id: 7, menuIdList: [1, 10, 11, 12] });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('checks everything with one click and expands or collapses every branch', async () => {
    const { save } = renderDrawer([]);
    await screen.findByTestId('grant-menu-system');
    fireEvent.click(screen.getByTestId('grant-menu-collapse'));
    await waitFor(() => expect(screen.queryByTestId('grant-menu-sysUser')).toBeNull());
    fireEvent.click(screen.getByTestId('grant-menu-expand'));
    await screen.findByTestId('grant-menu-sysRole:add');
    fireEvent.click(screen.getByTestId('grant-menu-check-all'));
    await new Promise((r) => setTimeout(r, 600)); // the save button's re-click guard
    fireEvent.click(screen.getByTestId('grant-grant-menu-save'));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]?.[0].menuIdList).toEqual([1, 10, 11, 12, 20, 21, 22, 30]);
  });

  it('unchecks everything with one click', async () => {
    const { save } = renderDrawer([1, 10, 11, 12, 30]);
    await screen.findByTestId('grant-menu-system');
    fireEvent.click(screen.getByTestId('grant-menu-uncheck-all'));
    await waitFor(() => expect(screen.getByTestId('grant-menu-summary').textContent).toBe('已选 0 项'));
    fireEvent.click(screen.getByTestId('grant-grant-menu-save'));
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]?.[0].menuIdList).toEqual([]);
  });

  it('shows the hint, and a button’s permission or else the button label as its tag', async () => {
    const tree = [
      node(10, 2, 'page', [node(11, 3, 'page:add'), { ...node(12, 3, 'bare'), permission: null }]),
    ];
    renderDrawer([], { loadTree: async () => tree, hint: 'HINT', buttonLabel: 'BTN' });
    await screen.findByTestId('grant-menu-page');
    expect(screen.getByText('HINT')).toBeTruthy();
    fireEvent.click(screen.getByTestId('grant-menu-expand'));
    expect((await screen.findByTestId('grant-menu-page:add')).textContent).toBe('T-page:add page:add');
    expect(screen.getByTestId('grant-menu-bare').textContent).toBe('T-bare BTN');
  });

  it('shows no tag for a button without permission when there is no button label', async () => {
    const tree = [node(10, 2, 'page', [{ ...node(12, 3, 'bare'), permission: null }])];
    renderDrawer([], { loadTree: async () => tree });
    await screen.findByTestId('grant-menu-page');
    fireEvent.click(screen.getByTestId('grant-menu-expand'));
    expect((await screen.findByTestId('grant-menu-bare')).textContent).toBe('T-bare');
  });

  it('says so when there is nothing to grant', async () => {
    renderDrawer([], { loadTree: async () => [] });
    expect(await screen.findByText('没有可授权的菜单')).toBeTruthy();
  });
});
