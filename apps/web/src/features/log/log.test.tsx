import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OpLog } from '@shuzhi/contracts/log';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Resource } from '../../platform/data/resource.ts';
import '../../platform/i18n/i18n.ts';
import { DiffView, diffRows, prettyJson } from '../../components/log-view/log-view.tsx';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { todayInZone } from '../../platform/time/time-zone.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { ClearButton, LogPage, rangePresets, toLogFilters } from './log-page.tsx';

const clearLog = vi.hoisted(() => vi.fn(async () => 3));
vi.mock('./log.api.ts', () => ({ clearLog }));

function wrap(children: ReactNode, client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } })) {
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

const OP: OpLog = {
  id: 11,
  tenantId: 1,
  createTime: '2026-03-01 10:00:00',
  userId: 5,
  account: 'admin',
  realName: '管理员',
  ip: '127.0.0.1',
  browser: 'Chrome 140',
  os: 'Linux',
  httpMethod: 'POST',
  routeUrl: '/api/sysUser/changePwd',
  url: '/api/sysUser/changePwd',
  controller: 'sysUser',
  action: 'changePwd',
  params: '{"passwordOld":"******","passwordNew":"******"}',
  code: '200',
  status: 1,
  message: null,
  elapsed: 42,
  userAgent: 'Mozilla/5.0',
  traceId: 'abc123',
};

function fakeResource() {
  const page = vi.fn(
    async (body: { page: number; pageSize: number }): Promise<PageResult<OpLog>> => ({
      page: body.page,
      pageSize: body.pageSize,
      total: 1,
      totalPages: 1,
      items: [OP],
      hasPrevPage: false,
      hasNextPage: false,
    }),
  );
  const resource = {
    service: 'sysLogOp',
    page,
    list: vi.fn(),
    detail: vi.fn(async () => OP),
    add: vi.fn(),
    update: vi.fn(),
    remove: vi.fn(),
    batchRemove: vi.fn(),
    setStatus: vi.fn(),
    exportFile: vi.fn(async () => 'x.xlsx'),
  };
  return resource as typeof resource & Resource<OpLog>;
}

function renderLogPage(resource: Resource<OpLog>) {
  return render(
    wrap(
      <LogPage<OpLog, Record<string, unknown>>
        service="sysLogOp"
        resource={resource}
        title="操作日志"
        entity="操作日志"
        columns={[
          { key: 'createTime', title: '时间' },
          { key: 'url', title: '请求地址' },
        ]}
        filters={[{ name: 'account', label: '账号' }]}
        renderDetail={(row) => <pre data-testid="detail-params">{prettyJson(row.params)}</pre>}
        testId="oplog"
      />,
    ),
  );
}

beforeEach(() => {
  useThemeStore.setState({ globalI18n: 'zh-cn' });
  useSessionStore.setState({
    buttons: ['sysLogOp:page', 'sysLogOp:detail', 'sysLogOp:export', 'sysLogOp:clear'],
  });
  clearLog.mockClear();
});
afterEach(() => useSessionStore.setState({ buttons: [], userInfo: null }));

describe('diffRows', () => {
  it('marks the fields the server lists as changed, puts them first and keeps every field of both sides', () => {
    const rows = diffRows(
      '{"code":"a","value":"1","remark":null}',
      '{"code":"a","value":"2","remark":null}',
      'value',
    );
    expect(rows).toEqual([
      { field: 'value', before: '1', after: '2', changed: true },
      { field: 'code', before: 'a', after: 'a', changed: false },
      { field: 'remark', before: null, after: null, changed: false },
    ]);
  });

  it('compares the values itself without a list, and treats an add or delete as a one-sided diff', () => {
    expect(diffRows('{"a":1,"b":[1]}', '{"a":1,"b":[2]}', null).map((r) => [r.field, r.changed])).toEqual([
      ['b', true],
      ['a', false],
    ]);
    expect(diffRows(null, '{"a":1}', '').map((r) => [r.field, r.before, r.after, r.changed])).toEqual([
      ['a', undefined, 1, true],
    ]);
    expect(diffRows('not json', '{"a":1}', 'a')).toHaveLength(1);
  });
});

describe('DiffView', () => {
  it('shows before and after side by side with the changed rows highlighted, and can show only those', () => {
    render(
      wrap(
        <DiffView
          beforeData='{"code":"sys_watermark","value":"false"}'
          afterData='{"code":"sys_watermark","value":"true"}'
          changedFields="value"
        />,
      ),
    );
    const view = screen.getByTestId('log-diff');
    const rows = view.querySelectorAll('tbody tr[data-row-key]');
    expect(rows).toHaveLength(2);
    const value = view.querySelector('tr[data-row-key="value"]') as HTMLElement;
    expect(value.getAttribute('data-changed')).toBe('true');
    expect(within(value).getByText('false')).toBeTruthy();
    expect(within(value).getByText('true')).toBeTruthy();
    expect(within(value).getByText('已变更')).toBeTruthy();
    expect(view.querySelector('tr[data-row-key="code"]')?.getAttribute('data-changed')).toBe('false');
    expect(screen.getByText('共 1 个字段有变更')).toBeTruthy();

    fireEvent.click(screen.getByTestId('log-diff-only'));
    expect(view.querySelectorAll('tbody tr[data-row-key]')).toHaveLength(1);
  });
});

describe('time range', () => {
  it('offers today, the last 7 and the last 30 days, each ending today', () => {
    const now = dayjs('2026-03-15 09:30:00');
    const p = rangePresets(now);
    expect(p.today.map((d) => d.format('YYYY-MM-DD HH:mm'))).toEqual([
      '2026-03-15 00:00',
      '2026-03-15 23:59',
    ]);
    expect(p.last7Days[0].format('YYYY-MM-DD')).toBe('2026-03-09');
    expect(p.last30Days[0].format('YYYY-MM-DD')).toBe('2026-02-14');
  });

  it('sends date-only bounds and leaves out empty filters', () => {
    expect(
      toLogFilters({
        range: [dayjs('2026-03-09'), dayjs('2026-03-15')],
        account: '  admin ',
        ip: '',
        status: 1,
        code: undefined,
      }),
    ).toEqual({ startTime: '2026-03-09', endTime: '2026-03-15', account: 'admin', status: 1 });
    expect(toLogFilters({ range: null, account: '' })).toEqual({});
  });
});

describe('LogPage', () => {
  it('is read-only, asks for the last 7 days by default and filters by account', async () => {
    const resource = fakeResource();
    renderLogPage(resource);
    await screen.findByText('/api/sysUser/changePwd');
    // The product's zone (Shanghai by default), not the machine's, says which day it is.
    const today = todayInZone();
    const week = zoneDayjs().subtract(6, 'day').format('YYYY-MM-DD');
    expect(resource.page.mock.calls.at(-1)?.[0]).toMatchObject({ startTime: week, endTime: today, page: 1 });
    expect(screen.queryByTestId('oplog-add')).toBeNull();
    expect(screen.queryByTestId('oplog-edit')).toBeNull();
    expect(screen.queryByTestId('oplog-delete')).toBeNull();
    expect(screen.getByTestId('oplog-export')).toBeTruthy();
    expect(screen.getByTestId('oplog-clear')).toBeTruthy();

    fireEvent.change(screen.getByTestId('oplog-filter-account'), { target: { value: 'admin' } });
    fireEvent.click(screen.getByTestId('oplog-search'));
    await waitFor(() =>
      expect(resource.page.mock.calls.at(-1)?.[0]).toMatchObject({ account: 'admin', startTime: week }),
    );
  });

  it('opens the detail drawer with the record fetched by id', async () => {
    const resource = fakeResource();
    renderLogPage(resource);
    fireEvent.click(await screen.findByTestId('oplog-detail'));
    const params = await screen.findByTestId('detail-params');
    expect(resource.detail).toHaveBeenCalledWith(11);
    expect(params.textContent).toContain('"passwordOld": "******"');
  });

  it('hides detail, export and clear without their permissions', async () => {
    useSessionStore.setState({ buttons: ['sysLogOp:page'] });
    const resource = fakeResource();
    renderLogPage(resource);
    await screen.findByText('/api/sysUser/changePwd');
    expect(screen.queryByTestId('oplog-detail')).toBeNull();
    expect(screen.queryByTestId('oplog-export')).toBeNull();
    expect(screen.queryByTestId('oplog-clear')).toBeNull();
  });
});

describe('ClearButton', () => {
  it('asks in danger colours, says everything goes whatever the filters, then clears and refreshes', async () => {
    useSessionStore.setState({ buttons: ['sysLogVis:clear'] });
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    render(wrap(<ClearButton service="sysLogVis" entity="访问日志" testId="vislog" />, client));
    fireEvent.click(screen.getByTestId('vislog-clear'));
    const content = await screen.findByTestId('vislog-clear-content');
    expect(content.textContent).toContain('本租户的全部访问日志');
    expect(content.textContent).toContain('不限于当前筛选条件');
    expect(clearLog).not.toHaveBeenCalled();
    const ok = screen.getByTestId('vislog-clear-ok');
    expect(ok.className).toContain('dangerous');
    fireEvent.click(ok);
    await waitFor(() => expect(clearLog).toHaveBeenCalledWith('sysLogVis'));
    await waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: ['sysLogVis'] }));
    expect(await screen.findByText('已清空 3 条访问日志记录')).toBeTruthy();
  });

  it('tells a super admin that every tenant is cleared, and does nothing on cancel', async () => {
    useSessionStore.setState({ userInfo: { accountType: 999 } as never, buttons: ['sysLogVis:clear'] });
    render(wrap(<ClearButton service="sysLogVis" entity="访问日志" testId="vislog" />));
    fireEvent.click(screen.getByTestId('vislog-clear'));
    const content = await screen.findByTestId('vislog-clear-content');
    expect(content.textContent).toContain('所有租户');
    fireEvent.click(screen.getByText('取 消', { selector: 'button *' }));
    await waitFor(() => expect(screen.queryByTestId('vislog-clear-content')).toBeNull());
    expect(clearLog).not.toHaveBeenCalled();
  });
});
