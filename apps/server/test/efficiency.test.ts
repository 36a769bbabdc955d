import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import type { TaskMetrics } from '@shuzhi/contracts/diy-task-lifecycle';
import type { Efficiency } from '@shuzhi/contracts/efficiency';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTime, parseDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 20 §3, efficiency analysis: on known task data (a street task handed on to three communities; one
 * community submits 48 h early, is returned and approved, one declares zero a day late, one files nothing), the
 * figures per unit, level, form and month equal the task's own timeliness; the caller's data scope, the level
 * and form filters, the month range (B1010), an unknown or deleted form (B1011), a deleted task, the Excel.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let njdleader: string;
let gzlleader: string;
let fgwleader: string;
let gzlstaff: string;
let formId: number;
let taskId: number;
let dueMonth: string;
let range: string;

const HOUR = 3_600_000;
const db = () => t.app.ctx.db;
const inDays = (days: number) => formatDateTime(new Date(Date.now() + days * 86_400_000)).slice(0, 16);
const at = (ms: number) => formatDateTime(new Date(ms));
const get = (token: string, query = range) =>
  api.ok<Efficiency>(token, 'GET', `/api/dashboard/efficiency${query}`);
const detail = (token: string) => api.ok<TaskDetail>(token, 'GET', `/api/diyTask/detail?id=${taskId}`);

beforeAll(async () => {
  t = await createTestApp();
  [admin, njdleader, gzlleader, fgwleader, gzlstaff] = await Promise.all(
    ['admin', 'njdleader', 'gzlleader', 'fgwleader', 'gzlstaff'].map(
      async (a) => (await login(t.app, a)).accessToken,
    ),
  );
  formId = (
    await db()
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '社区人口月报')
      .executeTakeFirstOrThrow()
  ).id;
  const orgRows = await db().selectFrom('sys_org').select(['id', 'code']).execute();
  const orgs = Object.fromEntries(orgRows.map((r) => [r.code, r.id]));
  taskId = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
    title: '效率任务',
    forms: [{ tableId: formId }],
    dueTime: inDays(10),
    receivers: { orgIds: [orgs['310101002']] },
  });
  const street = (await detail(njdleader)).receivers.find((r) => r.mine) as TaskDetail['receivers'][number];
  await api.ok<number>(njdleader, 'POST', '/api/diyTask/handOn', {
    receiverId: street.id,
    dueTime: inDays(7),
    receivers: { orgTypes: ['community'] },
  });
  const receivers = (await detail(admin)).receivers;
  const part = (name: string) => receivers.find((r) => r.orgName === name) as TaskDetail['receivers'][number];
  const due = parseDateTime(part('贵州路居民委员会').dueTime).getTime();
  dueMonth = part('贵州路居民委员会').dueTime.slice(0, 7);
  range = `?from=${formatDateTime().slice(0, 7)}&to=${dueMonth}`;

  // 贵州路 files and submits (gzlstaff), 48 h before its due time; returned an hour later, submitted again, approved 3 h after.
  const periodId = (await detail(admin)).forms[0]?.periodId as number;
  const period = await db()
    .selectFrom('diy_table_period')
    .select('period_key')
    .where('id', '=', periodId)
    .executeTakeFirstOrThrow();
  await api.ok<number>(gzlstaff, 'POST', `/api/diyData/${formId}/add`, {
    periodId,
    values: {
      month: period.period_key,
      unit: orgs['310101002001'],
      filler: '吴静',
      huji: 1,
      liudong: 2,
      elderly: 3,
    },
    submit: true,
  });
  const submitted = await db()
    .selectFrom('diy_record_history')
    .select(['id', 'record_id', 'version', 'tenant_id', 'user_id'])
    .where('table_id', '=', formId)
    .where('action', '=', 'submit')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await db()
    .updateTable('diy_record_history')
    .set({ create_time: at(due - 48 * HOUR) })
    .where('id', '=', submitted.id)
    .execute();
  const step = (action: string, ms: number) => ({
    id: t.app.ctx.newId(),
    tenant_id: submitted.tenant_id,
    table_id: formId,
    record_id: submitted.record_id,
    action,
    changes: '[]',
    comment: null,
    version: submitted.version,
    user_id: action === 'submit' ? submitted.user_id : null,
    user_name: null,
    create_time: at(ms),
  });
  await db()
    .insertInto('diy_record_history')
    .values([
      step('return', due - 47 * HOUR),
      step('submit', due - 46 * HOUR),
      step('approve', due - 43 * HOUR),
    ])
    .execute();
  // 福州路 declares zero, a day after its due time.
  await api.ok(njdleader, 'POST', '/api/diyTask/zero', {
    receiverId: part('福州路居民委员会').id,
    tableId: formId,
    note: '暂无',
  });
  await db()
    .updateTable('diy_task_zero')
    .set({ create_time: at(due + 24 * HOUR) })
    .where('receiver_id', '=', part('福州路居民委员会').id)
    .execute();
});

afterAll(async () => {
  await t?.close();
});

describe('efficiency analysis', () => {
  it('sums the task’s own timeliness per unit, level, form and month', async () => {
    const e = await get(admin);
    const metrics = await api.ok<TaskMetrics>(admin, 'GET', `/api/diyTask/metrics?id=${taskId}`);
    expect(e.tasks).toBe(1);
    // Best on-time rate first; at the same rate, fewer late cells first.
    expect(e.units.map((u) => u.orgName)).toEqual([
      '贵州路居民委员会',
      '宁波路居民委员会',
      '福州路居民委员会',
    ]);
    const gzl = e.units[0] as Efficiency['units'][number];
    expect(gzl).toMatchObject({
      orgType: 'community',
      tasks: 1,
      expected: 1,
      submitted: 1,
      onTime: 1,
      late: 0,
      onTimeRate: 1,
      avgDaysBeforeDue: 2,
      returnsPerRecord: 1,
      avgReviewHours: 2,
      records: 1,
      fillers: 1,
      recordsPerFiller: 1,
    });
    expect(e.units[2]).toMatchObject({ submitted: 1, onTime: 0, late: 1, avgDaysBeforeDue: -1, records: 0 });
    // Not filed, and not yet due: not late.
    expect(e.units[1]).toMatchObject({ submitted: 0, late: 0, onTimeRate: 0, avgDaysBeforeDue: null });
    // The same figures as the task's 及时性 tab.
    for (const u of e.units) {
      const m = metrics.units.find((x) => x.orgId === u.orgId) as TaskMetrics['units'][number];
      expect([u.onTimeRate, u.returnsPerRecord, u.avgReviewHours]).toEqual([
        m.onTimeRate,
        m.returnsPerRecord,
        m.avgReviewHours,
      ]);
    }
    expect(e.total).toMatchObject({ expected: 3, submitted: 2, onTime: 1, late: 1, onTimeRate: 0.3333 });
    expect(e.total.onTimeRate).toBe(metrics.total.onTimeRate);
    expect(e.levels).toEqual([{ orgType: 'community', ...e.total }]);
    expect(e.forms).toEqual([{ tableId: formId, title: '社区人口月报', ...e.total }]);
    expect(e.formOptions).toEqual([{ tableId: formId, title: '社区人口月报' }]);
    expect(e.trend.at(-1)).toEqual({ month: dueMonth, ...e.total });
    expect(e.trend.map((p) => p.month)[0]).toBe(formatDateTime().slice(0, 7));
  });

  it('shows only the units in the caller’s data scope', async () => {
    expect((await get(njdleader)).units).toHaveLength(3);
    const own = await get(gzlleader);
    expect(own.units.map((u) => u.orgName)).toEqual(['贵州路居民委员会']);
    expect(own.total).toMatchObject({ expected: 1, onTime: 1 });
    const none = await get(fgwleader);
    expect(none).toMatchObject({ tasks: 0, units: [], total: { expected: 0, onTimeRate: null } });
    expect(none.trend.every((p) => p.expected === 0)).toBe(true);
    expect(await api.code(gzlstaff, 'GET', `/api/dashboard/efficiency${range}`)).toBe(403);
  });

  it('filters by level, form and months; refuses a wrong range or form', async () => {
    const streets = await get(admin, `${range}&orgType=street`);
    expect(streets.units).toEqual([]);
    // The level filter keeps the other levels' comparison out of the counted units only.
    expect((await get(admin, `${range}&orgType=community`)).units).toHaveLength(3);
    expect((await get(admin, `${range}&tableId=${formId}`)).total.expected).toBe(3);
    expect((await get(admin, '?from=2020-01&to=2020-03')).trend.map((p) => p.month)).toEqual([
      '2020-01',
      '2020-02',
      '2020-03',
    ]);
    // By default the 12 months ending with next month.
    const months = (await get(admin, '')).trend.map((p) => p.month);
    const next = new Date(`${formatDateTime().slice(0, 7)}-15T00:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    expect(months).toHaveLength(12);
    expect(months.at(-1)).toBe(next.toISOString().slice(0, 7));
    expect(await api.code(admin, 'GET', '/api/dashboard/efficiency?from=2025-05&to=2025-04')).toBe('B1010');
    expect(await api.code(admin, 'GET', '/api/dashboard/efficiency?from=2020-01&to=2025-01')).toBe('B1010');
    expect(await api.code(admin, 'GET', '/api/dashboard/efficiency?from=2025-13')).toBe(400);
    expect(await api.code(admin, 'GET', '/api/dashboard/efficiency?tableId=987654321')).toBe('B1011');
    const rollup = await db()
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '社区人口月报汇总')
      .executeTakeFirstOrThrow();
    expect(await api.code(admin, 'GET', `/api/dashboard/efficiency?tableId=${rollup.id}`)).toBe('B1011');
  });

  it('exports the ranking as Excel', async () => {
    const res = await api.call(admin, 'GET', `/api/dashboard/efficiency/export${range}`);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]?.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows[0]?.slice(0, 8)).toEqual([
      '单位',
      '单位类型',
      '任务数',
      '应报',
      '已报',
      '按时',
      '逾期',
      '按时率（%）',
    ]);
    expect(rows.slice(1).map((r) => [r[0], r[1], r[7]])).toEqual([
      ['贵州路居民委员会', '社区', 100],
      ['宁波路居民委员会', '社区', 0],
      ['福州路居民委员会', '社区', 0],
    ]);
    expect((await api.call(gzlstaff, 'GET', `/api/dashboard/efficiency/export${range}`)).statusCode).toBe(
      403,
    );
  });

  it('measures each of two tasks asking the same form and period as its own metrics do', async () => {
    // The call reads a period's records once and shares them between the tasks asking it (RecordTrails).
    const orgRows = await db().selectFrom('sys_org').select(['id', 'name']).execute();
    const org = (name: string) => orgRows.find((o) => o.name === name)?.id as number;
    const second = await api.ok<number>(admin, 'POST', '/api/diyTask/add', {
      title: '效率任务二',
      forms: [{ tableId: formId }],
      dueTime: inDays(9),
      receivers: { orgIds: [org('贵州路居民委员会'), org('宁波路居民委员会')] },
    });
    try {
      const e = await get(admin, `?from=${formatDateTime().slice(0, 7)}&to=${inDays(9).slice(0, 7)}`);
      const metrics = await Promise.all(
        [taskId, second].map((id) => api.ok<TaskMetrics>(admin, 'GET', `/api/diyTask/metrics?id=${id}`)),
      );
      expect(e.tasks).toBe(2);
      for (const key of ['expected', 'submitted', 'onTime'] as const)
        expect(e.total[key]).toBe((metrics[0]?.total[key] ?? 0) + (metrics[1]?.total[key] ?? 0));
      expect(e.total).toMatchObject({ expected: 5, submitted: 3, onTime: 2 });
      // 贵州路's one record counts for both tasks: two cells, two records, one filler.
      expect(e.units.find((u) => u.orgName === '贵州路居民委员会')).toMatchObject({
        tasks: 2,
        expected: 2,
        submitted: 2,
        onTime: 2,
        returnsPerRecord: 1,
        avgReviewHours: 2,
        records: 2,
        fillers: 1,
      });
    } finally {
      await api.ok(admin, 'POST', '/api/diyTask/delete', { id: second });
    }
  });

  it('leaves out a form taken off and a deleted task', async () => {
    await db().updateTable('diy_table').set({ is_delete: 1 }).where('id', '=', formId).execute();
    expect((await get(admin)).total.expected).toBe(0);
    expect(await api.code(admin, 'GET', `/api/dashboard/efficiency${range}&tableId=${formId}`)).toBe('B1011');
    await db().updateTable('diy_table').set({ is_delete: 0 }).where('id', '=', formId).execute();
    await api.ok(admin, 'POST', '/api/diyTask/delete', { id: taskId });
    expect(await get(admin)).toMatchObject({ tasks: 0, units: [] });
  });
});
