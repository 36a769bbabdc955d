import type { PageResult } from '@shuzhi/contracts/envelope';
import type { JobClusterRow, JobDetailRow, JobRecordRow, JobTriggerRow } from '@shuzhi/contracts/job';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
  start: vi.fn(),
  pause: vi.fn(),
  run: vi.fn(),
  cancel: vi.fn(),
  addTrigger: vi.fn(),
  updateTrigger: vi.fn(),
  removeTrigger: vi.fn(),
  startTrigger: vi.fn(),
  pauseTrigger: vi.fn(),
  checkCron: vi.fn(),
  records: vi.fn(),
  cluster: vi.fn(),
}));
vi.mock('./job.api.ts', async (original) => ({
  ...(await original<typeof import('./job.api.ts')>()),
  jobApi: api,
}));

const { default: JobPage } = await import('./job.page.tsx');

// The machine running the suite is often busy; antd forms validate and the cron check waits asynchronously.
configure({ asyncUtilTimeout: 10_000 });

const ALL = [
  'sysJob:page',
  'sysJob:list',
  'sysJob:detail',
  'sysJob:add',
  'sysJob:update',
  'sysJob:delete',
  'sysJob:start',
  'sysJob:pause',
  'sysJob:runNow',
  'sysJob:cancel',
];

const trigger = (jobId: string, extra: Partial<JobTriggerRow> = {}): JobTriggerRow => ({
  id: 1,
  jobId,
  triggerId: 'daily',
  triggerType: 'cron',
  cron: '0 0 3 * * *',
  periodSeconds: null,
  description: '每天 03:00',
  status: 1,
  startTime: null,
  endTime: null,
  maxNumberOfRuns: 0,
  runOnStart: false,
  lastRunTime: '2026-11-21 03:00:00',
  nextRunTime: '2026-11-22 03:00:00',
  numberOfRuns: 12,
  numberOfErrors: 1,
  createTime: '2026-11-01 00:00:00',
  updateTime: null,
  ...extra,
});

const LOG_RETENTION: JobDetailRow = {
  id: 1,
  jobId: 'logRetention',
  groupName: 'system',
  description: '日志清理',
  createType: 1,
  handler: 'logRetention',
  httpUrl: null,
  httpMethod: null,
  httpHeaders: null,
  httpBody: null,
  timeoutSeconds: 3600,
  concurrent: false,
  remark: null,
  createTime: '2026-11-01 00:00:00',
  updateTime: null,
  running: false,
  triggers: [trigger('logRetention')],
};

const HOOK: JobDetailRow = {
  ...LOG_RETENTION,
  id: 2,
  jobId: 'hook',
  groupName: 'ops',
  description: '推送统计',
  createType: 2,
  handler: null,
  httpUrl: 'https://example.org/hook',
  httpMethod: 'POST',
  httpHeaders: { 'X-Token': 'abc' },
  httpBody: '{"a":1}',
  timeoutSeconds: 60,
  triggers: [trigger('hook', { id: 2, triggerId: 'trigger1', status: 2, nextRunTime: null })],
};

const pageOf = <T,>(items: T[]): PageResult<T> => ({
  page: 1,
  pageSize: 20,
  total: items.length,
  totalPages: 1,
  items,
  hasPrevPage: false,
  hasNextPage: false,
});

const RUNS = [
  '2026-11-22 00:01:00',
  '2026-11-22 00:02:00',
  '2026-11-22 00:03:00',
  '2026-11-22 00:04:00',
  '2026-11-22 00:05:00',
];

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <App>
          <JobPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function expand(jobId: string) {
  const row = await screen.findByTestId(`job-row-${jobId}`);
  fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
  return screen.findByTestId(`job-triggers-${jobId}`);
}

beforeEach(() => {
  useSessionStore.setState({ buttons: ALL });
  for (const fn of Object.values(api)) fn.mockReset();
  api.page.mockImplementation(async () => pageOf([LOG_RETENTION, HOOK]));
  api.checkCron.mockImplementation(async (cron: string) =>
    cron.split(' ').length === 6
      ? { valid: true, message: null, nextRuns: RUNS }
      : { valid: false, message: 'Cron 表达式无效：需要 6 段（秒 分 时 日 月 周）', nextRuns: [] },
  );
  api.cluster.mockImplementation(async () => []);
  api.records.mockImplementation(async () => pageOf([]));
  for (const write of [
    'add',
    'update',
    'remove',
    'start',
    'pause',
    'cancel',
    'addTrigger',
    'updateTrigger',
  ] as const)
    api[write].mockImplementation(async () => null);
});

afterEach(() => {
  useSessionStore.setState({ buttons: [] });
});

describe('JobPage', { timeout: 60_000 }, () => {
  it('lists the jobs with their state and triggers, and says why a built-in job cannot be deleted', async () => {
    renderPage();
    expect(await screen.findByText('logRetention')).toBeTruthy();
    expect(screen.getByTestId('job-state-logRetention').textContent).toBe('已启动');
    expect(screen.getByTestId('job-state-hook').textContent).toBe('已暂停');
    expect(screen.getByText('日志保留清理')).toBeTruthy();
    expect(screen.getByText('https://example.org/hook')).toBeTruthy();

    const triggers = await expand('logRetention');
    expect(within(triggers).getByText('0 0 3 * * *')).toBeTruthy();
    expect(within(triggers).getByTestId('trigger-status').textContent).toBe('运行');
    expect(within(triggers).getByText('2026-11-22 03:00:00')).toBeTruthy();

    fireEvent.click(screen.getByTestId('job-more-logRetention'));
    const blocked = await screen.findByTestId('job-delete-blocked-logRetention');
    expect(blocked.closest('li')?.getAttribute('aria-disabled')).toBe('true');
    fireEvent.mouseEnter(blocked);
    expect(await screen.findByText('内置作业不能删除，不需要时可暂停它的触发器')).toBeTruthy();
    expect(api.remove).not.toHaveBeenCalled();
  });

  it('searches by job id, group and description', async () => {
    renderPage();
    await screen.findByText('logRetention');
    fireEvent.change(screen.getByTestId('job-search-id'), { target: { value: ' hook ' } });
    fireEvent.change(screen.getByTestId('job-search-group'), { target: { value: 'ops' } });
    fireEvent.click(screen.getByTestId('job-search'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith({ page: 1, pageSize: 20, jobId: 'hook', groupName: 'ops' }),
    );
  });

  it('refuses a bad cron with the reason and saves nothing; saves a checked one', async () => {
    renderPage();
    const triggers = await expand('hook');
    fireEvent.click(within(triggers).getByTestId('trigger-add-hook'));
    const cron = await screen.findByTestId('trigger-field-cron');
    expect((screen.getByTestId('trigger-field-id') as HTMLInputElement).value).toBe('trigger2');

    fireEvent.change(cron, { target: { value: '0 0 3 * *' } });
    const modal = screen.getByTestId('trigger-modal');
    const reason = () => modal.querySelector('.ant-form-item-explain-error')?.textContent;
    await waitFor(() => expect(reason()).toBe('Cron 表达式无效：需要 6 段（秒 分 时 日 月 周）'));
    fireEvent.click(screen.getByTestId('trigger-save'));
    await waitFor(() => expect(reason()).toBe('Cron 表达式无效：需要 6 段（秒 分 时 日 月 周）'));
    expect(screen.queryByTestId('cron-check-valid')).toBeNull();
    expect(api.addTrigger).not.toHaveBeenCalled();

    fireEvent.click(screen.getByTestId('cron-preset-everyMinute'));
    const valid = await screen.findByTestId('cron-check-valid');
    for (const time of RUNS) expect(within(valid).getByText(time)).toBeTruthy();
    fireEvent.click(screen.getByTestId('trigger-save'));
    await waitFor(() =>
      expect(api.addTrigger).toHaveBeenCalledWith({
        jobId: 'hook',
        triggerId: 'trigger2',
        triggerType: 'cron',
        cron: '0 * * * * *',
        periodSeconds: null,
        description: null,
        startTime: null,
        endTime: null,
        maxNumberOfRuns: 0,
        runOnStart: false,
      }),
    );
  });

  it('adds an HTTP job with its headers, a checked JSON body and a first trigger', async () => {
    renderPage();
    await screen.findByText('logRetention');
    fireEvent.click(screen.getByTestId('job-add'));
    // The first-trigger switch is read through Form.useWatch, which answers in a later task: wait for its fields.
    await screen.findByTestId('trigger-field-cron');
    fireEvent.change(screen.getByTestId('job-field-id'), { target: { value: 'pushStats' } });
    fireEvent.change(screen.getByTestId('job-field-url'), { target: { value: 'https://example.org/stats' } });
    fireEvent.click(screen.getByTestId('job-header-add'));
    fireEvent.change(await screen.findByTestId('job-header-key'), { target: { value: 'Authorization' } });
    fireEvent.change(screen.getByTestId('job-header-value'), { target: { value: 'Bearer x' } });
    fireEvent.change(screen.getByTestId('job-field-body'), { target: { value: '{"day": ' } });
    fireEvent.click(screen.getByTestId('job-save'));
    expect(await screen.findByText(/JSON 格式有误/)).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('job-field-body'), { target: { value: '{"day": 1}' } });
    fireEvent.click(screen.getByTestId('job-save'));
    await waitFor(() => expect(api.addTrigger).toHaveBeenCalled());
    expect(api.add).toHaveBeenCalledWith({
      jobId: 'pushStats',
      groupName: null,
      description: null,
      createType: 2,
      handler: null,
      httpUrl: 'https://example.org/stats',
      httpMethod: 'POST',
      httpHeaders: { Authorization: 'Bearer x' },
      httpBody: '{"day": 1}',
      timeoutSeconds: 60,
      concurrent: false,
      remark: null,
    });
    expect(api.addTrigger).toHaveBeenCalledWith(
      expect.objectContaining({ jobId: 'pushStats', triggerId: 'trigger1', cron: '0 0 3 * * *' }),
    );
    expect(api.remove).not.toHaveBeenCalled();
  });

  it('removes the new job again when the server refuses its first trigger', async () => {
    api.addTrigger.mockImplementation(async () => {
      throw new HttpError('结束时间须晚于开始时间', 'J1006');
    });
    renderPage();
    await screen.findByText('logRetention');
    fireEvent.click(screen.getByTestId('job-add'));
    // The first-trigger switch is read through Form.useWatch, which answers in a later task: wait for its fields.
    await screen.findByTestId('trigger-field-cron');
    fireEvent.change(screen.getByTestId('job-field-id'), { target: { value: 'pushStats' } });
    fireEvent.change(screen.getByTestId('job-field-url'), { target: { value: 'https://example.org/stats' } });
    fireEvent.click(screen.getByTestId('job-save'));
    await waitFor(() => expect(api.remove).toHaveBeenCalledWith('pushStats'));
    expect(await screen.findByText('结束时间须晚于开始时间')).toBeTruthy();
    expect(screen.getByTestId('job-drawer')).toBeTruthy();
  });

  it('runs a job now and opens its record with the outcome', async () => {
    const record: JobRecordRow = {
      id: 41,
      jobId: 'logRetention',
      triggerId: null,
      source: 'manual',
      status: 'succeeded',
      startTime: '2026-11-21 23:00:00',
      endTime: '2026-11-21 23:00:01',
      elapsedMs: 1234,
      result: '删除了 3 条日志',
      error: null,
      nodeId: 'node-a',
      createUserName: 'superadmin',
    };
    api.run.mockImplementation(async () => ({ recordId: 41 }));
    api.records.mockImplementation(async () => pageOf([record]));
    renderPage();
    await screen.findByText('logRetention');
    fireEvent.click(screen.getByTestId('job-run-logRetention'));
    await waitFor(() => expect(api.run).toHaveBeenCalledWith('logRetention'));
    const detail = await screen.findByTestId('record-detail-result');
    expect(detail.textContent).toBe('删除了 3 条日志');
    expect(screen.getByTestId('record-detail-elapsed').textContent).toBe('1.2 秒');
    await waitFor(() =>
      expect(api.records).toHaveBeenCalledWith({ page: 1, pageSize: 20, jobId: 'logRetention' }),
    );
    expect((screen.getByTestId('record-search-job') as HTMLInputElement).value).toBe('logRetention');
  });

  it('shows a running job and cancels its run after confirmation', async () => {
    api.page.mockImplementation(async () => pageOf([{ ...HOOK, running: true }]));
    renderPage();
    expect((await screen.findByTestId('job-running-indicator')).textContent).toContain('1 个作业正在运行');
    expect(screen.getByTestId('job-state-hook').textContent).toBe('运行中');
    expect((screen.getByTestId('job-run-hook') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByTestId('job-cancel-hook'));
    fireEvent.click(await screen.findByTestId('job-cancel-ok'));
    await waitFor(() => expect(api.cancel).toHaveBeenCalledWith('hook'));
  });

  it('pauses and starts triggers', async () => {
    renderPage();
    const daily = await expand('logRetention');
    fireEvent.click(within(daily).getByTestId('trigger-pause-logRetention-daily'));
    await waitFor(() => expect(api.pauseTrigger).toHaveBeenCalledWith('logRetention', 'daily'));
    const hook = await expand('hook');
    fireEvent.click(within(hook).getByTestId('trigger-start-hook-trigger1'));
    await waitFor(() => expect(api.startTrigger).toHaveBeenCalledWith('hook', 'trigger1'));
  });

  it('offers only what the permissions allow', async () => {
    useSessionStore.setState({ buttons: ['sysJob:page'] });
    renderPage();
    await screen.findByText('logRetention');
    expect(screen.queryByTestId('job-add')).toBeNull();
    expect(screen.queryByTestId('job-run-logRetention')).toBeNull();
    expect(screen.queryByTestId('job-edit-logRetention')).toBeNull();
    const triggers = await expand('logRetention');
    expect(within(triggers).queryByTestId('trigger-add-logRetention')).toBeNull();
    expect(within(triggers).queryByTestId('trigger-pause-logRetention-daily')).toBeNull();
    expect(screen.queryByRole('tab', { name: /集群节点/ })).toBeNull();
  });

  it('says when the jobs cannot be loaded and tries again', async () => {
    api.page.mockImplementationOnce(async () => {
      throw new HttpError('服务暂不可用');
    });
    renderPage();
    const alert = await screen.findByTestId('job-load-error');
    expect(alert.textContent).toContain('服务暂不可用');
    fireEvent.click(within(alert).getByRole('button'));
    expect(await screen.findByText('logRetention')).toBeTruthy();
  });

  it('lists the cluster with the leader and this process', async () => {
    const node = (id: number, extra: Partial<JobClusterRow>): JobClusterRow => ({
      id,
      nodeId: `node-${id}`,
      host: 'app-01',
      pid: 4000 + id,
      version: '0.1.0',
      startTime: '2026-11-21 08:00:00',
      heartbeatTime: '2026-11-21 23:00:00',
      status: 1,
      isLeader: false,
      isSelf: false,
      ...extra,
    });
    api.cluster.mockImplementation(async () => [
      node(1, { isLeader: true }),
      node(2, { isSelf: true }),
      node(3, { status: 0 }),
    ]);
    renderPage();
    await screen.findByText('logRetention');
    await act(async () => {
      fireEvent.click(screen.getByRole('tab', { name: /集群节点/ }));
    });
    const cluster = await screen.findByTestId('job-cluster');
    await waitFor(() => expect(within(cluster).getByText('node-1')).toBeTruthy());
    expect(within(cluster).getByTestId('cluster-leader').closest('tr')?.textContent).toContain('node-1');
    expect(within(cluster).getByTestId('cluster-self').closest('tr')?.textContent).toContain('node-2');
    expect(within(cluster).getByText('已停止')).toBeTruthy();
  });
});
