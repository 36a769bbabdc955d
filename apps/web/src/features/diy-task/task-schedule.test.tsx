import type { ScheduleRow, ScheduleRun } from '@shuzhi/contracts/diy-task-schedule';
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
  runs: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  pause: vi.fn(),
  resume: vi.fn(),
  remove: vi.fn(),
  forms: vi.fn(),
}));
vi.mock('./task-schedule.api.ts', async (original) => ({
  ...(await original<typeof import('./task-schedule.api.ts')>()),
  scheduleApi: api,
}));
vi.mock('../../components/org-tree/use-org-tree.ts', async (original) => ({
  ...(await original<typeof import('../../components/org-tree/use-org-tree.ts')>()),
  useOrgTree: () => ({ data: [], isPending: false }),
}));

vi.mock('../../components/people-pick/people-pick.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/people-pick/people-pick.api.ts')>()),
  peoplePickApi: {
    roles: async () => [{ id: 3, code: 'communityFiller', name: '社区填报员' }],
    users: async () => [],
  },
}));

const { default: TaskSchedulePage } = await import('./task-schedule.page.tsx');

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const run = (over: Partial<ScheduleRun>): ScheduleRun => ({
  id: 1,
  periodKey: '2026-12',
  periodName: '2026年12月',
  outcome: 'created',
  taskId: 70,
  dueTime: '2026-12-11 18:00',
  reason: null,
  code: null,
  createTime: '2026-12-01 00:05:00',
  ...over,
});

const ROW: ScheduleRow = {
  id: 5,
  title: '社区人口月报计划',
  forms: [{ tableId: 9, title: '社区人口月报' }],
  periodKind: 'month',
  receivers: { orgIds: [100, 101], subtree: true, orgTypes: ['community'], roleIds: [3], userIds: [] },
  orgNames: ['南京东路街道', '外滩街道'],
  instructions: '<p>每月按时填报</p>',
  due: { anchor: 'start', days: 10, at: '18:00' },
  state: 'active',
  createTime: '2026-11-28 10:00:00',
  createUserName: '系统管理员',
  createOrgName: '区大数据中心',
  lastRun: run({}),
};

const page = (items: ScheduleRow[]) => ({
  page: 1,
  pageSize: 20,
  total: items.length,
  totalPages: 1,
  items,
  hasPrevPage: false,
  hasNextPage: false,
});

function wrap(node: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/diyTask/schedule']}>{node}</MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.page.mockResolvedValue(page([ROW]));
  api.forms.mockResolvedValue([{ id: 9, title: '社区人口月报', kind: 'month' }]);
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('计划任务', () => {
  it('lists schedules with their due offset, receivers, state and last period; no actions without rights', async () => {
    wrap(<TaskSchedulePage />);
    const table = await screen.findByTestId('schedule-table');
    expect(await within(table).findByText('社区人口月报计划')).toBeTruthy();
    expect(within(table).getByText('周期开始后 10 天 18:00')).toBeTruthy();
    expect(
      within(table).getByText('南京东路街道、外滩街道（含下级）；按单位类型：社区；1 个角色的人员所在单位'),
    ).toBeTruthy();
    expect(within(table).getByTestId('schedule-state').textContent).toBe('运行中');
    expect(within(table).getByText('已创建任务')).toBeTruthy();
    expect(screen.queryByTestId('schedule-create')).toBeNull();
    expect(within(table).queryByTestId('schedule-toggle')).toBeNull();
    expect(within(table).queryByTestId('schedule-delete')).toBeNull();
  });

  it('searches by name, and 重置 lists every schedule again', async () => {
    wrap(<TaskSchedulePage />);
    await screen.findByText('社区人口月报计划');
    expect(api.page).toHaveBeenLastCalledWith(expect.not.objectContaining({ keyword: expect.anything() }));
    fireEvent.change(screen.getByTestId('schedule-search-keyword'), { target: { value: '  人口 ' } });
    fireEvent.click(screen.getByTestId('schedule-search-submit'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(expect.objectContaining({ keyword: '人口', page: 1 })),
    );
    fireEvent.click(screen.getByTestId('schedule-search-reset'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(expect.not.objectContaining({ keyword: expect.anything() })),
    );
    expect((screen.getByTestId('schedule-search-keyword') as HTMLInputElement).value).toBe('');
  });

  it('pauses an active schedule with the permission', async () => {
    useSessionStore.setState({ buttons: ['diyTaskSchedule:edit'] });
    api.pause.mockResolvedValue(null);
    wrap(<TaskSchedulePage />);
    const toggle = await screen.findByTestId('schedule-toggle');
    expect(toggle.textContent).toBe('暂停');
    fireEvent.click(toggle);
    await waitFor(() => expect(api.pause).toHaveBeenCalledWith(5));
    expect(await screen.findByText('计划已暂停')).toBeTruthy();
  });

  it('shows the run history: the task made, or why none was', async () => {
    api.runs.mockResolvedValue([
      run({ id: 3, periodKey: '2027-01', periodName: '2027年1月', taskId: 71 }),
      run({
        id: 2,
        outcome: 'skipped',
        taskId: null,
        code: 'T1044',
        reason: '本期的截止时间（2026-12-11 18:00）在计划运行时已过，未创建任务',
      }),
    ]);
    wrap(<TaskSchedulePage />);
    fireEvent.click(await screen.findByTestId('schedule-runs-open'));
    const runs = await screen.findByTestId('schedule-runs');
    await waitFor(() => expect(within(runs).getAllByTestId('schedule-run-task')).toHaveLength(1));
    expect(within(runs).getByTestId('schedule-run-task').getAttribute('href')).toBe('/diyTask/detail?id=71');
    expect(
      within(runs).getByText('本期的截止时间（2026-12-11 18:00）在计划运行时已过，未创建任务'),
    ).toBeTruthy();
    expect(within(runs).getByText('已跳过')).toBeTruthy();
    expect(api.runs).toHaveBeenCalledWith(5);
  });

  it('creates a schedule from the drawer and shows a refusal under the form', async () => {
    useSessionStore.setState({ buttons: ['diyTaskSchedule:add'] });
    api.page.mockResolvedValue(page([]));
    api.add.mockRejectedValueOnce(
      new HttpError('计划任务的表单必须是有填报周期的已发布表单，且周期类型相同', 'T1041'),
    );
    wrap(<TaskSchedulePage />);
    fireEvent.click(await screen.findByTestId('schedule-create'));
    const form = await screen.findByTestId('schedule-form');
    fireEvent.change(within(form).getByTestId('schedule-field-title'), { target: { value: '季度计划' } });
    // The form select: open it and pick the periodic form.
    const formSelect = within(form).getByTestId('schedule-field-forms');
    fireEvent.mouseDown(formSelect.querySelector('.ant-select-selector') ?? formSelect);
    fireEvent.click(await screen.findByTitle('社区人口月报'));
    fireEvent.click(screen.getByTestId('schedule-submit'));
    // Receivers are required (units, unit types, roles or people).
    expect(await screen.findByText('请选择接收单位、单位类型、角色或人员')).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();
    const types = within(form).getByTestId('task-field-org-types');
    fireEvent.mouseDown(types.querySelector('.ant-select-selector') ?? types);
    fireEvent.click(await screen.findByTitle('社区'));
    const roles = within(form).getByTestId('task-field-roles');
    fireEvent.mouseDown(roles.querySelector('.ant-select-selector') ?? roles);
    fireEvent.click(await screen.findByTitle('社区填报员'));
    fireEvent.click(screen.getByTestId('schedule-submit'));
    await waitFor(() => expect(api.add).toHaveBeenCalledTimes(1));
    expect(api.add).toHaveBeenCalledWith({
      title: '季度计划',
      tableIds: [9],
      receivers: { orgIds: [], subtree: false, orgTypes: ['community'], roleIds: [3], userIds: [] },
      instructions: '',
      due: { anchor: 'start', days: 10, at: '18:00' },
    });
    expect(
      await screen.findByText('计划任务的表单必须是有填报周期的已发布表单，且周期类型相同'),
    ).toBeTruthy();
  });
});
