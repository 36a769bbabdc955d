import { describe, expect, it } from 'vitest';
import { validateDesign } from './diy-design-check.ts';
import {
  carriedField,
  type FormDesign,
  type FormField,
  formDesignSchema,
  locationText,
  parseLocationText,
  storageKindOf,
} from './diy-form.ts';
import {
  defaultValues,
  fieldErrorText,
  labelOfPath,
  rowDefaultValues,
  showWhenHolds,
  validateRecord,
} from './diy-validate.ts';

const design = (fields: unknown[]): FormDesign => formDesignSchema.parse({ fields });

const sample = design([
  { id: 'title', type: 'section', label: '基本情况' },
  { id: 'name', type: 'text', label: '企业名称', required: true, maxLength: 20, unique: 'form' },
  { id: 'staff', type: 'integer', label: '职工人数', min: 0, max: 100000 },
  { id: 'revenue', type: 'money', label: '营业收入', precision: 2 },
  { id: 'rate', type: 'percent', label: '增长率', precision: 1 },
  {
    id: 'kind',
    type: 'radio',
    label: '类型',
    options: {
      source: 'options',
      items: [
        { label: '工业', value: 'i' },
        { label: '服务业', value: 's' },
      ],
    },
  },
  {
    id: 'scale',
    type: 'select',
    label: '规模',
    options: { source: 'dict', dictCode: 'scale' },
    showWhen: { rules: [{ field: 'kind', op: 'eq', value: 'i' }] },
    required: true,
  },
  {
    id: 'tags',
    type: 'checkbox',
    label: '标签',
    options: {
      source: 'options',
      items: [
        { label: 'A', value: 'a' },
        { label: 'B', value: 'b' },
      ],
    },
    max: 1,
  },
  { id: 'phone', type: 'mobile', label: '手机' },
  { id: 'idno', type: 'idCard', label: '身份证号' },
  { id: 'day', type: 'date', label: '填报日期', min: '2026-01-01' },
  { id: 'q', type: 'quarter', label: '季度' },
  { id: 'org', type: 'org', label: '所属机构' },
  { id: 'files', type: 'attachment', label: '附件', maxFiles: 2 },
  {
    id: 'items',
    type: 'subTable',
    label: '明细',
    minRows: 1,
    columns: [
      { id: 'qty', type: 'integer', label: '数量', required: true, min: 1 },
      { id: 'price', type: 'decimal', label: '单价' },
      { id: 'amount', type: 'formula', label: '金额', formula: '{qty} * {price}' },
    ],
  },
  { id: 'total', type: 'formula', label: '合计', formula: 'SUM({items.amount})' },
  { id: 'lines', type: 'formula', label: '行数', formula: 'COUNT({items})', precision: 0 },
  { id: 'no', type: 'serialNo', label: '编号' },
  {
    id: 'code',
    type: 'text',
    label: '代码',
    pattern: { regex: '^[A-Z]{2}\\d{4}$', message: '代码须为两位大写字母加四位数字' },
  },
]);

const dictOptions = (code: string) => (code === 'scale' ? new Set(['big', 'small']) : undefined);
const submit = (values: Record<string, unknown>) =>
  validateRecord(sample, values, { mode: 'submit', dictOptions });
const good = {
  name: '  黄浦精密机械有限公司 ',
  staff: '120',
  revenue: 1234.5,
  rate: 3.5,
  kind: 'i',
  scale: 'big',
  tags: ['a'],
  phone: '13812345678',
  idno: '11010519491231002x',
  day: '2026-03-31',
  q: '2026-Q1',
  org: '42',
  files: [7, '8'],
  items: [
    { qty: 2, price: 10.25 },
    { qty: '3', price: 1 },
  ],
  total: 999999,
  no: 'FAKE-1',
  code: 'AB1234',
  unknownField: 'dropped',
};

describe('record validation', () => {
  it('accepts a good record, normalises values and computes formulas itself', () => {
    const { values, errors } = submit(good);
    expect(errors).toEqual({});
    expect(values).toMatchObject({
      name: '黄浦精密机械有限公司',
      staff: 120,
      idno: '11010519491231002X',
      org: 42,
      files: [7, 8],
      items: [
        { qty: 2, price: 10.25, amount: 20.5 },
        { qty: 3, price: 1, amount: 3 },
      ],
      // The client's 999999 is not taken: the server's own sum is.
      total: 23.5,
      lines: 2,
    });
    expect(values).not.toHaveProperty('unknownField');
    expect(values).not.toHaveProperty('no');
    expect(values).not.toHaveProperty('title');
  });

  it('reports each broken rule under its field path', () => {
    const { errors } = submit({
      ...good,
      name: '',
      staff: 1.5,
      revenue: 1.234,
      kind: 'x',
      tags: ['a', 'b'],
      phone: '1381234',
      idno: '110105194912310021',
      day: '2025-12-31',
      q: '2026-Q5',
      org: 'abc',
      files: [1, 2, 3],
      items: [{ qty: 0, price: 1 }, { price: 2 }],
      code: 'ab12',
    });
    expect(errors).toEqual({
      name: { code: 'required' },
      staff: { code: 'type' },
      revenue: { code: 'precision', params: { precision: 2 } },
      kind: { code: 'option' },
      tags: { code: 'tooBig', params: { max: 1 } },
      phone: { code: 'format' },
      idno: { code: 'format' },
      day: { code: 'tooSmall', params: { min: '2026-01-01' } },
      q: { code: 'format' },
      org: { code: 'type' },
      files: { code: 'tooManyFiles', params: { max: 2 } },
      'items[0].qty': { code: 'tooSmall', params: { min: 1 } },
      'items[1].qty': { code: 'required' },
      code: { code: 'pattern', params: { message: '代码须为两位大写字母加四位数字' } },
    });
  });

  it('empties and skips hidden fields (show-when) and checks dictionary choices', () => {
    const hidden = submit({ ...good, kind: 's', scale: 'nonsense' });
    expect(hidden.errors).toEqual({});
    expect(hidden.values.scale).toBeNull();
    const shown = submit({ ...good, kind: 'i', scale: 'nonsense' });
    expect(shown.errors).toEqual({ scale: { code: 'option' } });
    expect(submit({ ...good, scale: undefined }).errors).toEqual({ scale: { code: 'required' } });
  });

  it('lets drafts miss required values and bounds but not hold values of the wrong kind', () => {
    const draft = validateRecord(
      sample,
      { staff: -5, items: [{}], revenue: 'abc' },
      { mode: 'draft', dictOptions },
    );
    expect(draft.errors).toEqual({ revenue: { code: 'type' } });
    expect(draft.values.staff).toBe(-5);
  });

  it('needs sub-table rows when asked to, and rejects rows that are not objects', () => {
    expect(submit({ ...good, items: [] }).errors).toEqual({
      items: { code: 'tooFewRows', params: { min: 1 } },
    });
    expect(submit({ ...good, items: 'rows' }).errors).toEqual({ items: { code: 'type' } });
    expect(submit({ ...good, items: [1, 2] }).errors).toEqual({ items: { code: 'type' } });
  });

  it('checks ID numbers and licence plates as stored, upper-case', () => {
    const plate = design([{ id: 'car', type: 'licensePlate', label: '车牌' }]);
    expect(validateRecord(plate, { car: '沪a12345' }, { mode: 'submit' })).toEqual({
      values: { car: '沪A12345' },
      errors: {},
    });
  });

  it('rejects objects and arrays where text belongs', () => {
    expect(submit({ ...good, name: { $gt: '' } }).errors).toEqual({ name: { code: 'type' } });
    expect(submit({ ...good, name: ['a'] }).errors).toEqual({ name: { code: 'type' } });
    expect(submit({ ...good, staff: Number.POSITIVE_INFINITY }).errors).toEqual({ staff: { code: 'type' } });
  });

  it('word errors in three languages and name sub-table cells', () => {
    expect(fieldErrorText({ code: 'required' }, '企业名称', 'zh-CN')).toBe('企业名称不能为空');
    expect(fieldErrorText({ code: 'tooBig', params: { max: 5 } }, 'Staff', 'en')).toBe(
      'Staff must be at most 5',
    );
    expect(fieldErrorText({ code: 'pattern', params: { message: '自定义' } }, '代码', 'zh-TW')).toBe(
      '自定义',
    );
    expect(labelOfPath(sample, 'items[1].qty', (n) => `第${n}行`)).toBe('明细 第2行 数量');
    expect(labelOfPath(sample, 'name')).toBe('企业名称');
  });
});

describe('show-when rules', () => {
  it('combine with and / or over single and multiple values', () => {
    const values = { a: '1', tags: ['x', 'y'], n: 5, e: null };
    expect(
      showWhenHolds(
        {
          logic: 'and',
          rules: [
            { field: 'a', op: 'eq', value: '1' },
            { field: 'n', op: 'gt', value: 3 },
          ],
        },
        values,
      ),
    ).toBe(true);
    expect(
      showWhenHolds(
        {
          logic: 'and',
          rules: [
            { field: 'a', op: 'eq', value: '1' },
            { field: 'n', op: 'lt', value: 3 },
          ],
        },
        values,
      ),
    ).toBe(false);
    expect(
      showWhenHolds(
        {
          logic: 'or',
          rules: [
            { field: 'e', op: 'notEmpty' },
            { field: 'tags', op: 'in', value: ['y'] },
          ],
        },
        values,
      ),
    ).toBe(true);
    expect(
      showWhenHolds(
        {
          logic: 'and',
          rules: [
            { field: 'e', op: 'empty' },
            { field: 'tags', op: 'notIn', value: ['z'] },
          ],
        },
        values,
      ),
    ).toBe(true);
  });
});

describe('defaults', () => {
  it('fill constants, the filler and today in the field’s own format', () => {
    const d = design([
      { id: 'a', type: 'text', label: 'A', default: { kind: 'constant', value: '无' } },
      { id: 'b', type: 'org', label: 'B', default: { kind: 'fillerOrg' } },
      { id: 'c', type: 'region', label: 'C', default: { kind: 'fillerRegion' } },
      { id: 'e', type: 'text', label: 'E', default: { kind: 'fillerName' } },
      { id: 'f', type: 'date', label: 'F', default: { kind: 'today' } },
      { id: 'g', type: 'quarter', label: 'G', default: { kind: 'today' } },
      { id: 'h', type: 'month', label: 'H', default: { kind: 'today' } },
    ]);
    const filler = { orgId: 9, regionCode: '310101', realName: '张三', userId: 1 };
    expect(
      defaultValues(d, filler, { year: 2026, month: 11, day: 21, hour: 9, minute: 30, second: 0 }),
    ).toEqual({
      a: '无',
      b: 9,
      c: '310101',
      e: '张三',
      f: '2026-11-21',
      g: '2026-Q4',
      h: '2026-11',
    });
  });

  it('fill the filing period in the field’s own format, and today on a form without periods', () => {
    const d = design([
      { id: 'm', type: 'month', label: 'M', default: { kind: 'period' } },
      { id: 'q', type: 'quarter', label: 'Q', default: { kind: 'period' } },
      { id: 'y', type: 'year', label: 'Y', default: { kind: 'period' } },
      { id: 'd', type: 'date', label: 'D', default: { kind: 'period' } },
      { id: 't', type: 'datetime', label: 'T', default: { kind: 'period' } },
    ]);
    const filler = { orgId: 9, regionCode: null, realName: '张三', userId: 1 };
    const today = { year: 2026, month: 11, day: 3, hour: 9, minute: 30, second: 0 };
    expect(defaultValues(d, filler, today, '2026-10-01')).toEqual({
      m: '2026-10',
      q: '2026-Q4',
      y: '2026',
      d: '2026-10-01',
      t: '2026-10-01 00:00:00',
    });
    expect(defaultValues(d, filler, today)).toMatchObject({
      m: '2026-11',
      d: '2026-11-03',
      t: '2026-11-03 09:30:00',
    });
  });

  it('start a new sub-table row with its columns’ defaults', () => {
    const [sub] = design([
      {
        id: 'items',
        type: 'subTable',
        label: '明细',
        columns: [
          { id: 'when', type: 'month', label: '月份', default: { kind: 'period' } },
          { id: 'who', type: 'text', label: '填表人', default: { kind: 'fillerName' } },
          { id: 'note', type: 'text', label: '备注' },
        ],
      },
    ]).fields;
    const filler = { orgId: 9, regionCode: null, realName: '张三', userId: 1 };
    const today = { year: 2026, month: 11, day: 3, hour: 0, minute: 0, second: 0 };
    expect(rowDefaultValues(sub as FormField, filler, today, '2026-10-01')).toEqual({
      when: '2026-10',
      who: '张三',
    });
    expect(rowDefaultValues({ columns: null }, filler, today)).toEqual({});
  });
});

describe('design validation', () => {
  it('accepts the sample design', () => {
    expect(validateDesign(sample)).toEqual([]);
  });

  it('finds duplicate ids, missing options, bad formulas, cycles, bad references and unsafe patterns', () => {
    const problems = validateDesign(
      design([
        { id: 'a', type: 'text', label: 'A' },
        { id: 'a', type: 'text', label: 'A2' },
        { id: 'b', type: 'select', label: 'B' },
        { id: 'c', type: 'formula', label: 'C', formula: '{d} + 1' },
        { id: 'd', type: 'formula', label: 'D', formula: '{c} * 2' },
        { id: 'e', type: 'formula', label: 'E', formula: 'SUM({nope.x}) +' },
        { id: 'f', type: 'formula', label: 'F', formula: '{ghost}' },
        { id: 'g', type: 'text', label: 'G', pattern: { regex: '(a+)+$' } },
        { id: 'h', type: 'integer', label: 'H', min: 10, max: 1 },
        { id: 'i', type: 'text', label: 'I', showWhen: { rules: [{ field: 'missing', op: 'empty' }] } },
        { id: 'j', type: 'subTable', label: 'J', columns: [{ id: 'k', type: 'subTable', label: 'K' }] },
        { id: 'l', type: 'subTable', label: 'L', columns: [] },
        { id: 'm', type: 'integer', label: 'M', default: { kind: 'constant', value: 'ten' } },
      ]),
    );
    const codes = problems.map((p) => `${p.fieldId}:${p.code}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'a:duplicateId',
        'b:noOptions',
        'c:formulaCycle',
        'e:badFormula',
        'f:formulaRef',
        'g:badPattern',
        'h:badBounds',
        'i:showWhenRef',
        'j.k:nestedSubTable',
        'l:noColumns',
        'm:badDefault',
      ]),
    );
  });
});

describe('location fields (issue 22 §3)', () => {
  const SUBMIT = { mode: 'submit' } as const;
  const spot = design([
    { id: 'spot', type: 'location', label: '位置', required: true },
    { id: 'rows', type: 'subTable', label: '点位', columns: [{ id: 'at', type: 'location', label: '坐标' }] },
  ]);

  it('stores latitude, longitude, accuracy and time, rounded, as JSON', () => {
    expect(storageKindOf('location')).toBe('json');
    const result = validateRecord(
      spot,
      {
        spot: {
          lat: 31.230416412,
          lng: 121.47370123,
          accuracy: 15.27,
          time: '2026-11-28T01:02:03.000Z',
          x: 1,
        },
        rows: [{ at: { lat: -33.8688, lng: 151.2093, accuracy: 8 } }],
      },
      SUBMIT,
    );
    expect(result.errors).toEqual({});
    expect(result.values).toEqual({
      spot: { lat: 31.2304164, lng: 121.4737012, accuracy: 15.3, time: '2026-11-28T01:02:03.000Z' },
      rows: [{ at: { lat: -33.8688, lng: 151.2093, accuracy: 8 } }],
    });
  });

  it('refuses what is no position and requires one when the field is required', () => {
    const bad = [
      { lat: 91, lng: 0, accuracy: 1 },
      { lat: 0, lng: 181, accuracy: 1 },
      { lat: 0, lng: 0, accuracy: -1 },
      { lat: '31', lng: 121, accuracy: 1 },
      { lat: 31, lng: 121 },
      { lat: 31, lng: 121, accuracy: 5, time: 'yesterday' },
      '31.2,121.4',
      [31, 121],
    ];
    for (const value of bad) {
      expect(validateRecord(spot, { spot: value }, SUBMIT).errors.spot).toEqual({ code: 'format' });
    }
    expect(validateRecord(spot, {}, SUBMIT).errors.spot).toEqual({ code: 'required' });
    expect(validateRecord(spot, {}, { mode: 'draft' }).errors).toEqual({});
  });

  it('writes and reads a location as one line of text, and is never carried to the next period', () => {
    const value = { lat: 31.2304164, lng: 121.4737012, accuracy: 15.3 };
    expect(locationText(value)).toBe('31.230416, 121.473701 ±15m');
    expect(parseLocationText('31.230416, 121.473701 ±15m')).toEqual({
      lat: 31.230416,
      lng: 121.473701,
      accuracy: 15,
    });
    expect(parseLocationText('31.2，121.4')).toEqual({ lat: 31.2, lng: 121.4, accuracy: 0 });
    expect(parseLocationText('上海市黄浦区')).toBeNull();
    expect(parseLocationText('95, 121')).toBeNull();
    expect(locationText('x')).toBe('');
    expect(carriedField({ type: 'location', default: null })).toBe(false);
  });
});
