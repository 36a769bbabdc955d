import type { RollupData, RollupInfo, RollupRow } from '@shuzhi/contracts/diy-rollup';
import type { FormRow } from '@shuzhi/contracts/diy-table';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedRollups } from '../src/modules/diy-rollup/rollup-seed.ts';
import { arraySource } from '../src/modules/region/region.source.ts';
import { formatDate } from '../src/platform/db/time.ts';
import { dataTableName } from '../src/platform/diy/data-table.ts';
import { apiCalls, createTestApp, encrypt, login, type TestApp } from './helpers.ts';
import { REGION_FIXTURE } from './region.fixture.ts';
import { SEEDED_TENANT, seededRecords } from './seeded-records.ts';

/**
 * Issue 6 §2, roll-ups: creating one (only over number fields of a form the caller administers), opening it
 * (its viewers and admins), and its figures checked against sums worked out by hand from records written
 * here: by street, drilled to communities and grids, counted statuses, pending records, expected and missing
 * units, last period and same period last year, the caller's reach, and a region roll-up over a form without
 * periods.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let njd: string;
let gzl: string;
const POP = '社区人口月报';
const ENT = '企业基本情况登记表';
const SEEDED = '社区人口月报汇总';

const NJD = '310101002';
const WT = '310101013';
const GZL = '310101002001';
const FZL = '310101002002';
const GRID_GZL_1 = '31010100200101';
const GRID_GZL_2 = '31010100200102';
const GRID_FZL_1 = '31010100200201';
const GRID_WT_1 = '31010101300101';

const periods: Record<string, number> = {};
let rollupId: number;

const district = seededRecords(() => t.app, 9_000_000_000_000);
const { forms, orgs, record, period } = district;

const data = (token: string, id: number, body: Record<string, unknown> = {}) =>
  api.ok<RollupData>(token, 'POST', `/api/diyLoad/${id}/data`, body);
const row = (d: RollupData, code: string) => d.rows.find((r) => r.key === String(orgs[code])) as RollupRow;
const region = (d: RollupData, code: string) => d.rows.find((r) => r.key === code) as RollupRow;

beforeAll(async () => {
  t = await createTestApp({ regionSource: arraySource(REGION_FIXTURE, 50) });
  admin = (await login(t.app, 'admin')).accessToken;
  njd = (await login(t.app, 'njdleader')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  await district.load();

  // The population form becomes monthly; three periods of our own (far in the past, so the current month
  // the server makes stays apart) and records in them.
  const pop = forms[POP] as number;
  await t.app.ctx.db
    .updateTable('diy_table')
    .set({ period: JSON.stringify({ kind: 'month', dueDays: 5, graceDays: 0, onePerOrg: false }) })
    .where('id', '=', pop)
    .execute();
  periods.may = await period(pop, '2025-05', '2025-05-01', '2025-05-31');
  periods.apr = await period(pop, '2025-04', '2025-04-01', '2025-04-30');
  periods.lastMay = await period(pop, '2024-05', '2024-05-01', '2024-05-31');
  const may = { period_id: periods.may };
  await record(pop, GRID_GZL_1, 2, { huji: 100, liudong: 10, elderly: 30 }, may);
  await record(pop, GRID_GZL_2, 1, { huji: 200, liudong: 20, elderly: 40, jingwai: 3 }, may);
  await record(pop, GRID_FZL_1, 0, { huji: 999 }, may);
  await record(pop, GRID_FZL_1, 3, { huji: 888 }, may);
  await record(pop, GRID_WT_1, 2, { huji: 50, liudong: 5, elderly: 9 }, may);
  await record(pop, GRID_WT_1, 2, { huji: 7777 }, { ...may, is_delete: 1 });
  await record(pop, 'HPQ-FGW', 1, { huji: 5 }, may);
  await record(pop, GRID_GZL_1, 2, { huji: 80 }, { period_id: periods.apr });
  await record(pop, GRID_GZL_2, 2, { huji: 150 }, { period_id: periods.lastMay });
  await record(pop, GRID_WT_1, 2, { huji: 40 }, { period_id: periods.lastMay });

  // The demo seed made the roll-up at start-up; seeding again adds nothing.
  expect(await seedRollups(t.app.ctx.db, t.app.ctx, { tenantId: SEEDED_TENANT })).toBe(0);
  const seeded = await t.app.ctx.db
    .selectFrom('diy_table')
    .select('id')
    .where('title', '=', SEEDED)
    .executeTakeFirstOrThrow();
  rollupId = seeded.id;
});

afterAll(async () => {
  await t?.close();
});

describe('the seeded roll-up', () => {
  it('is a published report-type-2 form item with its config', async () => {
    const info = await api.ok<RollupInfo>(admin, 'GET', `/api/diyLoad/${rollupId}/config`);
    expect(info).toMatchObject({
      title: SEEDED,
      sourceTableId: forms[POP],
      sourceTitle: POP,
      periodic: true,
      canEdit: true,
    });
    expect(info.config.measures.map((m) => m.field)).toEqual([
      'huji',
      'liudong',
      'jingwai',
      'total',
      'elderly',
      'born',
      'died',
      'movein',
      'moveout',
      'net',
      null,
    ]);
    const rows = await api.ok<FormRow[]>(admin, 'GET', '/api/diyTable/list?reportType=2');
    expect(rows.find((r) => r.id === rollupId)).toMatchObject({ version: 1, reportType: 2 });
  });

  it('sums counted records by street, with pending records and missing units', async () => {
    const d = await data(admin, rollupId, { periodId: periods.may });
    expect(d.period).toEqual({ id: periods.may, name: '2025-05' });
    expect(d.path).toEqual([]);
    const streets = d.rows.map((r) => r.name);
    expect(streets).toContain('南京东路街道');
    expect(streets).not.toContain('区发展和改革委员会');
    const njdRow = row(d, NJD);
    // 100 (approved) + 200 (submitted); the draft and the returned record are pending, not summed.
    expect(njdRow.figures).toMatchObject({ m1: 300, m2: 30, m3: 3, m5: 70, m11: 2 });
    expect(njdRow.records).toBe(2);
    expect(njdRow.pending).toBe(2);
    expect(njdRow.hasChildren).toBe(true);
    // The form's fill scope names the communities: 3 expected; 贵州路 reported through its grids' records.
    expect(njdRow.expectedUnits).toBe(3);
    expect(njdRow.missingUnits).toBe(2);
    const wt = row(d, WT);
    // The deleted record does not count.
    expect(wt.figures).toMatchObject({ m1: 50, m11: 1 });
    expect(wt.expectedUnits).toBe(2);
    expect(wt.missingUnits).toBe(1);
    // A street without records: nothing to sum, a zero count.
    const empty = d.rows.find((r) => r.records === 0 && r.pending === 0) as RollupRow;
    expect(empty.figures.m1).toBeNull();
    expect(empty.figures.m11).toBe(0);
    // The total is the sum of the rows; the department's record is under no street, and said so.
    expect(d.total.figures.m1).toBe(350);
    expect(d.outside).toBe(1);
    expect(d.total.records).toBe(3);
    expect(d.total.pending).toBe(2);
    expect(d.total.missingUnits).toBe(d.rows.reduce((s, r) => s + (r.missingUnits ?? 0), 0));
    expect(d.missing.map((m) => m.orgName)).not.toContain('第一网格');
    expect(d.missing.some((m) => m.orgPath === '南京东路街道/福州路居民委员会')).toBe(true);
    expect(d.missing.some((m) => m.orgPath.startsWith('南京东路街道/贵州路居民委员会'))).toBe(false);
    expect(d.lastPeriod).toBeNull();
  });

  it('behaves as an empty published form where records are read (record list, recycle bin)', async () => {
    const page = await api.ok<{ total: number }>(admin, 'POST', `/api/diyData/${rollupId}/page`, {});
    expect(page.total).toBe(0);
    await api.ok(admin, 'POST', '/api/diyRecycle/page', { page: 1, pageSize: 20 });
  });

  it('drills down to communities and grids', async () => {
    const d = await data(admin, rollupId, { periodId: periods.may, parent: String(orgs[NJD]) });
    expect(d.path).toEqual([{ key: String(orgs[NJD]), name: '南京东路街道' }]);
    expect(d.outside).toBe(0);
    expect(row(d, GZL).figures.m1).toBe(300);
    expect(row(d, FZL)).toMatchObject({ records: 0, pending: 2, expectedUnits: 1, missingUnits: 1 });
    expect(row(d, GZL)).toMatchObject({ expectedUnits: 1, missingUnits: 0 });
    expect(row(d, FZL).figures.m1).toBeNull();
    // The street's enterprise is a row of its own, not expected to file (the form does not admit enterprises).
    expect(d.rows.find((r) => r.name === '上海黄浦数智科技有限公司')?.expectedUnits).toBe(0);
    expect(d.total.figures.m1).toBe(300);
    const grids = await data(admin, rollupId, { periodId: periods.may, parent: String(orgs[GZL]) });
    expect(grids.path.map((p) => p.name)).toEqual(['南京东路街道', '贵州路居民委员会']);
    // The community is the unit expected to file: its own row holds that (reported through its grids).
    expect(grids.rows.map((r) => [r.name, r.figures.m1, r.expectedUnits, r.missingUnits])).toEqual([
      ['贵州路居民委员会（本级）', null, 1, 0],
      ['第一网格', 100, 0, 0],
      ['第二网格', 200, 0, 0],
    ]);
  });

  it('compares with the previous period and the same period last year', async () => {
    const d = await data(admin, rollupId, { periodId: periods.may, compare: true });
    expect(d.lastPeriod).toEqual({ id: periods.apr, name: '2025-04' });
    expect(d.lastYearPeriod).toEqual({ id: periods.lastMay, name: '2024-05' });
    expect(row(d, NJD).last?.m1).toBe(80);
    expect(row(d, NJD).lastYear?.m1).toBe(150);
    expect(row(d, WT).last?.m1).toBeNull();
    expect(row(d, WT).lastYear?.m1).toBe(40);
    expect(d.total.last?.m1).toBe(80);
    expect(d.total.lastYear?.m1).toBe(190);
    // The figures of this period are the same with or without the comparison.
    expect(row(d, NJD).figures.m1).toBe(300);
  });

  it('gives the records an org filed itself a row of their own when drilling into it', async () => {
    await record(forms[POP] as number, GZL, 1, { huji: 7 }, { period_id: periods.apr });
    const d = await data(admin, rollupId, { periodId: periods.apr, parent: String(orgs[GZL]) });
    expect(d.rows.map((r) => [r.name, r.figures.m1, r.hasChildren])).toEqual([
      ['贵州路居民委员会（本级）', 7, false],
      ['第一网格', 80, false],
      ['第二网格', null, false],
    ]);
    expect(d.total.figures.m1).toBe(87);
    const top = await data(admin, rollupId, { periodId: periods.apr });
    expect(row(top, NJD).figures.m1).toBe(87);
  });

  it('defaults to the latest started period (the current month, made by the server)', async () => {
    const d = await data(admin, rollupId);
    const key = formatDate().slice(0, 7);
    const current = await t.app.ctx.db
      .selectFrom('diy_table_period')
      .select('id')
      .where('table_id', '=', forms[POP] as number)
      .where('period_key', '=', key)
      .executeTakeFirstOrThrow();
    expect(d.period?.id).toBe(current.id);
    expect(d.total.records).toBe(0);
  });

  it('refuses a period of another form and drills into nothing outside the tree', async () => {
    expect(await api.code(admin, 'POST', `/api/diyLoad/${rollupId}/data`, { periodId: 123_456_789 })).toBe(
      'F1025',
    );
    const none = await data(admin, rollupId, { periodId: periods.may, parent: '123456789' });
    expect(none.rows).toEqual([]);
    expect(await api.code(admin, 'POST', `/api/diyLoad/${rollupId}/data`, { parent: 'x1' })).toBe(400);
  });
});

describe('who sees what', () => {
  it('refuses callers outside the roll-up’s viewers', async () => {
    expect(await api.code(gzl, 'GET', `/api/diyLoad/${rollupId}/config`)).toBe('F1000');
    expect(await api.code(gzl, 'POST', `/api/diyLoad/${rollupId}/data`, {})).toBe('F1000');
    expect(await api.code(njd, 'GET', `/api/diyLoad/${rollupId}/config`)).toBe('F1000');
  });

  it('gives a street leader only their street’s figures, and nothing when drilling elsewhere', async () => {
    // The admin lets the street's people view the roll-up (the form settings edit a roll-up's viewers).
    await api.ok(admin, 'POST', '/api/diyTable/update', {
      id: rollupId,
      viewers: { all: false, orgIds: [orgs[NJD]], roleIds: [], userIds: [], enterprises: false },
    });
    const d = await data(njd, rollupId, { periodId: periods.may });
    expect(d.rows.map((r) => r.name)).toEqual(['南京东路街道']);
    expect(d.outside).toBe(0);
    expect(d.total.figures.m1).toBe(300);
    expect(d.total.expectedUnits).toBe(3);
    const elsewhere = await data(njd, rollupId, { periodId: periods.may, parent: String(orgs[WT]) });
    expect(elsewhere.rows).toEqual([]);
    expect(elsewhere.total.records).toBe(0);
    const info = await api.ok<RollupInfo>(njd, 'GET', `/api/diyLoad/${rollupId}/config`);
    // A viewer, not an admin of this roll-up (its owner org is outside the street).
    expect(info.canEdit).toBe(false);
    const fgw = (await login(t.app, 'fgwstaff')).accessToken;
    expect(await api.code(fgw, 'GET', `/api/diyLoad/${rollupId}/config`)).toBe('F1000');
  });

  it('asks a viewer for the source form’s password before any figure (F1007); its admins are not asked', async () => {
    const pop = forms[POP] as number;
    await api.ok(admin, 'POST', '/api/diyTable/update', { id: pop, password: encrypt(t.app, 'pop123') });
    try {
      expect(await api.code(njd, 'POST', `/api/diyLoad/${rollupId}/data`, { periodId: periods.may })).toBe(
        'F1007',
      );
      // The page itself still opens, to offer the prompt.
      expect(await api.code(njd, 'GET', `/api/diyLoad/${rollupId}/config`)).toBe(200);
      expect((await data(admin, rollupId, { periodId: periods.may })).total.figures.m1).toBeGreaterThan(0);
      await api.ok(njd, 'POST', '/api/diyTable/CheckFormPwd', {
        tableId: pop,
        password: encrypt(t.app, 'pop123'),
      });
      expect((await data(njd, rollupId, { periodId: periods.may })).total.figures.m1).toBe(300);
    } finally {
      await t.app.ctx.db.updateTable('diy_table').set({ pwd_hash: null }).where('id', '=', pop).execute();
    }
  });
});

describe('adding and changing roll-ups', () => {
  const base = (config: Record<string, unknown>) => ({
    title: '人口测试汇总',
    config: {
      sourceTableId: forms[POP],
      dimension: 'org',
      orgType: 'street',
      measures: [{ id: 'm1', label: '户籍', agg: 'sum', field: 'huji' }],
      ...config,
    },
  });

  it('refuses fields that are not numbers or do not exist, with the fields at fault', async () => {
    const env = await api.envelope(admin, 'POST', '/api/diyTable/addRollup', {
      ...base({
        measures: [
          { id: 'm1', label: '电话', agg: 'sum', field: 'phone' },
          { id: 'm2', label: '无', agg: 'sum', field: 'nosuch' },
          { id: 'm3', label: '户籍', agg: 'sum', field: 'huji' },
        ],
      }),
    });
    expect(env.code).toBe('F1041');
    expect(Object.keys(env.errors as object).sort()).toEqual([
      'config.measures.0.field',
      'config.measures.1.field',
    ]);
    const region = await api.envelope(admin, 'POST', '/api/diyTable/addRollup', {
      ...base({ dimension: 'region', regionField: 'huji', regionLevel: 4 }),
    });
    expect(region.code).toBe('F1041');
    expect(Object.keys(region.errors as object)).toEqual(['config.regionField']);
    // A sum needs a field; a region roll-up needs its field (request validation).
    expect(
      await api.code(admin, 'POST', '/api/diyTable/addRollup', {
        ...base({ measures: [{ id: 'm1', label: 'x', agg: 'sum', field: null }] }),
      }),
    ).toBe(400);
    expect(await api.code(admin, 'POST', '/api/diyTable/addRollup', base({ dimension: 'region' }))).toBe(400);
    const count = await t.app.ctx.db
      .selectFrom('diy_table')
      .select('id')
      .where('title', '=', '人口测试汇总')
      .execute();
    expect(count).toEqual([]);
  });

  it('refuses a source that is missing, of another tenant, or not the caller’s to administer', async () => {
    expect(
      await api.code(admin, 'POST', '/api/diyTable/addRollup', base({ sourceTableId: 987_654_321 })),
    ).toBe('F1040');
    const foreign = 8_000_000_000_001;
    await t.app.ctx.db
      .insertInto('diy_table')
      .values({
        id: foreign,
        create_time: '2025-01-01 00:00:00',
        is_delete: 0,
        tenant_id: 42,
        title: '他人表单',
        report_type: 1,
        classify_id: null,
        owner_org_id: null,
        status: 1,
        pwd_hash: null,
        fillers: '{}',
        viewers: '{}',
        reviewer_ids: '[]',
        needs_review: 0,
        draft_design: null,
        draft_revision: 0,
        version: 1,
        order_no: 1,
        record_count: 0,
      } as never)
      .execute();
    expect(await api.code(admin, 'POST', '/api/diyTable/addRollup', base({ sourceTableId: foreign }))).toBe(
      'F1040',
    );
    // njdleader designs forms, but the population form belongs to 区民政局, outside their scope.
    expect(await api.code(njd, 'POST', '/api/diyTable/addRollup', base({}))).toBe('F1040');
    // A roll-up is not a source.
    expect(await api.code(admin, 'POST', '/api/diyTable/addRollup', base({ sourceTableId: rollupId }))).toBe(
      'F1040',
    );
    // Without diyTable:add at all.
    expect(await api.code(gzl, 'POST', '/api/diyTable/addRollup', base({}))).toBe(403);
  });

  it('adds one with avg, min, max and counts, and changes it', async () => {
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/addRollup', {
      ...base({
        statuses: 'approved',
        measures: [
          { id: 'm1', label: '户籍', agg: 'sum', field: 'huji' },
          { id: 'm2', label: '平均', agg: 'avg', field: 'huji' },
          { id: 'm3', label: '最小', agg: 'min', field: 'huji' },
          { id: 'm4', label: '最大', agg: 'max', field: 'huji' },
          { id: 'm5', label: '境外填写数', agg: 'count', field: 'jingwai' },
          { id: 'm6', label: '份数', agg: 'count', field: null },
        ],
      }),
    });
    const d = await data(admin, id, { periodId: periods.may });
    // Approved only: 贵州路 第一网格 (100) counts; the submitted 200 is pending with the draft and the returned.
    expect(row(d, NJD).figures).toEqual({ m1: 100, m2: 100, m3: 100, m4: 100, m5: 0, m6: 1 });
    expect(row(d, NJD).pending).toBe(3);
    await api.ok(admin, 'POST', '/api/diyTable/updateRollup', {
      id,
      title: '人口测试汇总（已提交）',
      config: {
        ...base({}).config,
        statuses: 'submitted',
        measures: [
          { id: 'm1', label: '平均', agg: 'avg', field: 'huji' },
          { id: 'm2', label: '最小', agg: 'min', field: 'huji' },
          { id: 'm3', label: '最大', agg: 'max', field: 'huji' },
          { id: 'm4', label: '境外填写数', agg: 'count', field: 'jingwai' },
        ],
      },
    });
    const after = await data(admin, id, { periodId: periods.may });
    expect(row(after, NJD).figures).toEqual({ m1: 150, m2: 100, m3: 200, m4: 1 });
    expect(after.total.figures).toMatchObject({ m2: 50, m3: 200, m4: 1 });
    expect(after.total.figures.m1).toBeCloseTo(350 / 3, 5);
    const info = await api.ok<RollupInfo>(admin, 'GET', `/api/diyLoad/${id}/config`);
    expect(info.title).toBe('人口测试汇总（已提交）');
    expect(
      (
        await api.envelope(admin, 'POST', '/api/diyTable/updateRollup', {
          id,
          config: { ...base({}).config, measures: [{ id: 'm1', label: 'x', agg: 'sum', field: 'remark' }] },
        })
      ).code,
    ).toBe('F1041');
    expect(await api.code(admin, 'POST', '/api/diyTable/updateRollup', { id: forms[POP], title: 'x' })).toBe(
      'F1000',
    );
  });
});

describe('a region roll-up over a form without periods', () => {
  it('groups by the region code at the level and drills down by prefix', async () => {
    const ent = forms[ENT] as number;
    // Regions of the fixture are imported at start.
    for (let i = 0; i < 50; i++) {
      const n = await t.app.ctx.db.selectFrom('sys_region').select('id').limit(1).execute();
      if (n.length > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const seededStaff = await t.app.ctx.db
      .selectFrom(dataTableName(ent) as 'diy_table')
      .select(['f_staff', 'f_area', 'status'] as never[])
      .where('is_delete', '=', 0)
      .execute();
    // Seeded records of this form that count (read before ours are added).
    const extra = (
      seededStaff as unknown as { f_area: string | null; status: number; f_staff: number }[]
    ).filter((r) => r.f_area && r.f_area.length >= 6 && (r.status === 1 || r.status === 2));
    await record(ent, GRID_GZL_1, 1, { area: '310101002001', staff: 10 });
    await record(ent, GRID_GZL_1, 2, { area: '310101002002', staff: 20 });
    await record(ent, GRID_GZL_1, 2, { area: '310101013001', staff: 5 });
    await record(ent, GRID_GZL_1, 2, { area: '310104003', staff: 7 });
    await record(ent, GRID_GZL_1, 0, { area: '310101002001', staff: 1000 });
    const id = await api.ok<number>(admin, 'POST', '/api/diyTable/addRollup', {
      title: '企业按区域汇总',
      config: {
        sourceTableId: ent,
        dimension: 'region',
        regionField: 'area',
        regionLevel: 3,
        measures: [
          { id: 'm1', label: '从业人数', agg: 'sum', field: 'staff' },
          { id: 'm2', label: '户数', agg: 'count', field: null },
        ],
      },
    });
    const info = await api.ok<RollupInfo>(admin, 'GET', `/api/diyLoad/${id}/config`);
    expect(info).toMatchObject({ periodic: false, regionFieldLabel: '注册地（区县）' });
    const d = await data(admin, id, { compare: true });
    expect(d.period).toBeNull();
    const hp = region(d, '310101');
    expect(hp.name).toBe('黄浦区');
    const hpExtra = extra.filter((r) => r.f_area?.startsWith('310101')).reduce((s, r) => s + r.f_staff, 0);
    expect(hp.figures.m1).toBe(35 + hpExtra);
    expect(hp.pending).toBeGreaterThanOrEqual(1);
    expect(hp.expectedUnits).toBeNull();
    expect(hp.last).toBeNull();
    expect(region(d, '310104')).toMatchObject({ name: '徐汇区', figures: { m1: 7, m2: 1 } });
    const streets = await data(admin, id, { parent: '310101' });
    expect(streets.path).toEqual([{ key: '310101', name: '黄浦区' }]);
    expect(region(streets, '310101002')).toMatchObject({ name: '南京东路街道', figures: { m1: 30, m2: 2 } });
    expect(region(streets, '310101013').figures.m1).toBe(5);
    const communities = await data(admin, id, { parent: '310101002' });
    expect(communities.path.map((p) => p.name)).toEqual(['黄浦区', '南京东路街道']);
    expect(communities.rows.map((r) => [r.key, r.name, r.figures.m1, r.hasChildren])).toEqual([
      ['310101002001', '贵州路居委会', 10, false],
      ['310101002002', '定兴居委会', 20, false],
    ]);
    // Above the roll-up's top level or of no level: nothing.
    expect((await data(admin, id, { parent: '3101' })).rows).toEqual([]);
    expect((await data(admin, id, { parent: '3101010' })).rows).toEqual([]);
  });
});
