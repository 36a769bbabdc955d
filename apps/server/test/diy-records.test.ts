import type { DiyRecord, RecordHistory } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wallClockAt } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 5, records of report forms (`/api/diyData/{tableId}/…`): every field type and rule with good and bad
 * inputs, the database checks, formulas and serial numbers set by the server, history, and who sees what.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let qy: string;
let qy2: string;
let fgw: string;
let orgs: Record<string, number>;
let users: Record<string, number>;
let formId: number;
let gzlFile: number;
let fgwFile: number;

const options = (items: [string, string][]) => ({
  source: 'options',
  items: items.map(([value, label]) => ({ value, label })),
});

const DESIGN = {
  fields: [
    { id: 'sec', type: 'section', label: '基本情况' },
    { id: 'name', type: 'text', label: '单位名称', required: true, unique: 'form', maxLength: 20 },
    { id: 'memo', type: 'textarea', label: '备注', maxLength: 50 },
    { id: 'staff', type: 'integer', label: '职工人数', min: 0, max: 1000, required: true },
    { id: 'price', type: 'decimal', label: '单价', precision: 2 },
    { id: 'revenue', type: 'money', label: '营业收入', moneyCapital: true },
    { id: 'rate', type: 'percent', label: '增长率', precision: 1 },
    { id: 'day', type: 'date', label: '填报日期', min: '2020-01-01' },
    { id: 'at', type: 'datetime', label: '检查时间' },
    { id: 'mon', type: 'month', label: '月份' },
    { id: 'qtr', type: 'quarter', label: '季度' },
    { id: 'yr', type: 'year', label: '年度' },
    {
      id: 'kind',
      type: 'select',
      label: '类型',
      options: options([
        ['i', '工业'],
        ['s', '服务业'],
      ]),
    },
    {
      id: 'tags',
      type: 'multiSelect',
      label: '标签',
      options: options([
        ['a', '甲'],
        ['b', '乙'],
      ]),
    },
    { id: 'sex', type: 'radio', label: '负责人性别', options: { source: 'dict', dictCode: 'sex' } },
    { id: 'sexes', type: 'checkbox', label: '员工性别', options: { source: 'dict', dictCode: 'sex' } },
    { id: 'area', type: 'region', label: '所在区域' },
    { id: 'org', type: 'org', label: '主管机构' },
    { id: 'who', type: 'user', label: '联系人' },
    { id: 'ent', type: 'enterprise', label: '企业' },
    { id: 'mobile', type: 'mobile', label: '手机' },
    { id: 'tel', type: 'landline', label: '座机' },
    { id: 'idno', type: 'idCard', label: '身份证号' },
    { id: 'mail', type: 'email', label: '邮箱' },
    { id: 'site', type: 'url', label: '网址' },
    { id: 'zip', type: 'postcode', label: '邮编' },
    { id: 'plate', type: 'licensePlate', label: '车牌' },
    { id: 'files', type: 'attachment', label: '附件', maxFiles: 2 },
    { id: 'pics', type: 'image', label: '图片' },
    { id: 'rich', type: 'richText', label: '说明' },
    {
      id: 'items',
      type: 'subTable',
      label: '明细',
      columns: [
        { id: 'item', type: 'text', label: '品名', required: true },
        { id: 'cnt', type: 'integer', label: '数量', min: 0 },
        { id: 'owner', type: 'user', label: '经办人' },
      ],
    },
    { id: 'total', type: 'formula', label: '合计数量', formula: 'SUM({items.cnt})', precision: 0 },
    { id: 'lines', type: 'formula', label: '行数', formula: 'COUNT({items})', precision: 0 },
    { id: 'sn', type: 'serialNo', label: '编号' },
    { id: 'note', type: 'staticText', label: '提示', content: '请如实填写' },
    {
      id: 'code',
      type: 'text',
      label: '代码',
      pattern: { regex: '^[A-Z]{3}$', message: '代码须为三位大写字母' },
    },
  ],
  numbering: { prefix: 'QY', datePart: 'yyyy', digits: 4 },
};

function good(name: string): Record<string, unknown> {
  return {
    name,
    memo: '  正常经营  ',
    staff: '120',
    price: 12.5,
    revenue: '1,000,000.50',
    rate: 3.5,
    day: '2026-03-01',
    at: '2026-03-01 09:30',
    mon: '2026-03',
    qtr: '2026-Q1',
    yr: '2026',
    kind: 'i',
    tags: ['a', 'b'],
    sex: '1',
    sexes: ['1', '2'],
    area: '310101',
    org: orgs['310101002'],
    who: users.gzlstaff,
    ent: orgs['91310101MA1FP7K316'],
    mobile: '13800138000',
    tel: '021-63211234',
    idno: '310101198607082374',
    mail: 'hr@example.com',
    site: 'https://example.com/a',
    zip: '200001',
    plate: '沪A12345',
    files: [gzlFile],
    pics: [],
    rich: '<p>说明</p>',
    items: [
      { item: '钢材', cnt: 3, owner: users.gzlstaff },
      { item: '水泥', cnt: '4' },
    ],
    total: 9999,
    lines: 42,
    sn: 'FAKE-1',
    code: 'ABC',
  };
}

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };

async function add(token: string, values: Record<string, unknown>, submit = true, id = formId) {
  return (await api.envelope(token, 'POST', `/api/diyData/${id}/add`, { values, submit })) as Envelope;
}

async function insertFile(userId: number, orgId: number): Promise<number> {
  const id = t.app.ctx.newId();
  await t.app.ctx.db
    .insertInto('sys_file')
    .values({
      id,
      create_time: '2026-01-01 00:00:00',
      create_user_id: userId,
      is_delete: 0,
      tenant_id: (
        await t.app.ctx.db
          .selectFrom('sys_user')
          .select('tenant_id')
          .where('id', '=', userId)
          .executeTakeFirstOrThrow()
      ).tenant_id,
      provider: 'local',
      file_name: 'a.pdf',
      suffix: 'pdf',
      file_path: 'x/a.pdf',
      size: 10,
      is_public: 0,
      create_org_id: orgId,
    } as never)
    .execute();
  return id;
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  await db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  // The test app starts without regions: one district for the region field.
  await db
    .insertInto('sys_region')
    .values({
      id: t.app.ctx.newId(),
      create_time: '2026-01-01 00:00:00',
      is_delete: 0,
      pid: 0,
      code: '310101',
      name: '黄浦区',
      level: 3,
      full_code: '310000,310100,310101',
      full_name: '上海市/市辖区/黄浦区',
      is_local: 1,
      order_no: 1,
    } as never)
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  qy = (await login(t.app, 'qyfiller')).accessToken;
  qy2 = (await login(t.app, 'qyfiller2')).accessToken;
  fgw = (await login(t.app, 'fgwstaff')).accessToken;
  orgs = Object.fromEntries(
    (await db.selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  users = Object.fromEntries(
    (await db.selectFrom('sys_user').select(['id', 'account']).execute()).map((r) => [r.account, r.id]),
  );
  gzlFile = await insertFile(users.gzlstaff as number, orgs['310101002001'] as number);
  fgwFile = await insertFile(users.fgwstaff as number, orgs['HPQ-FGW'] as number);

  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '企业经营情况',
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
});

afterAll(async () => {
  await t?.close();
});

describe('filing a record with every field type', () => {
  it('stores normalised values, computes formulas and the serial number, labels coded values', async () => {
    const env = await add(gzl, good('甲企业'));
    expect(env.code, JSON.stringify(env)).toBe(200);
    const id = env.result as number;
    const record = await api.ok<DiyRecord>(gzl, 'GET', `/api/diyData/${formId}/detail?id=${id}`);
    const year = wallClockAt().year;
    expect(record).toMatchObject({ status: 1, version: 1, dataNo: `QY${year}0001`, createUserName: '吴静' });
    expect(record.can).toEqual({ update: true, delete: true, submit: false, audit: false });
    expect(record.values).toMatchObject({
      name: '甲企业',
      memo: '正常经营',
      staff: 120,
      price: 12.5,
      revenue: 1000000.5,
      at: '2026-03-01 09:30:00',
      qtr: '2026-Q1',
      tags: ['a', 'b'],
      sexes: ['1', '2'],
      area: '310101',
      plate: '沪A12345',
      files: [gzlFile],
      pics: null,
      items: [
        { item: '钢材', cnt: 3, owner: users.gzlstaff },
        { item: '水泥', cnt: 4, owner: null },
      ],
      // Formulas and the serial number come from the server, whatever the client sent.
      total: 7,
      lines: 2,
      sn: `QY${year}0001`,
    });
    expect(record.values).not.toHaveProperty('sec');
    expect(record.values).not.toHaveProperty('note');
    expect(record.labels).toMatchObject({
      kind: '工业',
      tags: '甲、乙',
      sex: '男',
      sexes: '男、女',
      area: '上海市/市辖区/黄浦区',
      org: '南京东路街道',
      who: '吴静',
    });
    const second = await add(gzl, good('乙企业'));
    expect(second.code).toBe(200);
    const next = await api.ok<DiyRecord>(gzl, 'GET', `/api/diyData/${formId}/${second.result}`);
    expect(next.dataNo).toBe(`QY${year}0002`);
  });

  it('answers wrong kinds, missing required values and broken rules as field errors', async () => {
    const wrong = await add(gzl, {
      ...good('丙企业'),
      staff: 'abc',
      tags: 'a',
      files: [-1],
      items: 'rows',
      day: '2026-02-30',
      who: 'someone',
    });
    expect(wrong.code).toBe(400);
    expect(wrong.errors).toMatchObject({
      staff: ['职工人数的值类型不正确'],
      tags: ['标签的值类型不正确'],
      files: ['附件的值类型不正确'],
      items: ['明细的值类型不正确'],
      day: ['填报日期格式不正确'],
      who: ['联系人的值类型不正确'],
    });

    const missing = await add(gzl, { ...good(''), staff: null, items: [{ cnt: 1 }] });
    expect(missing.errors).toMatchObject({
      name: ['单位名称不能为空'],
      staff: ['职工人数不能为空'],
      'items[0].item': ['明细 第1行 品名不能为空'],
    });

    const rules = await add(gzl, {
      ...good('丁企业'),
      staff: 5000,
      price: 1.234,
      day: '2019-12-31',
      memo: 'x'.repeat(51),
      code: 'abc',
      kind: 'x',
      sex: '9',
      mobile: '123',
      tel: '12',
      idno: '310101198607082375',
      mail: 'nope',
      site: 'example',
      zip: '2000',
      plate: 'ABC',
      files: [gzlFile, gzlFile + 1, gzlFile + 2],
      items: [{ item: '钢材', cnt: -1 }],
    });
    expect(rules.code).toBe(400);
    expect(rules.errors).toMatchObject({
      staff: ['职工人数不能大于1000'],
      price: ['单价最多2位小数'],
      day: ['填报日期不能小于2020-01-01'],
      memo: ['备注最多50个字符'],
      code: ['代码须为三位大写字母'],
      kind: ['类型的选项无效'],
      sex: ['负责人性别的选项无效'],
      mobile: ['手机格式不正确'],
      tel: ['座机格式不正确'],
      idno: ['身份证号格式不正确'],
      mail: ['邮箱格式不正确'],
      site: ['网址格式不正确'],
      zip: ['邮编格式不正确'],
      plate: ['车牌格式不正确'],
      files: ['附件最多2个文件'],
      'items[0].cnt': ['明细 第1行 数量不能小于0'],
    });
    const english = await api.call(gzl, 'POST', `/api/diyData/${formId}/add`, {
      values: { ...good(''), staff: 1 },
      submit: true,
    });
    expect(english.json().errors.name).toEqual(['单位名称不能为空']);
    const en = await t.app.inject({
      method: 'POST',
      url: `/api/diyData/${formId}/add`,
      headers: { authorization: `Bearer ${gzl}`, 'accept-language': 'en' },
      payload: { values: { ...good(''), staff: 1 }, submit: true },
    });
    expect(en.json().errors.name).toEqual(['单位名称 is required']);
    // Nothing was written by the refused submissions.
    const page = await api.ok<PageResult<DiyRecord>>(gzl, 'POST', `/api/diyData/${formId}/page`, {
      keyword: '丁企业',
    });
    expect(page.total).toBe(0);
  });

  it('checks what needs the database: picked orgs, users, enterprises, regions, files, unique values', async () => {
    const bad = await add(gzl, {
      ...good('戊企业'),
      org: 987654,
      who: 987654,
      ent: orgs['310101'],
      area: '999999',
      files: [fgwFile],
      items: [{ item: '钢材', owner: 987654 }],
    });
    expect(bad.code).toBe(400);
    expect(bad.errors).toMatchObject({
      org: ['主管机构选择的数据不存在或无权使用'],
      who: ['联系人选择的数据不存在或无权使用'],
      ent: ['企业选择的数据不存在或无权使用'],
      area: ['所在区域选择的数据不存在或无权使用'],
      files: ['附件选择的数据不存在或无权使用'],
      'items[0].owner': ['明细 第1行 经办人选择的数据不存在或无权使用'],
    });
    // An enterprise user may name only their own enterprise and its people.
    const other = await add(qy, {
      ...good('己企业'),
      files: [],
      org: null,
      who: null,
      ent: orgs['91310101MA1G0XQ514'],
      items: [],
    });
    expect(other.errors).toMatchObject({ ent: ['企业选择的数据不存在或无权使用'] });
    const dup = await add(fgw, { ...good('甲企业'), files: [] });
    expect(dup.errors).toMatchObject({ name: ['单位名称已存在：甲企业'] });
  });

  it('keeps drafts with missing values, checks them fully on submit, and records every step', async () => {
    const draft = await add(gzl, { name: '草稿企业', staff: 'x' }, false);
    expect(draft.errors).toMatchObject({ staff: ['职工人数的值类型不正确'] });
    const id = (await add(gzl, { name: '草稿企业' }, false)).result as number;
    const saved = await api.ok<DiyRecord>(gzl, 'GET', `/api/diyData/${formId}/${id}`);
    expect(saved).toMatchObject({ status: 0, dataNo: null });
    expect(saved.can.submit).toBe(true);
    const refused = await api.envelope(gzl, 'PUT', `/api/diyData/${formId}/update`, {
      id,
      values: { name: '草稿企业' },
      submit: true,
    });
    expect(refused.code).toBe(400);
    await api.ok(gzl, 'PUT', `/api/diyData/${formId}/put`, {
      id,
      values: { ...good('草稿企业'), staff: 8 },
      submit: true,
    });
    const history = await api.ok<RecordHistory[]>(gzl, 'GET', `/api/diyData/${formId}/history?id=${id}`);
    expect(history.map((h) => h.action)).toEqual(['create', 'update', 'submit']);
    // Formulas count from the start: an empty sub-table sums to 0.
    expect(history[0]?.changes).toEqual([
      { field: 'name', label: '单位名称', before: null, after: '草稿企业' },
      { field: 'total', label: '合计数量', before: null, after: 0 },
      { field: 'lines', label: '行数', before: null, after: 0 },
    ]);
    expect(history[1]?.changes).toContainEqual({ field: 'staff', label: '职工人数', before: null, after: 8 });
    expect(history[1]?.userName).toBe('吴静');
    expect(await api.code(gzl, 'PUT', `/api/diyData/${formId}/update`, { values: {} })).toBe(400);
  });
});

describe('serial numbers', () => {
  it('numbers concurrent submissions uniquely and without gaps; a refused submission takes no number', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '编号并发',
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: {
        fields: [
          { id: 'name', type: 'text', label: '名称', required: true },
          { id: 'sn', type: 'serialNo', label: '编号' },
        ],
        numbering: { prefix: 'BH-', datePart: 'none', digits: 3 },
      },
      publish: true,
    });
    const refused = await add(gzl, { name: '' }, true, id);
    expect(refused.code).toBe(400);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => add(i % 2 ? gzl : fgw, { name: `单位${i}` }, true, id)),
    );
    expect(results.map((r) => r.code)).toEqual(Array(20).fill(200));
    const page = await api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${id}/page`, {
      pageSize: 50,
    });
    expect(page.items.map((r) => r.dataNo).sort()).toEqual(
      Array.from({ length: 20 }, (_, i) => `BH-${String(i + 1).padStart(3, '0')}`),
    );
    expect(page.items.every((r) => r.values.sn === r.dataNo)).toBe(true);
    const form = await api.ok<{ recordCount: number }>(admin, 'GET', `/api/diyTable/detail?id=${id}`);
    expect(form.recordCount).toBe(20);
  });

  it('lets only one of several simultaneous submissions of the same unique value through', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => add(i % 2 ? gzl : fgw, { ...good('同时提交'), files: [] })),
    );
    expect(results.filter((r) => r.code === 200)).toHaveLength(1);
    expect(
      results.filter((r) => r.code === 400).every((r) => r.errors?.name?.[0] === '单位名称已存在：同时提交'),
    ).toBe(true);
  });
});

describe('who sees and changes what', () => {
  it('shows fillers their own org’s records, enterprise users their enterprise’s, viewers by scope', async () => {
    const mine = (await add(gzl, { ...good('可见性企业'), files: [] })).result as number;
    const theirs = (await add(qy, { ...good('企业自填'), files: [], org: null, who: null, items: [] }))
      .result as number;
    expect(typeof theirs).toBe('number');
    // fgwstaff fills the same form but sees only their org's records.
    const fgwPage = await api.ok<PageResult<DiyRecord>>(fgw, 'POST', `/api/diyData/${formId}/page`, {});
    expect(fgwPage.items.every((r) => r.createOrgId === orgs['HPQ-FGW'])).toBe(true);
    expect(await api.code(fgw, 'GET', `/api/diyData/${formId}/${mine}`)).toBe('F1008');
    expect(
      await api.code(fgw, 'PUT', `/api/diyData/${formId}/update`, {
        id: mine,
        values: good('改'),
        submit: false,
      }),
    ).toBe('F1008');
    expect(await api.code(fgw, 'DELETE', `/api/diyData/${formId}/${mine}`)).toBe('F1008');
    // The enterprise sees its own record only; another enterprise's user does not.
    const qyList = await api.ok<DiyRecord[]>(qy, 'GET', `/api/diyData/${formId}/list`);
    expect(qyList.map((r) => r.id)).toEqual([theirs]);
    expect(await api.code(qy2, 'GET', `/api/diyData/${formId}/detail?id=${theirs}`)).toBe('F1008');
    // The tenant admin (scope all) sees everything.
    const all = await api.ok<PageResult<DiyRecord>>(admin, 'GET', `/api/diyData/${formId}/page?pageSize=100`);
    expect(all.items.map((r) => r.id)).toEqual(expect.arrayContaining([mine, theirs]));
    // Nonsense ids answer clean errors.
    expect(await api.code(gzl, 'GET', `/api/diyData/123/page`)).toBe('F1000');
    expect(await api.code(gzl, 'GET', `/api/diyData/${formId}/detail?id=1`)).toBe('F1008');
    expect(await api.code(gzl, 'GET', `/api/diyData/${formId}/detail`)).toBe(400);
  });

  it('shows viewers the records of their data scope, read-only', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '街道查看',
      fillers: {
        all: false,
        orgIds: [orgs['310101002001'], orgs['HPQ-FGW']],
        roleIds: [],
        userIds: [],
        enterprises: false,
      },
      viewers: { all: false, orgIds: [orgs['310101002']], roleIds: [], userIds: [], enterprises: false },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: { fields: [{ id: 'name', type: 'text', label: '名称' }] },
      publish: true,
    });
    const inside = await api.ok<number>(gzl, 'POST', `/api/diyData/${id}/add`, { values: { name: '居委' } });
    await api.ok<number>(fgw, 'POST', `/api/diyData/${id}/add`, { values: { name: '发改委' } });
    // njdleader: 南京东路街道, data scope "own org and below" — sees the community's record, not the commission's.
    const njd = (await login(t.app, 'njdleader')).accessToken;
    const seen = await api.ok<DiyRecord[]>(njd, 'GET', `/api/diyData/${id}/list`);
    expect(seen.map((r) => r.id)).toEqual([inside]);
    expect(seen[0]?.can).toEqual({ update: false, delete: false, submit: false, audit: false });
    const design = await api.ok<{ item: { myAuth: Record<string, boolean> } }>(
      njd,
      'GET',
      `/api/diyData/${id}/design`,
    );
    expect(design.item.myAuth).toMatchObject({
      query: true,
      add: false,
      update: false,
      delete: false,
      export: true,
    });
    expect(await api.code(njd, 'POST', `/api/diyData/${id}/add`, { values: { name: 'x' } })).toBe('F1001');
    expect(
      await api.code(njd, 'PUT', `/api/diyData/${id}/update`, { id: inside, values: { name: 'x' } }),
    ).toBe('F1001');
  });

  it('answers bad inputs on every record route with a validation failure or a catalogue code', async () => {
    const cases: [string, string, unknown, number | string][] = [
      ['POST', `/api/diyData/${formId}/page`, { pageSize: 0 }, 400],
      ['POST', `/api/diyData/${formId}/page`, { filters: [{ field: 'staff', op: 'near' }] }, 400],
      ['POST', `/api/diyData/${formId}/page`, { filters: [{ field: 'nope', op: 'eq', value: 1 }] }, 200],
      [
        'POST',
        `/api/diyData/${formId}/page`,
        { filters: [{ field: 'staff', op: 'between', value: 'x' }] },
        200,
      ],
      ['POST', `/api/diyData/${formId}/page`, { field: 'nope', order: 'ascending' }, 200],
      ['GET', `/api/diyData/${formId}/page?page=abc`, undefined, 400],
      ['GET', `/api/diyData/${formId}/list?status=x`, undefined, 400],
      ['GET', `/api/diyData/${formId}/detail?id=-1`, undefined, 400],
      ['GET', `/api/diyData/${formId}/history?id=1`, undefined, 'F1008'],
      ['GET', `/api/diyData/${formId}/history`, undefined, 400],
      ['GET', `/api/diyData/${formId}/design?version=99`, undefined, 'F1002'],
      ['GET', `/api/diyData/${formId}/design?version=x`, undefined, 400],
      ['POST', `/api/diyData/${formId}/add`, {}, 400],
      ['POST', `/api/diyData/${formId}/add`, { values: [] }, 400],
      ['POST', `/api/diyData/${formId}/add`, { values: { staff: { a: 1 } }, submit: 'yes' }, 400],
      ['PUT', `/api/diyData/${formId}/update`, { id: 1, values: {} }, 'F1008'],
      ['PUT', `/api/diyData/${formId}/put`, { id: 'x', values: {} }, 400],
      ['DELETE', `/api/diyData/${formId}/delete`, undefined, 400],
      ['DELETE', `/api/diyData/${formId}/delete?id=1`, undefined, 'F1008'],
      ['DELETE', `/api/diyData/${formId}/1`, undefined, 'F1008'],
      ['GET', '/api/diyData/0/page', undefined, 400],
      ['GET', '/api/diyData/99999999999999999999/page', undefined, 400],
    ];
    for (const [method, url, payload, expected] of cases) {
      const env = await api.envelope(gzl, method as 'GET', url, payload);
      expect(env.code, `${method} ${url} ${JSON.stringify(payload)}`).toBe(expected);
    }
  });

  it('refuses forms the caller may not fill, unpublished or disabled forms, and approved records', async () => {
    const closed = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '仅发改委填报',
      fillers: { all: false, orgIds: [orgs['HPQ-FGW']], roleIds: [], userIds: [], enterprises: false },
      needsReview: false,
    });
    expect(await api.code(fgw, 'POST', `/api/diyData/${closed}/page`, {})).toBe('F1002');
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id: closed,
      design: { fields: [{ id: 'name', type: 'text', label: '名称', required: true }] },
      publish: true,
    });
    expect(await api.code(gzl, 'POST', `/api/diyData/${closed}/add`, { values: { name: 'x' } })).toBe(
      'F1000',
    );
    const id = await api.ok<number>(fgw, 'POST', `/api/diyData/${closed}/add`, {
      values: { name: '发改委数据' },
      submit: true,
    });
    const approved = await api.ok<DiyRecord>(fgw, 'GET', `/api/diyData/${closed}/${id}`);
    expect(approved.status).toBe(2);
    expect(approved.can).toMatchObject({ update: false, delete: false });
    expect(
      await api.code(fgw, 'PUT', `/api/diyData/${closed}/update`, {
        id,
        values: { name: '改' },
        submit: true,
      }),
    ).toBe('F1009');
    expect(await api.code(fgw, 'DELETE', `/api/diyData/${closed}/delete?id=${id}`)).toBe('F1009');
    await api.ok(admin, 'POST', '/api/diyTable/update', { id: closed, status: 2 });
    expect(await api.code(fgw, 'POST', `/api/diyData/${closed}/page`, {})).toBe('F1003');
  });

  it('finds a record by the label of an option it holds: a choice, a multiple choice, a dictionary', async () => {
    const extra = { files: [], pics: [] };
    const one = (
      await add(gzl, { ...good('选项一号'), ...extra, kind: 's', tags: ['b'], sex: '2', sexes: ['2'] })
    ).result as number;
    const two = (
      await add(gzl, { ...good('选项二号'), ...extra, kind: 'i', tags: ['a'], sex: '1', sexes: ['1'] })
    ).result as number;
    const found = async (keyword: string) =>
      (
        await api.ok<PageResult<DiyRecord>>(gzl, 'POST', `/api/diyData/${formId}/page`, {
          keyword,
          pageSize: 100,
        })
      ).items.map((r) => r.id);
    // 服务业 and 工业 are the labels of kind's options s and i; 乙 of tags' b; 女 of the sex dictionary's 2.
    for (const [keyword, hit, miss] of [
      ['服务业', one, two],
      ['工业', two, one],
      ['乙', one, two],
      ['女', one, two],
    ] as const) {
      const ids = await found(keyword);
      expect(ids, keyword).toContain(hit);
      expect(ids, keyword).not.toContain(miss);
    }
    // The texts still match as before, and a label of nothing held finds nothing of these two.
    expect(await found('选项一')).toEqual([one]);
    const none = await found('其他');
    expect(none).not.toContain(one);
    expect(none).not.toContain(two);
  });

  it('deletes own records softly, searches, filters, sorts and pages', async () => {
    const a = (await add(gzl, { ...good('排序甲'), staff: 30, kind: 's', files: [] })).result as number;
    const b = (await add(gzl, { ...good('排序乙'), staff: 10, files: [] })).result as number;
    const c = (await add(gzl, { ...good('排序丙'), staff: 20, files: [] })).result as number;
    const sorted = await api.ok<PageResult<DiyRecord>>(gzl, 'POST', `/api/diyData/${formId}/page`, {
      keyword: '排序',
      field: 'staff',
      order: 'ascending',
      pageSize: 2,
    });
    expect(sorted.total).toBe(3);
    expect(sorted.items.map((r) => r.id)).toEqual([b, c]);
    const filtered = await api.ok<PageResult<DiyRecord>>(gzl, 'POST', `/api/diyData/${formId}/page`, {
      keyword: '排序',
      filters: [
        { field: 'staff', op: 'between', value: [15, 40] },
        { field: 'kind', op: 'in', value: ['s'] },
      ],
    });
    expect(filtered.items.map((r) => r.id)).toEqual([a]);
    const tagged = await api.ok<PageResult<DiyRecord>>(gzl, 'POST', `/api/diyData/${formId}/page`, {
      keyword: '排序',
      filters: [{ field: 'tags', op: 'in', value: ['b'] }],
    });
    expect(tagged.total).toBe(3);
    await api.ok(gzl, 'DELETE', `/api/diyData/${formId}/delete`, { ids: [a, b] });
    const left = await api.ok<PageResult<DiyRecord>>(gzl, 'GET', `/api/diyData/${formId}/page?keyword=排序`);
    expect(left.items.map((r) => r.id)).toEqual([c]);
    const history = await t.app.ctx.db
      .selectFrom('diy_record_history')
      .select('action')
      .where('record_id', '=', a)
      .orderBy('id')
      .execute();
    expect(history.map((h) => h.action)).toContain('delete');
    expect(await api.code(gzl, 'GET', `/api/diyData/${formId}/${a}`)).toBe('F1008');
  });
});
