import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { MembersModal } from './members-modal.tsx';
import type { UserGroupRow } from './user-group.api.ts';

const api = vi.hoisted(() => ({ members: vi.fn(), setMembers: vi.fn(), searchUsers: vi.fn() }));
vi.mock('./user-group.api.ts', async (original) => ({
  ...(await original<typeof import('./user-group.api.ts')>()),
  userGroupApi: api,
}));

const GROUP = { id: 7, code: 'g', name: '防汛小组' } as UserGroupRow;
const ZHANG = { id: 1, account: 'fgwstaff', realName: '张伟', orgName: '区发改委', orgId: 10, status: 1 };
const WU = { id: 2, account: 'gzlstaff', realName: '吴静', orgName: '贵州路居委会' };

api.members.mockImplementation(async () => [ZHANG]);
api.setMembers.mockImplementation(async () => null);
api.searchUsers.mockImplementation(async (keyword: string) => ({
  page: 1,
  pageSize: 20,
  total: 1,
  totalPages: 1,
  items: keyword.includes('吴') || keyword === '' ? [WU] : [],
  hasPrevPage: false,
  hasNextPage: false,
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
  useSessionStore.setState({ buttons: [] });
  api.setMembers.mockClear();
  api.searchUsers.mockClear();
});

describe('MembersModal', () => {
  it('adds a searched user, removes a member and saves the new list', async () => {
    useSessionStore.setState({ buttons: ['sysUserGroup:detail', 'sysUserGroup:update'] });
    const onClose = vi.fn();
    render(wrap(<MembersModal group={GROUP} onClose={onClose} />));
    const list = await screen.findByTestId('group-member-list');
    await waitFor(() => expect(within(list).getByText('张伟')).toBeTruthy());

    const picker = screen.getByTestId('group-member-picker');
    const input = picker.querySelector('input') as HTMLInputElement;
    await act(async () => {
      fireEvent.mouseDown(picker.querySelector('.ant-select-selector') ?? picker);
      fireEvent.change(input, { target: { value: '吴' } });
    });
    fireEvent.click(await screen.findByText(/吴静（gzlstaff）/));
    fireEvent.click(screen.getByTestId('group-member-add'));
    await waitFor(() => expect(within(list).getByText('吴静')).toBeTruthy());

    // Remove 张伟 (the first row's remove button).
    fireEvent.click(within(list).getAllByText('移除')[0] as HTMLElement);
    await waitFor(() => expect(within(list).queryByText('张伟')).toBeNull());
    expect(screen.getByText('共 1 名成员')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(api.setMembers).toHaveBeenCalledWith(7, [2]));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('is read-only without the update permission', async () => {
    useSessionStore.setState({ buttons: ['sysUserGroup:detail'] });
    render(wrap(<MembersModal group={GROUP} onClose={() => {}} />));
    const list = await screen.findByTestId('group-member-list');
    await waitFor(() => expect(within(list).getByText('张伟')).toBeTruthy());
    expect(screen.queryByTestId('group-member-picker')).toBeNull();
    expect(within(list).queryByText('移除')).toBeNull();
    // No user search without the right to add.
    expect(api.searchUsers).not.toHaveBeenCalled();
  });
});
