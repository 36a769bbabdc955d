import type { TaskDetail, TaskGrid, TaskReceiver } from '@shuzhi/contracts/diy-task';
import type { TaskMetrics } from '@shuzhi/contracts/diy-task-lifecycle';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  detail: vi.fn(),
  grid: vi.fn(),
  metrics: vi.fn(),
  exportGrid: vi.fn(),
  close: vi.fn(),
  reopen: vi.fn(),
  remove: vi.fn(),
  edit: vi.fn(),
  zero: vi.fn(),
  zeroWithdraw: vi.fn(),
}));
vi.mock('./diy-task.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-task.api.ts')>()),
  taskApi: api,
}));
vi.mock('../../components/org-tree/use-org-tree.ts', async (original) => ({
  ...(await original<typeof import('../../components/org-tree/use-org-tree.ts')>()),
  useOrgTree: () => ({ data: [], isPending: false }),
}));

const { default: TaskDetailPage } = await import('./task-detail.page.tsx');

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const FORM = { tableId: 9, title: '社区人口月报', periodId: 5, periodName: '2026年11月', active: true };

const receiver = (over: Partial<TaskReceiver>): TaskReceiver => ({
  id: 1,
  parentId: null,
  orgId: 100,
  orgName: '南京东路街道',
  orgType: 'street',
  dueTime: '2026-12-10 18:00:00',
  state: 'handedOn',
  transferFromId: null,
  transferReason: null,
  mine: false,
  ...over,
});

const DETAIL: TaskDetail = {
  id: 7,
  title: '11月社区人口月报',
  dueTime: '2026-12-15 18:00:00',
  createTime: '2026-11-20 09:00:00',
  createUserName: '系统管理员',
  createOrgName: '区大数据中心',
  state: 'open',
  forms: [FORM],
  receiverCount: 2,
  doneCount: 0,
  instructions: '',
  attachments: [],
  receivers: [
    receiver({}),
    receiver({ id: 2, parentId: 1, orgId: 101, orgName: '贵州路居民委员会', state: 'received', mine: true }),
  ],
  events: [],
  manage: true,
  levelReview: false,
  urge: null,
};

const cell = (state: TaskGrid['rows'][number]['cells'][number]['state'], over = {}) => ({
  state,
  daysLate: 0,
  done: null,
  total: null,
  recordId: null,
  ...over,
});

const GRID: TaskGrid = {
  forms: [FORM],
  rows: [
    {
      receiverId: 1,
      parentId: null,
      orgId: 100,
      orgName: '南京东路街道',
      orgType: 'street',
      depth: 1,
      dueTime: '2026-12-10 18:00:00',
      cells: [cell('filling', { done: 0, total: 1 })],
    },
    {
      receiverId: 2,
      parentId: 1,
      orgId: 101,
      orgName: '贵州路居民委员会',
      orgType: 'community',
      depth: 2,
      dueTime: '2026-12-10 18:00:00',
      cells: [cell('filling', { recordId: 44 })],
    },
  ],
};

const figures = {
  expected: 2,
  submitted: 1,
  onTime: 1,
  onTimeRate: 0.5,
  avgHoursBeforeDue: 48,
  returnsPerRecord: 1,
  avgReviewHours: 2,
};
const METRICS: TaskMetrics = {
  total: figures,
  levels: [{ orgType: 'community', ...figures }],
  units: [
    { receiverId: 2, orgId: 101, orgName: '贵州路居民委员会', orgType: 'community', dueTime: '', ...figures },
  ],
  reviewLevels: [],
};

function wrap(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/diyTask/detail?id=7']}>{node}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.detail.mockResolvedValue(DETAIL);
  api.grid.mockResolvedValue(GRID);
  api.metrics.mockResolvedValue(METRICS);
  for (const fn of [api.close, api.zero, api.exportGrid]) fn.mockResolvedValue(null);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('task lifecycle on the detail page', () => {
  it('warns of a closed task and a form taken off, and offers no hand-on then', async () => {
    useSessionStore.setState({ buttons: ['diyTask:distribute', 'diyTask:close'] });
    api.detail.mockResolvedValue({ ...DETAIL, state: 'closed', forms: [{ ...FORM, active: false }] });
    wrap(<TaskDetailPage />);
    expect((await screen.findByTestId('task-state')).textContent).toBe('已关闭');
    expect(screen.getByTestId('task-form-off').textContent).toContain('社区人口月报');
    expect(screen.queryByTestId('task-node-hand-on')).toBeNull();
    expect(screen.getByTestId('task-reopen')).toBeTruthy();
    expect(screen.queryByTestId('task-close')).toBeNull();
  });

  it('closes the task after the confirmation, with the permission', async () => {
    useSessionStore.setState({ buttons: ['diyTask:close'] });
    wrap(<TaskDetailPage />);
    fireEvent.click(await screen.findByTestId('task-close'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.close).toHaveBeenCalledWith({ id: 7 }));
    expect(screen.queryByTestId('task-delete')).toBeNull();
    expect(screen.queryByTestId('task-edit')).toBeNull();
  });

  it('filters the grid, exports it with the filters, and files a zero report on the caller’s own part', async () => {
    useSessionStore.setState({ buttons: ['diyTask:export'] });
    wrap(<TaskDetailPage />);
    const grid = await screen.findByTestId('task-grid');
    await waitFor(() => expect(within(grid).getAllByTestId('task-cell')).toHaveLength(2));
    fireEvent.mouseDown(within(screen.getByTestId('task-grid-filter-depth')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('第 2 级'));
    await waitFor(() => expect(api.grid).toHaveBeenCalledWith(7, { depth: 2 }));
    fireEvent.click(screen.getByTestId('task-grid-export'));
    expect(api.exportGrid).toHaveBeenCalledWith(7, { depth: 2 }, '任务完成情况.xlsx');
    // The community's cell: its record, its unit's records, and 零报告 (the caller's part).
    const menus = within(grid).getAllByTestId('task-cell-menu');
    fireEvent.click(menus[menus.length - 1] as HTMLElement);
    expect(await screen.findByText('查看记录')).toBeTruthy();
    expect(screen.getByText('该单位记录')).toBeTruthy();
    fireEvent.click(screen.getByText('零报告'));
    const form = await screen.findByTestId('task-zero-form');
    fireEvent.change(within(form).getByRole('textbox'), { target: { value: '本月无变动' } });
    fireEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() =>
      expect(api.zero).toHaveBeenCalledWith({ receiverId: 2, tableId: 9, note: '本月无变动' }),
    );
  });

  it('shows timeliness by level', async () => {
    wrap(<TaskDetailPage />);
    const card = await screen.findByTestId('task-metrics');
    await waitFor(() =>
      expect(within(card).getAllByTestId('task-metric-rate')[0]?.textContent).toBe('50.0%'),
    );
    expect(within(card).getByText('社区')).toBeTruthy();
    // Without diyTask:export, no export button.
    expect(screen.queryByTestId('task-grid-export')).toBeNull();
    // Without level-by-level review, no tab of review levels.
    expect(within(card).queryByText('逐级审核用时')).toBeNull();
  });

  it('shows the review turnaround of each level of a level-review task, in every language', async () => {
    api.metrics.mockResolvedValue({
      ...METRICS,
      reviewLevels: [
        { level: 1, orgType: 'street', passes: 1, returns: 1, avgReviewHours: 2.5 },
        { level: 0, orgType: null, passes: 1, returns: 0, avgReviewHours: 6 },
      ],
    } satisfies TaskMetrics);
    wrap(<TaskDetailPage />);
    const card = await screen.findByTestId('task-metrics');
    fireEvent.click(await within(card).findByText('逐级审核用时'));
    const table = await within(card).findByTestId('task-review-levels');
    const rows = () =>
      [...table.querySelectorAll('tbody tr.ant-table-row')].map((tr) =>
        [...tr.querySelectorAll('td')].map((td) => td.textContent),
      );
    await waitFor(() =>
      expect(rows()).toEqual([
        ['第 1 级 · 街道', '1', '1', '2.5'],
        ['发起单位（终审）', '1', '0', '6.0'],
      ]),
    );
    expect(i18n.getFixedT('en')('diyTaskLife.reviewLevelDepth', { level: 2 })).toBe('Level 2');
    expect(i18n.getFixedT('en')('diyTaskLife.byReviewLevel')).toBe('By review level');
    expect(i18n.getFixedT('zh-TW')('diyTaskLife.reviewLevelCreator')).toBe('發起單位（終審）');
  });
});
