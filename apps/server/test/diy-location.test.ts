import type { ImportJob } from '@shuzhi/contracts/diy-import';
import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { NoLoginLink, NoLoginToken } from '@shuzhi/contracts/no-login';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';
import { multipart } from './upload.fixture.ts';

/**
 * Issue 22 §3, the location field: a record keeps latitude, longitude, accuracy and time as JSON (also in a
 * sub-table row), the server refuses what is no position with a field error, the ledger writes it as one line
 * of text that the Excel import reads back, and a login-free fill link takes one.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let formId: number;

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '点位名称', required: true },
    { id: 'spot', type: 'location', label: '现场位置', required: true },
    {
      id: 'stops',
      type: 'subTable',
      label: '巡查点',
      columns: [
        { id: 'what', type: 'text', label: '内容' },
        { id: 'at', type: 'location', label: '坐标' },
      ],
    },
  ],
};
const ALL = { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: false };
const SPOT = { lat: 31.2304164, lng: 121.4737012, accuracy: 15.3, time: '2026-11-28T01:02:03.000Z' };

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ctx.db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or([eb('permission', 'like', 'diyTable:%'), eb('permission', 'like', 'diyReport:%')]))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  formId = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title: '垃圾分类巡查', fillers: ALL });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: formId, design: DESIGN, publish: true });
});

afterAll(async () => {
  await t?.close();
});

describe('location fields', () => {
  it('stores the position and answers it as sent, rounded', async () => {
    const id = await api.ok<number>(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: {
        name: '南京东路 1 号',
        spot: { ...SPOT, lat: 31.230416412, extra: 'dropped' },
        stops: [{ what: '投放点', at: { lat: 31.2311, lng: 121.4751, accuracy: 6 } }],
      },
      submit: true,
    });
    const record = await api.ok<DiyRecord>(admin, 'GET', `/api/diyData/${formId}/detail?id=${id}`);
    expect(record.values.spot).toEqual(SPOT);
    expect(record.values.stops).toEqual([
      { what: '投放点', at: { lat: 31.2311, lng: 121.4751, accuracy: 6 } },
    ]);
    const column = await t.app.ctx.db
      .selectFrom('diy_table_column')
      .select(['storage_kind'])
      .where('table_id', '=', formId)
      .where('field_id', '=', 'spot')
      .executeTakeFirstOrThrow();
    expect(column.storage_kind).toBe('json');
  });

  it('refuses what is no position, by field and cell', async () => {
    const refused = (await api.envelope(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: {
        name: '错误坐标',
        spot: { lat: 123, lng: 121, accuracy: 5 },
        stops: [{ what: 'x', at: '31.2,121.4' }],
      },
      submit: true,
    })) as Envelope;
    expect(refused.code).toBe(400);
    expect(refused.errors).toEqual({
      spot: ['现场位置格式不正确'],
      'stops[0].at': ['巡查点 第1行 坐标格式不正确'],
    });
    const missing = (await api.envelope(admin, 'POST', `/api/diyData/${formId}/add`, {
      values: { name: '没有坐标' },
      submit: true,
    })) as Envelope;
    expect(missing.errors).toEqual({ spot: ['现场位置不能为空'] });
  });

  it('writes the position into the ledger as one line of text', async () => {
    const response = await authed(t.app, admin, {
      method: 'POST',
      url: '/api/diyTable/export_ledger',
      payload: { tableId: formId },
    });
    expect(response.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as never);
    const values: unknown[] = [];
    book.worksheets[0]?.eachRow((row) => {
      row.eachCell((cell) => {
        values.push(cell.value);
      });
    });
    expect(values).toContain('31.230416, 121.473701 ±15m');
    expect(values).toContain('31.231100, 121.475100 ±6m');
  });

  it('is filled through a login-free link like any other field', async () => {
    const link = await api.ok<NoLoginLink>(admin, 'POST', '/api/sysNoLoginLink/add', {
      title: '巡查扫码',
      qrType: 'form',
      tableId: formId,
      mode: 'fillMany',
      days: 1,
    });
    const code = new URL(link.url, 'http://x').searchParams.get('code') ?? '';
    const exchange = await t.app.inject({ method: 'POST', url: '/api/noLogin/token', payload: { code } });
    const { token } = (body(exchange) as Envelope).result as NoLoginToken;
    const headers = { 'x-nologin-token': token };
    const design = await t.app.inject({
      method: 'GET',
      url: `/api/diyData/designByNoLogin?tableId=${formId}`,
      headers,
    });
    const fields = (
      (body(design) as Envelope).result as { design: { fields: { id: string; type: string }[] } }
    ).design.fields;
    expect(fields.find((f) => f.id === 'spot')?.type).toBe('location');
    const added = await t.app.inject({
      method: 'POST',
      url: '/api/diyData/addByNoLogin',
      headers,
      payload: { tableId: formId, values: { name: '扫码点位', spot: SPOT } },
    });
    expect(added.statusCode, added.body).toBe(200);
    const { id } = (body(added) as Envelope).result as { id: number };
    const record = await api.ok<DiyRecord>(admin, 'GET', `/api/diyData/${formId}/detail?id=${id}`);
    expect(record.values.spot).toEqual(SPOT);
  });

  it('reads the ledger text back on import; other text fails the row', async () => {
    const wb = new ExcelJS.Workbook();
    const sheet = wb.addWorksheet('数据');
    for (const row of [
      ['点位名称', '现场位置'],
      ['导入点位', '31.230416, 121.473701 ±15m'],
      ['坏坐标', '上海市黄浦区'],
    ])
      sheet.addRow(row);
    const { payload, headers } = multipart('spots.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    const upload = body<{ jobId: number }>(
      await authed(t.app, admin, {
        method: 'POST',
        url: `/api/diyImport/${formId}/upload`,
        payload,
        headers,
      }),
    );
    const jobId = (upload.result as { jobId: number }).jobId;
    const settle = async () => {
      for (let i = 0; i < 400; i++) {
        const job = await api.ok<ImportJob>(admin, 'GET', `/api/diyImport/job/${jobId}`);
        if (job.state !== 'checking' && job.state !== 'importing') return job;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('job did not settle');
    };
    const job = await settle();
    expect([job.valid, job.invalid]).toEqual([1, 1]);
    await api.ok(admin, 'POST', `/api/diyImport/job/${jobId}/confirm`, {});
    expect((await settle()).inserted).toBe(1);
    const page = await api.ok<{ items: DiyRecord[] }>(admin, 'POST', `/api/diyData/${formId}/page`, {
      page: 1,
      pageSize: 50,
    });
    const imported = page.items.find((r) => r.values.name === '导入点位');
    expect(imported?.values.spot).toEqual({ lat: 31.230416, lng: 121.473701, accuracy: 15 });
  });
});
