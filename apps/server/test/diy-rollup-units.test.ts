import type { RollupData, RollupRow } from '@shuzhi/contracts/diy-rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDate } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 16 §3: a roll-up expects the units its source's fill scope names (社区人口月报: the communities and
 * 区发展和改革委员会); a unit's own record counts for it and rolls up into the units above it, as do the
 * records of the units below it. Checked on the seeded roll-up over the seeded records (a true picture of
 * them), on a community filing its own return, and on other fill scopes.
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let leader: string;
let gzl: string;
let formId: number;
let rollupId: number;
let orgs: Record<string, number>;
/** The seeded periods, newest first: this month, last month, two months back. */
let periods: { id: number; period_key: string }[];

const NJD = '310101002';
const GZL = '310101002001';
const db = () => t.app.ctx.db;
const data = (body: Record<string, unknown>) =>
  api.ok<RollupData>(admin, 'POST', `/api/diyLoad/${rollupId}/data`, body);
const row = (d: RollupData, code: string) => d.rows.find((r) => r.key === String(orgs[code])) as RollupRow;
const units = (r: RollupRow) => [r.missingUnits, r.expectedUnits];

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  leader = (await login(t.app, 'hpleader')).accessToken;
  gzl = (await login(t.app, 'gzlstaff')).accessToken;
  const forms = await db().selectFrom('diy_table').select(['id', 'title']).execute();
  const byTitle = new Map(forms.map((f) => [f.title, f.id]));
  formId = byTitle.get('社区人口月报') as number;
  rollupId = byTitle.get('社区人口月报汇总') as number;
  const orgRows = await db().selectFrom('sys_org').select(['id', 'code']).execute();
  orgs = Object.fromEntries(orgRows.map((r) => [r.code, r.id]));
  periods = await db()
    .selectFrom('diy_table_period')
    .select(['id', 'period_key'])
    .where('table_id', '=', formId)
    .where('start_date', '<=', formatDate(new Date()))
    .orderBy('start_date', 'desc')
    .execute();
});

afterAll(async () => {
  await t?.close();
});

describe('the seeded roll-up over the seeded records', () => {
  it('expects the 12 communities; last month 贵州路 and 福州路 reported, the department is outside', async () => {
    const d = await data({ periodId: periods[1]?.id });
    // 贵州路's own record (submitted) and 福州路's (approved); the grid's returned record is pending.
    expect(row(d, NJD).figures.m1).toBe(2995 + 2398);
    expect(row(d, NJD).pending).toBe(1);
    expect(units(row(d, NJD))).toEqual([1, 3]);
    expect(d.rows.filter((r) => r.key !== String(orgs[NJD])).map(units)).toEqual([
      [2, 2],
      [2, 2],
      [3, 3],
      [2, 2],
    ]);
    expect(units(d.total)).toEqual([10, 12]);
    expect(d.outside).toBe(1);
    const paths = d.missing.map((m) => m.orgPath);
    expect(paths).toContain('南京东路街道/宁波路居民委员会');
    expect(paths).toContain('外滩街道/金陵东路居民委员会');
    expect(paths.some((p) => p.includes('贵州路') || p.includes('福州路') || p.includes('网格'))).toBe(false);
  });

  it('counts a zero report and a grid’s record for their communities (two months back)', async () => {
    const d = await data({ periodId: periods[2]?.id });
    expect(units(row(d, NJD))).toEqual([0, 3]);
    const drilled = await data({ periodId: periods[2]?.id, parent: String(orgs[NJD]) });
    expect(drilled.rows.map((r) => [r.name, r.missingUnits, r.expectedUnits])).toEqual([
      ['贵州路居民委员会', 0, 1],
      ['福州路居民委员会', 0, 1],
      ['宁波路居民委员会', 0, 1],
      ['上海黄浦数智科技有限公司', 0, 0],
    ]);
  });
});

describe('a community that files its own return', () => {
  it('counts for itself and its street once approved, with its grids not expected', async () => {
    const current = periods[0] as { id: number; period_key: string };
    const before = await data({ periodId: current.id });
    expect(units(before.total)).toEqual([12, 12]);
    const id = await api.ok<number>(gzl, 'POST', `/api/diyData/${formId}/add`, {
      periodId: current.id,
      values: {
        month: current.period_key,
        unit: orgs[GZL],
        filler: '吴静',
        huji: 3001,
        liudong: 998,
        elderly: 1190,
      },
      submit: true,
    });
    // Submitted: counted (the roll-up counts submitted and approved records), then approved by the reviewer.
    expect(
      await api.code(leader, 'POST', `/api/diyData/${formId}/audit`, { ids: [id], action: 'approve' }),
    ).toBe(200);
    const d = await data({ periodId: current.id });
    expect(units(row(d, NJD))).toEqual([2, 3]);
    expect(row(d, NJD).figures.m1).toBe(3001);
    expect(units(d.total)).toEqual([11, 12]);
    expect(d.missing.map((m) => m.orgPath)).not.toContain('南京东路街道/贵州路居民委员会');
    const community = await data({ periodId: current.id, parent: String(orgs[GZL]) });
    expect(community.rows.map((r) => [r.name, r.figures.m1, r.missingUnits, r.expectedUnits])).toEqual([
      ['贵州路居民委员会（本级）', 3001, 0, 1],
      ['第一网格', null, 0, 0],
      ['第二网格', null, 0, 0],
    ]);
  });
});

describe('other fill scopes', () => {
  it('expects the orgs a scope names, enterprises inside it when admitted, nothing under a tenant-wide one', async () => {
    const seeded = await db()
      .selectFrom('diy_table')
      .select('fillers')
      .where('id', '=', formId)
      .executeTakeFirstOrThrow();
    const setFillers = (fillers: object) =>
      api.ok(admin, 'POST', '/api/diyTable/update', {
        id: formId,
        fillers: { all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false, ...fillers },
      });
    try {
      // The street itself, and its enterprise: the street reported through its communities' records.
      await setFillers({ orgIds: [orgs[NJD]], enterprises: true });
      const street = await data({ periodId: periods[1]?.id });
      expect(units(row(street, NJD))).toEqual([1, 2]);
      expect(units(street.total)).toEqual([1, 2]);
      expect(street.missing.map((m) => m.orgPath)).toEqual(['南京东路街道/上海黄浦数智科技有限公司']);
      // Everyone of the tenant may fill: the district is the unit, above every street row.
      await setFillers({ all: true });
      expect(units((await data({ periodId: periods[1]?.id })).total)).toEqual([0, 0]);
    } finally {
      await db().updateTable('diy_table').set({ fillers: seeded.fillers }).where('id', '=', formId).execute();
    }
  });
});
