import type { PeriodLog, PeriodPageRow, PeriodRow, PrefillResult } from '@shuzhi/contracts/diy-period';
import type { AuditRow, DiyRecord, FormItem, RecordHistory } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  calendarName,
  calendarPeriodAt,
  displayName,
  ensurePeriods,
  periodState,
  resolveFilingPeriod,
} from '../src/modules/diy-period/diy-period.service.ts';
import { formatDate } from '../src/platform/db/time.ts';
import { apiCalls, authed, body, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 6 §1, reporting periods: calendar periods made lazily (and only once), states from dates, the
 * filing rules (upcoming F1021, overdue F1022, closed F1023, one record per unit F1024), grace marking late,
 * close and reopen logged, versions pinned to the period, unique values per period, zero reports, pre-fill,
 * the period, org-subtree and region-prefix filters, and refusals (permissions, other tenants, bad input).
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let grid: string;
let orgs: Record<string, number>;
let monthly: number;
let custom: number;
let plain: number;

type Envelope = { code: number | string; errors: Record<string, string[]> | null; result: unknown };

const AUDIENCE = (orgIds: number[]) => ({ all: false, orgIds, roleIds: [], userIds: [], enterprises: false });
const MONTHLY = { kind: 'month', dueDays: 5, graceDays: 3, onePerOrg: true };

const DESIGN_V1 = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'code', type: 'text', label: '代码', unique: 'period' },
    { id: 'area', type: 'region', label: '区域' },
    { id: 'num', type: 'integer', label: '数量' },
    { id: 'double', type: 'formula', label: '两倍', formula: '{num} * 2', precision: 0 },
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
  numbering: { prefix: 'P-', datePart: 'none', digits: 4 },
};
const DESIGN_V2 = {
  ...DESIGN_V1,
  fields: [...DESIGN_V1.fields, { id: 'extra', type: 'text', label: '新增项', required: true }],
};

const today = () => formatDate(new Date());
const db = () => t.app.ctx.db;

async function add(token: string, table: number, values: Record<string, unknown>, extra: object = {}) {
  return api.envelope<number>(token, 'POST', `/api/diyData/${table}/add`, { values, submit: true, ...extra });
}

async function periods(token: string, table: number): Promise<PeriodRow[]> {
  return api.ok<PeriodRow[]>(token, 'GET', `/api/diyPeriod/list?tableId=${table}`);
}

async function record(token: string, table: number, id: number): Promise<DiyRecord> {
  return api.ok<DiyRecord>(token, 'GET', `/api/diyData/${table}/${id}`);
}

async function page(token: string, table: number, input: object): Promise<DiyRecord[]> {
  return (
    await api.ok<PageResult<DiyRecord>>(token, 'POST', `/api/diyData/${table}/page`, {
      page: 1,
      pageSize: 100,
      ...input,
    })
  ).items;
}

async function form(id: number) {
  return db().selectFrom('diy_table').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** A period of the monthly form made by hand, for states the calendar of today cannot give. */
async function insertPeriod(table: number, key: string, dates: Record<string, string | null>, version = 1) {
  const id = t.app.ctx.newId();
  const f = await form(table);
  await db()
    .insertInto('diy_table_period')
    .values({
      id,
      tenant_id: f.tenant_id,
      table_id: table,
      period_key: key,
      name: key,
      start_date: dates.start as string,
      end_date: dates.end as string,
      due_date: dates.due as string,
      grace_until: dates.grace ?? null,
      reopen_until: null,
      version,
      closed: 0,
      close_time: null,
      close_user_name: null,
      create_time: '2026-01-01 00:00:00',
      create_user_id: null,
      create_user_name: null,
      update_time: null,
    })
    .execute();
  return id;
}

async function setDates(id: number, dates: { due?: string; grace?: string | null; start?: string }) {
  await db()
    .updateTable('diy_table_period')
    .set({
      ...(dates.due ? { due_date: dates.due } : {}),
      ...(dates.grace !== undefined ? { grace_until: dates.grace } : {}),
      ...(dates.start ? { start_date: dates.start } : {}),
    })
    .where('id', '=', id)
    .execute();
}

beforeAll(async () => {
  t = await createTestApp();
  await db()
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) =>
      eb.or(
        ['diyTable:%', 'diyReport:%', 'diyRecycle:%', 'diyPeriod:%'].map((p) => eb('permission', 'like', p)),
      ),
    )
    .execute();
  for (const [code, name] of [
    ['310101002001', '贵州路居委会'],
    ['310101002002', '定兴居委会'],
    ['310101013001', '中山东一路居委会'],
  ]) {
    await db()
      .insertInto('sys_region')
      .values({
        id: t.app.ctx.newId(),
        create_time: '2026-01-01 00:00:00',
        is_delete: 0,
        pid: 0,
        code,
        name,
        level: 5,
        full_code: code,
        full_name: name,
        is_local: 1,
        order_no: 1,
      } as never)
      .execute();
  }
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  grid = (await login(t.app, 'gridstaff')).accessToken;
  orgs = Object.fromEntries(
    (await db().selectFrom('sys_org').select(['id', 'code']).execute()).map((r) => [r.code, r.id]),
  );
  const fillers = AUDIENCE([orgs['310101002001'] as number]);
  monthly = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '周期测试月报',
    fillers,
    needsReview: true,
    period: MONTHLY,
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: monthly, design: DESIGN_V1, publish: true });
  custom = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '周期测试专项',
    fillers,
    period: { kind: 'custom', dueDays: 0, graceDays: 0, onePerOrg: false },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: custom, design: DESIGN_V1, publish: true });
  plain = await api.ok<number>(admin, 'POST', '/api/diyTable/add', { title: '周期测试普通表', fillers });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: plain, design: DESIGN_V1, publish: true });
});

afterAll(async () => {
  await t?.close();
});

describe('period calendar and states', () => {
  it('keys, names and dates of month, quarter, half-year and year periods', () => {
    expect(calendarPeriodAt('month', '2026-11-22')).toMatchObject({
      key: '2026-11',
      start: '2026-11-01',
      end: '2026-11-30',
    });
    expect(calendarPeriodAt('month', '2024-02-10').end).toBe('2024-02-29');
    expect(calendarPeriodAt('quarter', '2026-11-22')).toMatchObject({
      key: '2026-Q4',
      start: '2026-10-01',
      end: '2026-12-31',
    });
    expect(calendarPeriodAt('halfYear', '2026-11-22')).toMatchObject({
      key: '2026-H2',
      start: '2026-07-01',
      end: '2026-12-31',
    });
    expect(calendarPeriodAt('year', '2026-03-01')).toMatchObject({ key: '2026', start: '2026-01-01' });
    expect(calendarName('month', 2026, 11, 'zh-CN')).toBe('2026年11月');
    expect(calendarName('quarter', 2026, 4, 'zh-CN')).toBe('2026年第4季度');
    expect(calendarName('halfYear', 2026, 2, 'zh-CN')).toBe('2026年下半年');
    expect(calendarName('year', 2026, 1, 'zh-CN')).toBe('2026年');
    expect(displayName({ period_key: '2026-Q4', name: '2026年第4季度' }, 'en')).toBe('Q4 2026');
    expect(displayName({ period_key: '2026-Q4', name: '四季度专项' }, 'en')).toBe('四季度专项');
    expect(addDays('2026-12-30', 5)).toBe('2027-01-04');
  });

  it('moves upcoming → open → grace → overdue by the date, closed first, a reopening extends it', () => {
    const p = {
      closed: 0,
      start_date: '2026-11-01',
      due_date: '2026-12-05',
      grace_until: '2026-12-08',
      reopen_until: null as string | null,
    };
    expect(periodState(p, '2026-10-31')).toBe('upcoming');
    expect(periodState(p, '2026-11-01')).toBe('open');
    expect(periodState(p, '2026-12-05')).toBe('open');
    expect(periodState(p, '2026-12-06')).toBe('grace');
    expect(periodState(p, '2026-12-08')).toBe('grace');
    expect(periodState(p, '2026-12-09')).toBe('overdue');
    expect(periodState({ ...p, grace_until: null }, '2026-12-06')).toBe('overdue');
    expect(periodState({ ...p, reopen_until: '2026-12-20' }, '2026-12-15')).toBe('grace');
    expect(periodState({ ...p, closed: 1 }, '2026-11-15')).toBe('closed');
  });

  it('makes the current period lazily, once, even when asked at the same time', async () => {
    const list = await periods(gzl, monthly);
    expect(list).toHaveLength(1);
    const current = calendarPeriodAt('month', today());
    const due = addDays(current.end, 5);
    expect(list[0]).toMatchObject({
      key: current.key,
      name: calendarName('month', current.year, current.index, 'zh-CN'),
      startDate: current.start,
      endDate: current.end,
      dueDate: due,
      graceUntil: addDays(due, 3),
      state: 'open',
      version: 1,
    });
    // Two months ahead, asked five times at once: each missing period is made and logged once.
    const [y, m] = today().split('-').map(Number) as [number, number];
    const later = new Date(y, m + 1, 15);
    const f = await form(monthly);
    await Promise.all(Array.from({ length: 5 }, () => ensurePeriods(t.app.ctx, t.app.ctx.db, f, later)));
    const rows = await db()
      .selectFrom('diy_table_period')
      .select(['id', 'period_key'])
      .where('table_id', '=', monthly)
      .orderBy('start_date')
      .execute();
    expect(rows.map((r) => r.period_key)).toEqual([
      current.key,
      calendarPeriodAt('month', formatDate(new Date(y, m, 15))).key,
      calendarPeriodAt('month', formatDate(later)).key,
    ]);
    const logs = await db()
      .selectFrom('diy_table_period_log')
      .select(['period_id', 'action'])
      .where('table_id', '=', monthly)
      .execute();
    expect(logs).toHaveLength(3);
    expect(new Set(logs.map((l) => l.period_id)).size).toBe(3);
    // The future periods are upcoming today: filing into them is refused.
    const upcoming = rows[2]?.id as number;
    expect((await add(gzl, monthly, { name: 'x' }, { periodId: upcoming })).code).toBe('F1021');
    await db()
      .deleteFrom('diy_table_period_log')
      .where('period_id', 'in', [rows[1]?.id as number, upcoming])
      .execute();
    await db()
      .deleteFrom('diy_table_period')
      .where('id', 'in', [rows[1]?.id as number, upcoming])
      .execute();
  });

  it('resolves the filing period: none for plain forms (F1027 when one is named), F1025 for another form’s', async () => {
    const f = await form(plain);
    expect(await resolveFilingPeriod(t.app.ctx, t.app.ctx.db, f, undefined)).toBeNull();
    const list = await periods(gzl, monthly);
    expect((await add(gzl, plain, { name: 'x' }, { periodId: list[0]?.id })).code).toBe('F1027');
    const windowId = await api.ok<number>(admin, 'POST', '/api/diyPeriod/add', {
      tableId: custom,
      name: '第一批',
      startDate: addDays(today(), -10),
      endDate: addDays(today(), 10),
      dueDate: addDays(today(), 12),
    });
    expect((await add(gzl, monthly, { name: 'x' }, { periodId: windowId })).code).toBe('F1025');
  });
});

describe('filing in periods', () => {
  let current: number;
  let previous: number;
  let gzlRecord: number;

  it('files into the current period; one record per unit and period (F1024)', async () => {
    current = (await periods(gzl, monthly))[0]?.id as number;
    const first = await add(gzl, monthly, { name: '贵州路', code: 'A1', area: '310101002001', num: 4 });
    expect(first.code).toBe(200);
    gzlRecord = first.result as number;
    const r = await record(gzl, monthly, gzlRecord);
    expect(r).toMatchObject({ periodId: current, isZero: false, late: false, version: 1 });
    expect(r.periodName).toMatch(/^\d{4}年\d{1,2}月$/);
    expect((await add(gzl, monthly, { name: '再报一次' })).code).toBe('F1024');
    // The grid below the community is a unit of its own.
    expect((await add(grid, monthly, { name: '第一网格', code: 'B1', area: '310101002002' })).code).toBe(200);
  });

  it('keeps unique values unique within the period only', async () => {
    const start = addDays(calendarPeriodAt('month', today()).start, -1);
    previous = await insertPeriod(monthly, 'prev', {
      start: calendarPeriodAt('month', start).start,
      end: start,
      due: addDays(today(), 10),
    });
    const dup = (await add(grid, monthly, { name: '重复', code: 'A1' }, { periodId: current })) as Envelope;
    expect(dup.code).toBe('F1024');
    const other = (await add(
      grid,
      monthly,
      { name: '上期', code: 'A1', num: 7 },
      { periodId: previous },
    )) as Envelope;
    expect(other.code).toBe(200);
    const byGzl = (await add(
      gzl,
      monthly,
      { name: '上期重复', code: 'A1' },
      { periodId: previous },
    )) as Envelope;
    expect(byGzl.code).toBe(400);
    expect(Object.keys(byGzl.errors ?? {})).toEqual(['code']);
    expect(
      (
        await add(
          gzl,
          monthly,
          { name: '贵州路上期', code: 'A2', area: '310101013001', num: 9 },
          { periodId: previous, submit: false },
        )
      ).code,
    ).toBe(200);
  });

  it('pre-fills from the unit’s record of an earlier period, without numbers, files or formulas', async () => {
    const result = await api.ok<PrefillResult>(
      gzl,
      'GET',
      `/api/diyData/${monthly}/prefill?periodId=${current}`,
    );
    expect(result?.fromPeriodName).toBe('prev');
    expect(result?.values).toEqual({ name: '贵州路上期', code: 'A2', area: '310101013001', num: 9 });
    // Nothing earlier than the earliest period.
    expect(await api.ok(gzl, 'GET', `/api/diyData/${monthly}/prefill?periodId=${previous}`)).toBeNull();
    expect(await api.code(gzl, 'GET', `/api/diyData/${plain}/prefill?periodId=${current}`)).toBe('F1027');
  });

  it('moves dates of the earlier period into the new one when pre-filling, and keeps other dates', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
      title: '周期日期月报',
      fillers: AUDIENCE([orgs['310101002001'] as number]),
      period: MONTHLY,
    });
    const design = {
      fields: [
        { id: 'month', type: 'month', label: '统计月份' },
        { id: 'day', type: 'date', label: '统计截止日' },
        { id: 'founded', type: 'date', label: '成立日期' },
        { id: 'year', type: 'year', label: '年度' },
        { id: 'rows', type: 'subTable', label: '明细', columns: [{ id: 'on', type: 'date', label: '日期' }] },
      ],
    };
    await api.ok(admin, 'PUT', '/api/diyTable/design', { id, design, publish: true });
    const now = (await periods(gzl, id))[0] as PeriodRow;
    const last = calendarPeriodAt('month', addDays(now.startDate, -1));
    const earlier = await insertPeriod(id, last.key, {
      start: last.start,
      end: last.end,
      due: addDays(today(), 10),
    });
    const values = {
      month: last.key,
      day: last.end,
      founded: '2001-05-20',
      year: last.key.slice(0, 4),
      rows: [{ on: last.start }],
    };
    expect((await add(gzl, id, values, { periodId: earlier, submit: false })).code).toBe(200);
    const result = await api.ok<PrefillResult>(gzl, 'GET', `/api/diyData/${id}/prefill?periodId=${now.id}`);
    const current = calendarPeriodAt('month', now.startDate);
    expect(result?.values).toEqual({
      month: current.key,
      day: current.end,
      founded: '2001-05-20',
      year: last.key.slice(0, 4),
      rows: [{ on: current.start }],
    });
  });

  it('filters records by period, by org subtree and by region prefix', async () => {
    const inCurrent = await page(admin, monthly, { periodId: current });
    expect(inCurrent.map((r) => r.values.name).sort()).toEqual(['第一网格', '贵州路']);
    expect((await page(admin, monthly, { periodId: previous })).map((r) => r.values.name).sort()).toEqual([
      '上期',
      '贵州路上期',
    ]);
    const street = await page(admin, monthly, { orgId: orgs['310101002'] });
    expect(street).toHaveLength(4);
    const gridOnly = await page(admin, monthly, { orgId: orgs['31010100200101'] });
    expect(gridOnly.map((r) => r.values.name).sort()).toEqual(['上期', '第一网格']);
    expect(await page(admin, monthly, { orgId: orgs['310101013'] })).toHaveLength(0);
    // The roll-up's （本级） row: only what the org filed itself, not its grids.
    const community = orgs['310101002001'];
    expect(await page(admin, monthly, { orgId: community })).toHaveLength(4);
    const own = await page(admin, monthly, { orgId: community, orgOwn: true });
    expect(own.map((r) => r.values.name).sort()).toEqual(['贵州路', '贵州路上期']);
    expect(own.every((r) => r.createOrgId === community)).toBe(true);
    expect(await page(admin, monthly, { orgId: orgs['310101002'], orgOwn: true })).toHaveLength(0);
    const prefix = (value: string, field = 'area') =>
      page(admin, monthly, { filters: [{ field, op: 'prefix', value }] });
    expect((await prefix('310101002')).map((r) => r.values.name).sort()).toEqual(['第一网格', '贵州路']);
    expect((await prefix('310101013')).map((r) => r.values.name)).toEqual(['贵州路上期']);
    // LIKE wildcards are taken literally; a prefix on a field that is not a region filters nothing.
    expect(await prefix('3101%')).toHaveLength(0);
    expect(await prefix('_')).toHaveLength(0);
    expect(await prefix('贵', 'name')).toHaveLength(4);
  });

  it('exports the ledger of one period with a 填报周期 column', async () => {
    const res = await authed(t.app, admin, {
      method: 'POST',
      url: '/api/diyTable/export_ledger',
      payload: { tableId: monthly, periodId: previous },
    });
    expect(res.statusCode).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0] as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header.slice(0, 3)).toEqual(['编号', '状态', '填报周期']);
    const periodName = (await periods(admin, monthly)).find((p) => p.id === previous)?.name;
    const cells: unknown[] = [];
    sheet.eachRow((row, n) => {
      if (n > 1) cells.push(row.getCell(3).value);
    });
    expect(cells).toEqual([periodName, periodName]);
  });

  it('refuses changes in a closed period (F1023) until it is reopened, and logs both', async () => {
    expect(await api.code(admin, 'POST', '/api/diyPeriod/close', { id: current, comment: '本期结束' })).toBe(
      200,
    );
    expect((await periods(gzl, monthly)).find((p) => p.id === current)?.state).toBe('closed');
    const update = { id: gzlRecord, values: { name: '改名', code: 'A1' }, submit: false };
    expect(await api.code(gzl, 'PUT', `/api/diyData/${monthly}/update`, update)).toBe('F1023');
    expect(await api.code(gzl, 'DELETE', `/api/diyData/${monthly}/${gzlRecord}`)).toBe('F1023');
    expect((await add(grid, monthly, { name: 'x' }, { periodId: current })).code).toBe('F1023');
    expect(await api.code(admin, 'POST', '/api/diyPeriod/reopen', { id: current })).toBe(400);
    expect(await api.code(admin, 'POST', '/api/diyPeriod/reopen', { id: current, comment: '数据更正' })).toBe(
      200,
    );
    expect(await api.code(gzl, 'PUT', `/api/diyData/${monthly}/update`, update)).toBe(200);
    const log = await api.ok<PeriodLog[]>(admin, 'GET', `/api/diyPeriod/log?id=${current}`);
    expect(log.map((l) => [l.action, l.comment])).toEqual([
      ['reopen', '数据更正'],
      ['close', '本期结束'],
      ['create', null],
    ]);
    expect(log[1]?.userName).toBeTruthy();
  });

  it('refuses filing after the due date (F1022), accepts it in grace marked late', async () => {
    // Due yesterday, no grace: overdue.
    await setDates(previous, { due: addDays(today(), -1), grace: null });
    expect((await add(grid, monthly, { name: 'x' }, { periodId: previous })).code).toBe('F1022');
    const [prevRecord] = await page(gzl, monthly, { periodId: previous });
    const update = { id: prevRecord?.id, values: { name: '补正', code: 'A2' }, submit: true };
    expect(await api.code(gzl, 'PUT', `/api/diyData/${monthly}/update`, update)).toBe('F1022');
    // A grace window to tomorrow: accepted, late.
    await setDates(previous, { grace: addDays(today(), 1) });
    expect(await api.code(gzl, 'PUT', `/api/diyData/${monthly}/update`, update)).toBe(200);
    expect((await record(gzl, monthly, prevRecord?.id as number)).late).toBe(true);
    // Past the grace window; a reopening until tomorrow lets filing run, late again.
    await setDates(previous, { grace: addDays(today(), -1) });
    const env = (await api.envelope(admin, 'POST', '/api/diyPeriod/reopen', {
      id: previous,
      comment: '补报',
    })) as Envelope;
    expect(env.code).toBe(400);
    expect(Object.keys(env.errors ?? {})).toEqual(['until']);
    expect(
      await api.code(admin, 'POST', '/api/diyPeriod/reopen', {
        id: previous,
        comment: '补报',
        until: addDays(today(), 1),
      }),
    ).toBe(200);
    expect((await periods(admin, monthly)).find((p) => p.id === previous)).toMatchObject({
      state: 'grace',
      reopenUntil: addDays(today(), 1),
    });
  });

  it('files zero reports once per unit and period; they count as records', async () => {
    const before = (await form(monthly)).record_count;
    const gridId = orgs['31010100200101'] as number;
    // The grid already filed in the current period.
    expect(await api.code(grid, 'POST', `/api/diyData/${monthly}/zeroReport`, { periodId: current })).toBe(
      'F1024',
    );
    await db()
      .updateTable(`diy_data_${monthly}` as never)
      .set({ is_delete: 1 } as never)
      .where('create_org_id' as never, '=', gridId as never)
      .where('period_id' as never, '=', current as never)
      .execute();
    const id = await api.ok<number>(grid, 'POST', `/api/diyData/${monthly}/zeroReport`, {
      periodId: current,
      comment: '本月无变动',
    });
    const zero = await record(grid, monthly, id);
    expect(zero).toMatchObject({ isZero: true, status: 1, periodId: current, values: {} });
    const history = await api.ok<RecordHistory[]>(grid, 'GET', `/api/diyData/${monthly}/history?id=${id}`);
    expect(history.map((h) => [h.action, h.comment])).toEqual([['zero', '本月无变动']]);
    expect((await form(monthly)).record_count).toBe(before + 1);
    expect(await api.code(grid, 'POST', `/api/diyData/${monthly}/zeroReport`, { periodId: current })).toBe(
      'F1024',
    );
    const row = (await periods(admin, monthly)).find((p) => p.id === current);
    expect(row).toMatchObject({ recordCount: 2, submittedCount: 2 });
  });

  it('brings a deleted record back only into a period that takes changes (F1023 closed)', async () => {
    expect(await api.code(gzl, 'DELETE', `/api/diyData/${monthly}/${gzlRecord}`)).toBe(200);
    await api.ok(admin, 'POST', '/api/diyPeriod/close', { id: current });
    const items = [{ kind: 'record', tableId: monthly, id: gzlRecord }];
    expect(await api.code(admin, 'POST', '/api/diyRecycle/restore', { items })).toBe('F1023');
    await api.ok(admin, 'POST', '/api/diyPeriod/reopen', { id: current, comment: '恢复记录' });
    expect(await api.code(admin, 'POST', '/api/diyRecycle/restore', { items })).toBe(200);
  });

  it('hands a record over only to a unit without a record in its period (F1036)', async () => {
    const users = Object.fromEntries(
      (await db().selectFrom('sys_user').select(['id', 'account']).execute()).map((u) => [u.account, u.id]),
    );
    const handOver = (userId: unknown) =>
      api.code(admin, 'POST', '/api/diyTable/UpdateCreateUser', {
        tableId: monthly,
        ids: [gzlRecord],
        userId,
      });
    // The grid filed its zero report in this period: it cannot take 贵州路's record as a second one.
    expect(await handOver(users.gridstaff)).toBe('F1036');
    expect(await record(admin, monthly, gzlRecord)).toMatchObject({ createOrgId: orgs['310101002001'] });
    // Without its own record the grid may take it; 贵州路 may then take it back.
    const gridZero = (isDelete: number) =>
      db()
        .updateTable(`diy_data_${monthly}` as never)
        .set({ is_delete: isDelete } as never)
        .where('create_org_id' as never, '=', orgs['31010100200101'] as never)
        .where('period_id' as never, '=', current as never)
        .where('is_zero' as never, '=', 1 as never)
        .execute();
    await gridZero(1);
    expect(await handOver(users.gridstaff)).toBe(200);
    expect(await record(admin, monthly, gzlRecord)).toMatchObject({ createOrgId: orgs['31010100200101'] });
    expect(await handOver(users.gzlstaff)).toBe(200);
    expect(await record(admin, monthly, gzlRecord)).toMatchObject({ createOrgId: orgs['310101002001'] });
    await gridZero(0);
  });

  it('refuses to return or hand over a record of a closed period (F1023); approving goes on', async () => {
    const users = Object.fromEntries(
      (await db().selectFrom('sys_user').select(['id', 'account']).execute()).map((u) => [u.account, u.id]),
    );
    const [zero] = await page(admin, monthly, { periodId: current, status: 1 });
    expect(zero?.status).toBe(1);
    await api.ok(admin, 'POST', '/api/diyPeriod/close', { id: current });
    const review = (action: string) =>
      api.code(admin, 'POST', `/api/diyData/${monthly}/audit`, {
        ids: [zero?.id],
        action,
        comment: '请补充',
      });
    expect(await review('return')).toBe('F1023');
    // 报表审核 lists it with its period, marked closed, so the page offers approving only.
    const listed = async () =>
      (
        await api.ok<PageResult<AuditRow>>(admin, 'POST', '/api/diyReport/auditPage', {
          page: 1,
          pageSize: 50,
          tableId: monthly,
          status: -1,
        })
      ).items.find((r) => r.id === zero?.id);
    const { periodName, periodClosed } = await record(admin, monthly, zero?.id as number);
    expect(periodName).toBeTruthy();
    expect(periodClosed).toBe(true);
    expect(await listed()).toMatchObject({ periodName, periodClosed: true, status: 1 });
    expect(
      await api.code(admin, 'POST', '/api/diyTable/UpdateCreateUser', {
        tableId: monthly,
        ids: [gzlRecord],
        userId: users.gzlstaff,
      }),
    ).toBe('F1023');
    expect((await record(admin, monthly, zero?.id as number)).status).toBe(1);
    expect(await review('approve')).toBe(200);
    expect((await record(admin, monthly, zero?.id as number)).status).toBe(2);
    await api.ok(admin, 'POST', '/api/diyPeriod/reopen', { id: current, comment: '审核后开放' });
    expect(await listed()).toMatchObject({ periodName, periodClosed: false, status: 2 });
    expect((await record(admin, monthly, zero?.id as number)).periodClosed).toBe(false);
  });

  it('shows periods on the form items and the admin page', async () => {
    const items = await api.ok<FormItem[]>(gzl, 'GET', '/api/diyTable/tableList');
    const item = items.find((i) => i.id === monthly);
    expect(item).toMatchObject({ periodKind: 'month', currentPeriod: { id: current, state: 'open' } });
    expect(items.find((i) => i.id === plain)).toMatchObject({ periodKind: 'none', currentPeriod: null });
    const rows = await api.ok<PageResult<PeriodPageRow>>(admin, 'POST', '/api/diyPeriod/page', {
      page: 1,
      pageSize: 20,
      tableId: monthly,
    });
    expect(rows.items.map((r) => r.id)).toEqual([current, previous]);
    expect(rows.items[0]).toMatchObject({ tableTitle: '周期测试月报', recordCount: 2 });
    const grace = await api.ok<PageResult<PeriodPageRow>>(admin, 'POST', '/api/diyPeriod/page', {
      page: 1,
      pageSize: 20,
      state: 'grace',
    });
    expect(grace.items.map((r) => r.id)).toEqual([previous]);
  });

  it('pins new records to the period’s version: a version published mid-period applies from the next one', async () => {
    // More than one record per unit from here on (the settings change keeps the periods).
    await api.ok(admin, 'PUT', '/api/diyTable/update', {
      id: monthly,
      period: { ...MONTHLY, onePerOrg: false },
    });
    await api.ok(admin, 'PUT', '/api/diyTable/design', { id: monthly, design: DESIGN_V2, publish: true });
    // v2 requires `extra`; this period still files with v1.
    const id = await add(grid, monthly, { name: '新版本发布后' }, { periodId: previous });
    expect(id.code).toBe(200);
    const r = await record(grid, monthly, id.result as number);
    expect(r.version).toBe(1);
    expect(r.values).not.toHaveProperty('extra');
    // The filling page asks for the design of the period it files into: v1 here, v2 without a period.
    const ofPeriod = await api.ok(grid, 'GET', `/api/diyData/${monthly}/design?periodId=${previous}`);
    expect((ofPeriod as { version: number }).version).toBe(1);
    const latest = await api.ok(grid, 'GET', `/api/diyData/${monthly}/design`);
    expect((latest as { version: number }).version).toBe(2);
    // The next period is made with v2.
    const [y, m] = today().split('-').map(Number) as [number, number];
    await ensurePeriods(t.app.ctx, t.app.ctx.db, await form(monthly), new Date(y, m, 10));
    const next = await db()
      .selectFrom('diy_table_period')
      .selectAll()
      .where('table_id', '=', monthly)
      .orderBy('start_date', 'desc')
      .executeTakeFirstOrThrow();
    expect(next.version).toBe(2);
    // Once it has started (moved to today here), filing uses v2 and its rules.
    await db()
      .updateTable('diy_table_period')
      .set({ start_date: today() })
      .where('id', '=', next.id)
      .execute();
    const missing = (await add(gzl, monthly, { name: '下期' })) as Envelope;
    expect(missing.code).toBe(400);
    expect(Object.keys(missing.errors ?? {})).toEqual(['extra']);
    const ok = await add(gzl, monthly, { name: '下期', extra: '有' });
    const filed = await record(gzl, monthly, ok.result as number);
    expect(filed).toMatchObject({ version: 2, periodId: next.id });
  });
});

describe('period administration', () => {
  it('adds custom windows that may not overlap; checks dates as field errors', async () => {
    const base = { tableId: custom, name: '第二批' };
    const overlap = await api.code(admin, 'POST', '/api/diyPeriod/add', {
      ...base,
      startDate: addDays(today(), 5),
      endDate: addDays(today(), 20),
      dueDate: addDays(today(), 20),
    });
    expect(overlap).toBe('F1026');
    const backwards = (await api.envelope(admin, 'POST', '/api/diyPeriod/add', {
      ...base,
      startDate: addDays(today(), 30),
      endDate: addDays(today(), 20),
      dueDate: addDays(today(), 40),
    })) as Envelope;
    expect(backwards.code).toBe(400);
    expect(Object.keys(backwards.errors ?? {})).toContain('endDate');
    const later = await api.ok<number>(admin, 'POST', '/api/diyPeriod/add', {
      ...base,
      startDate: addDays(today(), 30),
      endDate: addDays(today(), 40),
      dueDate: addDays(today(), 45),
    });
    // Not started yet: F1021.
    expect((await add(gzl, custom, { name: 'x' }, { periodId: later })).code).toBe('F1021');
    // Custom windows belong to forms of kind custom.
    const wrongKind = await api.code(admin, 'POST', '/api/diyPeriod/add', {
      ...base,
      tableId: monthly,
      startDate: addDays(today(), 100),
      endDate: addDays(today(), 110),
      dueDate: addDays(today(), 110),
    });
    expect(wrongKind).toBe('F1027');
    // Updating: a due date before the start is a field error; a good change is logged before and after.
    const early = (await api.envelope(admin, 'POST', '/api/diyPeriod/update', {
      id: later,
      dueDate: addDays(today(), 1),
    })) as Envelope;
    expect(early.code).toBe(400);
    expect(Object.keys(early.errors ?? {})).toEqual(['dueDate']);
    await api.ok(admin, 'POST', '/api/diyPeriod/update', { id: later, name: '第二批（调整）' });
    const log = await api.ok<PeriodLog[]>(admin, 'GET', `/api/diyPeriod/log?id=${later}`);
    expect(log[0]).toMatchObject({
      action: 'update',
      changes: [{ field: 'name', before: '第二批', after: '第二批（调整）' }],
    });
  });

  it('lets only form admins with the buttons manage periods; another tenant’s form is not found', async () => {
    const [period] = await periods(gzl, monthly);
    expect(await api.code(gzl, 'POST', '/api/diyPeriod/close', { id: period?.id })).toBe(403);
    expect(await api.code(gzl, 'POST', '/api/diyPeriod/page', { page: 1, pageSize: 10 })).toBe(403);
    expect(await api.code(admin, 'POST', '/api/diyPeriod/close', { id: 999_999 })).toBe('F1025');
    const f = await form(custom);
    await db()
      .updateTable('diy_table')
      .set({ tenant_id: f.tenant_id + 1 })
      .where('id', '=', custom)
      .execute();
    await db()
      .updateTable('diy_table_period')
      .set({ tenant_id: f.tenant_id + 1 })
      .where('table_id', '=', custom)
      .execute();
    try {
      const [window] = await db()
        .selectFrom('diy_table_period')
        .select('id')
        .where('table_id', '=', custom)
        .execute();
      expect(await api.code(admin, 'GET', `/api/diyPeriod/list?tableId=${custom}`)).toBe('F1000');
      expect(await api.code(admin, 'POST', '/api/diyPeriod/close', { id: window?.id })).toBe('F1000');
      const mine = await api.ok<PageResult<PeriodPageRow>>(admin, 'POST', '/api/diyPeriod/page', {
        page: 1,
        pageSize: 50,
      });
      expect(mine.items.some((r) => r.tableId === custom)).toBe(false);
    } finally {
      await db().updateTable('diy_table').set({ tenant_id: f.tenant_id }).where('id', '=', custom).execute();
      await db()
        .updateTable('diy_table_period')
        .set({ tenant_id: f.tenant_id })
        .where('table_id', '=', custom)
        .execute();
    }
  });

  it('clones a form with its records together with its periods', async () => {
    const copy = await api.ok<number>(admin, 'POST', '/api/diyTable/clone', {
      id: monthly,
      withRecords: true,
    });
    const source = await periods(admin, monthly);
    const copied = await periods(admin, copy);
    expect(copied.map((p) => [p.key, p.startDate, p.dueDate, p.version, p.recordCount])).toEqual(
      source.map((p) => [p.key, p.startDate, p.dueDate, p.version, p.recordCount]),
    );
    expect(copied.some((p) => source.some((q) => q.id === p.id))).toBe(false);
    const records = await page(admin, copy, {});
    expect(records.every((r) => copied.some((p) => p.id === r.periodId))).toBe(true);
  });

  it('shows calendar names in the caller’s language', async () => {
    const response = await authed(t.app, admin, {
      method: 'GET',
      url: `/api/diyPeriod/list?tableId=${monthly}`,
      headers: { 'accept-language': 'en' },
    });
    const list = body<PeriodRow[]>(response).result as PeriodRow[];
    const current = calendarPeriodAt('month', today());
    const english = calendarName('month', current.year, current.index, 'en');
    expect(list.find((p) => p.key === current.key)?.name).toBe(english);
    const periodId = list.find((p) => p.key === current.key)?.id;

    // Records, their detail and the form list name it the same way; the stored name stays zh-CN.
    const en = async <T>(method: 'GET' | 'POST', url: string, payload?: object) =>
      body<T>(await authed(t.app, admin, { method, url, payload, headers: { 'accept-language': 'en' } }))
        .result as T;
    const records = await en<PageResult<DiyRecord>>('POST', `/api/diyData/${monthly}/page`, { periodId });
    expect(records.items.length).toBeGreaterThan(0);
    expect(new Set(records.items.map((r) => r.periodName))).toEqual(new Set([english]));
    const one = await en<DiyRecord>('GET', `/api/diyData/${monthly}/${records.items[0]?.id}`);
    expect(one.periodName).toBe(english);
    const forms = await en<FormItem[]>('GET', '/api/diyTable/tableList');
    const listed = forms.find((f) => f.id === monthly)?.currentPeriod;
    expect(listed?.name).toBe(list.find((p) => p.id === listed?.id)?.name);
    expect(listed?.name).toMatch(/^[A-Z][a-z]{2} \d{4}$/);
    const chinese = await page(admin, monthly, { periodId });
    expect(chinese[0]?.periodName).toBe(calendarName('month', current.year, current.index, 'zh-CN'));
  });
});
