import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { PeriodRow, PrefillResult } from '@shuzhi/contracts/diy-period';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, calendarPeriodAt } from '../src/modules/diy-period/diy-period.service.ts';
import { formatDate } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 16 §7, 沿用上期: a new record of a periodic form takes the unit's record of the period before, without
 * its serial number, files and formulas (they recompute) and without the fields whose default comes from the
 * new record's filer or period (填报单位, 填报人, 统计月份, a 填报日期 of today): those take their default afresh.
 * Fields marked 每期沿用 (`carry`) keep the mark through the designer's save and publish. Played on the seeded
 * 社区人口月报 and on a form made here.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let grid: string;
let leader: string;

const db = () => t.app.ctx.db;
const today = () => formatDate(new Date());

async function formId(title: string): Promise<number> {
  return (
    await db().selectFrom('diy_table').select('id').where('title', '=', title).executeTakeFirstOrThrow()
  ).id;
}

/** The form's period holding today (the seed and the lazy making give every form its current one). */
async function currentPeriod(token: string, table: number): Promise<PeriodRow> {
  const periods = await api.ok<PeriodRow[]>(token, 'GET', `/api/diyPeriod/list?tableId=${table}`);
  const found = periods.find((p) => p.startDate <= today() && p.endDate >= today());
  if (!found) throw new Error(`no current period: ${JSON.stringify(periods)}`);
  return found;
}

beforeAll(async () => {
  t = await createTestApp();
  await db()
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) => eb.or(['diyTable:%', 'diyReport:%'].map((p) => eb('permission', 'like', p))))
    .execute();
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  grid = (await login(t.app, 'gridstaff')).accessToken;
  leader = (await login(t.app, 'hpleader')).accessToken;
});

afterAll(async () => {
  await t?.close();
});

describe('沿用上期 on the seeded 社区人口月报', () => {
  it('carries the unit’s last figures; numbers, formulas, unit, filler and month are left to the new record', async () => {
    const id = await formId('社区人口月报');
    const now = await currentPeriod(gzl, id);
    const result = await api.ok<PrefillResult>(gzl, 'GET', `/api/diyData/${id}/prefill?periodId=${now.id}`);
    const last = calendarPeriodAt('month', addDays(now.startDate, -1));
    expect(result?.fromPeriodName).toBe(`${last.key.slice(0, 4)}年${Number(last.key.slice(5))}月`);
    // 贵州路's record of last month (seed): 2995, 1001, 39, 1186, 2, 3, 5, 4 and the contact number.
    expect(result?.values).toEqual({
      huji: 2995,
      liudong: 1001,
      jingwai: 39,
      elderly: 1186,
      born: 2,
      died: 3,
      movein: 5,
      moveout: 4,
      phone: '13701830021',
    });
  });

  it('takes each unit’s own record: the grid gets its returned one, not 贵州路’s', async () => {
    const id = await formId('社区人口月报');
    const now = await currentPeriod(grid, id);
    const result = await api.ok<PrefillResult>(grid, 'GET', `/api/diyData/${id}/prefill?periodId=${now.id}`);
    expect(result?.values).toMatchObject({ huji: 3121, liudong: 905, jingwai: 36, elderly: 1271 });
    expect(result?.values.remark).toBe('本月辖区新增一处在建工地，来沪务工人员增加。');
  });

  it('refuses a caller who may not file the form', async () => {
    const id = await formId('社区人口月报');
    const now = await currentPeriod(gzl, id);
    expect(await api.code(leader, 'GET', `/api/diyData/${id}/prefill?periodId=${now.id}`)).toBe('F1001');
  });

  it('publishes the stock figures as 每期沿用', async () => {
    const id = await formId('社区人口月报');
    const form = await api.ok<{ published: FormDesign | null }>(admin, 'GET', `/api/diyTable/${id}`);
    const carried = form.published?.fields.filter((f) => f.carry).map((f) => f.id);
    expect(carried).toEqual(['huji', 'liudong', 'jingwai', 'elderly', 'phone']);
  });
});

describe('沿用上期 on a designed form', () => {
  const DESIGN = {
    fields: [
      { id: 'unit', type: 'org', label: '填报单位', default: { kind: 'fillerOrg' } },
      { id: 'who', type: 'text', label: '填报人', default: { kind: 'fillerName' } },
      { id: 'area', type: 'region', label: '所在区域', default: { kind: 'fillerRegion' } },
      { id: 'filed', type: 'date', label: '填报日期', default: { kind: 'today' } },
      { id: 'kind', type: 'text', label: '类别', default: { kind: 'constant', value: '常规' } },
      { id: 'stock', type: 'integer', label: '在册数', carry: true },
      {
        id: 'rows',
        type: 'subTable',
        label: '明细',
        columns: [
          { id: 'item', type: 'text', label: '项目' },
          { id: 'on', type: 'date', label: '登记日', default: { kind: 'today' } },
        ],
      },
    ],
  };

  it('keeps the 每期沿用 mark and leaves the filer’s and today’s defaults to the new record', async () => {
    const orgs = Object.fromEntries(
      (await db().selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
    );
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '沿用测试月报',
      fillers: { all: false, orgIds: [orgs['310101002001']], roleIds: [], userIds: [], enterprises: false },
      period: { kind: 'month', dueDays: 5, graceDays: 0, onePerOrg: true },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', { id, design: DESIGN, publish: true });
    const form = await api.ok<{ published: FormDesign | null }>(admin, 'GET', `/api/diyTable/${id}`);
    expect(form.published?.fields.find((f) => f.id === 'stock')?.carry).toBe(true);
    expect(form.published?.fields.find((f) => f.id === 'kind')?.carry ?? null).toBeNull();

    const now = await currentPeriod(gzl, id);
    const last = calendarPeriodAt('month', addDays(now.startDate, -1));
    const earlier = t.app.ctx.newId();
    await db()
      .insertInto('diy_table_period')
      .values({
        id: earlier,
        tenant_id: (
          await db()
            .selectFrom('diy_table')
            .select('tenant_id')
            .where('id', '=', id)
            .executeTakeFirstOrThrow()
        ).tenant_id,
        table_id: id,
        period_key: last.key,
        name: last.key,
        start_date: last.start,
        end_date: last.end,
        due_date: addDays(today(), 10),
        grace_until: null,
        reopen_until: null,
        version: 1,
        closed: 0,
        close_time: null,
        close_user_name: null,
        create_time: '2026-01-01 00:00:00',
        create_user_id: null,
        create_user_name: null,
        update_time: null,
      })
      .execute();
    // The test database has no region rows: 贵州路's is added.
    const region = '310101002001';
    await db()
      .insertInto('sys_region')
      .values({
        id: t.app.ctx.newId(),
        create_time: '2026-01-01 00:00:00',
        is_delete: 0,
        pid: 0,
        code: region,
        name: '贵州路居委会',
        level: 5,
        full_code: region,
        full_name: '贵州路居委会',
        is_local: 1,
        order_no: 1,
      } as never)
      .execute();
    const values = {
      unit: orgs['310101002001'],
      who: '前任填报人',
      area: region,
      filed: last.start,
      kind: '专项',
      stock: 42,
      rows: [{ item: '楼栋', on: last.start }],
    };
    await api.ok(gzl, 'POST', `/api/diyData/${id}/add`, { values, submit: false, periodId: earlier });
    const result = await api.ok<PrefillResult>(gzl, 'GET', `/api/diyData/${id}/prefill?periodId=${now.id}`);
    expect(result?.fromPeriodName).toBe(last.key);
    expect(result?.values).toEqual({ kind: '专项', stock: 42, rows: [{ item: '楼栋' }] });
  });
});
