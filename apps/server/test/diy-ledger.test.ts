import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_BATCH } from '../src/modules/diy-ledger/diy-ledger.service.ts';
import type { AnyDb } from '../src/platform/diy/data-table.ts';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 6 §3: the Excel ledger of a form (`POST /api/diyTable/export_ledger`): the record page's filters and
 * reach, two header rows for sections and sub-tables, labels for coded values, real dates and numbers, one
 * line per sub-table row; the file read back with exceljs and converted by LibreOffice when it is installed.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let qy: string;
let orgs: Record<string, number>;
let formId: number;
const ids: number[] = [];

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'sec', type: 'section', label: '经营情况' },
    { id: 'staff', type: 'integer', label: '人数' },
    { id: 'revenue', type: 'money', label: '收入' },
    { id: 'rate', type: 'percent', label: '增长率', precision: 1 },
    { id: 'day', type: 'date', label: '日期' },
    { id: 'at', type: 'datetime', label: '核查时间' },
    {
      id: 'kind',
      type: 'select',
      label: '门类',
      options: {
        source: 'options',
        items: [
          { value: 'a', label: '工业' },
          { value: 'b', label: '建筑业' },
        ],
      },
    },
    { id: 'sex', type: 'radio', label: '性别', options: { source: 'dict', dictCode: 'sex' } },
    {
      id: 'tags',
      type: 'checkbox',
      label: '标签',
      options: {
        source: 'options',
        items: [
          { value: 't1', label: '高新' },
          { value: 't2', label: '外资' },
        ],
      },
    },
    { id: 'area', type: 'region', label: '区域' },
    { id: 'org', type: 'org', label: '主管单位' },
    {
      id: 'items',
      type: 'subTable',
      label: '明细',
      columns: [
        { id: 'item', type: 'text', label: '品名' },
        { id: 'qty', type: 'integer', label: '数量' },
      ],
    },
  ],
  numbering: { prefix: 'TZ-', datePart: 'none', digits: 3 },
};

type Sheet = { rows: unknown[][]; numFmts: (string | undefined)[]; merges: string[] };

async function exportLedger(token: string, input: Record<string, unknown>) {
  return authed(t.app, token, { method: 'POST', url: '/api/diyTable/export_ledger', payload: input });
}

async function readSheet(buffer: Buffer): Promise<Sheet> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as never);
  const sheet = book.worksheets[0] as ExcelJS.Worksheet;
  const rows: unknown[][] = [];
  const numFmts: (string | undefined)[] = [];
  sheet.eachRow({ includeEmpty: true }, (row, n) => {
    const cells: unknown[] = [];
    for (let c = 1; c <= sheet.columnCount; c++) {
      const cell = row.getCell(c);
      cells.push(cell.isMerged && cell.master !== cell ? null : (cell.value ?? null));
      if (n === 3) numFmts.push(cell.numFmt);
    }
    rows[n - 1] = cells;
  });
  const merges = Object.keys((sheet as unknown as { _merges: Record<string, unknown> })._merges ?? {});
  return { rows, numFmts, merges };
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.app.ctx.db;
  await db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
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
  qy = (await login(t.app, 'qyfiller')).accessToken;
  orgs = Object.fromEntries(
    (await db.selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '台账/测试:表',
    fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
  const records = [
    {
      values: {
        name: '华兴公司',
        staff: 120,
        revenue: 12345.6,
        rate: 12.5,
        day: '2026-03-15',
        at: '2026-03-15 09:30:00',
        kind: 'b',
        sex: '2',
        tags: ['t1', 't2'],
        area: '310101',
        org: orgs['HPQ-FGW'],
        items: [
          { item: '钢材', qty: 3 },
          { item: '水泥', qty: 7 },
        ],
      },
      submit: true,
    },
    { values: { name: '恒信商行', staff: 8, kind: 'a' }, submit: false },
  ];
  for (const record of records)
    ids.push(await api.ok<number>(admin, 'POST', `/api/diyData/${formId}/add`, record));
});

afterAll(async () => {
  await t?.close();
});

describe('export_ledger', () => {
  it('streams an .xlsx of the filtered records: two header rows, labels, dates and numbers', async () => {
    const response = await exportLedger(admin, { tableId: formId });
    expect(response.statusCode).toBe(200);
    expect(String(response.headers['content-type'])).toContain('spreadsheetml');
    expect(String(response.headers['content-disposition'])).toContain(
      `filename*=UTF-8''${encodeURIComponent('台账/测试:表').replace(/'/g, '%27')}`,
    );
    const { rows, numFmts, merges } = await readSheet(response.rawPayload);
    expect(rows[0]).toEqual([
      '编号',
      '状态',
      '填报人',
      '填报单位',
      '提交时间',
      '名称',
      '经营情况',
      ...Array(9).fill(null),
      '明细',
      null,
    ]);
    expect(rows[1]?.slice(6)).toEqual([
      '人数',
      '收入',
      '增长率',
      '日期',
      '核查时间',
      '门类',
      '性别',
      '标签',
      '区域',
      '主管单位',
      '品名',
      '数量',
    ]);
    expect(merges).toEqual(expect.arrayContaining(['A1', 'F1', 'G1', 'Q1']));
    // Ids ascending: the submitted record (two sub-table rows → two lines), then the draft.
    expect(rows).toHaveLength(5);
    const [first, second, draft] = [rows[2], rows[3], rows[4]] as unknown[][];
    expect(first[0]).toBe('TZ-001');
    expect(first.slice(1, 4)).toEqual(['已提交', '系统管理员', expect.any(String)]);
    expect(first[4]).toBeInstanceOf(Date);
    expect(first.slice(5)).toEqual([
      '华兴公司',
      120,
      12345.6,
      12.5,
      new Date(Date.UTC(2026, 2, 15)),
      new Date(Date.UTC(2026, 2, 15, 9, 30)),
      '建筑业',
      '女',
      '高新、外资',
      '上海市/市辖区/黄浦区',
      '区发展和改革委员会',
      '钢材',
      3,
    ]);
    expect(second).toEqual([first[0], ...Array(15).fill(null), '水泥', 7]);
    expect(draft.slice(0, 2)).toEqual([null, '草稿']);
    expect(draft.slice(5, 7)).toEqual(['恒信商行', 8]);
    expect(draft[11]).toBe('工业');
    expect(numFmts.slice(4, 11)).toEqual([
      'yyyy-mm-dd hh:mm:ss',
      undefined,
      '0',
      '#,##0.00',
      '0.0"%"',
      'yyyy-mm-dd',
      'yyyy-mm-dd hh:mm:ss',
    ]);
  });

  it('applies the record page filters; an empty result is the header only', async () => {
    const submitted = await readSheet((await exportLedger(admin, { tableId: formId, status: 1 })).rawPayload);
    expect(submitted.rows.slice(2).map((r) => r[5])).toEqual(['华兴公司', null]);
    const byField = await readSheet(
      (await exportLedger(admin, { tableId: formId, filters: [{ field: 'kind', op: 'eq', value: 'a' }] }))
        .rawPayload,
    );
    expect(byField.rows.slice(2).map((r) => r[5])).toEqual(['恒信商行']);
    const keyword = await readSheet(
      (await exportLedger(admin, { tableId: formId, keyword: '恒信' })).rawPayload,
    );
    expect(keyword.rows).toHaveLength(3);
    const none = await exportLedger(admin, { tableId: formId, keyword: '没有这样的记录' });
    expect(none.statusCode).toBe(200);
    expect((await readSheet(none.rawPayload)).rows).toHaveLength(2);
  });

  it('reads batch after batch in id order, every live record once', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '批量台账',
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: { fields: [{ id: 'n', type: 'integer', label: '序号' }] },
      publish: true,
    });
    const form = await t.app.ctx.db
      .selectFrom('diy_table')
      .select(['tenant_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const count = LEDGER_BATCH * 2 + 345;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: 5_000_000 + i,
      tenant_id: form.tenant_id,
      version: 1,
      status: 2,
      create_time: '2026-01-01 00:00:00',
      is_delete: i === 7 ? 1 : 0,
      f_n: i,
    }));
    for (let i = 0; i < rows.length; i += 200) {
      await (t.app.ctx.db as unknown as AnyDb)
        .insertInto(`diy_data_${id}`)
        .values(rows.slice(i, i + 200))
        .execute();
    }
    const sheet = await readSheet((await exportLedger(admin, { tableId: id })).rawPayload);
    expect(sheet.rows[0]?.slice(5)).toEqual(['序号']);
    const numbers = sheet.rows.slice(1).map((r) => r[5]);
    expect(numbers).toEqual(Array.from({ length: count }, (_, i) => i).filter((i) => i !== 7));
  });

  it('refuses callers without the export right, unknown forms and badly typed filters', async () => {
    // qyfiller fills the form (enterprises admitted) but is no viewer, reviewer or admin, nor holds diyReport:export.
    const auth = await api.ok<{ item: { myAuth: { add: boolean; export: boolean } } }>(
      qy,
      'GET',
      `/api/diyData/${formId}/design`,
    );
    expect(auth.item.myAuth).toMatchObject({ add: true, export: false });
    expect(body(await exportLedger(qy, { tableId: formId })).code).toBe('F1001');
    expect(body(await exportLedger(admin, { tableId: 987654321 })).code).toBe('F1000');
    for (const bad of [
      {},
      { tableId: 'abc' },
      { tableId: formId, status: 'x' },
      { tableId: formId, filters: 'kind' },
      { tableId: formId, filters: [{ field: 'kind', op: 'like', value: 'a' }] },
      { tableId: formId, createTime: 'yesterday' },
      { tableId: formId, mine: 'yes' },
    ]) {
      const env = body(await exportLedger(admin, bad));
      expect(env.code, JSON.stringify(bad)).toBe(400);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/diyTable/export_ledger',
      payload: { tableId: formId },
    });
    expect(body(anonymous).code).toBe(401);
  });

  it('opens in LibreOffice with the same values', async (context) => {
    let soffice: string;
    try {
      soffice = execFileSync('sh', ['-c', 'command -v soffice || command -v libreoffice'], {
        encoding: 'utf8',
      }).trim();
    } catch {
      soffice = '';
    }
    if (!soffice) {
      context.skip('LibreOffice is not installed (.ci/run installs it)');
      return;
    }
    const dir = mkdtempSync(join(tmpdir(), 'ledger-'));
    try {
      const file = join(dir, 'ledger.xlsx');
      writeFileSync(file, (await exportLedger(admin, { tableId: formId })).rawPayload);
      execFileSync(
        soffice,
        [
          `-env:UserInstallation=file://${dir}/profile`,
          '--headless',
          '--convert-to',
          'csv:Text - txt - csv (StarCalc):44,34,76,1',
          '--outdir',
          dir,
          file,
        ],
        { timeout: 120_000, stdio: 'ignore' },
      );
      const lines = parseCsv(readFileSync(join(dir, 'ledger.csv'), 'utf8'));
      expect(lines[0]?.slice(5, 7)).toEqual(['名称', '经营情况']);
      expect(lines[1]?.slice(6, 8)).toEqual(['人数', '收入']);
      expect(lines[2]?.slice(5)).toEqual([
        '华兴公司',
        '120',
        '12,345.60',
        '12.5%',
        '2026-03-15',
        '2026-03-15 09:30:00',
        '建筑业',
        '女',
        '高新、外资',
        '上海市/市辖区/黄浦区',
        '区发展和改革委员会',
        '钢材',
        '3',
      ]);
      expect(lines[3]?.slice(16)).toEqual(['水泥', '7']);
      expect(lines[4]?.slice(1, 2)).toEqual(['草稿']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** RFC 4180 lines (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const out: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      out.push(row);
      row = [];
      cell = '';
    } else cell += c;
  }
  if (cell || row.length) {
    row.push(cell);
    out.push(row);
  }
  return out;
}
