import type { MyTaskRow, TaskDetail, TaskGrid, TaskReceiver } from '@shuzhi/contracts/diy-task';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  mine: vi.fn(),
  detail: vi.fn(),
  grid: vi.fn(),
  add: vi.fn(),
  handOn: vi.fn(),
  transfer: vi.fn(),
  forms: vi.fn(),
}));
vi.mock('./diy-task.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-task.api.ts')>()),
  taskApi: api,
}));
vi.mock('../../components/org-tree/use-org-tree.ts', async (original) => ({
  ...(await original<typeof import('../../components/org-tree/use-org-tree.ts')>()),
  useOrgTree: () => ({ data: [], isPending: false }),
}));

const { default: TaskDetailPage, receiverTree } = await import('./task-detail.page.tsx');
const { nestRows } = await import('./task-grid.tsx');
const { default: MyTaskPage } = await import('./my-task.page.tsx');

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const FORMS = [{ tableId: 9, title: '社区人口月报', periodId: 5, periodName: '2026年11月', active: true }];

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

const RECEIVERS = [
  receiver({}),
  receiver({ id: 2, parentId: 1, orgId: 101, orgName: '贵州路居民委员会', state: 'received', mine: true }),
  receiver({ id: 3, parentId: 1, orgId: 102, orgName: '福州路居民委员会', state: 'received' }),
];

const DETAIL: TaskDetail = {
  id: 7,
  title: '11月社区人口月报',
  dueTime: '2026-12-15 18:00:00',
  createTime: '2026-11-20 09:00:00',
  createUserName: '系统管理员',
  createOrgName: '区大数据中心',
  state: 'open',
  forms: FORMS,
  receiverCount: 2,
  doneCount: 1,
  instructions: '<p>请按时填报</p>',
  attachments: [],
  receivers: RECEIVERS,
  events: [
    {
      id: 1,
      action: 'create',
      orgName: '区大数据中心',
      targets: ['南京东路街道'],
      targetCount: 1,
      comment: null,
      userName: '系统管理员',
      createTime: '2026-11-20 09:00:00',
    },
  ],
  manage: false,
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
      cells: [cell('filling', { done: 1, total: 2 })],
    },
    {
      receiverId: 2,
      parentId: 1,
      orgId: 101,
      orgName: '贵州路居民委员会',
      orgType: 'community',
      depth: 2,
      dueTime: '2026-12-10 18:00:00',
      cells: [cell('submitted', { recordId: 44 })],
    },
    {
      receiverId: 3,
      parentId: 1,
      orgId: 102,
      orgName: '福州路居民委员会',
      orgType: 'community',
      depth: 2,
      dueTime: '2026-12-10 18:00:00',
      cells: [cell('overdue', { daysLate: 3 })],
    },
  ],
};

function wrap(node: ReactNode, url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.detail.mockResolvedValue(DETAIL);
  api.grid.mockResolvedValue(GRID);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('tree and grid helpers', () => {
  it('nest receivers under the receiver that handed them on', () => {
    const tree = receiverTree(RECEIVERS, (r) => r.orgName);
    expect(tree.map((n) => [n.title, n.children.map((c) => c.title)])).toEqual([
      ['南京东路街道', ['贵州路居民委员会', '福州路居民委员会']],
    ]);
    const rows = nestRows(GRID.rows);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.children?.map((r) => r.orgName)).toEqual(['贵州路居民委员会', '福州路居民委员会']);
  });

  it('keep a receiver whose parent the caller cannot see at the top', () => {
    const tree = receiverTree([RECEIVERS[1] as TaskReceiver], (r) => r.orgName);
    expect(tree.map((n) => n.title)).toEqual(['贵州路居民委员会']);
  });
});

describe('任务详情', () => {
  it('shows the distribution tree, the grid with states and days late, and the history', async () => {
    wrap(<TaskDetailPage />, '/diyTask/detail?id=7');
    expect(await screen.findByText('11月社区人口月报')).toBeTruthy();
    const grid = await screen.findByTestId('task-grid');
    await waitFor(() => expect(within(grid).getAllByTestId('task-cell')).toHaveLength(3));
    const states = within(grid)
      .getAllByTestId('task-cell')
      .map((c) => c.textContent);
    expect(states).toEqual(['填报中1/2 已报', '已提交', '逾期 3 天']);
    expect(screen.getByTestId('task-detail-progress').textContent).toBe('1/2');
    expect(screen.getByTestId('task-event').textContent).toContain('创建并下发');
    // Without the permissions, no hand-on or transfer on the caller's own part.
    expect(screen.queryByTestId('task-node-transfer')).toBeNull();
  });

  it('offers 下发 and 转办 on the caller’s own part when they hold the permissions', async () => {
    useSessionStore.setState({ buttons: ['diyTask:distribute', 'diyTask:transfer'] });
    wrap(<TaskDetailPage />, '/diyTask/detail?id=7');
    const tree = await screen.findByTestId('task-tree');
    await waitFor(() => expect(within(tree).getAllByTestId('task-node-transfer')).toHaveLength(1));
    fireEvent.click(within(tree).getByTestId('task-node-transfer'));
    expect(await screen.findByText('转办任务 · 贵州路居民委员会')).toBeTruthy();
  });

  it('says the task is not there (T1000)', async () => {
    api.detail.mockRejectedValue(new HttpError('任务不存在或您无权查看', 'T1000'));
    wrap(<TaskDetailPage />, '/diyTask/detail?id=8');
    expect(await screen.findByText('任务不存在或您无权查看')).toBeTruthy();
    expect(api.grid).not.toHaveBeenCalled();
  });
});

describe('我的任务', () => {
  const ROW: MyTaskRow = {
    id: 7,
    title: '11月社区人口月报',
    dueTime: '2026-12-15 18:00:00',
    createTime: '2026-11-20 09:00:00',
    createUserName: '系统管理员',
    createOrgName: '区大数据中心',
    forms: FORMS,
    receiverCount: 2,
    doneCount: 1,
    receiverId: 2,
    orgId: 101,
    orgName: '贵州路居民委员会',
    myDueTime: '2026-12-10 18:00:00',
    state: 'received',
    submittedForms: 0,
    overdue: true,
  };

  it('lists the unit’s part with its own due time, overdue mark and a link to file', async () => {
    api.mine.mockResolvedValue({
      page: 1,
      pageSize: 20,
      total: 1,
      totalPages: 1,
      items: [ROW],
      hasPrevPage: false,
      hasNextPage: false,
    });
    wrap(<MyTaskPage />, '/diyTask/mine');
    expect((await screen.findByTestId('my-task-due')).textContent).toBe('2026-12-10 18:00');
    expect(screen.getByText('已逾期')).toBeTruthy();
    expect(screen.getByTestId('my-task-fill').closest('a')?.getAttribute('href')).toBe(
      '/diyReport/index/formTable?id=9&periodId=5',
    );
    expect(screen.queryByTestId('my-task-hand-on')).toBeNull();
    expect(api.mine).toHaveBeenCalledWith(expect.objectContaining({ open: true, page: 1 }));
  });
});
