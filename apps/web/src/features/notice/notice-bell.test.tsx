import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../platform/i18n/i18n.ts';
import type { ReceivedNotice } from './notice.api.ts';
import { NoticeBell } from './notice-bell.tsx';

const api = vi.hoisted(() => ({ unread: vi.fn(), setAllRead: vi.fn(), received: vi.fn() }));
vi.mock('./notice.api.ts', async (original) => ({
  ...(await original<typeof import('./notice.api.ts')>()),
  noticeApi: api,
}));
// The socket itself is the realtime module's business: here its events are delivered by hand.
const realtime = vi.hoisted(() => new Map<string, (payload: unknown) => void>());
vi.mock('../../platform/realtime/realtime.ts', () => ({
  useRealtimeEvent: (event: string, handler: (payload: unknown) => void) => {
    realtime.set(event, handler);
  },
}));

const item = (id: number, title: string): ReceivedNotice => ({
  id,
  title,
  type: 1,
  publicTime: '2026-11-21 09:00:00',
  publicUserName: '系统管理员',
  publicOrgName: '区大数据中心',
  readStatus: 0,
  readTime: null,
});
let unread = [item(1, '防汛通知'), item(2, '停电公告')];
api.unread.mockImplementation(async () => ({ count: unread.length, items: unread }));
api.setAllRead.mockImplementation(async () => {
  unread = [];
  return null;
});
api.received.mockImplementation(async (id: number) => ({
  ...item(id, id === 3 ? '新的通知' : '防汛通知'),
  readStatus: 1,
  content: '<p>请各单位<strong>做好准备</strong></p>',
}));

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route path="/dashboard" element={children} />
            <Route path="/notice/inbox" element={<div data-testid="inbox-route" />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>
  );
}

afterEach(() => {
  unread = [item(1, '防汛通知'), item(2, '停电公告')];
  vi.clearAllMocks();
});

/** The bell's accessible name carries the count (the badge animates its digits). */
const unreadShown = () => {
  const label = screen.getByTestId('notice-bell').getAttribute('aria-label') ?? '';
  return Number(/\((\d+) 条未读\)/.exec(label)?.[1] ?? 0);
};

describe('NoticeBell', { timeout: 20_000 }, () => {
  it('shows the unread count, lists the newest, marks all read and links to the inbox', async () => {
    render(wrap(<NoticeBell />));
    await waitFor(() => expect(unreadShown()).toBe(2));
    fireEvent.click(screen.getByTestId('notice-bell'));
    const panel = await screen.findByTestId('notice-panel');
    await waitFor(() => expect(within(panel).getAllByTestId('notice-panel-item')).toHaveLength(2));
    expect(within(panel).getByText('防汛通知')).toBeTruthy();
    expect(within(panel).getByText('2 条未读')).toBeTruthy();

    fireEvent.click(within(panel).getByTestId('notice-all-read'));
    await waitFor(() => expect(api.setAllRead).toHaveBeenCalled());
    await waitFor(() => expect(within(panel).getByText('暂无未读通知')).toBeTruthy());
    expect(unreadShown()).toBe(0);

    fireEvent.click(within(panel).getByTestId('notice-view-all'));
    expect(await screen.findByTestId('inbox-route')).toBeTruthy();
  });

  it('opens a notice from the panel: its body shows and the count refreshes', async () => {
    render(wrap(<NoticeBell />));
    await waitFor(() => expect(unreadShown()).toBe(2));
    fireEvent.click(screen.getByTestId('notice-bell'));
    const [first] = await screen.findAllByTestId('notice-panel-item');
    unread = unread.slice(1);
    fireEvent.click(first as HTMLElement);
    const body = await screen.findByTestId('notice-view-body');
    expect(body.innerHTML).toBe('<p>请各单位<strong>做好准备</strong></p>');
    expect(api.received).toHaveBeenCalledWith(1);
    await waitFor(() => expect(unreadShown()).toBe(1));
  });

  it('toasts a pushed notice, refreshes the count, and opens it on click; a withdrawal refreshes too', async () => {
    render(wrap(<NoticeBell />));
    await waitFor(() => expect(unreadShown()).toBe(2));
    unread = [item(3, '新的通知'), ...unread];
    await act(async () => {
      realtime.get('notice')?.({
        id: 3,
        title: '新的通知',
        type: 2,
        publicTime: '2026-11-21 10:00:00',
        publicUserName: '系统管理员',
      });
    });
    const toast = await screen.findByTestId('notice-toast-title');
    expect(toast.textContent).toBe('新公告：新的通知');
    await waitFor(() => expect(unreadShown()).toBe(3));

    fireEvent.click(toast);
    await waitFor(() => expect(api.received).toHaveBeenCalledWith(3));
    expect(await screen.findByTestId('notice-view-body')).toBeTruthy();

    unread = unread.slice(1);
    await act(async () => {
      realtime.get('noticeWithdrawn')?.({ id: 3 });
    });
    await waitFor(() => expect(unreadShown()).toBe(2));
  });

  it('writes the toast with the language’s own colon', async () => {
    await i18n.changeLanguage('en');
    try {
      render(wrap(<NoticeBell />));
      await waitFor(() => expect(api.unread).toHaveBeenCalled());
      await act(async () => {
        realtime.get('notice')?.({
          id: 4,
          title: 'Flood duty',
          type: 2,
          publicTime: '2026-11-21 10:00:00',
          publicUserName: 'Admin',
        });
      });
      const toast = await screen.findByTestId('notice-toast-title');
      expect(toast.textContent).toBe('New Announcement: Flood duty');
    } finally {
      await i18n.changeLanguage('zh-CN');
    }
  });
});
