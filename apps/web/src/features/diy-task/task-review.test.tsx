import type { TaskDetail, TaskGrid } from '@shuzhi/contracts/diy-task';
import type { TaskReviewCompare, TaskReviewRow, TaskReviewStep } from '@shuzhi/contracts/diy-task-review';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
vi.mock('../../platform/http/http.ts', () => ({ http }));
vi.mock('../../platform/realtime/realtime.ts', () => ({ useRealtimeEvent: () => undefined }));

const { default: TaskDetailPage } = await import('./task-detail.page.tsx');

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const FORMS = [{ tableId: 9, title: '社区人口月报', periodId: 5, periodName: '2026年11月', active: true }];
const DETAIL: TaskDetail = {
  id: 7,
  title: '11月社区人口月报',
  dueTime: '2026-12-15 18:00:00',
  createTime: '2026-11-20 09:00:00',
  createUserName: '陈建国',
  createOrgName: '黄浦区',
  state: 'open',
  forms: FORMS,
  receiverCount: 2,
  doneCount: 0,
  instructions: '',
  attachments: [],
  receivers: [
    {
      id: 1,
      parentId: null,
      orgId: 100,
      orgName: '南京东路街道',
      orgType: 'street',
      dueTime: '2026-12-10 18:00:00',
      state: 'handedOn',
      transferFromId: null,
      transferReason: null,
      mine: true,
    },
  ],
  events: [],
  manage: false,
  levelReview: true,
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
  forms: FORMS,
  rows: [
    {
      receiverId: 1,
      parentId: null,
      orgId: 100,
      orgName: '南京东路街道',
      orgType: 'street',
      depth: 1,
      dueTime: '2026-12-10 18:00:00',
      cells: [cell('filling', { done: 0, total: 2 })],
    },
    {
      receiverId: 2,
      parentId: 1,
      orgId: 101,
      orgName: '贵州路居民委员会',
      orgType: 'community',
      depth: 2,
      dueTime: '2026-12-08 18:00:00',
      cells: [cell('reviewing', { recordId: 55, awaiting: '南京东路街道' })],
    },
  ],
};
const ROWS: TaskReviewRow[] = [
  {
    tableId: 9,
    tableTitle: '社区人口月报',
    recordId: 55,
    status: 1,
    submitTime: '2026-12-01 10:00:00',
    createUserName: '吴静',
    receiverId: 2,
    receiverName: '贵州路居民委员会',
    orgName: '贵州路居民委员会',
    passed: 0,
    levels: 2,
    awaiting: '南京东路街道',
    canReview: true,
  },
  {
    tableId: 9,
    tableTitle: '社区人口月报',
    recordId: 56,
    status: 1,
    submitTime: '2026-12-01 11:00:00',
    createUserName: '周敏',
    receiverId: 3,
    receiverName: '福州路居民委员会',
    orgName: '福州路居民委员会',
    passed: 1,
    levels: 2,
    awaiting: '黄浦区',
    canReview: false,
  },
];
const COMPARE: TaskReviewCompare = {
  periodName: '2026年12月',
  lastRecordId: 40,
  lastPeriodName: '2026年11月',
  fields: [
    { field: 'huji', label: '户籍人口', value: 2999, lastValue: 2995, change: 4, ratio: 4 / 2995 },
    { field: 'liudong', label: '来沪人员', value: 1500, lastValue: 1001, change: 499, ratio: 499 / 1001 },
    { field: 'jingwai', label: '境外人员', value: null, lastValue: 39, change: null, ratio: null },
  ],
};
const STEPS: TaskReviewStep[] = [
  {
    id: 1,
    action: 'return',
    orgName: '南京东路街道',
    level: 1,
    comment: '户籍人口与上月相差过大',
    userName: '王海燕',
    createTime: '2026-12-01 12:00:00',
    submissionId: 10,
  },
];

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
  http.get.mockImplementation(async (url: string, query?: { mine?: string }) => {
    if (url === '/api/diyTask/detail') return DETAIL;
    if (url === '/api/diyTask/grid') return GRID;
    if (url === '/api/diyTask/urges') return [];
    if (url === '/api/diyTask/metrics') throw new Error('not in this test');
    if (url === '/api/diyTask/reviews') return query?.mine ? ROWS.filter((r) => r.canReview) : ROWS;
    if (url === '/api/diyTask/reviewCompare') return COMPARE;
    if (url === '/api/diyTask/reviewSteps') return STEPS;
    throw new Error(`unexpected ${url}`);
  });
  http.post.mockResolvedValue(null);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [], menus: [] });
  vi.clearAllMocks();
});

const openReview = async () => {
  const card = await screen.findByTestId('task-review');
  fireEvent.click(await within(card).findByTestId('task-review-open'));
  return screen.findByTestId('task-review-drawer');
};

describe('level-by-level review on the task detail', () => {
  it('lists the records in review with the level each waits for; the grid shows 待上级审核', async () => {
    useSessionStore.setState({ buttons: ['diyTask:review'] });
    wrap(<TaskDetailPage />);
    const card = await screen.findByTestId('task-review');
    await waitFor(() => expect(within(card).getByText('福州路居民委员会')).toBeTruthy());
    expect(within(card).getByText('0/2 级')).toBeTruthy();
    expect(within(card).getByText('黄浦区')).toBeTruthy();
    // The record waiting for the caller's level can be reviewed; the other only shows its steps.
    expect(within(card).getAllByTestId('task-review-open')).toHaveLength(1);
    expect(within(card).getAllByTestId('task-review-steps-open')).toHaveLength(1);
    fireEvent.click(within(card).getByTestId('task-review-mine'));
    await waitFor(() => expect(within(card).queryByText('福州路居民委员会')).toBeNull());
    expect(http.get).toHaveBeenCalledWith('/api/diyTask/reviews', { id: 7, mine: 'true' }, { silent: true });
    const grid = await screen.findByTestId('task-grid');
    const reviewing = await within(grid).findByText('待上级审核');
    expect(reviewing.closest('[title]')?.getAttribute('title')).toBe('待 南京东路街道 审核');
  });

  it('shows each figure beside the last period with the change, and the steps', async () => {
    useSessionStore.setState({ buttons: ['diyTask:review'] });
    wrap(<TaskDetailPage />);
    const drawer = await openReview();
    const compare = within(drawer).getByTestId('task-review-compare');
    await waitFor(() => expect(within(compare).getByText('户籍人口')).toBeTruthy());
    expect(within(compare).getByText('上期：2026年11月')).toBeTruthy();
    const changes = within(compare).getAllByTestId('task-review-change');
    expect(changes.map((c) => c.textContent)).toEqual(['+4（+0.1%）', '+499（+49.9%）']);
    // A change of a fifth or more stands out.
    expect(changes[1]?.className).toContain('danger');
    expect(http.get).toHaveBeenCalledWith(
      '/api/diyTask/reviewCompare',
      { id: 7, tableId: 9, recordId: 55 },
      { silent: true },
    );
    const steps = within(drawer).getByTestId('task-review-steps');
    await waitFor(() => expect(within(steps).getByText('户籍人口与上月相差过大')).toBeTruthy());
    expect(within(steps).getByText('第 1 级')).toBeTruthy();
    expect(within(steps).getByText('王海燕 · 2026-12-01 12:00')).toBeTruthy();
  });

  it('returns only with a comment, and passes', async () => {
    useSessionStore.setState({ buttons: ['diyTask:review'] });
    wrap(<TaskDetailPage />);
    let drawer = await openReview();
    fireEvent.click(within(drawer).getByTestId('task-review-return'));
    expect(await within(drawer).findByText('退回时必须填写审核意见')).toBeTruthy();
    expect(http.post).not.toHaveBeenCalled();
    fireEvent.change(within(drawer).getByTestId('task-review-comment'), {
      target: { value: '请核实来沪人员' },
    });
    fireEvent.click(within(drawer).getByTestId('task-review-return'));
    await waitFor(() =>
      expect(http.post).toHaveBeenCalledWith(
        '/api/diyTask/review',
        { taskId: 7, tableId: 9, recordIds: [55], action: 'return', comment: '请核实来沪人员' },
        { silent: true },
      ),
    );
    expect(await screen.findByText('已退回填报人')).toBeTruthy();
    drawer = await openReview();
    fireEvent.click(within(drawer).getByTestId('task-review-pass'));
    await waitFor(() =>
      expect(http.post).toHaveBeenLastCalledWith(
        '/api/diyTask/review',
        { taskId: 7, tableId: 9, recordIds: [55], action: 'pass', comment: '' },
        { silent: true },
      ),
    );
  });

  it('has no review card on a task without level review', async () => {
    http.get.mockImplementation(async (url: string) => {
      if (url === '/api/diyTask/detail') return { ...DETAIL, levelReview: false };
      if (url === '/api/diyTask/grid') return GRID;
      if (url === '/api/diyTask/urges') return [];
      throw new Error(`unexpected ${url}`);
    });
    wrap(<TaskDetailPage />);
    await screen.findByTestId('task-detail');
    expect(screen.queryByTestId('task-review')).toBeNull();
    expect(http.get).not.toHaveBeenCalledWith('/api/diyTask/reviews', expect.anything(), expect.anything());
  });
});
