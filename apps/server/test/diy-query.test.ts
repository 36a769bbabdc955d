import type { QueryData, QueryInfo } from '@shuzhi/contracts/diy-query';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import { apiCalls, authed, createTestApp, login, type TestApp } from './helpers.ts';
import { seededRecords } from './seeded-records.ts';

/**
 * Issue 21 §1, query reports: a report over two seeded forms (社区人口月报 and 安全生产检查记录) joined on the filing
 * unit and period, with computed columns, parameters, paging, grouping with subtotals and a total, checked
 * against figures worked out by hand from records written here; the caller's reach on every source; another
 * tenant's form refused; field names, formulas and parameter values that try to reach SQL or code refused or
 * inert; the .xlsx export read back.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let njd: string;
let gzl: string;
const POP = '社区人口月报';
const SAFE = '安全生产检查记录';
const NJD = '310101002';
const GRID_GZL_1 = '31010100200101';
const GRID_GZL_2 = '31010100200102';
const GRID_FZL_1 = '31010100200201';
const GRID_WT_1 = '31010101300101';
const periods: Record<string, number> = {};
let reportId: number;

const district = seededRecords(() => t.app, 9_100_000_000_000);
const { forms, orgs, record, period } = district;

const config = (over: Record<string, unknown> = {}) => ({
  sources: [
    { alias: 's1', tableId: forms[POP] },
    { alias: 's2', tableId: forms[SAFE] },
  ],
  join: 'unitPeriod',
  columns: [
    { id: 'c1', label: '单位', source: 's1', field: '$org' },
    { id: 'c2', label: '户籍', source: 's1', field: 'huji' },
    { id: 'c3', label: '来沪', source: 's1', field: 'liudong' },
    { id: 'c4', label: '合计人口', formula: '{c2} + {c3}' },
    { id: 'c5', label: '隐患数', source: 's2', field: 'count' },
    { id: 'c6', label: '周期', source: 's1', field: '$period' },
    { id: 'c7', label: '检查人', source: 's2', field: 'inspector' },
  ],
  params: [
    { id: 'p1', kind: 'period', label: '周期', source: 's1' },
    { id: 'p2', kind: 'org', label: '单位', source: 's1' },
    { id: 'p3', kind: 'keyword', label: '检查人', source: 's2', field: 'inspector' },
  ],
  sort: [{ column: 'c2', desc: true }],
  ...over,
});

const run = (token: string, params: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  api.ok<QueryData>(token, 'POST', `/api/diyQuery/${reportId}/data`, { params, ...extra });

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  njd = (await login(t.app, 'njdleader')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  await district.load();
  const db = t.app.ctx.db;
  const monthly = JSON.stringify({ kind: 'month', dueDays: 5, graceDays: 0, onePerOrg: false });
  await db
    .updateTable('diy_table')
    .set({ period: monthly })
    .where('id', 'in', [forms[POP] as number, forms[SAFE] as number])
    .execute();
  const pop = forms[POP] as number;
  const safe = forms[SAFE] as number;
  // The demo records of both forms are set aside: the figures below are those of the records written here.
  for (const id of [pop, safe])
    await db
      .updateTable(dataTableName(id) as 'diy_table')
      .set({ is_delete: 1 })
      .execute();
  periods.may = await period(pop, '2025-05', '2025-05-01', '2025-05-31');
  periods.apr = await period(pop, '2025-04', '2025-04-01', '2025-04-30');
  const safeMay = await period(safe, '2025-05', '2025-05-01', '2025-05-31');
  const safeApr = await period(safe, '2025-04', '2025-04-01', '2025-04-30');
  const may = { period_id: periods.may };
  await record(pop, GRID_GZL_1, 2, { huji: 100, liudong: 10 }, may);
  await record(pop, GRID_GZL_2, 1, { huji: 200, liudong: 20 }, may);
  await record(pop, GRID_FZL_1, 0, { huji: 999, liudong: 1 }, may);
  await record(pop, GRID_WT_1, 2, { huji: 50, liudong: 5 }, may);
  await record(pop, GRID_WT_1, 2, { huji: 7777 }, { ...may, is_delete: 1 });
  await record(pop, GRID_GZL_1, 2, { huji: 80, liudong: 8 }, { period_id: periods.apr });
  await record(safe, GRID_GZL_1, 2, { count: 3, inspector: '王检查员' }, { period_id: safeMay });
  await record(safe, GRID_WT_1, 2, { count: 1, inspector: '李检查员' }, { period_id: safeMay });
  await record(safe, GRID_GZL_1, 2, { count: 7, inspector: '王检查员' }, { period_id: safeApr });
  await record(safe, GRID_GZL_2, 0, { count: 100, inspector: '草稿' }, { period_id: safeMay });

  reportId = await api.ok<number>(admin, 'POST', '/api/diyQuery/add', {
    title: '人口与安全检查',
    config: config(),
  });
});

afterAll(async () => {
  await t?.close();
});

describe('a query report over two forms', () => {
  it('is an item of type 3 and opens at the load table by its kind', async () => {
    const item = await t.app.ctx.db
      .selectFrom('diy_table')
      .select(['report_type', 'version'])
      .where('id', '=', reportId)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ report_type: 3, version: 1 });
    expect(await api.ok(admin, 'GET', `/api/diyLoad/${reportId}/kind`)).toEqual({ reportType: 3 });
    const info = await api.ok<QueryInfo>(admin, 'GET', `/api/diyQuery/${reportId}/config`);
    expect(info.sources.map((s) => s.title)).toEqual([POP, SAFE]);
    expect(info.columns.find((c) => c.id === 'c4')?.kind).toBe('number');
    expect(info.paramOptions.p1?.map((o) => o.value)).toEqual(
      expect.arrayContaining([String(periods.may), String(periods.apr)]),
    );
  });

  it('joins on unit and period, computes columns, sorts, totals and pages', async () => {
    const d = await run(admin, { p1: String(periods.may) });
    expect(d.count).toBe(3);
    expect(
      d.rows.map((r) => [r.cells.c1, r.cells.c2, r.cells.c3, r.cells.c4, r.cells.c5, r.cells.c7]),
    ).toEqual([
      [GRID_GZL_2, 200, 20, 220, null, null],
      [GRID_GZL_1, 100, 10, 110, 3, '王检查员'],
      [GRID_WT_1, 50, 5, 55, 1, '李检查员'],
    ]);
    expect(d.rows[0]?.cells.c6).toBe('2025-05');
    expect(d.total).toMatchObject({ c2: 350, c3: 35, c4: 385, c5: 4 });
    const apr = await run(admin, { p1: periods.apr });
    expect(apr.rows.map((r) => [r.cells.c2, r.cells.c5])).toEqual([[80, 7]]);
    const second = await run(admin, { p1: String(periods.may) }, { page: 2, pageSize: 2 });
    expect(second.count).toBe(3);
    expect(second.rows.map((r) => r.cells.c2)).toEqual([50]);
  });

  it('narrows by the org subtree and by keyword through the search index', async () => {
    const street = await run(admin, { p1: String(periods.may), p2: String(orgs[NJD]) });
    expect(street.rows.map((r) => r.cells.c1)).toEqual([GRID_GZL_2, GRID_GZL_1]);
    const keyword = await run(admin, { p3: '王检查' });
    expect(keyword.rows.map((r) => [r.cells.c2, r.cells.c7])).toEqual([
      [100, '王检查员'],
      [80, '王检查员'],
    ]);
  });

  it('groups by two columns with subtotals and a grand total', async () => {
    await api.ok(admin, 'POST', '/api/diyQuery/update', {
      id: reportId,
      config: config({ groupBy: ['c6', 'c1'], sort: [] }),
    });
    const d = await run(admin, {});
    const shape = d.rows.map((r) => [
      r.kind,
      r.cells.c6,
      r.kind === 'row' ? r.cells.c1 : null,
      r.cells.c2,
      r.cells.c4,
    ]);
    expect(shape).toEqual([
      ['row', '2025-05', GRID_GZL_1, 100, 110],
      ['row', '2025-05', GRID_GZL_2, 200, 220],
      ['row', '2025-05', GRID_WT_1, 50, 55],
      ['subtotal', '2025-05', null, 350, 385],
      ['row', '2025-04', GRID_GZL_1, 80, 88],
      ['subtotal', '2025-04', null, 80, 88],
    ]);
    expect(d.count).toBe(4);
    expect(d.total).toMatchObject({ c2: 430, c4: 473, c5: 11 });
    // A page that ends inside a group leaves its subtotal to the next page.
    const first = await run(admin, {}, { pageSize: 2 });
    expect(first.rows.map((r) => r.kind)).toEqual(['row', 'row']);
    const next = await run(admin, {}, { page: 2, pageSize: 2 });
    expect(next.rows.map((r) => r.kind)).toEqual(['row', 'subtotal', 'row', 'subtotal']);
    await api.ok(admin, 'POST', '/api/diyQuery/update', { id: reportId, config: config() });
  });

  it('exports every row with the total as an .xlsx that reads back', async () => {
    const res = await authed(t.app, admin, {
      method: 'POST',
      url: `/api/diyQuery/${reportId}/export`,
      payload: { params: { p1: String(periods.may) } },
    });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    const rows: unknown[][] = [];
    sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['单位', '户籍', '来沪', '合计人口', '隐患数', '周期', '检查人']);
    expect(rows.slice(1, 4).map((r) => r.slice(0, 4))).toEqual([
      [GRID_GZL_2, 200, 20, 220],
      [GRID_GZL_1, 100, 10, 110],
      [GRID_WT_1, 50, 5, 55],
    ]);
    expect(rows[4]?.slice(0, 5)).toEqual(['合计', 350, 35, 385, 4]);
  });
});

describe('who sees what', () => {
  it('refuses callers outside the report’s viewers', async () => {
    expect(await api.code(gzl, 'GET', `/api/diyQuery/${reportId}/config`)).toBe('Q1000');
    expect(await api.code(gzl, 'POST', `/api/diyQuery/${reportId}/data`, {})).toBe('Q1000');
    expect(await api.code(gzl, 'GET', `/api/diyLoad/${reportId}/kind`)).toBe('F1000');
  });

  it('reads every source within the caller’s reach', async () => {
    const street = { all: false, orgIds: [orgs[NJD]], roleIds: [], userIds: [], enterprises: false };
    await api.ok(admin, 'POST', '/api/diyTable/update', { id: reportId, viewers: street });
    await t.app.ctx.db
      .updateTable('diy_table')
      .set({ viewers: JSON.stringify(street) })
      .where('id', 'in', [forms[POP] as number, forms[SAFE] as number])
      .execute();
    const d = await run(njd, { p1: String(periods.may) });
    expect(d.rows.map((r) => r.cells.c1)).toEqual([GRID_GZL_2, GRID_GZL_1]);
    expect(d.total).toMatchObject({ c2: 300, c5: 3 });
  });

  it('refuses a source of another tenant and forms the caller does not administer', async () => {
    const foreign = district.newId();
    await t.app.ctx.db
      .insertInto('diy_table')
      .values({
        id: foreign,
        create_time: '2025-01-01 00:00:00',
        is_delete: 0,
        tenant_id: 42,
        title: '他人表单',
        report_type: 1,
        status: 1,
        fillers: '{}',
        viewers: '{}',
        reviewer_ids: '[]',
        needs_review: 0,
        draft_revision: 0,
        version: 1,
        order_no: 1,
        record_count: 0,
      } as never)
      .execute();
    const sources = [
      { alias: 's1', tableId: forms[POP] },
      { alias: 's2', tableId: foreign },
    ];
    expect(
      await api.code(admin, 'POST', '/api/diyQuery/add', { title: 'x', config: config({ sources }) }),
    ).toBe('Q1001');
    expect(await api.code(njd, 'POST', '/api/diyQuery/add', { title: 'x', config: config() })).toBe('Q1001');
    // A query report is no source.
    const self = [{ alias: 's1', tableId: reportId }];
    expect(
      await api.code(admin, 'POST', '/api/diyQuery/add', {
        title: 'x',
        config: config({ sources: self, params: [] }),
      }),
    ).toBe('Q1001');
  });
});

describe('injection', () => {
  it('refuses field names and formulas that are not the forms’ own', async () => {
    const add = (over: Record<string, unknown>) =>
      api.envelope(admin, 'POST', '/api/diyQuery/add', { title: 'x', config: config(over) });
    const sqlName = await add({
      columns: [{ id: 'c1', label: 'x', source: 's1', field: 'huji; drop table sys_user' }],
    });
    expect(sqlName.code).toBe(400);
    const unknown = await add({
      columns: [{ id: 'c1', label: 'x', source: 's1', field: 'nosuch' }],
      sort: [],
    });
    expect(unknown.code).toBe('Q1002');
    expect(Object.keys(unknown.errors ?? {})).toEqual(['config.columns.0.field']);
    const code = await add({
      columns: [
        { id: 'c1', label: 'x', source: 's1', field: 'huji' },
        { id: 'c2', label: 'y', formula: 'process.exit(1)' },
        { id: 'c3', label: 'z', formula: '{constructor} + {c1}' },
      ],
      sort: [{ column: 'c2' }],
    });
    expect(code.code).toBe('Q1002');
    expect(Object.keys(code.errors ?? {}).sort()).toEqual([
      'config.columns.1.formula',
      'config.columns.2.formula',
      'config.sort.0.column',
    ]);
    const column = await add({ columns: [{ id: 'c1;--', label: 'x', source: 's1', field: 'huji' }] });
    expect(column.code).toBe(400);
  });

  it('binds parameter values: SQL in them matches nothing and changes nothing', async () => {
    const evil = "'; drop table sys_user; --";
    expect((await run(admin, { p3: evil })).rows).toEqual([]);
    expect(await api.code(admin, 'POST', `/api/diyQuery/${reportId}/data`, { params: { p2: evil } })).toBe(
      'Q1003',
    );
    expect(
      await api.code(admin, 'POST', `/api/diyQuery/${reportId}/data`, { params: { p1: '1 or 1=1' } }),
    ).toBe('Q1003');
    const users = await t.app.ctx.db.selectFrom('sys_user').select('id').execute();
    expect(users.length).toBeGreaterThan(0);
  });
});
