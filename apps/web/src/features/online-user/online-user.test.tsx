import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OnlineUser } from '@shuzhi/contracts/online-user';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  forceOffline: vi.fn(async () => null),
}));
const realtime = vi.hoisted(() => ({ handlers: new Map<string, () => void>() }));

vi.mock('./online-user.api.ts', () => ({
  onlineUserResource: { service: 'sysOnlineUser', page: api.page, exportFile: vi.fn() },
  onlineUserApi: { forceOffline: api.forceOffline },
}));
vi.mock('../../platform/realtime/realtime.ts', () => ({
  useRealtimeEvent: (event: string, handler: () => void) => {
    realtime.handlers.set(event, handler);
  },
}));

const { default: OnlineUserPage } = await import('./online-user.page.tsx');

const row = (id: number, account: string, extra: Partial<OnlineUser> = {}): OnlineUser => ({
  id,
  tenantId: 1,
  userId: id,
  account,
  realName: `${account}姓名`,
  orgId: 1,
  orgName: '黄浦区',
  ip: '10.0.0.8',
  browser: 'Chrome 140',
  os: 'Windows 10',
  loginType: null,
  loginTime: '2026-03-01 09:00:00',
  lastActiveTime: '2026-03-01 09:10:00',
  online: true,
  current: false,
  ...extra,
});

const pageOf = (items: OnlineUser[]): PageResult<OnlineUser> => ({
  page: 1,
  pageSize: 20,
  total: items.length,
  totalPages: 1,
  items,
  hasPrevPage: false,
  hasNextPage: false,
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <OnlineUserPage />
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.page.mockReset();
  api.forceOffline.mockClear();
  useSessionStore.setState({ buttons: ['sysOnlineUser:page', 'sysOnlineUser:forceOffline'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('online users page', () => {
  it('lists sessions with their connection and marks the own one, which cannot be forced off', async () => {
    api.page.mockResolvedValue(
      pageOf([row(1, 'admin', { current: true }), row(2, 'hpleader', { online: false })]),
    );
    renderPage();
    const table = await screen.findByTestId('online-user-table');
    await waitFor(() => expect(table.textContent).toContain('hpleader'));
    expect(table.textContent).toContain('当前会话');
    expect(table.textContent).toContain('未连接');
    expect(table.textContent).toContain('Chrome 140 / Windows 10');
    expect((screen.getByTestId('online-user-force-admin') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('online-user-force-hpleader') as HTMLButtonElement).disabled).toBe(false);
  });

  it('forces a session off after confirmation', async () => {
    api.page.mockResolvedValue(pageOf([row(2, 'hpleader')]));
    renderPage();
    fireEvent.click(await screen.findByTestId('online-user-force-hpleader'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(/hpleader姓名/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('online-user-force-ok'));
    await waitFor(() => expect(api.forceOffline).toHaveBeenCalledWith(2));
  });

  it('hides the button without the permission', async () => {
    useSessionStore.setState({ buttons: ['sysOnlineUser:page'] });
    api.page.mockResolvedValue(pageOf([row(2, 'hpleader')]));
    renderPage();
    await waitFor(() => expect(screen.getByTestId('online-user-table').textContent).toContain('hpleader'));
    expect(screen.queryByTestId('online-user-force-hpleader')).toBeNull();
  });

  it('refreshes when the server says sessions changed', async () => {
    api.page.mockResolvedValue(pageOf([row(2, 'hpleader')]));
    renderPage();
    await waitFor(() => expect(api.page).toHaveBeenCalledTimes(1));
    api.page.mockResolvedValue(pageOf([row(2, 'hpleader'), row(3, 'fgwstaff')]));
    act(() => realtime.handlers.get('onlineUsersChanged')?.());
    await waitFor(() => expect(screen.getByTestId('online-user-table').textContent).toContain('fgwstaff'), {
      timeout: 3_000,
    });
  });
});
