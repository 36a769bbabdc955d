import type { AllDictList } from '@shuzhi/contracts/dict';
import { type FormDesign, formDesignSchema, type RecordValues } from '@shuzhi/contracts/diy-form';
import { fieldErrorText, validateRecord } from '@shuzhi/contracts/diy-validate';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { createRef, type ReactNode, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { DICT_KEYS } from '../../platform/dict/dict.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { serverFieldErrors } from './diy-form.model.ts';
import { FormRenderer, type FormRendererHandle, type FormRendererProps } from './form-renderer.tsx';
import { clearPickerLabels } from './pickers.tsx';

const api = vi.hoisted(() => ({ pick: vi.fn(), upload: vi.fn(), filesOfRecord: vi.fn() }));
vi.mock('./diy-form.api.ts', () => ({ diyFormApi: api }));
const region = vi.hoisted(() => ({ tree: vi.fn(), root: vi.fn(), path: vi.fn(), search: vi.fn() }));
vi.mock('../region-cascader/region.api.ts', () => ({ regionApi: region }));

const PEOPLE = [
  { value: 11, label: '张伟', extra: '区发改委' },
  { value: 12, label: '吴静', extra: '贵州路居委会' },
];
const ORGS = [{ value: 21, label: '区发改委', extra: null }];
const ENTERPRISES = [{ value: 31, label: '上海数智科技有限公司', extra: null }];
api.pick.mockImplementation(async (kind: string, query: { keyword?: string; ids?: number[] }) => {
  const all = kind === 'user' ? PEOPLE : kind === 'org' ? ORGS : ENTERPRISES;
  if (query.ids) return all.filter((o) => query.ids?.includes(o.value));
  return all.filter((o) => !query.keyword || o.label.includes(query.keyword));
});
api.filesOfRecord.mockImplementation(async () => [
  { id: 41, fileName: '统计表.xlsx', suffix: '.xlsx', size: 1000 },
  { id: 42, fileName: '现场照片.png', suffix: '.png', size: 2000 },
]);
const HP = { id: 310101, pid: 3101, code: '310101', name: '黄浦区', level: 3, isLocal: 0, isLeaf: false };
const SH = { ...HP, id: 31, code: '31', name: '上海市', level: 1 };
const NJ = { ...HP, id: 310101002, code: '310101002', name: '南京东路街道', level: 4 };
region.root.mockImplementation(async () => ({ areaCode: '310101', node: HP, path: [SH, HP] }));
region.tree.mockImplementation(async () => [NJ]);
region.path.mockImplementation(async (code: string) => (code === '310101002' ? [SH, HP, NJ] : [SH, HP]));
region.search.mockImplementation(async () => []);

afterEach(() => {
  clearPickerLabels();
  api.pick.mockClear();
});

const item = (id: number, label: string, value: string) => ({
  id,
  dictTypeId: 1,
  label,
  value,
  tagType: null,
  styleSetting: null,
  classSetting: null,
  extData: null,
  orderNo: id,
  status: 1,
  remark: null,
});
const DICTS: AllDictList = { sex: [item(1, '男', '1'), item(2, '女', '2')] };

const design = (fields: unknown[], labelWidth = 120): FormDesign =>
  formDesignSchema.parse({ fields, labelWidth });

const OPTIONS = {
  source: 'options',
  items: [
    { label: '甲', value: 'a' },
    { label: '乙', value: 'b' },
  ],
};

/** One field of every type of FIELD_TYPES. */
const EVERY = design([
  { id: 'sec', type: 'section', label: '基本情况', content: '请如实填写' },
  { id: 'note', type: 'staticText', label: '说明', content: '本表按季度填报' },
  { id: 'name', type: 'text', label: '名称', required: true, span: 12, help: '单位全称' },
  { id: 'memo', type: 'textarea', label: '备注', span: 12 },
  { id: 'cnt', type: 'integer', label: '人数', span: 6 },
  { id: 'ratio', type: 'decimal', label: '系数', precision: 3, span: 6 },
  { id: 'amt', type: 'money', label: '金额', moneyCapital: true, span: 6 },
  { id: 'pct', type: 'percent', label: '占比', span: 6 },
  { id: 'day', type: 'date', label: '日期', span: 8 },
  { id: 'at', type: 'datetime', label: '时间', span: 8 },
  { id: 'mon', type: 'month', label: '月份', span: 8 },
  { id: 'qtr', type: 'quarter', label: '季度', span: 8 },
  { id: 'yr', type: 'year', label: '年度', span: 8 },
  { id: 'sel', type: 'select', label: '类别', options: OPTIONS, span: 8 },
  { id: 'multi', type: 'multiSelect', label: '多选', options: OPTIONS, span: 8 },
  { id: 'sex', type: 'radio', label: '性别', options: { source: 'dict', dictCode: 'sex' }, span: 8 },
  { id: 'chk', type: 'checkbox', label: '复选', options: OPTIONS, span: 8 },
  { id: 'area', type: 'region', label: '区域', span: 12 },
  { id: 'dept', type: 'org', label: '部门', span: 12 },
  { id: 'who', type: 'user', label: '联系人', span: 12 },
  { id: 'ent', type: 'enterprise', label: '企业', span: 12 },
  { id: 'mob', type: 'mobile', label: '手机', span: 8 },
  { id: 'tel', type: 'landline', label: '座机', span: 8 },
  { id: 'idno', type: 'idCard', label: '身份证号', span: 8 },
  { id: 'mail', type: 'email', label: '邮箱', span: 8 },
  { id: 'site', type: 'url', label: '网址', span: 8 },
  { id: 'zip', type: 'postcode', label: '邮编', span: 8 },
  { id: 'plate', type: 'licensePlate', label: '车牌', span: 8 },
  { id: 'files', type: 'attachment', label: '附件', accept: ['pdf', 'xlsx'], maxFiles: 3 },
  { id: 'pics', type: 'image', label: '照片', maxFiles: 2 },
  { id: 'body', type: 'richText', label: '正文' },
  { id: 'twice', type: 'formula', label: '两倍人数', formula: '{cnt} * 2', precision: 0 },
  {
    id: 'items',
    type: 'subTable',
    label: '明细',
    columns: [
      { id: 'qty', type: 'integer', label: '数量', required: true },
      { id: 'price', type: 'money', label: '单价' },
      { id: 'sum', type: 'formula', label: '小计', formula: '{qty} * {price}' },
    ],
  },
  { id: 'no', type: 'serialNo', label: '编号' },
  { id: 'spot', type: 'location', label: '位置' },
]);

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  client.setQueryData([...DICT_KEYS.all, useThemeStore.getState().globalI18n], DICTS);
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

type HarnessProps = Omit<FormRendererProps, 'values' | 'onChange'> & {
  initial?: RecordValues;
  seen?: (values: RecordValues) => void;
};
function Harness({ initial = {}, seen, ...props }: HarnessProps) {
  const [values, setValues] = useState<RecordValues>(initial);
  return (
    <FormRenderer
      {...props}
      values={values}
      onChange={(next) => {
        setValues(next);
        seen?.(next);
      }}
    />
  );
}

const field = (id: string) => screen.getByTestId(`diy-field-${id}`);
const inputOf = (id: string) => field(id).querySelector('input, textarea') as HTMLInputElement;
const type = (input: HTMLElement, value: string) => {
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value } });
};
const leave = (input: HTMLElement) => fireEvent.blur(input);

// A form of every field type takes a while to mount in jsdom on a busy machine.
vi.setConfig({ testTimeout: 60_000 });

describe('FormRenderer', () => {
  it('renders every field type of the design on the grid', async () => {
    render(wrap(<Harness design={EVERY} />));
    for (const f of EVERY.fields) expect(screen.getByTestId(`diy-field-${f.id}`)).toBeTruthy();
    expect(screen.getByText('基本情况')).toBeTruthy();
    expect(screen.getByText('请如实填写')).toBeTruthy();
    expect(screen.getByText('本表按季度填报')).toBeTruthy();
    expect((inputOf('no') as HTMLInputElement).placeholder).toBe('提交后自动生成');
    // Spans: 12 of 24 on desktop, the full row at phone width.
    expect(field('name').className).toContain('ant-col-12');
    expect(within(field('name')).getByText('名称').closest('label')?.className).toContain('required');
    expect(within(field('sex')).getByText('男')).toBeTruthy();
    expect(within(field('chk')).getByText('乙')).toBeTruthy();
    expect(screen.getByTestId('diy-input-diy-files-upload')).toBeTruthy();
    expect(screen.getByTestId('diy-input-diy-pics-upload')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('diy-input-diy-body')).toBeTruthy(), { timeout: 30_000 });
  });

  it('takes the full row for every field at phone width', () => {
    render(wrap(<Harness design={EVERY} width="phone" />));
    expect(field('name').className).toContain('ant-col-24');
    expect(field('cnt').className).toContain('ant-col-24');
  });

  it('updates the values as the user types, with the input helpers of each type', () => {
    const seen = vi.fn();
    render(wrap(<Harness design={EVERY} seen={seen} />));
    type(inputOf('name'), '  区发改委 ');
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ name: '  区发改委 ' }));
    leave(inputOf('name'));
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ name: '区发改委' }));
    type(inputOf('mob'), '138-1234 5678');
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ mob: '13812345678' }));
    type(inputOf('plate'), '沪a 12345');
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ plate: '沪A12345' }));
    type(inputOf('amt'), '1234.5');
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ amt: 1234.5 }));
    expect(screen.getByTestId('diy-capital-diy-amt').textContent).toBe('大写：壹仟贰佰叁拾肆元伍角');
  });

  it('computes formulas and sub-table sums live', async () => {
    const sums = design([
      { id: 'cnt', type: 'integer', label: '人数' },
      { id: 'twice', type: 'formula', label: '两倍人数', formula: '{cnt} * 2', precision: 0 },
      {
        id: 'items',
        type: 'subTable',
        label: '明细',
        columns: [
          { id: 'qty', type: 'integer', label: '数量' },
          { id: 'price', type: 'decimal', label: '单价' },
          { id: 'sum', type: 'formula', label: '小计', formula: '{qty} * {price}' },
        ],
      },
      { id: 'total', type: 'formula', label: '合计', formula: 'SUM({items.sum})' },
      { id: 'rows', type: 'formula', label: '行数', formula: 'COUNT({items})', precision: 0 },
    ]);
    const seen = vi.fn();
    render(wrap(<Harness design={sums} seen={seen} />));
    type(inputOf('cnt'), '21');
    expect(inputOf('twice').value).toBe('42');

    fireEvent.click(screen.getByTestId('diy-row-add-items'));
    fireEvent.click(screen.getByTestId('diy-row-add-items'));
    type(screen.getByTestId('diy-input-diy-items-0-qty'), '3');
    type(screen.getByTestId('diy-input-diy-items-0-price'), '2.5');
    type(screen.getByTestId('diy-input-diy-items-1-qty'), '2');
    type(screen.getByTestId('diy-input-diy-items-1-price'), '10');
    expect((screen.getByTestId('diy-input-diy-items-0-sum') as HTMLInputElement).value).toBe('7.50');
    expect((screen.getByTestId('diy-input-diy-items-1-sum') as HTMLInputElement).value).toBe('20.00');
    expect(inputOf('total').value).toBe('27.50');
    expect(inputOf('rows').value).toBe('2');
    expect(seen).toHaveBeenLastCalledWith(expect.objectContaining({ total: 27.5, rows: 2 }));

    // Copy the first row, then remove the second: the sums follow.
    fireEvent.click(screen.getByTestId('diy-row-copy-items-0'));
    expect(inputOf('total').value).toBe('35.00');
    fireEvent.click(screen.getByTestId('diy-row-remove-items-1'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(inputOf('total').value).toBe('27.50'));
    expect(within(field('items')).getAllByRole('row')).toHaveLength(3);
  });

  it('hides a field whose show-when no longer holds and empties it', () => {
    const shown = design([
      {
        id: 'kind',
        type: 'radio',
        label: '类型',
        options: {
          source: 'options',
          items: [
            { label: '企业', value: 'e' },
            { label: '其他', value: 'o' },
          ],
        },
      },
      {
        id: 'other',
        type: 'text',
        label: '其他说明',
        required: true,
        showWhen: { logic: 'and', rules: [{ field: 'kind', op: 'eq', value: 'o' }] },
      },
    ]);
    const seen = vi.fn();
    render(wrap(<Harness design={shown} seen={seen} />));
    expect(screen.queryByTestId('diy-field-other')).toBeNull();
    fireEvent.click(screen.getByLabelText('其他'));
    type(inputOf('other'), '自定义');
    expect(seen).toHaveBeenLastCalledWith({ kind: 'o', other: '自定义' });
    fireEvent.click(screen.getByLabelText('企业'));
    expect(screen.queryByTestId('diy-field-other')).toBeNull();
    expect(seen).toHaveBeenLastCalledWith({ kind: 'e', other: null });
  });

  it('starts a new record with the defaults for the filler', () => {
    const defaults = design([
      { id: 'who', type: 'text', label: '填报人', default: { kind: 'fillerName' }, readOnly: true },
      { id: 'n', type: 'integer', label: '数量', default: { kind: 'constant', value: 5 } },
      { id: 'twice', type: 'formula', label: '两倍', formula: '{n} * 2', precision: 0 },
    ]);
    const seen = vi.fn();
    const filler = { orgId: 21, regionCode: '310101', realName: '张伟', userId: 11 };
    render(wrap(<Harness design={defaults} seen={seen} filler={filler} isNew />));
    expect(seen).toHaveBeenCalledWith({ who: '张伟', n: 5, twice: 10 });
    expect(inputOf('who').value).toBe('张伟');
    expect(inputOf('who').disabled).toBe(true);
    expect(inputOf('twice').value).toBe('10');
  });

  it('starts an added sub-table row with its columns’ defaults, in the record’s period', () => {
    const withRows = design([
      {
        id: 'items',
        type: 'subTable',
        label: '明细',
        columns: [
          { id: 'when', type: 'month', label: '月份', default: { kind: 'period' } },
          { id: 'qty', type: 'integer', label: '数量', default: { kind: 'constant', value: 1 } },
          { id: 'memo', type: 'text', label: '备注' },
        ],
      },
    ]);
    const seen = vi.fn();
    const filler = { orgId: 21, regionCode: '310101', realName: '张伟', userId: 11 };
    render(wrap(<Harness design={withRows} seen={seen} filler={filler} periodStart="2026-10-01" />));
    fireEvent.click(screen.getByTestId('diy-row-add-items'));
    expect((screen.getByTestId('diy-input-diy-items-0-qty') as HTMLInputElement).value).toBe('1');
    expect(seen).toHaveBeenLastCalledWith({ items: [{ when: '2026-10', qty: 1 }] });
  });

  it('checks a field when it is left and the whole record on submit, with the messages of validateRecord', () => {
    const ref = createRef<FormRendererHandle>();
    const initial = { items: [{ qty: null, price: 5 }] };
    render(wrap(<Harness design={EVERY} ref={ref} initial={initial} />));
    type(inputOf('mob'), '123');
    leave(inputOf('mob'));
    expect(screen.getByTestId('diy-error-diy-mob').textContent).toBe('手机格式不正确');
    type(inputOf('mob'), '13812345678');
    expect(screen.queryByTestId('diy-error-diy-mob')).toBeNull();

    let result: ReturnType<FormRendererHandle['check']> | undefined;
    act(() => {
      result = ref.current?.check();
    });
    const expected = validateRecord(EVERY, { mob: '13812345678', ...initial }, { mode: 'submit' });
    expect(result?.ok).toBe(false);
    expect(result?.errors).toEqual(expected.errors);
    expect(Object.keys(expected.errors).sort()).toEqual(['items[0].qty', 'name']);
    expect(screen.getByTestId('diy-error-diy-name').textContent).toBe(
      fieldErrorText(expected.errors.name as never, '名称', 'zh-CN'),
    );
    expect(screen.getByTestId('diy-error-diy-items-0-qty').textContent).toBe('数量不能为空');
    expect(result?.messages.map((m) => m.text)).toEqual(['名称不能为空', '明细 第1行 数量不能为空']);
  });

  it('shows server errors by path under the field or cell and clears one when its field changes', () => {
    const errors = {
      name: { code: 'duplicate' as const, params: { value: '区发改委' } },
      'items[0].qty': { code: 'tooBig' as const, params: { max: 10 } },
      dept: ['部门选择的数据不存在或无权使用'],
    };
    render(
      wrap(<Harness design={EVERY} errors={errors} initial={{ name: '区发改委', items: [{ qty: 99 }] }} />),
    );
    expect(screen.getByTestId('diy-error-diy-name').textContent).toBe('名称已存在：区发改委');
    expect(screen.getByTestId('diy-error-diy-items-0-qty').textContent).toBe('数量不能大于10');
    expect(screen.getByTestId('diy-error-diy-dept').textContent).toBe('部门选择的数据不存在或无权使用');
    type(inputOf('name'), '区发改委二');
    expect(screen.queryByTestId('diy-error-diy-name')).toBeNull();
    type(screen.getByTestId('diy-input-diy-items-0-qty'), '8');
    expect(screen.queryByTestId('diy-error-diy-items-0-qty')).toBeNull();
    expect(screen.getByTestId('diy-error-diy-dept')).toBeTruthy();
  });

  it('reads the field errors of a failed save from the envelope', () => {
    expect(
      serverFieldErrors({ name: ['名称已存在：甲'], 'items[0].qty': ['明细 第1行 数量不能为空'] }),
    ).toEqual({
      name: ['名称已存在：甲'],
      'items[0].qty': ['明细 第1行 数量不能为空'],
    });
    expect(serverFieldErrors({ '': ['请求参数有误'] })).toBeNull();
    expect(serverFieldErrors('oops')).toBeNull();
  });

  it('uploads attachments of the accepted types up to the maximum and lists them by name', async () => {
    api.upload.mockImplementation(async (_file: Blob, fileName: string) => ({
      id: fileName === '报表.pdf' ? 51 : 52,
      url: '/api/sysFile/preview/51',
      fileName,
      suffix: '.pdf',
      size: 10,
      contentType: 'application/pdf',
    }));
    const files = design([{ id: 'files', type: 'attachment', label: '附件', accept: ['pdf'], maxFiles: 1 }]);
    const seen = vi.fn();
    render(wrap(<Harness design={files} seen={seen} />));
    const input = field('files').querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe('.pdf');
    const pdf = new File(['%PDF-1.4'], '报表.pdf', { type: 'application/pdf' });
    const exe = new File(['MZ'], '工具.exe', { type: 'application/octet-stream' });
    await act(async () => {
      fireEvent.change(input, { target: { files: [exe, pdf] } });
    });
    await waitFor(() => expect(seen).toHaveBeenLastCalledWith({ files: [51] }));
    expect(api.upload).toHaveBeenCalledTimes(1);
    expect(api.upload.mock.calls[0]?.[1]).toBe('报表.pdf');
    expect(await screen.findByText('报表.pdf')).toBeTruthy();
    // The maximum is reached: no more uploads offered.
    expect(field('files').querySelector('input[type="file"]')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: '移除' }));
    expect(seen).toHaveBeenLastCalledWith({ files: null });
  });

  it('shows values as text in view mode: labels, names and files', async () => {
    const values: RecordValues = {
      name: '区发改委',
      amt: 1234.5,
      pct: 12.5,
      sel: 'b',
      multi: ['a', 'b'],
      sex: '2',
      area: '310101002',
      dept: 21,
      who: 12,
      ent: 31,
      files: [41],
      qtr: '2026-Q3',
      cnt: 4,
      items: [{ qty: 2, price: 3 }],
      no: 'FR202611210001',
    };
    render(wrap(<FormRenderer design={EVERY} values={values} mode="view" recordId={7} />));
    const text = (id: string) => screen.getByTestId(`diy-view-diy-${id}`).textContent;
    expect(text('name')).toBe('区发改委');
    expect(text('amt')).toBe('1,234.50大写：壹仟贰佰叁拾肆元伍角');
    expect(text('pct')).toBe('12.50%');
    expect(text('sel')).toBe('乙');
    expect(text('multi')).toBe('甲、乙');
    expect(text('sex')).toBe('女');
    expect(text('qtr')).toBe('2026-Q3');
    expect(text('twice')).toBe('8');
    expect(text('no')).toBe('FR202611210001');
    expect(text('memo')).toBe('—');
    await waitFor(() => expect(text('area')).toBe('上海市 / 黄浦区 / 南京东路街道'));
    await waitFor(() => expect(text('who')).toBe('吴静'));
    expect(text('dept')).toBe('区发改委');
    expect(text('ent')).toBe('上海数智科技有限公司');
    await waitFor(() =>
      expect(within(screen.getByTestId('diy-view-diy-files')).getByText('统计表.xlsx')).toBeTruthy(),
    );
    expect(screen.getByTestId('diy-view-diy-items-0-sum').textContent).toBe('6.00');
    expect(screen.queryByRole('textbox')).toBeNull();
    // One request for the labels of the chosen user, not one per render.
    expect(api.pick.mock.calls.filter(([kind]) => kind === 'user')).toHaveLength(1);
  });
});
