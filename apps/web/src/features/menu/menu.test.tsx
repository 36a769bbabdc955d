import type { MenuNode } from '@shuzhi/contracts/menu';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { ICON_OPTIONS } from './icon-picker.tsx';
import MenuPage from './menu.page.tsx';
import { toFormValues } from './menu-form.tsx';

const node = (id: number, pid: number, type: number, name: string, children: MenuNode[] = []): MenuNode => ({
  id,
  pid,
  type,
  name,
  path: type === 3 ? '' : `/${name}`,
  component: type === 2 ? `/${name}/index` : type === 1 ? 'Layout' : null,
  redirect: null,
  permission: type === 3 ? name : null,
  orderNo: id,
  status: 1,
  meta: {
    title: `T-${name}`,
    icon: type === 3 ? null : 'SettingOutlined',
    isIframe: false,
    isLink: null,
    isHide: false,
    isKeepAlive: true,
    isAffix: false,
  },
  children,
});

const TREE: MenuNode[] = [
  node(1, 0, 1, 'system', [node(10, 1, 2, 'sysUser', [node(11, 10, 3, 'sysUser:page')])]),
  node(30, 0, 2, 'home'),
];

const mocks = vi.hoisted(() => ({
  tree: vi.fn(async (_filters: { title?: string; type?: number }) => [] as MenuNode[]),
  add: vi.fn(async (_body: unknown) => 99),
  update: vi.fn(async (_body: unknown) => null),
  remove: vi.fn(async (_id: number) => null),
  setStatus: vi.fn(async (_id: number, _status: number) => null),
  detail: vi.fn(),
  exportFile: vi.fn(async () => 'x.xlsx'),
}));
vi.mock('./menu.api.ts', async (original) => {
  const real = await original<typeof import('./menu.api.ts')>();
  return {
    ...real,
    menuApi: { tree: mocks.tree },
    menuResource: { ...real.menuResource, ...mocks },
  };
});
vi.mock('../../platform/session/session-loader.ts', () => ({
  loadSession: vi.fn(async () => ({ menuCount: 1 })),
}));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  useThemeStore.setState({ globalI18n: 'zh-cn' });
  useSessionStore.setState({
    buttons: [
      'sysMenu:list',
      'sysMenu:add',
      'sysMenu:update',
      'sysMenu:delete',
      'sysMenu:setStatus',
      'sysMenu:export',
    ],
  });
  mocks.tree.mockResolvedValue(TREE);
});
afterEach(() => {
  vi.clearAllMocks();
  useSessionStore.setState({ buttons: [], userInfo: null });
});

describe('menu form defaults', () => {
  it('picks the child type from the parent', () => {
    expect(toFormValues({ mode: 'add', parent: null, key: 1 })).toMatchObject({
      type: 1,
      pid: 0,
      component: 'Layout',
    });
    expect(toFormValues({ mode: 'add', parent: TREE[0] as MenuNode, key: 1 })).toMatchObject({
      type: 2,
      pid: 1,
    });
    const page = TREE[0]?.children[0] as MenuNode;
    expect(toFormValues({ mode: 'add', parent: page, key: 1 })).toMatchObject({ type: 3, pid: 10 });
  });

  it('offers distinct icons', () => {
    expect(ICON_OPTIONS.length).toBeGreaterThan(15);
    expect(ICON_OPTIONS).toContain('SettingOutlined');
  });
});

describe('menu page', { timeout: 30_000 }, () => {
  it('shows the tree with types, searches by title and type', async () => {
    render(wrap(<MenuPage />));
    await screen.findByTestId('menu-row-system');
    // Directories start open: the page shows, its buttons one click away.
    expect(screen.getByTestId('menu-row-sysUser')).toBeTruthy();
    expect(screen.queryByTestId('menu-row-sysUser:page')).toBeNull();
    fireEvent.click(screen.getByTestId('menu-expand'));
    await screen.findByTestId('menu-row-sysUser:page');
    expect(screen.getAllByText('按钮').length).toBeGreaterThan(0);

    fireEvent.change(screen.getByTestId('menu-search-title'), { target: { value: '账号' } });
    fireEvent.click(screen.getByTestId('menu-search-submit'));
    await waitFor(() => expect(mocks.tree).toHaveBeenCalledWith({ title: '账号' }));
  });

  it('adds a button under a page with the permission as its name', async () => {
    render(wrap(<MenuPage />));
    await screen.findByTestId('menu-row-sysUser');
    const row = screen.getByTestId('menu-row-sysUser').closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('menu-add-child'));
    const dialog = await screen.findByTestId('menu-form');
    await waitFor(() => expect(within(dialog).getByTestId('menu-field-permission')).toBeTruthy());
    fireEvent.change(within(dialog).getByTestId('menu-field-title'), { target: { value: '新增' } });
    // Pick a permission from the catalogue by typing into the select.
    const select = within(dialog).getByTestId('menu-field-permission');
    const input = select.querySelector('input') as HTMLInputElement;
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.change(input, { target: { value: 'sysUser:add' } });
    const option = await screen.findByTitle('sysUser:add');
    fireEvent.click(option);
    await waitFor(() =>
      expect((within(dialog).getByTestId('menu-field-name') as HTMLInputElement).value).toBe('sysUser:add'),
    );
    fireEvent.click(screen.getByTestId('menu-form-save'));
    await waitFor(() => expect(mocks.add).toHaveBeenCalled());
    expect(mocks.add.mock.calls[0]?.[0]).toMatchObject({
      type: 3,
      pid: 10,
      title: '新增',
      name: 'sysUser:add',
      permission: 'sysUser:add',
      component: null,
    });
  });

  it('removes write buttons without the permissions', async () => {
    useSessionStore.setState({ buttons: ['sysMenu:list'] });
    render(wrap(<MenuPage />));
    await screen.findByTestId('menu-row-system');
    expect(screen.queryByTestId('menu-add')).toBeNull();
    expect(screen.queryByTestId('menu-edit')).toBeNull();
    expect(screen.queryByTestId('menu-export')).toBeNull();
  });
});
