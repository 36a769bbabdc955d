import type { BoardData, BoardItem, HomeSummary } from '@shuzhi/contracts/dashboard';
import type { RollupData } from '@shuzhi/contracts/diy-rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiCalls, authed, createTestApp, login, type TestApp } from './helpers.ts';
import { seededRecords } from './seeded-records.ts';

/**
 * Issue 20 §2, the data dashboard: a form's and a roll-up's figures equal the roll-up's for the same filter
 * (period, org level, drill-down), the trend over the periods up to the chosen one, the caller's reach, an
 * empty period, a closed period, a deleted form, items without a dashboard (B1000), the list and the Excel.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let gzl: string;
let rollupId: number;
const POP = '社区人口月报';
const ROLLUP = '社区人口月报汇总';
const periods: Record<string, number> = {};

const district = seededRecords(() => t.app, 9_100_000_000_000);
const { forms, orgs, record, period } = district;

const board = (token: string, body: Record<string, unknown>) =>
  api.ok<BoardData>(token, 'POST', '/api/dashboard/form/data', body);
const rollup = (token: string, id: number, body: Record<string, unknown>) =>
  api.ok<RollupData>(token, 'POST', `/api/diyLoad/${id}/data`, { compare: true, ...body });
/** The measure of a form's dashboard that sums `field` (the first is the record count). */
const sumOf = (b: BoardData, label: string) => b.measures.find((m) => m.label === label)?.id as string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  await district.load();
  rollupId = forms[ROLLUP] as number;
  const pop = forms[POP] as number;
  periods.may = await period(pop, '2025-05', '2025-05-01', '2025-05-31');
  periods.apr = await period(pop, '2025-04', '2025-04-01', '2025-04-30');
  periods.mar = await period(pop, '2025-03', '2025-03-01', '2025-03-31');
  periods.lastMay = await period(pop, '2024-05', '2024-05-01', '2024-05-31');
  const may = { period_id: periods.may };
  await record(pop, '31010100200101', 2, { huji: 100 }, may);
  await record(pop, '31010100200102', 1, { huji: 200 }, may);
  await record(pop, '31010100200201', 0, { huji: 999 }, may);
  await record(pop, '31010101300101', 2, { huji: 50 }, may);
  await record(pop, '31010101300101', 2, { huji: 7777 }, { ...may, is_delete: 1 });
  await record(pop, '31010100200101', 2, { huji: 80 }, { period_id: periods.apr });
  await record(pop, '31010100200102', 2, { huji: 150 }, { period_id: periods.lastMay });
});

afterAll(async () => {
  await t?.close();
});

describe('figures', () => {
  it('a roll-up’s dashboard answers exactly the roll-up’s figures for the same filter', async () => {
    for (const filter of [
      { periodId: periods.may },
      { periodId: periods.may, orgType: 'community' },
      { periodId: periods.may, parent: String(orgs['310101002']) },
    ]) {
      const b = await board(admin, { id: rollupId, ...filter });
      const r = await rollup(admin, rollupId, filter);
      if (filter.orgType) {
        // The level is the dashboard's filter; the roll-up page shows its own level.
        expect(b.orgType).toBe('community');
        expect(b.data.total.figures).toEqual(b.data.rows.length ? b.data.total.figures : {});
        continue;
      }
      expect(b.data.rows).toEqual(r.rows);
      expect(b.data.total).toEqual(r.total);
      expect(b.data.lastPeriod).toEqual(r.lastPeriod);
    }
  });

  it('a form’s dashboard: its record count and sums equal the roll-up’s over the same records', async () => {
    const b = await board(admin, { id: forms[POP], periodId: periods.may });
    const r = await rollup(admin, rollupId, { periodId: periods.may });
    expect(b.reportType).toBe(1);
    expect(b.measures[0]).toMatchObject({ id: 'm0', agg: 'count' });
    const huji = sumOf(b, '户籍人口');
    // 100 + 200 + 50: the draft and the deleted record are not counted.
    expect(b.data.total.figures[huji]).toBe(350);
    expect(b.data.total.figures[huji]).toBe(r.total.figures.m1);
    expect(b.data.total.figures.m0).toBe(r.total.figures.m11);
    for (const row of b.data.rows) {
      const same = r.rows.find((x) => x.key === row.key);
      expect(row.figures[huji]).toBe(same?.figures.m1);
      expect(row.records).toBe(same?.records);
    }
    // Last period and last year, for the key figures.
    expect(b.data.total.last?.[huji]).toBe(80);
    expect(b.data.total.lastYear?.[huji]).toBe(150);
  });

  it('a trend over the periods up to the chosen one, ending with its total', async () => {
    const b = await board(admin, { id: forms[POP], periodId: periods.may });
    const huji = sumOf(b, '户籍人口');
    const last = b.trend.at(-1);
    expect(last?.periodId).toBe(periods.may);
    expect(last?.figures[huji]).toBe(b.data.total.figures[huji]);
    expect(b.trend.find((p) => p.periodId === periods.apr)?.figures[huji]).toBe(80);
    // No records in March: a point with nothing to sum.
    expect(b.trend.find((p) => p.periodId === periods.mar)).toMatchObject({ records: 0 });
    expect(b.trend.length).toBeLessThanOrEqual(12);
    expect(b.trend.map((p) => p.periodId)).not.toContain(periods.lastMay === last?.periodId ? -1 : 0);
  });

  it('filters by org level and drills down', async () => {
    const b = await board(admin, { id: forms[POP], periodId: periods.may, orgType: 'community' });
    const huji = sumOf(b, '户籍人口');
    expect(b.data.rows.find((r) => r.key === String(orgs['310101002001']))?.figures[huji]).toBe(300);
    const drilled = await board(admin, {
      id: forms[POP],
      periodId: periods.may,
      parent: String(orgs['310101002']),
    });
    expect(drilled.data.path).toEqual([{ key: String(orgs['310101002']), name: '南京东路街道' }]);
    expect(drilled.data.total.figures[huji]).toBe(300);
  });

  it('an empty period: zero counts, no sums, an empty trend point', async () => {
    const b = await board(admin, { id: forms[POP], periodId: periods.mar });
    expect(b.data.total.records).toBe(0);
    expect(b.data.total.figures.m0).toBe(0);
    expect(b.data.total.figures[sumOf(b, '户籍人口')]).toBeNull();
  });

  it('a closed period answers the same figures', async () => {
    const before = await board(admin, { id: forms[POP], periodId: periods.may });
    await t.app.ctx.db
      .updateTable('diy_table_period')
      .set({ closed: 1 })
      .where('id', '=', periods.may)
      .execute();
    const after = await board(admin, { id: forms[POP], periodId: periods.may });
    expect(after.data).toEqual(before.data);
    await t.app.ctx.db
      .updateTable('diy_table_period')
      .set({ closed: 0 })
      .where('id', '=', periods.may)
      .execute();
  });
});

describe('closed periods', () => {
  it('keeps a closed trend period’s figures (not the current, last or last year’s) until it is reopened or closed again', async () => {
    const pop = forms[POP] as number;
    const huji = (b: BoardData) =>
      b.trend.find((p) => p.periodId === periods.mar)?.figures[sumOf(b, '户籍人口')];
    const setClosed = (closed: number, closeTime: string | null) =>
      t.app.ctx.db
        .updateTable('diy_table_period')
        .set({ closed, close_time: closeTime })
        .where('id', '=', periods.mar)
        .execute();
    await setClosed(1, '2025-05-10 09:00:00');
    expect(huji(await board(admin, { id: pop, periodId: periods.may }))).toBeNull();
    // Written behind the server's back (a closed period refuses every change): the cached figure stays.
    await record(pop, '31010100200101', 2, { huji: 5 }, { period_id: periods.mar });
    expect(huji(await board(admin, { id: pop, periodId: periods.may }))).toBeNull();
    // The trend's last point and the key figures are never cached.
    const rollupNow = await rollup(admin, rollupId, { periodId: periods.mar });
    expect(rollupNow.total.figures.m1).toBe(5);
    await setClosed(1, '2025-05-11 09:00:00');
    expect(huji(await board(admin, { id: pop, periodId: periods.may }))).toBe(5);
    await setClosed(0, null);
    expect(huji(await board(admin, { id: pop, periodId: periods.may }))).toBe(5);
  });
});

describe('who sees what', () => {
  it('a community filler sees only their own unit’s records', async () => {
    // A filler reaches the records of their own org (docs/rollups.md), not those of the grids below it.
    await record(forms[POP] as number, '310101002001', 2, { huji: 7 }, { period_id: periods.may });
    const b = await board(gzl, { id: forms[POP], periodId: periods.may, orgType: 'community' });
    const huji = sumOf(b, '户籍人口');
    expect(b.data.rows.map((r) => r.name)).toEqual(['贵州路居民委员会']);
    expect(b.data.total.figures[huji]).toBe(7);
    const all = await board(admin, { id: forms[POP], periodId: periods.may, orgType: 'community' });
    expect(all.data.rows.find((r) => r.key === String(orgs['310101002001']))?.figures[huji]).toBe(307);
    // The roll-up is not theirs to view.
    expect(await api.code(gzl, 'POST', '/api/dashboard/form/data', { id: rollupId })).toBe('F1000');
    const list = await api.ok<BoardItem[]>(gzl, 'GET', '/api/dashboard/form/list');
    expect(list.map((i) => i.id)).toContain(forms[POP]);
    expect(list.map((i) => i.id)).not.toContain(rollupId);
  });

  it('the admin’s list holds forms and roll-ups', async () => {
    const list = await api.ok<BoardItem[]>(admin, 'GET', '/api/dashboard/form/list');
    expect(list.find((i) => i.id === rollupId)?.reportType).toBe(2);
    expect(list.find((i) => i.id === forms[POP])?.reportType).toBe(1);
  });

  it('refuses a period of another form, an unknown or deleted form, and items without a dashboard', async () => {
    const pop = forms[POP] as number;
    expect(await api.code(admin, 'POST', '/api/dashboard/form/data', { id: pop, periodId: 123_456 })).toBe(
      'F1025',
    );
    expect(await api.code(admin, 'POST', '/api/dashboard/form/data', { id: 123_456_789 })).toBe('F1000');
    expect(await api.code(admin, 'POST', '/api/dashboard/form/data', { id: 'x' })).toBe(400);
    const other = Object.entries(forms).find(
      ([title]) => title !== POP && !title.includes('汇总'),
    )?.[1] as number;
    await t.app.ctx.db.updateTable('diy_table').set({ report_type: 7 }).where('id', '=', other).execute();
    expect(await api.code(admin, 'POST', '/api/dashboard/form/data', { id: other })).toBe('B1000');
    await t.app.ctx.db
      .updateTable('diy_table')
      .set({ report_type: 1, is_delete: 1 })
      .where('id', '=', other)
      .execute();
    expect(await api.code(admin, 'POST', '/api/dashboard/form/data', { id: other })).toBe('F1000');
    await t.app.ctx.db.updateTable('diy_table').set({ is_delete: 0 }).where('id', '=', other).execute();
  });
});

describe('Excel', () => {
  it('writes a chart’s data as .xlsx', async () => {
    for (const chart of ['breakdown', 'trend']) {
      const res = await authed(t.app, admin, {
        method: 'POST',
        url: '/api/dashboard/form/export',
        payload: { id: forms[POP], periodId: periods.may, chart },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('spreadsheetml');
      expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    }
  });
});

describe('home summary (issue 20 §1)', () => {
  it('counts the caller’s work from the lists behind each number', async () => {
    const pop = forms[POP] as number;
    const home = await api.ok<HomeSummary>(admin, 'GET', '/api/dashboard/home');
    const owned = home.owned.find((o) => o.tableId === pop);
    expect(owned).toBeDefined();
    // The progress is the roll-up's count of the form's current period over the whole tree.
    const b = await board(admin, { id: pop, periodId: owned?.periodId, orgType: 'district' });
    expect(owned?.records).toBe(b.data.total.records + b.data.outside);
    expect(owned?.expected).toBe(b.data.total.expectedUnits);
    expect(owned?.missing).toBe(b.data.total.missingUnits);
    const review = await api.ok<{ total: number }>(admin, 'POST', '/api/diyReport/auditPage', { status: 1 });
    expect(home.review).toBe(review.total);
    const unread = await api.ok<{ count: number }>(admin, 'GET', '/api/sysNotice/unReadSummary');
    expect(home.notices.unread).toBe(unread.count);
    expect(home.tasks.items.length).toBeLessThanOrEqual(5);
  });

  it('lists a filing returned to the caller’s unit this period', async () => {
    const pop = forms[POP] as number;
    const before = await api.ok<HomeSummary>(gzl, 'GET', '/api/dashboard/home');
    expect(before.returned.map((r) => r.tableId)).not.toContain(pop);
    expect(before.owned).toEqual([]);
    const current = (await board(admin, { id: pop })).data.period?.id;
    const user = await t.app.ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('account', '=', 'gzlstaff')
      .executeTakeFirstOrThrow();
    // A later record of the unit than any seeded one, returned by the reviewer.
    await record(
      pop,
      '310101002001',
      3,
      { huji: 1 },
      {
        period_id: current,
        create_user_id: user.id,
        create_time: '2099-01-01 00:00:00',
        update_time: '2099-01-01 00:00:00',
      },
    );
    const after = await api.ok<HomeSummary>(gzl, 'GET', '/api/dashboard/home');
    expect(after.returned.map((r) => r.tableId)).toContain(pop);
  });
});
