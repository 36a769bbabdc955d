import type { PageResult } from '@shuzhi/contracts/envelope';
import type { NoLoginLink } from '@shuzhi/contracts/no-login';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  add: vi.fn(),
  revoke: vi.fn(),
  uses: vi.fn(),
  sheet: vi.fn(),
  png: vi.fn(),
  forms: vi.fn(),
}));
vi.mock('./no-login.api.ts', async (original) => ({
  ...(await original<typeof import('./no-login.api.ts')>()),
  noLoginLinkApi: api,
}));

const { default: NoLoginLinksPage } = await import('./no-login-links.page.tsx');

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

const LINK: NoLoginLink = {
  id: 7,
  title: '路边摊位登记',
  qrType: 'form',
  tableId: 9,
  tableTitle: '摊位登记表',
  recordId: null,
  mode: 'fillMany',
  expireTime: '2026-12-31 10:00:00',
  maxUses: null,
  useCount: 3,
  state: 'active',
  remark: null,
  url: '/scancode?QrCodeType=form&code=abc',
  createTime: '2026-11-01 10:00:00',
  createUserName: '管理员',
  revokeTime: null,
};
const pageOf = (items: NoLoginLink[]): PageResult<NoLoginLink> => ({
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
        <NoLoginLinksPage />
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.page.mockReset().mockResolvedValue(pageOf([LINK]));
  api.revoke.mockReset().mockResolvedValue(null);
  api.sheet
    .mockReset()
    .mockResolvedValue([
      { id: 7, title: LINK.title, url: `http://x${LINK.url}`, expireTime: LINK.expireTime, svg: '<svg/>' },
    ]);
});

describe('扫码填报链接', () => {
  it('lists links with purpose, state and uses; no create or revoke without the permissions', async () => {
    useSessionStore.setState({ buttons: ['sysNoLoginLink:page'] });
    renderPage();
    expect(await screen.findByText('路边摊位登记')).toBeTruthy();
    expect(screen.getByText('填报（多次）')).toBeTruthy();
    expect(screen.getByTestId('nologin-state').textContent).toBe('有效');
    expect(screen.getByText('3 / 不限')).toBeTruthy();
    expect(screen.queryByTestId('nologin-create')).toBeNull();
    expect(screen.queryByTestId('nologin-revoke')).toBeNull();
  });

  it('shows the QR code with its absolute address, and revokes after confirmation', async () => {
    useSessionStore.setState({ buttons: ['sysNoLoginLink:page', 'sysNoLoginLink:revoke'] });
    renderPage();
    fireEvent.click(await screen.findByTestId('nologin-show-qr'));
    expect((await screen.findByTestId('nologin-qr-url')).textContent).toBe(
      'http://x/scancode?QrCodeType=form&code=abc',
    );
    expect(api.sheet).toHaveBeenCalledWith([7]);
    fireEvent.click(screen.getByTestId('nologin-revoke'));
    expect(api.revoke).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: /^(确\s?定|OK)$/ }));
    await waitFor(() => expect(api.revoke).toHaveBeenCalledWith(7));
  });
});
