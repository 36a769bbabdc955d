import type { ClassifyOption, DiyRecord, RecordHistory } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../src/db/seeds/seed.ts';
import { addDays } from '../src/modules/diy-period/diy-period.service.ts';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 5 §6: the demo district's form categories and published demo forms with records in every state,
 * seeded idempotently, and readable through the ordinary record routes.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let qy: string;
let forms: Record<string, number>;

const formId = (title: string) => forms[title] as number;
const TITLES = ['企业基本情况登记表', '社区人口月报', '安全生产检查记录'];

async function rowCount(table: string): Promise<number> {
  // biome-ignore lint/suspicious/noExplicitAny: data tables are not in the static schema.
  const db = t.app.ctx.db as any;
  const row = await db
    .selectFrom(table)
    .select((eb: { fn: { countAll(): { as(n: string): unknown } } }) => eb.fn.countAll().as('n'))
    .executeTakeFirst();
  return Number(row.n);
}

async function counts() {
  const out: Record<string, number> = {};
  for (const table of [
    'diy_table',
    'diy_table_classify',
    'diy_table_version',
    'diy_table_column',
    'diy_table_seq',
    'diy_record_history',
  ]) {
    out[table] = await rowCount(table);
  }
  for (const [title, id] of Object.entries(forms)) out[title] = await rowCount(dataTableName(id));
  return out;
}

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  qy = (await login(t.app, 'qyfiller')).accessToken;
  const rows = await t.app.ctx.db.selectFrom('diy_table').select(['id', 'title']).execute();
  forms = Object.fromEntries(rows.map((r) => [r.title, r.id]));
});

afterAll(async () => {
  await t?.close();
});

describe('seeded demo forms', () => {
  it('has three categories, each holding one published form (社区治理 also the population roll-up)', async () => {
    const options = await api.ok<ClassifyOption[]>(qy, 'GET', '/api/diyTableClassify/options');
    expect(options.map((o) => [o.label, o.formCount])).toEqual([
      ['企业填报', 1],
      ['社区治理', 2],
      ['安全生产', 1],
    ]);
    const rows = await t.app.ctx.db
      .selectFrom('diy_table as t')
      .innerJoin('diy_table_classify as c', 'c.id', 't.classify_id')
      .select(['t.title', 't.version', 't.record_count', 't.needs_review', 't.fillers', 'c.name'])
      .orderBy('t.order_no')
      .execute();
    expect(rows.map((r) => [r.title, r.name, r.version, r.record_count, r.needs_review])).toEqual([
      ['企业基本情况登记表', '企业填报', 1, 4, 1],
      ['社区人口月报', '社区治理', 1, 12, 1],
      ['安全生产检查记录', '安全生产', 1, 4, 1],
      ['社区人口月报汇总', '社区治理', 1, 0, 0],
    ]);
    expect(JSON.parse(rows[0]?.fillers ?? '{}')).toMatchObject({ enterprises: true });
  });

  it('shows the records through /api/diyData/{id}/page, in every state, with history', async () => {
    for (const title of TITLES) {
      const page = await api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${formId(title)}/page`, {
        page: 1,
        pageSize: 20,
      });
      expect(page.total, title).toBe(title === '社区人口月报' ? 12 : 4);
      expect([...new Set(page.items.map((r) => r.status))].sort()).toEqual([0, 1, 2, 3]);
      for (const record of page.items) {
        if (record.status === 0 || record.isZero) expect(record.dataNo).toBeNull();
        else expect(record.dataNo).toMatch(/^(QY|RK|AQ)\d{9,11}$/);
      }
      const returned = page.items.find((r) => r.status === 3) as DiyRecord;
      expect(returned.auditComment).toBeTruthy();
      expect(returned.auditUserName).toBeTruthy();
      const history = await api.ok<RecordHistory[]>(
        admin,
        'GET',
        `/api/diyData/${formId(title)}/history?id=${returned.id}`,
      );
      expect(history.map((h) => h.action)).toEqual(['create', 'submit', 'return']);
      expect(history[2]?.comment).toBe(returned.auditComment);
    }
  });

  it('computes formulas and numbers as filing does', async () => {
    const population = await api.ok<PageResult<DiyRecord>>(
      admin,
      'POST',
      `/api/diyData/${formId('社区人口月报')}/page`,
      { page: 1, pageSize: 20, status: 2 },
    );
    const grid = population.items.find((r) => r.createUserName === '孙浩') as DiyRecord;
    const period = await t.app.ctx.db
      .selectFrom('diy_table_period')
      .select(['period_key', 'name'])
      .where('id', '=', grid.periodId as number)
      .executeTakeFirstOrThrow();
    // The month field holds the record's period (two months back).
    expect(grid.periodName).toBe(period.name);
    expect(grid.values).toMatchObject({
      month: period.period_key,
      total: 3126 + 842 + 37,
      net: 4 - 6 + 11 - 9,
      filler: '孙浩',
    });
    const safety = await api.ok<PageResult<DiyRecord>>(
      admin,
      'POST',
      `/api/diyData/${formId('安全生产检查记录')}/page`,
      { page: 1, pageSize: 20, status: 1 },
    );
    expect(safety.items[0]?.values).toMatchObject({ count: 2 });
    expect(safety.items[0]?.values.hazards).toHaveLength(2);
  });

  it('makes 社区人口月报 monthly with the last three periods, the oldest closed, records of several communities', async () => {
    const id = formId('社区人口月报');
    const periods = await t.app.ctx.db
      .selectFrom('diy_table_period')
      .selectAll()
      .where('table_id', '=', id)
      .orderBy('start_date', 'desc')
      .execute();
    expect(periods).toHaveLength(4);
    expect(periods.map((p) => p.closed)).toEqual([0, 0, 0, 1]);
    for (const p of periods) {
      expect(p.due_date).toBe(addDays(p.end_date, 5));
      expect(p.grace_until).toBe(addDays(p.due_date, 3));
    }
    const page = await api.ok<PageResult<DiyRecord>>(admin, 'POST', `/api/diyData/${id}/page`, {
      page: 1,
      pageSize: 50,
    });
    const byPeriod = new Map<number, DiyRecord[]>();
    for (const r of page.items)
      byPeriod.set(r.periodId as number, [...(byPeriod.get(r.periodId as number) ?? []), r]);
    expect(page.items.every((r) => r.periodId !== null)).toBe(true);
    expect(periods.map((p) => byPeriod.get(p.id)?.length ?? 0)).toEqual([1, 4, 4, 3]);
    const zero = page.items.filter((r) => r.isZero);
    expect(zero).toHaveLength(1);
    expect(zero[0]?.createOrgName).toBe('宁波路居民委员会');
    // Several community orgs filed in one period, one record each.
    const orgsOfMonth = (byPeriod.get(periods[2]?.id as number) ?? []).map((r) => r.createOrgName);
    expect(new Set(orgsOfMonth).size).toBe(orgsOfMonth.length);
    expect(orgsOfMonth).toEqual(expect.arrayContaining(['贵州路居民委员会', '福州路居民委员会']));
  });

  it('lets an enterprise filler see only their own enterprise’s records', async () => {
    const page = await api.ok<PageResult<DiyRecord>>(
      qy,
      'POST',
      `/api/diyData/${formId('企业基本情况登记表')}/page`,
      { page: 1, pageSize: 20 },
    );
    expect(page.items.map((r) => r.values.name).sort()).toEqual([
      '上海黄浦数智科技有限公司',
      '上海黄浦数智科技有限公司外滩分公司',
    ]);
  });

  it('seeds twice to the same rows, and leaves a removed demo form removed', async () => {
    const before = await counts();
    const report = await seed(t.app.ctx);
    expect(Object.values(report).reduce((a, b) => a + b, 0)).toBe(0);
    expect(await counts()).toEqual(before);

    await t.app.ctx.db
      .updateTable('diy_table')
      .set({ is_delete: 1 })
      .where('id', '=', formId('社区人口月报'))
      .execute();
    await t.app.ctx.db
      .updateTable('diy_table_classify')
      .set({ name: '改名的分类' })
      .where('name', '=', '安全生产')
      .execute();
    await t.app.ctx.db
      .updateTable('diy_table_classify')
      .set({ is_delete: 1 })
      .where('name', '=', '社区治理')
      .execute();
    // Only the renamed category comes back under its name; the deleted one and the deleted form stay gone.
    const again = await seed(t.app.ctx);
    expect(again).toMatchObject({ diy_table: 0, diy_table_classify: 1 });
    expect(await rowCount('diy_table')).toBe(before.diy_table);
    expect(await rowCount('diy_table_classify')).toBe(before.diy_table_classify + 1);
  });
});
