import { type FormDesign, formDesignSchema } from '@shuzhi/contracts/diy-form';
import type { DiyRecord, FormDesignForFilling } from '@shuzhi/contracts/diy-table';
import { estimateColumnWidth } from '@shuzhi/contracts/formatters';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../platform/i18n/i18n.ts';
import { useTagsStore } from '../../../app/tags/tags.store.ts';
import { HttpError } from '../../../platform/http/http-client.ts';
import { useSessionStore } from '../../../platform/session/session.store.ts';
import { FillDrawer } from './fill-drawer.tsx';
import FormTablePage from './form-table.page.tsx';
import { buildRecordColumns, columnWidth, initialHidden, SORTER_ROOM } from './record-columns.tsx';
import { buildFilters } from './record-filters.ts';

const api = vi.hoisted(() => ({
  design: vi.fn(),
  page: vi.fn(),
  detail: vi.fn(),
  history: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
}));
vi.mock('../../../components/diy-record/diy-record.api.ts', async (original) => ({
  ...(await original<typeof import('../../../components/diy-record/diy-record.api.ts')>()),
  diyRecordApi: api,
}));

vi.setConfig({ testTimeout: 90_000 });
// A busy machine mounts antd tables and drawers slowly.
configure({ asyncUtilTimeout: 15_000 });

const DESIGN: FormDesign = formDesignSchema.parse({
  fields: [
    { id: 'name', type: 'text', label: '单位名称', required: true, unique: 'form', span: 12 },
    { id: 'staff', type: 'integer', label: '从业人数', span: 12, min: 0 },
    { id: 'memo', type: 'textarea', label: '备注' },
    {
      id: 'kind',
      type: 'select',
      label: '类型',
      options: {
        source: 'options',
        items: [
          { label: '企业', value: 'e' },
          { label: '个体', value: 'p' },
        ],
      },
    },
    { id: 'day', type: 'date', label: '填报日期' },
    { id: 'at', type: 'datetime', label: '检查时间' },
    {
      id: 'items',
      type: 'subTable',
      label: '明细',
      columns: [{ id: 'qty', type: 'integer', label: '数量' }],
    },
    { id: 'body', type: 'richText', label: '情况说明' },
  ],
});

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
    defaultHideDataList: ['body'],
    myAuth: {
      query: true,
      add: true,
      update: true,
      delete: true,
      audit: false,
      export: false,
      import: false,
      design: false,
    },
    categoryId: null,
    categoryName: null,
    ownerOrgId: null,
    ownerOrgName: null,
    version: 1,
    hasDraft: false,
    recordCount: 1,
    periodKind: 'none',
    currentPeriod: null,
  },
};

const record = (over: Partial<DiyRecord> = {}): DiyRecord => ({
  id: 101,
  tableId: 9,
  version: 1,
  status: 0,
  dataNo: null,
  periodId: null,
  periodName: null,
  periodClosed: false,
  isZero: false,
  late: false,
  values: {
    name: '上海数智科技有限公司',
    staff: 120,
    memo: null,
    kind: 'e',
    items: [{ qty: 1 }, { qty: 2 }],
    body: '<p>情况<strong>良好</strong></p>',
  },
  labels: { kind: '企业' },
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

const WORDS = { rows: (n: number) => `${n} 行`, files: (n: number) => `${n} 个文件`, separator: '、' };
const SYSTEM = {
  dataNo: '编号',
  status: '状态',
  createUserName: '填报人',
  createOrgName: '填报单位',
  submitTime: '提交时间',
};

function renderPage(search = '?id=9') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  const ui: ReactNode = (
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[`/diyReport/index/formTable${search}`]}>
          <Routes>
            <Route path="/diyReport/index/formTable" element={<FormTablePage />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>
  );
  return render(ui);
}

beforeEach(() => {
  api.design.mockResolvedValue(FORM);
  api.page.mockResolvedValue({ page: 1, pageSize: 20, total: 1, totalPages: 1, items: [record()] });
  api.detail.mockResolvedValue(record());
  api.history.mockResolvedValue([]);
  useSessionStore.setState({
    userInfo: { id: 7, orgId: 5, realName: '张伟', regionId: null, areaCode: null } as never,
  });
});
afterEach(() => vi.clearAllMocks());

describe('record list columns', () => {
  it('sizes columns by SPEC §9 from the header and the cells shown', () => {
    // Header 单位名称 (4 × 25 = 100) + sort arrows; the cell: 10 Chinese characters = 250.
    expect(columnWidth('单位名称', ['上海数智科技有限公司'], true)).toBe(250);
    // Letters 8 px, other characters 10 px, at least 100.
    expect(columnWidth('No', ['ABC-123'], false)).toBe(100);
    expect(columnWidth('Remark', ['x'.repeat(20) + '1'.repeat(5)], false)).toBe(20 * 8 + 5 * 10);
    // At most 650, whatever the text.
    expect(columnWidth('说明', ['长'.repeat(40)], false)).toBe(650);
    // A sortable header gets room for its arrows.
    expect(columnWidth('填报单位名称全称', [], true)).toBe(
      estimateColumnWidth('填报单位名称全称') + SORTER_ROOM,
    );

    const columns = buildRecordColumns(DESIGN, [record()], {
      system: SYSTEM,
      statusText: () => '草稿',
      words: WORDS,
    });
    expect(columns.map((c) => c.key)).toEqual([
      'dataNo',
      'status',
      'name',
      'staff',
      'memo',
      'kind',
      'day',
      'at',
      'items',
      'body',
      'createUserName',
      'createOrgName',
      'submitTime',
    ]);
    const byKey = Object.fromEntries(columns.map((c) => [c.key, c]));
    expect(byKey.name?.width).toBe(250);
    expect(byKey.createOrgName?.width).toBe(estimateColumnWidth('填报单位') + SORTER_ROOM);
    // Sub-tables and rich text are summarised, JSON columns cannot be sorted.
    expect(byKey.items?.sort).toBeNull();
    expect(byKey.name?.sort).toBe('name');
    render(<div>{byKey.items?.render(record())}</div>);
    expect(screen.getByText('2 行')).toBeTruthy();
    render(<div>{byKey.body?.render(record())}</div>);
    expect(screen.getByText('情况良好')).toBeTruthy();
    render(<div>{byKey.kind?.render(record())}</div>);
    expect(screen.getByText('企业')).toBeTruthy();
  });

  it('hides the columns of defaultHideDataList, the route and listHidden fields', () => {
    const design = formDesignSchema.parse({
      fields: [...DESIGN.fields, { id: 'secret', type: 'text', label: '内部', listHidden: true }],
    });
    expect(initialHidden(design, ['body'], 'memo,kind').sort()).toEqual(['body', 'kind', 'memo', 'secret']);
    expect(initialHidden(DESIGN, [], '')).toEqual([]);
  });
});

describe('buildFilters', () => {
  const fields = DESIGN.fields;
  it('builds the server filters per field kind', () => {
    expect(
      buildFilters(
        [
          { key: 1, field: 'name', op: 'contains', value: ' 数智 ' },
          { key: 2, field: 'staff', op: 'between', value: [10, 200] },
          { key: 3, field: 'staff', op: 'between', value: [null, 50] },
          { key: 4, field: 'kind', op: 'in', value: ['e'] },
          { key: 5, field: 'day', op: 'between', value: ['2026-11-01', '2026-11-30'] },
          { key: 6, field: 'at', op: 'eq', value: '2026-11-21' },
          { key: 7, field: 'memo', op: 'empty' },
          { key: 8, field: 'items', op: 'notEmpty' },
        ],
        fields,
      ),
    ).toEqual([
      { field: 'name', op: 'contains', value: '数智' },
      { field: 'staff', op: 'between', value: [10, 200] },
      { field: 'staff', op: 'lte', value: 50 },
      { field: 'kind', op: 'in', value: ['e'] },
      { field: 'day', op: 'between', value: ['2026-11-01', '2026-11-30'] },
      { field: 'at', op: 'between', value: ['2026-11-21 00:00:00', '2026-11-21 23:59:59'] },
      { field: 'memo', op: 'empty' },
      { field: 'items', op: 'notEmpty' },
    ]);
  });

  it('drops incomplete rows, unknown fields and operators that do not fit the kind', () => {
    expect(
      buildFilters(
        [
          { key: 1, field: 'name', op: 'contains', value: '   ' },
          { key: 2, field: 'staff', op: 'between', value: [null, ''] },
          { key: 3, field: 'kind', op: 'in', value: [] },
          { key: 4, field: 'gone', op: 'eq', value: 'x' },
          { key: 5, field: 'items', op: 'contains', value: 'x' },
          { key: 6, field: 'staff', op: 'gte', value: 'abc' },
        ],
        fields,
      ),
    ).toEqual([]);
  });
});

describe('表单填报 page', () => {
  it('lists the records with the form title, hides defaultHideDataList columns until chosen', async () => {
    renderPage('?id=9&defaultHideDataList=memo');
    expect(await screen.findByTestId('diy-form-table-title')).toHaveProperty(
      'textContent',
      '企业用工情况月报',
    );
    const table = screen.getByTestId('diy-record-table');
    await waitFor(() => expect(within(table).getByText('上海数智科技有限公司')).toBeTruthy());
    const headers = () => Array.from(table.querySelectorAll('thead th')).map((th) => th.textContent);
    expect(headers()).toContain('单位名称');
    // body (the form's defaultHideDataList) and memo (the route's) start hidden.
    expect(headers()).not.toContain('情况说明');
    expect(headers()).not.toContain('备注');
    expect(within(table).getByText('草稿')).toBeTruthy();
    // The tab and the page title take the form's title.
    expect(Object.values(useTagsStore.getState().titles)).toContain('企业用工情况月报');

    fireEvent.click(screen.getByTestId('diy-columns'));
    fireEvent.click(await screen.findByTestId('diy-column-toggle-body'));
    await waitFor(() => expect(headers()).toContain('情况说明'));
    fireEvent.click(screen.getByTestId('diy-columns-default'));
    await waitFor(() => expect(headers()).not.toContain('情况说明'));
  });

  it('sends keyword, status, mine, sort and field filters to the server', async () => {
    renderPage();
    await screen.findByTestId('diy-record-table');
    await waitFor(() => expect(api.page).toHaveBeenCalled());
    const search = screen.getByTestId('diy-record-keyword').querySelector('input') as HTMLInputElement;
    fireEvent.change(search, { target: { value: '数智' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(9, expect.objectContaining({ keyword: '数智' })),
    );
    fireEvent.click(screen.getByTestId('diy-record-mine'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(9, expect.objectContaining({ mine: true })),
    );

    fireEvent.click(
      within(screen.getByTestId('diy-record-table'))
        .getAllByText('从业人数')[0]
        ?.closest('th') as HTMLElement,
    );
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(
        9,
        expect.objectContaining({ field: 'staff', order: 'ascending' }),
      ),
    );

    fireEvent.click(screen.getByTestId('diy-record-filter-toggle'));
    fireEvent.click(screen.getByTestId('diy-filter-add'));
    const row = await screen.findByTestId('diy-filter-row');
    const value = within(row).getByTestId('diy-filter-value') as HTMLInputElement;
    fireEvent.change(value, { target: { value: '科技' } });
    fireEvent.click(screen.getByTestId('diy-filter-apply'));
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(
        9,
        expect.objectContaining({ filters: [{ field: 'name', op: 'contains', value: '科技' }], page: 1 }),
      ),
    );
  });

  it('shows a clear result when the form is not published, disabled or missing', async () => {
    api.design.mockRejectedValue(new HttpError('表单尚未发布', 'F1002'));
    renderPage();
    const result = await screen.findByTestId('diy-form-table-blocked');
    expect(result.getAttribute('data-code')).toBe('F1002');
    expect(within(result).getByText('表单尚未发布', { selector: '.ant-result-title' })).toBeTruthy();
  });

  it('asks for the form password on F1007 and loads the form once verified', async () => {
    api.design.mockRejectedValueOnce(new HttpError('请先验证表单密码', 'F1007'));
    renderPage();
    expect(await screen.findByTestId('diy-form-table-locked')).toBeTruthy();
    expect(await screen.findByTestId('form-pwd-input')).toBeTruthy();
  });

  it('checks before sending, maps a server field error onto the field, and saves a draft', async () => {
    api.add.mockRejectedValueOnce(new HttpError('校验失败', 400, { name: ['单位名称“上海数智”已存在'] }));
    api.add.mockResolvedValueOnce(202);
    api.detail.mockResolvedValue(record({ id: 202, values: { name: '上海数智二厂' } }));
    renderPage();
    fireEvent.click(await screen.findByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    const nameInput = () =>
      within(drawer).getByTestId('diy-field-name').querySelector('input') as HTMLInputElement;

    // The browser's check: the required name is missing, nothing is sent.
    fireEvent.click(within(drawer).getByTestId('diy-fill-submit'));
    expect(await within(drawer).findByTestId('diy-error-diy-fill-name')).toBeTruthy();
    expect(api.add).not.toHaveBeenCalled();

    fireEvent.change(nameInput(), { target: { value: '上海数智' } });
    await act(async () => new Promise((r) => setTimeout(r, 600)));
    fireEvent.click(within(drawer).getByTestId('diy-fill-submit'));
    await waitFor(() => expect(api.add).toHaveBeenCalledTimes(1));
    expect(api.add).toHaveBeenLastCalledWith(9, expect.objectContaining({ submit: true }));
    const error = await within(drawer).findByTestId('diy-error-diy-fill-name');
    expect(error.textContent).toBe('单位名称“上海数智”已存在');

    fireEvent.change(nameInput(), { target: { value: '上海数智二厂' } });
    await waitFor(() => expect(within(drawer).queryByTestId('diy-error-diy-fill-name')).toBeNull());
    await act(async () => new Promise((r) => setTimeout(r, 600)));
    fireEvent.click(within(drawer).getByTestId('diy-fill-draft'));
    await waitFor(() => expect(api.add).toHaveBeenCalledTimes(2));
    expect(api.add).toHaveBeenLastCalledWith(
      9,
      expect.objectContaining({ submit: false, values: expect.objectContaining({ name: '上海数智二厂' }) }),
    );
  });

  it('holds 提交 against a second click within 500 ms', async () => {
    api.update.mockResolvedValue(null);
    renderPage();
    const table = await screen.findByTestId('diy-record-table');
    fireEvent.click(await within(table).findByTestId('diy-record-edit'));
    const drawer = await screen.findByTestId('diy-fill');
    const submit = within(drawer).getByTestId('diy-fill-submit');
    fireEvent.click(submit);
    fireEvent.click(submit);
    fireEvent.click(submit);
    await waitFor(() => expect(api.update).toHaveBeenCalledTimes(1));
    await act(async () => new Promise((r) => setTimeout(r, 100)));
    expect(api.update).toHaveBeenCalledTimes(1);
    expect(api.update).toHaveBeenLastCalledWith(9, expect.objectContaining({ id: 101, submit: true }));
  });

  it('warns before unsaved changes are dropped', async () => {
    renderPage();
    fireEvent.click(await screen.findByTestId('diy-record-add'));
    const drawer = await screen.findByTestId('diy-fill');
    const input = within(drawer).getByTestId('diy-field-name').querySelector('input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '新单位' } });
    fireEvent.click(within(drawer).getByTestId('diy-fill-close'));
    expect((await screen.findAllByText('放弃未保存的修改？')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('diy-fill-discard'));
    await waitFor(() => expect(screen.queryByTestId('diy-fill-body')).toBeNull());
  });

  it('shows the review comment of a returned record on top, and an approved record read-only', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
    const returned = record({
      status: 3,
      auditUserName: '李娜',
      auditTime: '2026-11-21 11:00:00',
      auditComment: '人数有误，请核对',
    });
    const props = {
      tableId: 9,
      title: '企业用工情况月报',
      design: DESIGN,
      onClose: () => undefined,
      onSaved: () => undefined,
      askPassword: async () => false,
    };
    const view = render(
      <QueryClientProvider client={client}>
        <App>
          <FillDrawer {...props} target={{ record: returned }} />
        </App>
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('diy-record-return-comment')).textContent).toBe('人数有误，请核对');
    expect(screen.getByTestId('diy-fill-submit')).toBeTruthy();
    view.rerender(
      <QueryClientProvider client={client}>
        <App>
          <FillDrawer
            {...props}
            target={{
              record: record({
                id: 102,
                status: 2,
                can: { update: false, delete: false, submit: false, audit: false },
              }),
            }}
          />
        </App>
      </QueryClientProvider>,
    );
    expect(await screen.findByText('记录已审核通过，不能再修改')).toBeTruthy();
    expect(screen.queryByTestId('diy-fill-submit')).toBeNull();
    expect(screen.queryByTestId('diy-fill-draft')).toBeNull();
    expect(screen.getByTestId('diy-view-diy-fill-name').textContent).toBe('上海数智科技有限公司');
  });
});
