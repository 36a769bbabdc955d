import type { PeriodLog, PeriodPageRow } from '@shuzhi/contracts/diy-period';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  page: vi.fn(),
  list: vi.fn(),
  log: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  close: vi.fn(),
  reopen: vi.fn(),
  forms: vi.fn(),
}));
vi.mock('../../components/diy-period/diy-period.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-period/diy-period.api.ts')>()),
  periodApi: api,
}));

const { default: DiyPeriodPage } = await import('./diy-period.page.tsx');

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const row = (over: Partial<PeriodPageRow>): PeriodPageRow => ({
  id: 1,
  tableId: 9,
  tableTitle: '企业用工情况月报',
  key: '2026-11',
  name: '2026年11月',
  startDate: '2026-11-01',
  endDate: '2026-11-30',
  dueDate: '2026-12-05',
  graceUntil: null,
  reopenUntil: null,
  version: 2,
  state: 'open',
  closeTime: null,
  closeUserName: null,
  recordCount: 12,
  submittedCount: 9,
  createTime: '2026-11-01 00:00:00',
  ...over,
});
const OPEN = row({});
const CLOSED = row({
  id: 2,
  key: '2026-10',
  name: '2026年10月',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  dueDate: '2026-11-05',
  state: 'closed',
  closeTime: '2026-11-10 09:00:00',
  closeUserName: '王芳',
  recordCount: 20,
  submittedCount: 20,
});
const OVERDUE = row({ id: 3, key: '2026-09', name: '2026年9月', state: 'overdue', graceUntil: '2026-10-10' });
const LOG: PeriodLog[] = [
  {
    id: 3,
    action: 'reopen',
    comment: '补报',
    changes: [],
    userName: '王芳',
    createTime: '2026-11-12 10:00:00',
  },
  {
    id: 2,
    action: 'update',
    comment: null,
    changes: [{ field: 'dueDate', before: '2026-11-05', after: '2026-11-08' }],
    userName: '王芳',
    createTime: '2026-11-06 10:00:00',
  },
  {
    id: 1,
    action: 'close',
    comment: '到期关闭',
    changes: [],
    userName: '李娜',
    createTime: '2026-11-10 09:00:00',
  },
];
const ALL = ['diyPeriod:page', 'diyPeriod:add', 'diyPeriod:update', 'diyPeriod:close', 'diyPeriod:reopen'];

function renderPage(search = '') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[`/diyReport/period/index${search}`]}>
          <DiyPeriodPage />
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}
const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;

beforeEach(() => {
  api.page.mockResolvedValue({
    page: 1,
    pageSize: 20,
    total: 3,
    totalPages: 1,
    items: [OPEN, CLOSED, OVERDUE],
  });
  api.forms.mockResolvedValue([
    {
      id: 9,
      title: '企业用工情况月报',
      period: { kind: 'month', dueDays: 5, graceDays: 0, onePerOrg: true },
    },
    { id: 11, title: '专项检查', period: { kind: 'custom', dueDays: 0, graceDays: 0, onePerOrg: true } },
  ]);
  api.log.mockResolvedValue(LOG);
  api.close.mockResolvedValue(null);
  api.reopen.mockResolvedValue(null);
  api.update.mockResolvedValue(null);
  api.add.mockResolvedValue(77);
  useSessionStore.setState({ buttons: [...ALL] });
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('填报周期', () => {
  it('lists periods with state, due date and counts, and offers the actions the user holds', async () => {
    renderPage();
    const open = await rowOf('2026年11月');
    expect(within(open).getByTestId('period-state').textContent).toBe('填报中');
    expect(within(open).getByTestId('period-counts').textContent).toBe('9 / 12');
    expect(within(open).getByText('2026-12-05')).toBeTruthy();
    expect(within(open).getByTestId('period-close')).toBeTruthy();
    expect(within(open).queryByTestId('period-reopen')).toBeNull();

    const closed = await rowOf('2026年10月');
    expect(within(closed).getByTestId('period-state').textContent).toBe('已关闭');
    expect(within(closed).queryByTestId('period-close')).toBeNull();
    expect(within(closed).getByTestId('period-reopen')).toBeTruthy();
    const overdue = await rowOf('2026年9月');
    expect(within(overdue).getByTestId('period-state').textContent).toBe('已逾期');
    expect(within(overdue).getByText('宽限至 2026-10-10')).toBeTruthy();
    expect(within(overdue).getByTestId('period-reopen')).toBeTruthy();
    expect(screen.getByTestId('period-add')).toBeTruthy();
  });

  it('shows only the log to a user without the close, reopen, update and add buttons', async () => {
    useSessionStore.setState({ buttons: ['diyPeriod:page'] });
    renderPage();
    const closed = await rowOf('2026年10月');
    expect(within(closed).queryByTestId('period-reopen')).toBeNull();
    expect(within(closed).queryByTestId('period-edit')).toBeNull();
    expect(within(closed).getByTestId('period-log-btn')).toBeTruthy();
    expect(within(await rowOf('2026年11月')).queryByTestId('period-close')).toBeNull();
    expect(screen.queryByTestId('period-add')).toBeNull();
  });

  it('searches by form, keyword and state', async () => {
    renderPage('?tableId=9');
    await rowOf('2026年11月');
    expect(api.page).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, tableId: 9 }));
    fireEvent.change(screen.getByTestId('period-search-keyword'), { target: { value: ' 10月 ' } });
    const state = screen.getByTestId('period-search-state');
    fireEvent.mouseDown(state.querySelector('.ant-select-selector') ?? state);
    fireEvent.click(await screen.findByTitle('已关闭'));
    fireEvent.click(screen.getByTestId('period-search-submit'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(
        expect.objectContaining({ tableId: 9, keyword: '10月', state: 'closed', page: 1 }),
      ),
    );
    fireEvent.click(screen.getByTestId('period-search-reset'));
    await waitFor(() => expect(api.page.mock.lastCall?.[0]).not.toHaveProperty('state'));
    expect(api.page.mock.lastCall?.[0]).not.toHaveProperty('tableId');
  });

  it('closes a period after a confirmation with an optional comment', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('2026年11月')).getByTestId('period-close'));
    const dialog = await screen.findByTestId('period-dialog');
    expect(within(dialog).getByText(/企业用工情况月报 · 2026年11月/)).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('period-comment'), { target: { value: ' 到期关闭 ' } });
    fireEvent.click(screen.getByTestId('period-dialog-ok'));
    await waitFor(() => expect(api.close).toHaveBeenCalledWith({ id: 1, comment: '到期关闭' }));
    expect(await screen.findByText('周期已关闭')).toBeTruthy();
  });

  it('reopens only with a reason, and shows the server field error on the last filing day', async () => {
    api.reopen.mockRejectedValueOnce(
      new HttpError('请求参数错误', 400, { until: ['请指定允许填报到哪一天'] }),
    );
    renderPage();
    fireEvent.click(within(await rowOf('2026年9月')).getByTestId('period-reopen'));
    await screen.findByTestId('period-dialog');
    fireEvent.click(screen.getByTestId('period-dialog-ok'));
    expect(await screen.findByText('请填写重新开放的原因')).toBeTruthy();
    expect(api.reopen).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('period-comment'), { target: { value: '企业补报' } });
    fireEvent.click(screen.getByTestId('period-dialog-ok'));
    expect(await screen.findByText('请指定允许填报到哪一天')).toBeTruthy();
    expect(api.reopen).toHaveBeenCalledWith({ id: 3, comment: '企业补报', until: null });
  });

  it('changes the due date and grace window of a period', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('2026年11月')).getByTestId('period-edit'));
    const dialog = await screen.findByTestId('period-dialog');
    const name = within(dialog).getByTestId('period-name') as HTMLInputElement;
    await waitFor(() => expect(name.value).toBe('2026年11月'));
    fireEvent.change(name, { target: { value: '2026年11月（调整）' } });
    fireEvent.click(screen.getByTestId('period-dialog-ok'));
    await waitFor(() =>
      expect(api.update).toHaveBeenCalledWith({
        id: 1,
        name: '2026年11月（调整）',
        dueDate: '2026-12-05',
        graceUntil: null,
      }),
    );
  });

  it('shows the log with actions, reasons and changes', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('2026年10月')).getByTestId('period-log-btn'));
    const drawer = await screen.findByTestId('period-log');
    const entries = await within(drawer).findAllByTestId('period-log-entry');
    expect(entries.map((e) => e.getAttribute('data-action'))).toEqual(['reopen', 'update', 'close']);
    expect(within(entries[0] as HTMLElement).getByText('补报')).toBeTruthy();
    expect(within(entries[1] as HTMLElement).getByText('截止日期:')).toBeTruthy();
    expect(within(entries[1] as HTMLElement).getByText('2026-11-08')).toBeTruthy();
    expect(api.log).toHaveBeenCalledWith(2);
  });

  it('offers only forms of kind custom when adding a window', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('period-add'));
    const dialog = await screen.findByTestId('period-add-dialog');
    await waitFor(() => expect(within(dialog).getByTitle('专项检查')).toBeTruthy());
    fireEvent.click(screen.getByTestId('period-add-ok'));
    expect(await screen.findByText('请输入周期名称')).toBeTruthy();
    expect(await screen.findByText('请选择周期起止日期')).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();
  });

  it('says so when the periods cannot be loaded, and when there are none', async () => {
    api.page.mockRejectedValueOnce(new HttpError('服务异常', 500));
    const { unmount } = renderPage();
    expect(await screen.findByTestId('period-error')).toBeTruthy();
    unmount();
    api.page.mockResolvedValue({ page: 1, pageSize: 20, total: 0, totalPages: 0, items: [] });
    renderPage();
    expect((await screen.findByTestId('period-empty')).textContent).toContain('还没有周期');
  });
});
