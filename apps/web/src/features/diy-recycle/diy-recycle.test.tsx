import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import type { RecycleItem } from './diy-recycle.api.ts';
import DiyRecyclePage from './diy-recycle.page.tsx';

const api = vi.hoisted(() => ({ page: vi.fn(), restore: vi.fn(), purge: vi.fn(), forms: vi.fn() }));
vi.mock('./diy-recycle.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-recycle.api.ts')>()),
  recycleApi: api,
}));
// The operation-password prompt checks the password with the server, then hands back the cipher.
const post = vi.hoisted(() => vi.fn());
vi.mock('../../platform/http/http.ts', () => ({ http: { post } }));
vi.mock('../../platform/session/session.api.ts', () => ({
  sessionApi: { loginConfig: async () => ({ publicKey: 'pk' }) },
}));
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

const RECORD: RecycleItem = {
  kind: 'record',
  id: 11,
  tableId: 5,
  title: '企业用工情况',
  summary: 'YG202611210001',
  deleteTime: '2026-11-21 10:00:00',
  deleteUserName: '张伟',
};
const FORM: RecycleItem = {
  kind: 'form',
  id: 8,
  tableId: 8,
  title: '安全生产检查',
  summary: null,
  deleteTime: '2026-11-21 09:00:00',
  deleteUserName: '李娜',
};

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <MemoryRouter>
      <QueryClientProvider client={client}>
        <App>
          <DiyRecyclePage />
        </App>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

const rowOf = async (text: string) => {
  const cell = await screen.findByText(text);
  return cell.closest('tr') as HTMLElement;
};

beforeEach(() => {
  api.page.mockResolvedValue({
    page: 1,
    pageSize: 20,
    total: 2,
    totalPages: 1,
    items: [RECORD, FORM],
    hasPrevPage: false,
    hasNextPage: false,
  });
  api.forms.mockResolvedValue([{ value: 5, label: '企业用工情况' }]);
  api.restore.mockResolvedValue(null);
  api.purge.mockResolvedValue(null);
  post.mockResolvedValue(true);
});

afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('回收站', { timeout: 40_000 }, () => {
  it('lists deleted records and forms; without the button permissions nothing can be done', async () => {
    renderPage();
    expect(await screen.findByText('YG202611210001')).toBeTruthy();
    expect(screen.getByText('安全生产检查')).toBeTruthy();
    expect(screen.getAllByTestId('recycle-kind').map((tag) => tag.textContent)).toEqual(['记录', '表单']);
    expect(screen.queryByTestId('recycle-restore')).toBeNull();
    expect(screen.queryByTestId('recycle-purge')).toBeNull();
    expect(screen.queryByTestId('recycle-batch-restore')).toBeNull();
    expect(api.page).toHaveBeenCalledWith(expect.objectContaining({ page: 1, pageSize: 20, kind: '' }));
  });

  it('restores after a confirmation and shows the server refusal (F1015)', async () => {
    useSessionStore.setState({ buttons: ['diyRecycle:restore'] });
    api.restore.mockRejectedValueOnce(new HttpError('记录所属表单已删除，请先恢复表单', 'F1015'));
    renderPage();
    const row = await rowOf('YG202611210001');
    expect(within(row).queryByTestId('recycle-purge')).toBeNull();
    fireEvent.click(within(row).getByTestId('recycle-restore'));
    fireEvent.click(await screen.findByTestId('recycle-restore-ok'));
    await waitFor(() => expect(api.restore).toHaveBeenCalledWith([{ kind: 'record', id: 11, tableId: 5 }]));
    expect(await screen.findByText('记录所属表单已删除，请先恢复表单')).toBeTruthy();
  });

  it('switching to 表单 asks for forms only', async () => {
    renderPage();
    await screen.findByText('YG202611210001');
    fireEvent.click(screen.getByRole('tab', { name: '表单' }));
    await waitFor(() => expect(api.page).toHaveBeenLastCalledWith(expect.objectContaining({ kind: 'form' })));
  });

  it('purging warns that it cannot be undone, then asks for the operation password', async () => {
    useSessionStore.setState({ buttons: ['diyRecycle:restore', 'diyRecycle:purge'] });
    renderPage();
    const row = await rowOf('安全生产检查');
    fireEvent.click(within(row).getByTestId('recycle-purge'));
    const warning = await screen.findByTestId('recycle-purge-warning');
    expect(warning.textContent).toContain('不能再恢复');
    // A form takes its design, versions and records with it.
    expect(warning.textContent).toContain('全部记录');
    expect(api.purge).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('recycle-purge-ok'));
    const input = await screen.findByTestId('op-password-prompt-input');
    fireEvent.change(input, { target: { value: 'Op@123456' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.purge).toHaveBeenCalledWith([{ kind: 'form', id: 8, tableId: 8 }], 'enc(Op@123456,pk)'),
    );
    expect(post).toHaveBeenCalledWith(
      '/api/sysUser/checkOpPassword',
      { opPassword: 'enc(Op@123456,pk)' },
      { silent: true },
    );
    expect(await screen.findByText('已彻底删除 1 项')).toBeTruthy();
  });

  it('a cancelled password prompt purges nothing; bulk restore sends every selected item', async () => {
    useSessionStore.setState({ buttons: ['diyRecycle:restore', 'diyRecycle:purge'] });
    renderPage();
    await screen.findByText('YG202611210001');
    const boxes = screen.getAllByRole('checkbox');
    // The header box selects the page.
    fireEvent.click(boxes[0] as HTMLElement);
    expect((await screen.findByTestId('recycle-selected')).textContent).toBe('已选 2 项');
    fireEvent.click(screen.getByTestId('recycle-batch-purge'));
    fireEvent.click(await screen.findByTestId('recycle-purge-ok'));
    await screen.findByTestId('op-password-prompt-input');
    fireEvent.click(screen.getByRole('button', { name: '取 消' }));
    await waitFor(() => expect(screen.queryByTestId('op-password-prompt-input')).toBeNull());
    expect(api.purge).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('recycle-batch-restore'));
    fireEvent.click(await screen.findByTestId('recycle-batch-restore-ok'));
    await waitFor(() =>
      expect(api.restore).toHaveBeenCalledWith([
        { kind: 'record', id: 11, tableId: 5 },
        { kind: 'form', id: 8, tableId: 8 },
      ]),
    );
  });

  it('says so when the bin is empty', async () => {
    api.page.mockResolvedValue({
      page: 1,
      pageSize: 20,
      total: 0,
      totalPages: 0,
      items: [],
      hasPrevPage: false,
      hasNextPage: false,
    });
    renderPage();
    expect(await screen.findByText('回收站是空的')).toBeTruthy();
  });
});
