import type { HomeSummary } from '@shuzhi/contracts/dashboard';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';

const api = vi.hoisted(() => ({ summary: vi.fn(), myFilings: vi.fn() }));
vi.mock('./home.api.ts', async (original) => ({
  ...(await original<typeof import('./home.api.ts')>()),
  homeApi: api,
}));

const { WorkSummary } = await import('./work-summary.tsx');

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

const SUMMARY: HomeSummary = {
  tasks: {
    open: 3,
    overdue: 1,
    dueSoon: 1,
    items: [
      { id: 7, title: '十一月人口报送', dueTime: '2026-11-20 18:00:00', overdue: true },
      { id: 8, title: '年度统计', dueTime: '2026-12-20 18:00:00', overdue: false },
    ],
  },
  review: 4,
  returned: [{ tableId: 9, title: '社区人口月报', periodName: '2026年11月' }],
  owned: [
    {
      tableId: 9,
      title: '社区人口月报',
      periodId: 31,
      periodName: '2026年11月',
      dueDate: '2026-12-05',
      records: 5,
      pending: 1,
      expected: 12,
      missing: 9,
    },
  ],
  notices: {
    unread: 2,
    items: [{ id: 1, title: '关于报送的通知', publicTime: '2026-11-02 09:00:00', read: false }],
  },
};

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

function renderIt() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route path="/dashboard" element={<WorkSummary />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.clearAllMocks());

describe('我的工作', () => {
  it('shows each count, the tasks with due dates, the owned forms’ progress and the notices', async () => {
    api.summary.mockResolvedValue(SUMMARY);
    renderIt();
    expect((await screen.findByTestId('home-count-tasks')).textContent).toContain('逾期 1 · 3 天内到期 1');
    expect(screen.getByTestId('home-count-review').textContent).toContain('4');
    expect(screen.getByTestId('home-count-returned').textContent).toContain('社区人口月报');
    expect(screen.getByTestId('home-count-unread').textContent).toContain('2');
    expect(screen.getByText('已逾期')).toBeTruthy();
    expect(screen.getByTestId('home-owned').textContent).toContain('已上报 3/12 个单位 · 5 份');
    expect(screen.getByText('关于报送的通知')).toBeTruthy();
  });

  it('opens the list behind a number: one returned filing opens its form', async () => {
    api.summary.mockResolvedValue(SUMMARY);
    renderIt();
    fireEvent.click(await screen.findByTestId('home-count-returned'));
    expect((await screen.findByTestId('where')).textContent).toBe('/diyReport/index/formTable?id=9');
  });

  it('opens 我的任务 and the owned form’s data dashboard', async () => {
    api.summary.mockResolvedValue({ ...SUMMARY, review: null });
    renderIt();
    expect((await screen.findByTestId('home-count-review')).textContent).toContain('无审核任务');
    fireEvent.click(screen.getByTestId('home-count-tasks'));
    expect((await screen.findByTestId('where')).textContent).toBe('/diyTask/mine');
  });
});
