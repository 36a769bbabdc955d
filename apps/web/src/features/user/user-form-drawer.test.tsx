import type { OrgNode } from '@shuzhi/contracts/org';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UserFormDrawer } from './user-form-drawer.tsx';

const org = (id: number, pid: number, name: string, children: OrgNode[] = []) =>
  ({ id, pid, code: String(id), name, type: 'dept', level: 1, status: 1, orderNo: 1, children }) as OrgNode;
const TREE = [org(1, 0, '黄浦区', [org(2, 1, '南京东路街道'), org(3, 1, '外滩街道')])];

const api = vi.hoisted(() => ({
  add: vi.fn(async (_body: unknown) => 1),
  update: vi.fn(async (_body: unknown) => null),
  detail: vi.fn(),
  ownRoleList: vi.fn(),
  ownExtOrgList: vi.fn(),
  roles: vi.fn(async () => [{ id: 7, name: '工作人员', code: 'staff' }]),
  positions: vi.fn(async () => [{ id: 9, name: '科员', code: 'clerk' }]),
}));
vi.mock('./user.api.ts', async (original) => ({
  ...(await original<typeof import('./user.api.ts')>()),
  userApi: api,
}));
vi.mock('../../components/org-tree/org.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/org-tree/org.api.ts')>()),
  orgApi: { treeAll: async () => TREE, list: async () => [] },
}));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

afterEach(() => {
  vi.clearAllMocks();
});

describe('user form drawer', () => {
  it('adds into the org picked in the tree, with the typed fields', async () => {
    const onClose = vi.fn();
    render(wrap(<UserFormDrawer target={{ mode: 'add', orgId: 2 }} onClose={onClose} />));
    fireEvent.change(await screen.findByTestId('user-field-account'), { target: { value: 'e2euser01' } });
    fireEvent.change(screen.getByTestId('user-field-realName'), { target: { value: '端到端' } });
    fireEvent.change(screen.getByTestId('user-field-phone'), { target: { value: '13911112345' } });
    fireEvent.click(screen.getByTestId('user-form-submit'));
    await waitFor(() => expect(api.add).toHaveBeenCalled());
    expect(api.add.mock.calls[0]?.[0]).toMatchObject({
      account: 'e2euser01',
      realName: '端到端',
      orgId: 2,
      phone: '13911112345',
      accountType: 777,
      status: 1,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('edits: loads the roles and extra orgs, refuses a bad phone, and sends the update with the id', async () => {
    const user = {
      id: 42,
      account: 'gzlstaff',
      realName: '吴静',
      accountType: 777,
      orgId: 2,
      posId: 9,
      status: 1,
      orderNo: 20,
      phone: '13900001111',
    };
    api.detail.mockResolvedValue(user);
    api.ownRoleList.mockResolvedValue([7]);
    api.ownExtOrgList.mockResolvedValue([{ orgId: 3, orgName: '外滩街道', posId: null, posName: null }]);
    const onClose = vi.fn();
    render(wrap(<UserFormDrawer target={{ mode: 'edit', user: user as never }} onClose={onClose} />));
    const phone = await screen.findByTestId('user-field-phone');
    expect((phone as HTMLInputElement).value).toBe('13900001111');
    expect(screen.getAllByTestId('user-ext-org')).toHaveLength(1);
    fireEvent.change(phone, { target: { value: '123' } });
    fireEvent.click(screen.getByTestId('user-form-submit'));
    await screen.findByText('请输入正确的手机号码');
    expect(api.update).not.toHaveBeenCalled();
    fireEvent.change(phone, { target: { value: '13900002222' } });
    await new Promise((r) => setTimeout(r, 100));
    fireEvent.click(screen.getByTestId('user-form-submit'));
    await waitFor(() => expect(api.update).toHaveBeenCalled());
    expect(api.update.mock.calls[0]?.[0]).toMatchObject({
      id: 42,
      phone: '13900002222',
      orgId: 2,
      roleIdList: [7],
      extOrgList: [{ orgId: 3, posId: null }],
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
