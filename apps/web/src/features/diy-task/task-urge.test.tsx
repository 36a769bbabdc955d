import type { TaskDetail, TaskGrid, TaskReceiver } from '@shuzhi/contracts/diy-task';
import type { TaskUrgeRecord } from '@shuzhi/contracts/diy-task-urge';
import type { MenuNode } from '@shuzhi/contracts/menu';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const http = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn() }));
const realtime = vi.hoisted(() => ({ handlers: new Map<string, () => void>() }));
vi.mock('../../platform/http/http.ts', () => ({ http }));
vi.mock('../../platform/realtime/realtime.ts', () => ({
  useRealtimeEvent: (event: string, handler: () => void) => {
    realtime.handlers.set(event, handler);
  },
}));

const { default: TaskDetailPage } = await import('./task-detail.page.tsx');
const { MyTaskBadge } = await import('./my-task-badge.tsx');
const { urgeableOf } = await import('./task-urge.tsx');

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
  mine: true,
  ...over,
});
// The caller is the street: it may urge the communities it handed the task on to.
const RECEIVERS = [
  receiver({}),
  receiver({ id: 2, parentId: 1, orgId: 101, orgName: '贵州路居民委员会', state: 'received', mine: false }),
  receiver({ id: 3, parentId: 1, orgId: 102, orgName: '福州路居民委员会', state: 'received', mine: false }),
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
  instructions: '',
  attachments: [],
  receivers: RECEIVERS,
  events: [],
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
const row = (receiverId: number, parentId: number | null, orgName: string, c: ReturnType<typeof cell>) => ({
  receiverId,
  parentId,
  orgId: 100 + receiverId,
  orgName,
  orgType: parentId === null ? 'street' : 'community',
  depth: parentId === null ? 1 : 2,
  dueTime: '2026-12-10 18:00:00',
  cells: [c],
});
const GRID: TaskGrid = {
  forms: FORMS,
  rows: [
    row(1, null, '南京东路街道', cell('filling', { done: 1, total: 2 })),
    row(2, 1, '贵州路居民委员会', cell('submitted')),
    row(3, 1, '福州路居民委员会', cell('overdue', { daysLate: 3 })),
  ],
};
const RECORDS: TaskUrgeRecord[] = [
  {
    id: 2,
    receiverId: 3,
    orgName: '福州路居民委员会',
    step: 'T+1',
    channel: 'sms',
    outcome: 'failed',
    userName: '李秀英',
    phone: '137****8875',
    message: '【逾期催办】…',
    senderName: null,
    createTime: '2026-12-11 18:05:00',
    attempts: 2,
    lastError: 'SMS gateway answered HTTP 502',
    retryAt: '2026-12-11 18:40:00',
  },
  {
    id: 1,
    receiverId: 3,
    orgName: '福州路居民委员会',
    step: 'T-3',
    channel: 'notice',
    outcome: 'sent',
    userName: null,
    phone: null,
    message: null,
    senderName: null,
    createTime: '2026-12-07 18:05:00',
    attempts: 0,
    lastError: null,
    retryAt: null,
  },
];

function wrap(node: ReactNode, url = '/diyTask/detail?id=7') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>{node}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

let mineCount = 3;
beforeEach(() => {
  mineCount = 3;
  http.get.mockImplementation(async (url: string) => {
    if (url === '/api/diyTask/detail') return DETAIL;
    if (url === '/api/diyTask/grid') return GRID;
    if (url === '/api/diyTask/urges') return RECORDS;
    if (url === '/api/diyTask/mineCount') return mineCount;
    throw new Error(`unexpected ${url}`);
  });
  http.post.mockResolvedValue({ units: 1, people: 2, smsSent: 1, smsFailed: 1, smsPending: 0 });
});
afterEach(() => {
  useSessionStore.setState({ buttons: [], menus: [] });
  vi.clearAllMocks();
});

describe('urging from the completeness grid', () => {
  it('ticks only units not done that the caller may urge, and urges them with a message', async () => {
    useSessionStore.setState({ buttons: ['diyTask:urge'] });
    wrap(<TaskDetailPage />);
    const grid = await screen.findByTestId('task-grid');
    await waitFor(() => expect(within(grid).getAllByTestId('task-cell')).toHaveLength(3));
    // The first box ticks every row that may be ticked.
    const boxes = (within(grid).getAllByRole('checkbox') as HTMLInputElement[]).slice(1);
    // 南京东路 is the caller's own part, 贵州路 has filed: only 福州路 can be ticked.
    expect(boxes.map((b) => b.disabled)).toEqual([true, true, false]);
    const button = screen.getByTestId('task-grid-urge') as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.click(boxes[2] as HTMLInputElement);
    await waitFor(() => expect(button.disabled).toBe(false));
    expect(button.textContent).toContain('催办所选（1）');
    fireEvent.click(button);
    expect((await screen.findByTestId('task-urge-units')).textContent).toBe('福州路居民委员会');
    // The message is required.
    fireEvent.change(screen.getByTestId('task-urge-message'), { target: { value: '  ' } });
    fireEvent.click(screen.getByTestId('task-urge-ok'));
    expect(await screen.findByText('请输入催办内容')).toBeTruthy();
    expect(http.post).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('task-urge-message'), { target: { value: '请今天完成' } });
    fireEvent.click(screen.getByTestId('task-urge-ok'));
    await waitFor(() =>
      expect(http.post).toHaveBeenCalledWith(
        '/api/diyTask/urge',
        { taskId: 7, receiverIds: [3], message: '请今天完成' },
        { silent: true },
      ),
    );
    expect(await screen.findByText('已催办 1 个单位，通知 2 人；短信成功 1 条，失败 1 条')).toBeTruthy();
    // Urged: the rows ticked are let go.
    await waitFor(() => expect(button.textContent).toContain('催办所选（0）'));
  });

  it('offers no ticking without diyTask:urge, and shows the reminders with step, channel and outcome', async () => {
    wrap(<TaskDetailPage />);
    const grid = await screen.findByTestId('task-grid');
    await waitFor(() => expect(within(grid).getAllByTestId('task-cell')).toHaveLength(3));
    expect(within(grid).queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByTestId('task-grid-urge')).toBeNull();
    const records = await screen.findByTestId('task-urge-records');
    await waitFor(() => expect(within(records).getAllByTestId('task-urge-outcome')).toHaveLength(2));
    expect(within(records).getByText('逾期 1 天')).toBeTruthy();
    expect(within(records).getByText('到期前 3 天')).toBeTruthy();
    expect(within(records).getByText('发送失败')).toBeTruthy();
    expect(within(records).getByText('李秀英 137****8875')).toBeTruthy();
    // The text failed twice and waits for its last attempt.
    expect(within(records).getByTestId('task-urge-attempts').textContent).toBe(
      '已尝试 2 次、12-11 18:40 重试',
    );
    expect(within(records).getAllByText('系统自动')).toHaveLength(2);
  });

  it('a task manager may urge every receiver; others only those below their own parts', () => {
    const plain = RECEIVERS.map((r) => ({ ...r, mine: false }));
    expect([1, 2, 3].map(urgeableOf(plain, true))).toEqual([true, true, true]);
    expect([1, 2, 3].map(urgeableOf(plain, false))).toEqual([false, false, false]);
    expect([1, 2, 3].map(urgeableOf(RECEIVERS, false))).toEqual([false, true, true]);
  });
});

describe('我的任务 in the top bar', () => {
  const MENUS = [
    { id: 1, path: '/report', children: [{ id: 2, path: '/diyTask/mine', children: [] }] },
  ] as unknown as MenuNode[];

  it('shows the count of parts to do, links to 我的任务 and refreshes when a notice arrives', async () => {
    useSessionStore.setState({ menus: MENUS });
    wrap(<MyTaskBadge />, '/dashboard');
    const badge = await screen.findByTestId('my-task-badge');
    await waitFor(() => expect(badge.textContent).toContain('3'));
    expect(badge.getAttribute('aria-label')).toBe('我的任务：3 项待办');
    mineCount = 2;
    act(() => realtime.handlers.get('notice')?.());
    await waitFor(() => expect(badge.textContent).toContain('2'));
    expect(http.get).toHaveBeenCalledWith('/api/diyTask/mineCount', undefined, { silent: true });
  });

  it('is not there without the 我的任务 menu', async () => {
    wrap(<MyTaskBadge />, '/dashboard');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('my-task-badge')).toBeNull();
    expect(http.get).not.toHaveBeenCalled();
  });
});
