import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OpenAccessItem } from '@shuzhi/contracts/open-access';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  resetSecret: vi.fn(),
  searchUsers: vi.fn(),
}));

vi.mock('./open-access.api.ts', () => ({
  openAccessResource: { service: 'sysOpenAccess', page: api.page, exportFile: vi.fn(), add: vi.fn() },
  openAccessApi: { resetSecret: api.resetSecret, searchUsers: api.searchUsers },
  OPEN_ACCESS_KEYS: { pick: (keyword: string) => ['sysUser', 'pick', keyword] },
}));

const { default: OpenAccessPage } = await import('./open-access.page.tsx');

const row: OpenAccessItem = {
  id: 7,
  tenantId: 1,
  accessKey: 'AbCdEfGhIjKlMnOpQrStUv',
  bindUserId: 3,
  status: 1,
  lastUsedTime: null,
  remark: '报表同步',
  createTime: '2026-03-01 09:00:00',
  updateTime: null,
  createUserId: 1,
  createUserName: '管理员',
  updateUserId: null,
  updateUserName: null,
  bindUserAccount: 'fgwstaff',
  bindUserRealName: '张伟',
  bindUserOrgName: '区发展和改革委员会',
};

const pageOf = (items: OpenAccessItem[]): PageResult<OpenAccessItem> => ({
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
        <OpenAccessPage />
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.page.mockReset().mockResolvedValue(pageOf([row]));
  api.resetSecret.mockReset();
  api.searchUsers.mockReset().mockResolvedValue(pageOf([]));
});

describe('open access page', () => {
  it('lists keys with the bound user and never a secret column', async () => {
    useSessionStore.setState({ buttons: ['sysOpenAccess:page'] });
    renderPage();
    expect(await screen.findByText('AbCdEfGhIjKlMnOpQrStUv')).toBeTruthy();
    expect(screen.getByText('张伟（fgwstaff）')).toBeTruthy();
    expect(screen.getByText('从未使用')).toBeTruthy();
    expect(screen.queryByText('密钥')).toBeNull();
    // Without the permission there is no reset button.
    expect(screen.queryByTestId('open-access-reset')).toBeNull();
  });

  it('resets a secret after confirmation and shows the new one once, with a signing example', async () => {
    useSessionStore.setState({ buttons: ['sysOpenAccess:page', 'sysOpenAccess:resetSecret'] });
    api.resetSecret.mockResolvedValue({
      id: 7,
      accessKey: row.accessKey,
      accessSecret: 'NEW-secret-value_123',
    });
    renderPage();
    fireEvent.click(await screen.findByTestId('open-access-reset'));
    expect(api.resetSecret).not.toHaveBeenCalled();
    // antd spaces two-character Chinese button texts: 确 定.
    fireEvent.click(await screen.findByRole('button', { name: /^确\s?定$/ }));
    const modal = await screen.findByTestId('open-access-secret-modal');
    await waitFor(() => expect(api.resetSecret).toHaveBeenCalledWith(7));
    expect(within(modal).getByTestId('open-access-new-secret').textContent).toContain('NEW-secret-value_123');
    expect(within(modal).getByText(/只显示这一次/)).toBeTruthy();
    expect(modal.textContent).toContain('GET&/api/auth/token&$KEY&$TS&$NONCE');
    fireEvent.click(within(modal).getByTestId('open-access-secret-done'));
    await waitFor(() => expect(screen.queryByTestId('open-access-new-secret')).toBeNull());
  }, 20_000);
});
