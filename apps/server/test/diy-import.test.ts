import type { ImportJob } from '@shuzhi/contracts/diy-import';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { apiCalls, authed, body, createTestApp, login, TEST_HASH_COST, type TestApp } from './helpers.ts';
import { multipart } from './upload.fixture.ts';
import { zip } from './zip.fixture.ts';

/**
 * Issue 6 §4/§7: Excel import. Workbooks are made here with exceljs (or by hand for broken zips): wrong
 * types, missing required cells, unknown labels, extra columns, duplicates in the file and against live
 * records, zip bombs, files that are no workbook, another user's job, confirming twice, and the round trip
 * ledger export → import into a copy of the form.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let qy: string;
let formId: number;
let copyId: number;
let orgs: Record<string, number>;

const fillers = { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true };
const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'code', type: 'text', label: '代码', unique: 'form' },
    { id: 'sec', type: 'section', label: '经营情况' },
    { id: 'staff', type: 'integer', label: '人数', min: 0 },
    { id: 'revenue', type: 'money', label: '收入' },
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
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
  numbering: { prefix: 'IM-', datePart: 'none', digits: 4 },
};

async function book(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('数据');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function upload(token: string, tableId: number, data: Buffer, name = 'data.xlsx') {
  const { payload, headers } = multipart(name, data);
  return body<{ jobId: number }>(
    await authed(t.app, token, { method: 'POST', url: `/api/diyImport/${tableId}/upload`, payload, headers }),
  );
}

async function settled(token: string, jobId: number): Promise<ImportJob> {
  for (let i = 0; i < 400; i++) {
    const job = await api.ok<ImportJob>(token, 'GET', `/api/diyImport/job/${jobId}`);
    if (job.state !== 'checking' && job.state !== 'importing') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('job did not settle');
}

async function checked(token: string, tableId: number, data: Buffer) {
  const env = await upload(token, tableId, data);
  expect(env.code, JSON.stringify(env)).toBe(200);
  return settled(token, (env.result as { jobId: number }).jobId);
}

const HEADER_TOP = ['名称', '代码', '经营情况', null, null, null, null, null, null, null, null, '明细', null];
const HEADER_BOTTOM = [
  null,
  null,
  '人数',
  '收入',
  '日期',
  '核查时间',
  '门类',
  '性别',
  '标签',
  '区域',
  '主管单位',
  '品名',
  '数量',
];

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
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title: '导入测试', fillers });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
  copyId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title: '导入测试副本', fillers });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: copyId, design: DESIGN, publish: true });
  await api.ok(admin, 'POST', `/api/diyData/${formId}/add`, {
    values: {
      name: '华兴公司',
      code: 'C-EXIST',
      staff: 120,
      revenue: 12345.6,
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
  });
});

afterAll(async () => {
  await t?.close();
});

describe('template', () => {
  it('has the header rows of the ledger without system columns, notes and drop-downs', async () => {
    const response = await authed(t.app, admin, { method: 'GET', url: `/api/diyImport/${formId}/template` });
    expect(response.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(response.rawPayload as never);
    const sheet = wb.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(1).getCell(1).value).toBe('名称');
    expect(sheet.getRow(1).getCell(3).value).toBe('经营情况');
    expect(sheet.getRow(2).getCell(7).value).toBe('门类');
    expect(String(sheet.getRow(1).getCell(1).note)).toContain('必填');
    expect(String(sheet.getRow(2).getCell(7).note)).toContain('工业');
    const validation = (sheet as unknown as { dataValidations: { model: Record<string, { type: string }> } })
      .dataValidations.model;
    expect(Object.values(validation).some((v) => v.type === 'list')).toBe(true);
    expect(wb.worksheets[1]?.state).toBe('veryHidden');
  });
});

describe('upload and check', () => {
  it('reports wrong types, missing required cells, unknown labels, extra columns and duplicates', async () => {
    const data = await book([
      [...HEADER_TOP, '多余列'],
      [...HEADER_BOTTOM, null],
      ['甲公司', 'C-1', 10, 100, '2026-03-01', null, '工业', '男', '高新', '黄浦区', null, '钢材', 1, 'x'],
      [null, null, null, null, null, null, null, null, null, null, null, '水泥', 2],
      ['乙公司', 'C-2', 'abc', null, null, null, '工业', null, null, null, null, null, null],
      [null, 'C-3', 5, null, null, null, null, null, null, null, null, null, null],
      ['丙公司', 'C-4', 5, null, null, null, null, '未知', null, null, null, null, null],
      ['丁公司', 'C-1', 5, null, null, null, null, null, null, null, null, null, null],
      ['戊公司', 'C-EXIST', 5, null, null, null, null, null, null, null, null, null, null],
      ['己公司', 'C-5', -1, null, '2026/3/5', null, '建筑业', null, '高新、外资', '上海市/市辖区/黄浦区'],
    ]);
    const job = await checked(admin, formId, data);
    expect(job.state).toBe('checked');
    expect(job.extraColumns).toEqual(['多余列']);
    expect(job.missingColumns).toEqual([]);
    expect(job.processed).toBe(8);
    expect(job.valid).toBe(1);
    expect(job.invalid).toBe(6);
    expect(job.duplicates).toBe(2);
    const byRow = (row: number) => job.errors.filter((e) => e.row === row);
    expect(byRow(5)).toEqual([expect.objectContaining({ column: '人数' })]);
    expect(byRow(6)).toEqual([expect.objectContaining({ column: '名称' })]);
    expect(byRow(7)[0]?.message).toContain('未知');
    expect(byRow(8)[0]?.message).toContain('第3行');
    expect(byRow(9)[0]?.message).toContain('已有记录');
    expect(byRow(10)).toEqual([expect.objectContaining({ column: '人数' })]);
    expect(byRow(3)).toEqual([]);

    const response = await authed(t.app, admin, {
      method: 'GET',
      url: `/api/diyImport/job/${job.id}/errors`,
    });
    expect(response.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(response.rawPayload as never);
    const sheet = wb.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.getRow(2).getCell(15).value).toBe('错误原因');
    expect(sheet.rowCount).toBe(2 + 6);
    const bad = sheet.getRow(3);
    expect(bad.getCell(1).value).toBe('乙公司');
    expect(bad.getCell(3).value).toBe('abc');
    expect((bad.getCell(3).fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFC7CE');
    expect(String(bad.getCell(3).note)).toContain('人数');
    expect(String(bad.getCell(15).value)).toContain('人数');
  });

  it('refuses files that are no workbook, zip bombs, and sheets with no matching column', async () => {
    const text = await upload(admin, formId, Buffer.from('名称,代码\n甲,1\n'), 'fake.xlsx');
    expect(text.code).toBe('F1030');
    const docx = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ]);
    expect((await upload(admin, formId, docx, 'report.xlsx')).code).toBe('F1030');
    const bomb = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(20 * 1024 * 1024) },
    ]);
    expect((await upload(admin, formId, bomb, 'bomb.xlsx')).code).toBe('F1031');
    const liar = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(10), declaredSize: 0xfff0_0000 },
    ]);
    expect((await upload(admin, formId, liar, 'liar.xlsx')).code).toBe('F1031');
    const unrelated = await book([
      ['甲', '乙'],
      [1, 2],
    ]);
    expect((await upload(admin, formId, unrelated)).code).toBe('F1032');
  });

  it('answers a job only to its owner, confirms once, writes records with history and numbers', async () => {
    const data = await book([
      ['名称', '代码', '人数', '门类'],
      ['庚公司', 'C-10', 3, '工业'],
      ['辛公司', 'C-11', 4, '建筑业'],
    ]);
    const job = await checked(admin, formId, data);
    expect(job.valid).toBe(2);
    expect(job.missingColumns).toEqual([]);
    expect(await api.code(qy, 'GET', `/api/diyImport/job/${job.id}`)).toBe('F1033');
    expect(await api.code(qy, 'POST', `/api/diyImport/job/${job.id}/confirm`, {})).toBe('F1033');
    const first = await api.ok<ImportJob>(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, {});
    expect(first.state).toBe('importing');
    expect(await api.code(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, {})).toBe('F1034');
    const done = await settled(admin, job.id);
    expect(done.state).toBe('done');
    expect(done.inserted).toBe(2);
    expect(await api.code(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, {})).toBe('F1034');
    const errors = await authed(t.app, admin, { method: 'GET', url: `/api/diyImport/job/${job.id}/errors` });
    expect(errors.statusCode, errors.body.slice(0, 500)).toBe(200);
    expect(errors.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const rows = (await t.app.ctx.db
      .selectFrom(`diy_data_${formId}` as never)
      .select(['id', 'status', 'data_no'] as never)
      .where('is_delete' as never, '=', 0 as never)
      .orderBy('id' as never)
      .execute()) as { id: number; status: number; data_no: string }[];
    expect(rows).toHaveLength(3);
    expect(rows.slice(1).map((r) => r.data_no)).toEqual(['IM-0002', 'IM-0003']);
    const history = await t.app.ctx.db
      .selectFrom('diy_record_history')
      .select(['action'])
      .where('record_id', '=', Number(rows[1]?.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['import']);
    const form = await t.app.ctx.db
      .selectFrom('diy_table')
      .select('record_count')
      .where('id', '=', formId)
      .executeTakeFirstOrThrow();
    expect(form.record_count).toBe(3);
    // The same file again: every row now repeats a record.
    const again = await checked(admin, formId, data);
    expect(again.valid).toBe(0);
    expect(again.duplicates).toBe(2);
    expect(await api.code(admin, 'POST', `/api/diyImport/job/${again.id}/confirm`, {})).toBe('F1035');
    expect((await api.ok<ImportJob>(admin, 'POST', `/api/diyImport/job/${again.id}/cancel`)).state).toBe(
      'cancelled',
    );
    expect(await api.code(admin, 'POST', `/api/diyImport/job/${again.id}/confirm`, {})).toBe('F1034');
  });
});

describe('a process that stops', () => {
  it('leaves no job importing: a restart fails its jobs (F1039), a job another live process holds runs on', async () => {
    const data = await book([
      ['名称', '代码'],
      ['重启公司', 'C-90'],
    ]);
    const dead = await checked(admin, formId, data);
    const held = await checked(admin, formId, data);
    const db = t.app.ctx.db;
    // As a crash leaves them: importing, one with no lease, one whose process is alive elsewhere.
    await db
      .updateTable('diy_import_job')
      .set({ state: 'importing' })
      .where('id', 'in', [dead.id, held.id])
      .execute();
    await db
      .insertInto('sys_job_lease')
      .values({
        name: `import:${held.id}`,
        holder: 'other-node',
        expires_at: Date.now() + 60_000,
        acquired_time: null,
      })
      .execute();
    expect(await api.code(admin, 'POST', `/api/diyImport/job/${held.id}/cancel`)).toBe('F1034');

    const restarted = await buildApp({
      config: t.config,
      logger: false,
      cachePrefix: t.testEnv.cachePrefix,
      passwordHashing: TEST_HASH_COST,
      regionSource: null,
      seed: false,
    });
    await restarted.ready();
    const states = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('diy_import_job')
            .select(['id', 'state', 'failure'])
            .where('id', 'in', [dead.id, held.id])
            .execute()
        ).map((r) => [Number(r.id), r]),
      );
    try {
      const after = await states();
      expect(after[dead.id]).toMatchObject({
        state: 'failed',
        failure: '导入因服务重启而中断，未写入任何数据，请重新导入',
      });
      expect(after[held.id]?.state).toBe('importing');
    } finally {
      await restarted.close();
    }
    expect((await api.ok<ImportJob>(admin, 'GET', `/api/diyImport/job/${dead.id}`)).state).toBe('failed');
    expect((await api.ok<ImportJob>(admin, 'POST', `/api/diyImport/job/${dead.id}/cancel`)).state).toBe(
      'cancelled',
    );
    // The other process dies too: once its lease runs out, the next look at the job fails it.
    await db
      .updateTable('sys_job_lease')
      .set({ expires_at: Date.now() - 1 })
      .where('name', '=', `import:${held.id}`)
      .execute();
    const orphan = await api.ok<ImportJob>(admin, 'GET', `/api/diyImport/job/${held.id}`);
    expect(orphan.state).toBe('failed');
    expect(orphan.failure).toBe('导入因服务重启而中断，未写入任何数据，请重新导入');
    // Started again, the import goes through.
    const again = await checked(admin, formId, data);
    expect(again.valid).toBe(1);
    await api.ok(admin, 'POST', `/api/diyImport/job/${again.id}/confirm`, {});
    expect((await settled(admin, again.id)).inserted).toBe(1);
    const leases = await db
      .selectFrom('sys_job_lease')
      .select('name')
      .where('name', 'like', 'import:%')
      .execute();
    expect(leases.map((l) => l.name)).toEqual([`import:${held.id}`]);
  });
});

describe('write time', () => {
  it('writes nothing when a unique value was filed by someone else after the check', async () => {
    const job = await checked(
      admin,
      formId,
      await book([
        ['名称', '代码'],
        ['壬公司', 'C-RACE'],
        ['癸公司', 'C-RACE2'],
      ]),
    );
    expect(job.valid).toBe(2);
    await api.ok(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: '抢先公司', code: 'C-RACE2' },
      submit: true,
    });
    await api.ok(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, { submit: false });
    const failed = await settled(admin, job.id);
    expect(failed.state).toBe('failed');
    expect(failed.failure).toContain('代码');
    const names = await api.ok<{ values: { name: string } }[]>(admin, 'GET', `/api/diyData/${formId}/list`);
    expect(names.map((r) => r.values.name)).not.toContain('壬公司');
  });
});

describe('periodic forms', () => {
  it('files rows to the current period, one record per unit, and refuses a period for other forms', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '月报导入',
      fillers,
      period: { kind: 'month', dueDays: 10, graceDays: 0, onePerOrg: true },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: { fields: [{ id: 'n', type: 'integer', label: '数量', required: true }] },
      publish: true,
    });
    const job = await checked(admin, id, await book([['数量'], [1], [2]]));
    expect(job.state).toBe('checked');
    expect(job.periodId).not.toBeNull();
    expect(job.valid).toBe(1);
    expect(job.errors).toEqual([expect.objectContaining({ row: 3, column: null })]);
    await api.ok(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, {});
    expect((await settled(admin, job.id)).state).toBe('done');
    const rows = (await t.app.ctx.db
      .selectFrom(`diy_data_${id}` as never)
      .select(['period_id'] as never)
      .execute()) as { period_id: number }[];
    expect(rows.map((r) => Number(r.period_id))).toEqual([job.periodId]);
    // Filed already: the next file is refused row by row.
    expect((await checked(admin, id, await book([['数量'], [3]]))).valid).toBe(0);

    const { payload, headers } = multipart('x.xlsx', await book([['名称'], ['甲']]), undefined, {
      periodId: '1',
    });
    const refused = body(
      await authed(t.app, admin, {
        method: 'POST',
        url: `/api/diyImport/${formId}/upload`,
        payload,
        headers,
      }),
    );
    expect(refused.code).toBe('F1027');
  });

  it('fills blank cells and missing columns with the field defaults, 本期 included', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '月报导入（默认值）',
      fillers,
      period: { kind: 'month', dueDays: 10, graceDays: 0, onePerOrg: false },
    });
    const design = {
      fields: [
        { id: 'n', type: 'integer', label: '数量', required: true },
        { id: 'month', type: 'month', label: '统计月份', required: true, default: { kind: 'period' } },
        { id: 'who', type: 'text', label: '填报人', required: true, default: { kind: 'fillerName' } },
        { id: 'unit', type: 'text', label: '计量单位', default: { kind: 'constant', value: '件' } },
        {
          id: 'lines',
          type: 'subTable',
          label: '明细',
          columns: [
            { id: 'what', type: 'text', label: '品名', required: true },
            { id: 'pack', type: 'text', label: '包装', default: { kind: 'constant', value: '吨' } },
            { id: 'when', type: 'month', label: '月份', default: { kind: 'period' } },
          ],
        },
      ],
    };
    await api.ok(admin, 'PUT', '/api/diyTable/design', { id, design, publish: true });
    // The template says what a blank cell takes.
    const template = await authed(t.app, admin, { method: 'GET', url: `/api/diyImport/${id}/template` });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(template.rawPayload as never);
    const header = (wb.worksheets[0] as ExcelJS.Worksheet).getRow(1);
    expect(String(header.getCell(2).note)).toContain('留空时填本期');
    expect(String(header.getCell(4).note)).toContain('留空时填“件”');
    const tw = await authed(t.app, admin, {
      method: 'GET',
      url: `/api/diyImport/${id}/template`,
      headers: { 'accept-language': 'zh-TW' },
    });
    const twBook = new ExcelJS.Workbook();
    await twBook.xlsx.load(tw.rawPayload as never);
    const twNote = String((twBook.worksheets[0] as ExcelJS.Worksheet).getRow(1).getCell(2).note);
    expect(twNote).toContain('留空時填本期');
    expect(twNote).toContain('月份，如 2026-03');
    expect(twNote).toContain('必填');
    const job = await checked(
      admin,
      id,
      await book([
        ['数量', '统计月份', '计量单位', '明细', null],
        [null, null, null, '品名', '包装'],
        [1, null, null, '钢材', null],
        [null, null, null, '水泥', '袋'],
        [2, '2020-01', '箱', null, null],
      ]),
    );
    expect(job.errors).toEqual([]);
    expect(job.valid).toBe(2);
    await api.ok(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, {});
    expect((await settled(admin, job.id)).state).toBe('done');
    const period = await t.app.ctx.db
      .selectFrom('diy_table_period')
      .select('start_date')
      .where('id', '=', job.periodId as number)
      .executeTakeFirstOrThrow();
    const records = await api.ok<{ items: { values: Record<string, unknown> }[] }>(
      admin,
      'POST',
      `/api/diyData/${id}/page`,
      { page: 1, pageSize: 10, field: 'n', order: 'ascend' },
    );
    const month = period.start_date.slice(0, 7);
    expect(records.items.map((r) => r.values)).toEqual([
      expect.objectContaining({ n: 1, month, who: '系统管理员', unit: '件' }),
      expect.objectContaining({ n: 2, month: '2020-01', who: '系统管理员', unit: '箱' }),
    ]);
    // Sub-table rows take their columns' defaults the same way.
    expect(records.items[0]?.values.lines).toEqual([
      { what: '钢材', pack: '吨', when: month },
      { what: '水泥', pack: '袋', when: month },
    ]);
    expect(records.items[1]?.values.lines ?? null).toBeNull();
  });

  it('writes nothing into a period closed after the check, and refuses new files for it', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '月报导入（关闭）',
      fillers,
      period: { kind: 'month', dueDays: 10, graceDays: 0, onePerOrg: false },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', {
      id,
      design: { fields: [{ id: 'n', type: 'integer', label: '数量', required: true }] },
      publish: true,
    });
    const job = await checked(admin, id, await book([['数量'], [1], [2]]));
    expect(job.valid).toBe(2);
    await api.ok(admin, 'POST', '/api/diyPeriod/close', { id: job.periodId, comment: '本期结束' });
    await api.ok(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, {});
    const failed = await settled(admin, job.id);
    expect(failed.state).toBe('failed');
    expect(failed.failure).toContain('已关闭');
    const rows = await t.app.ctx.db
      .selectFrom(`diy_data_${id}` as never)
      .select(['id'] as never)
      .execute();
    expect(rows).toEqual([]);

    const { payload, headers } = multipart('x.xlsx', await book([['数量'], [3]]));
    const refused = body(
      await authed(t.app, admin, { method: 'POST', url: `/api/diyImport/${id}/upload`, payload, headers }),
    );
    expect(refused.code).toBe('F1023');
  });
});

describe('round trip', () => {
  it('imports an exported ledger into a copy of the form with the same values', async () => {
    const ledger = await authed(t.app, admin, {
      method: 'POST',
      url: '/api/diyTable/export_ledger',
      payload: { tableId: formId, filters: [{ field: 'code', op: 'eq', value: 'C-EXIST' }] },
    });
    expect(ledger.statusCode).toBe(200);
    const job = await checked(admin, copyId, ledger.rawPayload);
    expect(job.errors).toEqual([]);
    expect(job.extraColumns).toEqual([]);
    expect(job.valid).toBe(1);
    await api.ok(admin, 'POST', `/api/diyImport/job/${job.id}/confirm`, { submit: true });
    expect((await settled(admin, job.id)).state).toBe('done');
    const [source] = await api.ok<{ values: Record<string, unknown> }[]>(
      admin,
      'GET',
      `/api/diyData/${formId}/list?keyword=C-EXIST`,
    );
    const [copy] = await api.ok<{ values: Record<string, unknown> }[]>(
      admin,
      'GET',
      `/api/diyData/${copyId}/list`,
    );
    const { sn: _a, ...sourceValues } = source?.values ?? {};
    const { sn: _b, ...copyValues } = copy?.values ?? {};
    expect(copyValues).toEqual(sourceValues);
  });
});
