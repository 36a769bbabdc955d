import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import type { NoticeDetail } from './notice.api.ts';
import { NoticeEditor } from './notice-editor.tsx';

const api = vi.hoisted(() => ({
  detail: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  publish: vi.fn(),
  roles: vi.fn(),
  searchUsers: vi.fn(),
}));
vi.mock('./notice.api.ts', async (original) => ({
  ...(await original<typeof import('./notice.api.ts')>()),
  noticeApi: api,
}));

const DRAFT: NoticeDetail = {
  id: 42,
  title: '防汛值班安排',
  type: 1,
  status: 0,
  audience: 4,
  audienceIds: [5],
  audienceNames: ['张伟'],
  publishAt: null,
  publicTime: null,
  publicUserName: null,
  publicOrgName: null,
  cancelTime: null,
  recipientCount: 0,
  readCount: 0,
  content: '<p>请各单位<strong>安排值班</strong></p>',
  createTime: '2026-11-21 09:00:00',
  updateTime: null,
  createUserId: 1,
  createUserName: '系统管理员',
  updateUserId: null,
  updateUserName: null,
};
api.detail.mockImplementation(async () => DRAFT);
api.add.mockImplementation(async () => 77);
api.update.mockImplementation(async () => null);
api.publish.mockImplementation(async () => null);
api.searchUsers.mockImplementation(async () => []);

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
  vi.clearAllMocks();
});

describe('NoticeEditor', { timeout: 40_000 }, () => {
  it('shows no error before anything was typed or saved', async () => {
    render(wrap(<NoticeEditor target={{}} onClose={() => {}} onSaved={() => {}} />));
    await screen.findByTestId('notice-field-content-content', undefined, { timeout: 10_000 });
    // The editor settles over a few frames after it opens; an error would show within them.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.queryByText('请输入正文')).toBeNull();
    expect(document.querySelector('.ant-form-item-explain-error')).toBeNull();
  });

  it('refuses to save without a title or a body', async () => {
    render(wrap(<NoticeEditor target={{}} onClose={() => {}} onSaved={() => {}} />));
    fireEvent.click(await screen.findByTestId('notice-editor-save'));
    // The drawer's first render in a cold test environment can take a while.
    expect(await screen.findByText('请输入标题', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(await screen.findByText('请输入正文')).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();
    // Without the publish button permission there is no publish button.
    expect(screen.queryByTestId('notice-editor-publish')).toBeNull();
  });

  it('loads a draft, keeps its recipients, and saves it back', async () => {
    const onSaved = vi.fn();
    const onClose = vi.fn();
    render(wrap(<NoticeEditor target={{ id: 42 }} onClose={onClose} onSaved={onSaved} />));
    const title = (await screen.findByTestId('notice-field-title')) as HTMLInputElement;
    await waitFor(() => expect(title.value).toBe('防汛值班安排'));
    await waitFor(() =>
      expect(screen.getByTestId('notice-field-content-content').innerHTML).toContain(
        '<strong>安排值班</strong>',
      ),
    );
    expect(screen.getByText('张伟')).toBeTruthy();
    fireEvent.change(title, { target: { value: '防汛值班安排（更正）' } });
    fireEvent.click(screen.getByTestId('notice-editor-save'));
    await waitFor(() =>
      expect(api.update).toHaveBeenCalledWith({
        id: 42,
        title: '防汛值班安排（更正）',
        content: '<p>请各单位<strong>安排值班</strong></p>',
        type: 1,
        audience: 4,
        audienceIds: [5],
      }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSaved).toHaveBeenCalled();
  });

  it('publishes after a confirmation; a cleared recipient list is refused first', async () => {
    useSessionStore.setState({ buttons: ['sysNotice:publish'] });
    const onClose = vi.fn();
    render(wrap(<NoticeEditor target={{ id: 42 }} onClose={onClose} onSaved={() => {}} />));
    await waitFor(() =>
      expect((screen.getByTestId('notice-field-title') as HTMLInputElement).value).toBe('防汛值班安排'),
    );
    const picker = screen.getByTestId('notice-field-users');
    const clear =
      picker.parentElement?.querySelector('.ant-select-clear') ?? picker.querySelector('.ant-select-clear');
    fireEvent.mouseDown(clear as Element);
    fireEvent.click(clear as Element);
    fireEvent.click(screen.getByTestId('notice-editor-publish'));
    expect(await screen.findByText('请选择接收对象')).toBeTruthy();
    expect(api.publish).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('notice-audience-1'));
    await waitFor(() => expect(screen.queryByTestId('notice-field-users')).toBeNull());
    fireEvent.click(screen.getByTestId('notice-editor-publish'));
    expect(await screen.findByText(/将立即推送给全部用户/)).toBeTruthy();
    fireEvent.click(screen.getByTestId('notice-publish-ok'));
    await waitFor(() => expect(api.publish).toHaveBeenCalledWith(42, undefined));
    expect(api.update).toHaveBeenCalledWith(
      expect.objectContaining({ id: 42, audience: 1, audienceIds: [] }),
    );
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
