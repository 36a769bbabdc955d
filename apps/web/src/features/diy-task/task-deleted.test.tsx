import type { DeletedTaskRow } from '@shuzhi/contracts/diy-task-lifecycle';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({ page: vi.fn(), deletedPage: vi.fn(), restore: vi.fn() }));
vi.mock('./diy-task.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-task.api.ts')>()),
  taskApi: api,
}));

const { default: TaskListPage } = await import('./task-list.page.tsx');

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 10_000 });

const DELETED: DeletedTaskRow = {
  id: 7,
  title: '11月社区人口月报',
  dueTime: '2026-12-15 18:00:00',
  createTime: '2026-11-20 09:00:00',
  createUserName: '系统管理员',
  createOrgName: '区大数据中心',
  state: 'open',
  forms: [{ tableId: 9, title: '社区人口月报', periodId: 5, periodName: '2026年11月', active: true }],
  receiverCount: 2,
  doneCount: 1,
  deleteTime: '2026-11-27 16:30:00',
  deleteUserName: '系统管理员',
};

const pageOf = <T,>(items: T[]) => ({
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
        <MemoryRouter initialEntries={['/diyTask']}>
          <TaskListPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.page.mockResolvedValue(pageOf([]));
  api.deletedPage.mockResolvedValue(pageOf([DELETED]));
  api.restore.mockResolvedValue(null);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('任务管理 › 已删除', () => {
  it('is offered only with the delete permission', async () => {
    useSessionStore.setState({ buttons: ['diyTask:add'] });
    renderPage();
    await screen.findByTestId('task-table');
    expect(within(screen.getByTestId('task-scope')).queryByText('已删除')).toBeNull();
  });

  it('lists deleted tasks with who deleted them, and restores one after the confirmation', async () => {
    useSessionStore.setState({ buttons: ['diyTask:delete'] });
    renderPage();
    fireEvent.click(within(await screen.findByTestId('task-scope')).getByText('已删除'));
    const table = await screen.findByTestId('deleted-task-table');
    expect((await within(table).findByTestId('deleted-task-title')).textContent).toContain(
      '11月社区人口月报',
    );
    expect(within(table).getByText('2026-11-27 16:30 · 系统管理员')).toBeTruthy();
    expect(api.deletedPage).toHaveBeenCalledWith(expect.objectContaining({ page: 1 }));
    fireEvent.click(within(table).getByTestId('task-restore'));
    expect(api.restore).not.toHaveBeenCalled();
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.restore).toHaveBeenCalledWith({ id: 7 }));
    expect(await screen.findByText('任务已恢复')).toBeTruthy();
    await waitFor(() => expect(api.deletedPage).toHaveBeenCalledTimes(2));
  });
});
