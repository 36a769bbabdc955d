import { type FormDesign, formDesignSchema } from '@shuzhi/contracts/diy-form';
import type { PeriodRow } from '@shuzhi/contracts/diy-period';
import type { DiyRecord, FormDesignForFilling } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../platform/i18n/i18n.ts';
import { HttpError } from '../../../platform/http/http-client.ts';
import { useSessionStore } from '../../../platform/session/session.store.ts';
import FormTablePage from './form-table.page.tsx';
import { parseUrlFilters } from './record-filters.ts';

const api = vi.hoisted(() => ({
  design: vi.fn(),
  page: vi.fn(),
  detail: vi.fn(),
  history: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
  prefill: vi.fn(),
  zeroReport: vi.fn(),
}));
vi.mock('../../../components/diy-record/diy-record.api.ts', async (original) => ({
  ...(await original<typeof import('../../../components/diy-record/diy-record.api.ts')>()),
  diyRecordApi: api,
}));
const periods = vi.hoisted(() => ({ list: vi.fn() }));
vi.mock('../../../components/diy-period/diy-period.api.ts', async (original) => {
  const real = await original<typeof import('../../../components/diy-period/diy-period.api.ts')>();
  return { ...real, periodApi: { ...real.periodApi, list: periods.list } };
});

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const DESIGN: FormDesign = formDesignSchema.parse({
  fields: [
    { id: 'name', type: 'text', label: '单位名称', required: true },
    { id: 'staff', type: 'integer', label: '从业人数' },
    { id: 'area', type: 'text', label: '所在区域' },
  ],
});

const NOVEMBER: PeriodRow = {
  id: 31,
  tableId: 9,
  key: '2026-11',
  name: '2026年11月',
  startDate: '2026-11-01',
  endDate: '2026-11-30',
  dueDate: '2026-12-05',
  graceUntil: null,
  reopenUntil: null,
  version: 1,
  state: 'open',
  closeTime: null,
  closeUserName: null,
  recordCount: 1,
  submittedCount: 0,
  createTime: '2026-11-01 00:00:00',
};
const OCTOBER: PeriodRow = {
  ...NOVEMBER,
  id: 30,
  key: '2026-10',
  name: '2026年10月',
  startDate: '2026-10-01',
  endDate: '2026-10-31',
  dueDate: '2026-11-05',
  state: 'closed',
  closeTime: '2026-11-10 09:00:00',
  closeUserName: '王芳',
};

const FORM: FormDesignForFilling = {
  version: 1,
  design: DESIGN,
  item: {
    id: 9,
    title: '企业用工情况月报',
    reportType: 1,
    isEnable: true,
    isShowPwd: false,
    lastUpdateTime: null,
    isTip: false,
    query: null,
    defaultHideDataList: [],
    myAuth: {
      query: true,
      add: true,
      update: true,
      delete: true,
      audit: false,
      export: false,
      import: true,
      design: false,
    },
    categoryId: null,
    categoryName: null,
    ownerOrgId: null,
    ownerOrgName: null,
    version: 1,
    hasDraft: false,
    recordCount: 2,
    periodKind: 'month',
    currentPeriod: { id: 31, name: '2026年11月', dueDate: '2026-12-05', state: 'open' },
  },
};

const record = (over: Partial<DiyRecord> = {}): DiyRecord => ({
  id: 101,
  tableId: 9,
  version: 1,
  status: 0,
  dataNo: null,
  periodId: 31,
  periodName: '2026年11月',
  periodClosed: false,
  isZero: false,
  late: false,
  values: { name: '上海数智科技有限公司', staff: 120 },
  labels: {},
  submitTime: null,
  auditUserName: null,
  auditTime: null,
  auditComment: null,
  createOrgId: 5,
  createOrgName: '区发改委',
  createTime: '2026-11-21 09:00:00',
  createUserId: 7,
  createUserName: '张伟',
  updateTime: null,
  updateUserName: null,
  can: { update: true, delete: true, submit: true, audit: false },
  ...over,
});

function Where() {
  const location = useLocation();
  return <span data-testid="where">{location.search}</span>;
}

function renderPage(search = '?id=9') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[`/diyReport/index/formTable${search}`]}>
          <Routes>
            <Route
              path="/diyReport/index/formTable"
              element={
                <>
                  <FormTablePage />
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}
const lastBody = () => api.page.mock.lastCall?.[1] as Record<string, unknown>;
const pickPeriod = async (name: string) => {
  const select = screen.getByTestId('diy-record-period');
  fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
  fireEvent.click(await screen.findByTitle(name));
};

beforeEach(() => {
  api.design.mockResolvedValue(FORM);
  api.page.mockImplementation(async (_id: number, body: { periodId?: number }) => ({
    page: 1,
    pageSize: 20,
    total: 1,
    totalPages: 1,
    items: [body.periodId === 30 ? record({ id: 100, periodId: 30, periodName: '2026年10月' }) : record()],
  }));
  api.detail.mockResolvedValue(record());
  api.history.mockResolvedValue([]);
  periods.list.mockResolvedValue([NOVEMBER, OCTOBER]);
  useSessionStore.setState({
    userInfo: { id: 7, orgId: 5, realName: '张伟', regionId: null, areaCode: null } as never,
  });
});
afterEach(() => vi.clearAllMocks());

describe('URL filters', () => {
  it('reads field:prefix:code filters of fields in the design only', () => {
    expect(
      parseUrlFilters(
        ['area:prefix:3101', 'area:prefix:3101', 'gone:prefix:1', 'area:between:1', 'area:prefix:'],
        [{ id: 'area' }],
      ),
    ).toEqual([{ field: 'area', op: 'prefix', value: '3101', raw: 'area:prefix:3101' }]);
    expect(parseUrlFilters(['name:contains:a:b'], [{ id: 'name' }])).toEqual([
      { field: 'name', op: 'contains', value: 'a:b', raw: 'name:contains:a:b' },
    ]);
  });
});

describe('record list of a periodic form', () => {
  it('starts on the current period, and locks filing in a closed one', async () => {
    renderPage();
    const banner = await screen.findByTestId('period-banner');
    expect(banner.getAttribute('data-state')).toBe('open');
    expect(banner.textContent).toContain('2026-12-05');
    await waitFor(() => expect(lastBody()).toMatchObject({ periodId: 31 }));
    const table = await screen.findByTestId('diy-record-table');
    expect(await within(table).findByText('2026年11月')).toBeTruthy();
    expect((screen.getByTestId('diy-record-add') as HTMLButtonElement).disabled).toBe(false);
    expect(((await screen.findByTestId('diy-record-import')) as HTMLButtonElement).disabled).toBe(false);

    await pickPeriod('2026年10月');
    await waitFor(() => expect(lastBody()).toMatchObject({ periodId: 30, page: 1 }));
    await waitFor(() =>
      expect(screen.getByTestId('period-banner').getAttribute('data-state')).toBe('closed'),
    );
    expect(screen.getByTestId('period-banner').textContent).toContain('已关闭');
    expect((screen.getByTestId('diy-record-add') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('diy-record-zero') as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByTestId('diy-record-import') as HTMLButtonElement).disabled).toBe(true);
    await within(table).findByText('2026年10月');
    expect((within(table).getByTestId('diy-record-edit') as HTMLButtonElement).disabled).toBe(true);
    expect((within(table).getByTestId('diy-record-submit') as HTMLButtonElement).disabled).toBe(true);
    expect((within(table).getByTestId('diy-record-delete') as HTMLButtonElement).disabled).toBe(true);

    await pickPeriod('全部周期');
    await waitFor(() => expect(lastBody()).not.toHaveProperty('periodId'));
  });

  it('leaves a returned record to its filler after the due date, until the period is closed', async () => {
    const returned = record({ id: 100, status: 3, periodId: 30, periodName: '2026年10月' });
    const submitted = record({
      id: 102,
      status: 1,
      periodId: 30,
      periodName: '2026年10月',
      values: { name: '上海黄浦商贸有限公司', staff: 40 },
      can: { update: true, delete: true, submit: false, audit: false },
    });
    api.page.mockResolvedValue({
      page: 1,
      pageSize: 20,
      total: 2,
      totalPages: 1,
      items: [returned, submitted],
    });
    const buttons = async (name: string) => {
      const row = (await screen.findByText(name)).closest('tr') as HTMLElement;
      return ['diy-record-edit', 'diy-record-submit', 'diy-record-delete']
        .filter((id) => within(row).queryByTestId(id))
        .map((id) => (within(row).getByTestId(id) as HTMLButtonElement).disabled);
    };
    periods.list.mockResolvedValue([NOVEMBER, { ...OCTOBER, state: 'overdue', closeTime: null }]);
    const overdue = renderPage('?id=9&periodId=30');
    await waitFor(() =>
      expect(screen.getByTestId('period-banner').getAttribute('data-state')).toBe('overdue'),
    );
    expect(screen.getByTestId('period-banner').textContent).toContain(
      '退回的记录在本周期关闭前仍可修改、提交或删除',
    );
    expect(await buttons('上海数智科技有限公司')).toEqual([false, false, false]);
    expect(await buttons('上海黄浦商贸有限公司')).toEqual([true, true]);
    overdue.unmount();

    periods.list.mockResolvedValue([NOVEMBER, OCTOBER]);
    renderPage('?id=9&periodId=30');
    await waitFor(() =>
      expect(screen.getByTestId('period-banner').getAttribute('data-state')).toBe('closed'),
    );
    expect(await buttons('上海数智科技有限公司')).toEqual([true, true, true]);
  });

  it('shows the zero report and late tags', async () => {
    api.page.mockResolvedValue({
      page: 1,
      pageSize: 20,
      total: 1,
      totalPages: 1,
      items: [
        record({
          status: 1,
          isZero: true,
          late: true,
          can: { update: false, delete: false, submit: false, audit: false },
        }),
      ],
    });
    renderPage();
    const table = await screen.findByTestId('diy-record-table');
    expect((await within(table).findByTestId('diy-record-flag-zero')).textContent).toBe('零报告');
    expect(within(table).getByTestId('diy-record-flag-late').textContent).toBe('逾期提交');
  });

  it('reads period, org and prefix filters from the URL and drops them as chips are removed', async () => {
    renderPage('?id=9&periodId=30&orgId=5&orgName=黄浦区&filter=area:prefix:3101&filter=gone:prefix:1');
    await waitFor(() =>
      expect(lastBody()).toMatchObject({
        periodId: 30,
        orgId: 5,
        filters: [{ field: 'area', op: 'prefix', value: '3101' }],
      }),
    );
    const chips = await screen.findByTestId('diy-record-chips');
    expect(within(chips).getByTestId('diy-chip-org').textContent).toContain('机构：黄浦区');
    expect(within(chips).getByTestId('diy-chip-filter').textContent).toContain('所在区域：3101 及下级');
    await waitFor(() =>
      expect(within(chips).getByTestId('diy-chip-period').textContent).toContain('2026年10月'),
    );

    fireEvent.click(within(screen.getByTestId('diy-chip-org')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(lastBody()).not.toHaveProperty('orgId'));
    expect(screen.getByTestId('where').textContent).not.toContain('orgId');
    fireEvent.click(within(screen.getByTestId('diy-chip-filter')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(lastBody()).not.toHaveProperty('filters'));
    fireEvent.click(within(screen.getByTestId('diy-chip-period')).getByRole('button', { name: 'Close' }));
    // Back to the default: the current period.
    await waitFor(() => expect(lastBody()).toMatchObject({ periodId: 31 }));
    expect(screen.queryByTestId('diy-record-chips')).toBeNull();
  });

  it('asks for the org’s own records from a roll-up’s （本级） row, and forgets it with the chip', async () => {
    renderPage('?id=9&periodId=30&orgId=5&orgOwn=1&orgName=外滩街道（本级）');
    await waitFor(() => expect(lastBody()).toMatchObject({ periodId: 30, orgId: 5, orgOwn: true }));
    const chip = await screen.findByTestId('diy-chip-org');
    expect(chip.textContent).toContain('外滩街道（本级）');
    fireEvent.click(within(chip).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(lastBody()).not.toHaveProperty('orgId'));
    expect(lastBody()).not.toHaveProperty('orgOwn');
    expect(screen.getByTestId('where').textContent).not.toContain('orgOwn');
  });

  it('files a zero report after a confirmation', async () => {
    api.zeroReport.mockResolvedValue(300);
    renderPage();
    await screen.findByTestId('period-banner');
    fireEvent.click(screen.getByTestId('diy-record-zero'));
    const dialog = await screen.findByTestId('diy-zero-dialog');
    expect(within(dialog).getByText(/2026年11月/)).toBeTruthy();
    fireEvent.change(within(dialog).getByTestId('diy-zero-comment'), { target: { value: '本月停产' } });
    fireEvent.click(screen.getByTestId('diy-zero-ok'));
    await waitFor(() =>
      expect(api.zeroReport).toHaveBeenCalledWith(9, { periodId: 31, comment: '本月停产' }),
    );
  });

  it('copies the last period into a new record for review and saves only on 保存草稿', async () => {
    api.prefill.mockResolvedValue({
      fromRecordId: 88,
      fromPeriodName: '2026年10月',
      values: { name: '上海数智（上期）', staff: 99 },
    });
    api.add.mockResolvedValue(202);
    api.detail.mockResolvedValue(record({ id: 202 }));
    renderPage();
    await screen.findByTestId('period-banner');
    fireEvent.click(screen.getByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    expect(within(drawer).getByTestId('diy-fill-period').textContent).toContain('2026年11月');
    // No field is 每期沿用: nothing is asked for until the button.
    expect(api.prefill).not.toHaveBeenCalled();
    fireEvent.click(within(drawer).getByTestId('diy-fill-prefill'));
    await waitFor(() => expect(api.prefill).toHaveBeenCalledWith(9, 31));
    const name = () =>
      within(drawer).getByTestId('diy-field-name').querySelector('input') as HTMLInputElement;
    await waitFor(() => expect(name().value).toBe('上海数智（上期）'));
    expect(within(drawer).getByTestId('diy-fill-period').textContent).toContain('2026年10月');
    expect(api.add).not.toHaveBeenCalled();

    await act(async () => new Promise((r) => setTimeout(r, 600)));
    fireEvent.click(within(drawer).getByTestId('diy-fill-draft'));
    await waitFor(() =>
      expect(api.add).toHaveBeenCalledWith(
        9,
        expect.objectContaining({
          periodId: 31,
          submit: false,
          values: expect.objectContaining({ name: '上海数智（上期）', staff: 99 }),
        }),
      ),
    );
  });

  it('starts a new record with the 每期沿用 fields of the last period, nothing else, nothing saved', async () => {
    const carried = formDesignSchema.parse({
      fields: DESIGN.fields.map((f) => (f.id === 'staff' ? { ...f, carry: true } : f)),
    });
    api.design.mockResolvedValue({ ...FORM, design: carried });
    api.prefill.mockResolvedValue({
      fromRecordId: 88,
      fromPeriodName: '2026年10月',
      values: { name: '上海数智（上期）', staff: 99, area: '黄浦区' },
    });
    renderPage();
    await screen.findByTestId('period-banner');
    fireEvent.click(screen.getByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    const input = (id: string) =>
      within(drawer).getByTestId(`diy-field-${id}`).querySelector('input') as HTMLInputElement;
    await waitFor(() => expect(input('staff').value).toBe('99'));
    expect(api.prefill).toHaveBeenCalledWith(9, 31);
    expect([input('name').value, input('area').value]).toEqual(['', '']);
    expect(within(drawer).getByTestId('diy-fill-period').textContent).toContain('已从“2026年10月”带入 1 项');
    expect(within(drawer).queryByTestId('diy-fill-dirty')).toBeNull();
    expect(api.add).not.toHaveBeenCalled();
  });

  it('starts a new record of an earlier period with that period in its 本期 fields', async () => {
    const withMonth: FormDesign = formDesignSchema.parse({
      fields: [
        ...DESIGN.fields,
        { id: 'month', type: 'month', label: '统计月份', default: { kind: 'period' } },
      ],
    });
    api.design.mockResolvedValue({ ...FORM, design: withMonth });
    periods.list.mockResolvedValue([NOVEMBER, { ...OCTOBER, state: 'grace', closeTime: null }]);
    renderPage('?id=9&periodId=30');
    await waitFor(() => expect(lastBody()).toMatchObject({ periodId: 30 }));
    fireEvent.click(await screen.findByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    expect(within(drawer).getByTestId('diy-fill-period').textContent).toContain('2026年10月');
    const month = () =>
      within(drawer).getByTestId('diy-field-month').querySelector('input') as HTMLInputElement;
    await waitFor(() => expect(month().value).toBe('2026-10'));
  });

  it('fills a new record with the design of the version its period keeps', async () => {
    // Version 2 was published during November; November still files with version 1.
    const V1: FormDesign = formDesignSchema.parse({
      fields: [{ id: 'name', type: 'text', label: '单位名称（第1版）', required: true }],
    });
    api.design.mockImplementation(async (_id: number, version?: number) =>
      version === 1
        ? { ...FORM, version: 1, design: V1 }
        : { ...FORM, version: 2, item: { ...FORM.item, version: 2 } },
    );
    renderPage();
    await screen.findByTestId('period-banner');
    fireEvent.click(screen.getByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    await waitFor(() => expect(api.design).toHaveBeenCalledWith(9, 1));
    expect(await within(drawer).findByText('单位名称（第1版）')).toBeTruthy();
    expect(within(drawer).queryByText('从业人数')).toBeNull();
  });

  it('says when there is nothing to copy', async () => {
    api.prefill.mockResolvedValue(null);
    renderPage();
    await screen.findByTestId('period-banner');
    fireEvent.click(screen.getByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    fireEvent.click(within(drawer).getByTestId('diy-fill-prefill'));
    expect(await screen.findByText('没有可沿用的上期数据')).toBeTruthy();
  });

  it('shows the server refusal of a closed period and reloads the periods', async () => {
    api.update.mockRejectedValue(new HttpError('该周期已关闭，不能填报', 'F1023'));
    renderPage();
    const table = await screen.findByTestId('diy-record-table');
    fireEvent.click(await within(table).findByTestId('diy-record-submit'));
    fireEvent.click(await screen.findByTestId('diy-record-submit-ok'));
    expect(await screen.findByText('该周期已关闭，不能填报')).toBeTruthy();
    await waitFor(() => expect(periods.list).toHaveBeenCalledTimes(2));
  });
});
