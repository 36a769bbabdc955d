import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { COCKPIT_CODE_HEADER, type CockpitData, type CockpitLink } from '@shuzhi/contracts/cockpit';
import type { BoardData } from '@shuzhi/contracts/dashboard';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cockpitWeather } from '../src/modules/cockpit/cockpit-weather.ts';
import { createMemoryCache } from '../src/platform/cache/cache.ts';
import type { AppContext } from '../src/platform/context.ts';
import { formatDateTime } from '../src/platform/db/time.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';
import { seededRecords } from './seeded-records.ts';

/**
 * Issue 20 §4, the cockpit: one call for every configured panel — figures equal to the data dashboard's
 * (the roll-up's) for the same records, the on-time share from the records' `late` flag, latest submissions,
 * overdue units, the districts for the map — the caller's scope, panels switched off, settings and their
 * checks, the permission, the weather (off, ok and cached, failed) and signed links (valid, tampered, expired,
 * revoked, publisher without the right).
 */
let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let leader: string;
let staff: string;
let pop: number;
let periodId: number;
const POP = '社区人口月报';

const district = seededRecords(() => t.app, 9_200_000_000_000);
/** A record of 社区人口月报 in the current period. */
const record = (orgCode: string, status: number, extra: object) =>
  district.record(
    pop,
    orgCode,
    status,
    { huji: 10 },
    { create_time: '2026-01-03 10:00:00', period_id: periodId, ...extra },
  );

const data = (token: string) => api.ok<CockpitData>(token, 'GET', '/api/cockpit/data');
const saveConfig = (body: object) =>
  api.ok(admin, 'POST', '/api/cockpit/config', {
    panels: ['progress', 'onTime', 'topForms', 'latest', 'alerts', 'figures', 'map', 'weather'],
    formIds: [pop],
    scaleMode: 'fit',
    refreshSeconds: 60,
    ...body,
  });
const byLink = (code: string) =>
  t.app.inject({ method: 'GET', url: '/api/cockpit/dataByLink', headers: { [COCKPIT_CODE_HEADER]: code } });
const codeOf = (link: CockpitLink) => new URL(link.url, 'http://x').searchParams.get('link') as string;

beforeAll(async () => {
  t = await createTestApp();
  admin = (await login(t.app, 'admin')).accessToken;
  leader = (await login(t.app, 'njdleader')).accessToken;
  staff = (await login(t.app, 'gzlstaff')).accessToken;
  await district.load();
  pop = district.forms[POP] as number;
  await saveConfig({});
  // The first read makes the form's current period; its due date is put in the past for the alerts.
  const first = await data(admin);
  const name = first.forms.find((f) => f.tableId === pop)?.periodName;
  const period = await t.app.ctx.db
    .selectFrom('diy_table_period')
    .select('id')
    .where('table_id', '=', pop)
    .where('name', '=', name as string)
    .executeTakeFirstOrThrow();
  periodId = Number(period.id);
  await t.app.ctx.db
    .updateTable('diy_table_period')
    .set({ due_date: '2020-01-01' })
    .where('id', '=', periodId)
    .execute();
  await record('31010100200101', 2, { submit_time: '2026-01-05 09:00:00', f_huji: 100 });
  await record('31010100200102', 1, { submit_time: '2026-01-07 09:00:00', late: 1, f_huji: 200 });
  await record('31010101300101', 1, { submit_time: '2026-01-06 09:00:00', f_huji: 50 });
  await record('31010101300102', 0, { f_huji: 999 });
  await record('31010101300102', 1, { submit_time: '2026-01-09 09:00:00', is_delete: 1, f_huji: 7777 });
});

afterAll(async () => {
  await t?.close();
});

describe('figures', () => {
  it('the panels of the chosen forms, equal to the data dashboard’s figures', async () => {
    const d = await data(admin);
    const board = await api.ok<BoardData>(admin, 'POST', '/api/dashboard/form/data', {
      id: pop,
      periodId,
      orgType: 'district',
    });
    const form = d.forms.find((f) => f.tableId === pop);
    // Counted: the approved and the two submitted records; not the draft nor the deleted one.
    expect(form?.records).toBe(3);
    expect(form?.records).toBe(board.data.total.records + board.data.outside);
    expect(form?.figures[0]).toMatchObject({ value: board.data.total.figures.m0 });
    const huji = board.measures.find((m) => m.label === '户籍人口')?.id as string;
    expect(form?.figures.find((f) => f.label === '户籍人口')?.value).toBe(350);
    expect(board.data.total.figures[huji]).toBe(350);
    expect(form?.expectedUnits).toBe(board.data.total.expectedUnits);
    expect(form?.reportedUnits).toBe(
      (board.data.total.expectedUnits ?? 0) - (board.data.total.missingUnits ?? 0),
    );
    expect(d.progress).toEqual({
      expected: form?.expectedUnits,
      reported: form?.reportedUnits,
      records: 3,
    });
    // One of the three was filed after the due date.
    expect(d.onTime).toEqual({ records: 3, onTime: 2 });
    expect(d.topForms?.[0]).toEqual({ tableId: pop, title: POP, records: 3 });
    expect(d.latest?.map((l) => l.submitTime)).toEqual([
      '2026-01-07 09:00:00',
      '2026-01-06 09:00:00',
      '2026-01-05 09:00:00',
    ]);
    expect(d.districts).toEqual(board.data.rows.map((r) => ({ name: r.name, records: r.records })));
    expect(d.districts?.reduce((n, r) => n + r.records, 0)).toBe(3);
    // The period is past its due date: the units that have not filed are alerts.
    expect(d.alerts?.length).toBe(board.data.missing.length);
    expect(d.alerts?.length).toBeGreaterThan(0);
    expect(d.alerts?.[0]).toMatchObject({ tableId: pop, dueDate: '2020-01-01' });
    expect(d.district).toBe(t.app.ctx.config.profile.mapDistrict);
    expect(d.weather).toMatchObject({ status: 'off', temperature: null, text: null });
  });

  it('a leader sees their scope only, as their data dashboard does', async () => {
    const d = await data(leader);
    const board = await api.ok<BoardData>(leader, 'POST', '/api/dashboard/form/data', {
      id: pop,
      periodId,
      orgType: 'district',
    });
    const form = d.forms.find((f) => f.tableId === pop);
    expect(form?.records).toBe(board.data.total.records + board.data.outside);
    // 南京东路街道's two records, not 外滩街道's.
    expect(form?.records).toBe(2);
    expect(d.latest?.every((l) => l.orgName.startsWith('310101002'))).toBe(true);
  });

  it('a closed period answers the same figures; a deleted form drops out; nothing to show is empty, not an error', async () => {
    const before = await data(admin);
    await t.app.ctx.db
      .updateTable('diy_table_period')
      .set({ closed: 1 })
      .where('id', '=', periodId)
      .execute();
    const closed = await data(admin);
    expect(closed.forms).toEqual(before.forms);
    expect(closed.districts).toEqual(before.districts);
    await t.app.ctx.db
      .updateTable('diy_table_period')
      .set({ closed: 0 })
      .where('id', '=', periodId)
      .execute();

    await t.app.ctx.db.updateTable('diy_table').set({ is_delete: 1 }).where('id', '=', pop).execute();
    try {
      const gone = await data(admin);
      expect(gone.forms).toEqual([]);
      expect(gone.progress).toEqual({ expected: 0, reported: 0, records: 0 });
      expect(gone.onTime).toEqual({ records: 0, onTime: 0 });
      expect([gone.topForms, gone.latest, gone.alerts, gone.districts]).toEqual([[], [], [], []]);
    } finally {
      await t.app.ctx.db.updateTable('diy_table').set({ is_delete: 0 }).where('id', '=', pop).execute();
    }
    expect((await data(admin)).forms.map((f) => f.tableId)).toEqual([pop]);
  });

  it('panels switched off are not sent; without chosen forms the first periodic forms show', async () => {
    await saveConfig({ panels: ['progress', 'map'], formIds: [] });
    const d = await data(admin);
    expect(d.onTime).toBeNull();
    expect(d.latest).toBeNull();
    expect(d.alerts).toBeNull();
    expect(d.weather).toBeNull();
    expect(d.topForms).toBeNull();
    expect(d.progress).not.toBeNull();
    expect(d.forms.some((f) => f.tableId === pop)).toBe(true);
    await saveConfig({});
  });
});

describe('settings and access', () => {
  it('keeps the settings; refuses a form that is not a published report form (B1020) and bad values', async () => {
    await saveConfig({ scaleMode: 'stretch', refreshSeconds: 120 });
    const config = await api.ok<{ scaleMode: string; refreshSeconds: number }>(
      admin,
      'GET',
      '/api/cockpit/config',
    );
    expect(config).toMatchObject({ scaleMode: 'stretch', refreshSeconds: 120, formIds: [pop] });
    const rollup = await t.app.ctx.db
      .selectFrom('diy_table')
      .select('id')
      .where('report_type', '=', 2)
      .executeTakeFirstOrThrow();
    const body = { panels: ['map'], scaleMode: 'fit', refreshSeconds: 60 };
    expect(await api.code(admin, 'POST', '/api/cockpit/config', { ...body, formIds: [rollup.id] })).toBe(
      'B1020',
    );
    expect(await api.code(admin, 'POST', '/api/cockpit/config', { ...body, formIds: [pop, pop] })).toBe(400);
    expect(
      await api.code(admin, 'POST', '/api/cockpit/config', { ...body, formIds: [], refreshSeconds: 5 }),
    ).toBe(400);
    expect(
      await api.code(admin, 'POST', '/api/cockpit/config', { ...body, formIds: [], panels: ['x'] }),
    ).toBe(400);
    await saveConfig({});
  });

  it('viewing needs cockpit:view, settings cockpit:config', async () => {
    expect(await api.code(staff, 'GET', '/api/cockpit/data')).toBe(403);
    expect(await api.code(leader, 'GET', '/api/cockpit/config')).toBe(403);
    expect(await api.code(leader, 'POST', '/api/cockpit/link', { days: 1 })).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: '/api/cockpit/data' })).statusCode).toBe(401);
  });
});

describe('signed links', () => {
  it('opens the configured panels without a login, as the publisher', async () => {
    const link = await api.ok<CockpitLink>(admin, 'POST', '/api/cockpit/link', { days: 7 });
    expect(link.url).toMatch(/^\/jsc\?link=[A-Za-z0-9_-]{50}$/);
    const res = await byLink(codeOf(link));
    expect(res.statusCode).toBe(200);
    const d = res.json().result as CockpitData;
    expect(d.forms.find((f) => f.tableId === pop)?.records).toBe(3);
    const list = await api.ok<CockpitLink[]>(admin, 'GET', '/api/cockpit/link/list');
    expect(list[0]).toMatchObject({ id: link.id, url: link.url, revoked: false });
  });

  it('refuses a missing or tampered code (B1021), an expired link (B1022), a revoked one (B1023)', async () => {
    const link = await api.ok<CockpitLink>(admin, 'POST', '/api/cockpit/link', { days: 1 });
    const code = codeOf(link);
    const tampered = `${code.slice(0, 10)}${code[10] === 'A' ? 'B' : 'A'}${code.slice(11)}`;
    for (const bad of [tampered, 'abc', '']) {
      const res = await byLink(bad);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('B1021');
    }
    await t.app.ctx.db
      .updateTable('sys_cockpit_link')
      .set({ expire_time: formatDateTime(new Date(Date.now() - 1000)) })
      .where('id', '=', link.id)
      .execute();
    expect((await byLink(code)).json().code).toBe('B1022');
    const other = await api.ok<CockpitLink>(admin, 'POST', '/api/cockpit/link', { days: 1 });
    await api.ok(admin, 'POST', '/api/cockpit/link/revoke', { id: other.id });
    const revoked = await byLink(codeOf(other));
    expect([revoked.statusCode, revoked.json().code]).toEqual([401, 'B1023']);
    expect(await api.code(admin, 'POST', '/api/cockpit/link/revoke', { id: other.id })).toBe('D1002');
  });

  it('stops when the publisher may no longer view the cockpit (B1024)', async () => {
    const city = (await login(t.app, 'cityadmin')).accessToken;
    const link = await api.ok<CockpitLink>(city, 'POST', '/api/cockpit/link', { days: 1 });
    expect((await byLink(codeOf(link))).statusCode).toBe(200);
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ status: 2 })
      .where('account', '=', 'cityadmin')
      .execute();
    const res = await byLink(codeOf(link));
    expect([res.statusCode, res.json().code]).toEqual([403, 'B1024']);
    await t.app.ctx.db
      .updateTable('sys_user')
      .set({ status: 1 })
      .where('account', '=', 'cityadmin')
      .execute();
  });
});

describe('weather', () => {
  let server: Server;
  let hits = 0;
  let answer: { status: number; body: string } = { status: 200, body: '{}' };
  const ctxWith = (url: string | null) =>
    ({
      config: { weather: { provider: url ? 'http' : 'none', url, key: 'k1' } },
      cache: createMemoryCache('w:'),
      log: t.app.log,
    }) as unknown as AppContext;

  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      expect(req.url).toBe('/w?city=%E4%B8%8A%E6%B5%B7&key=k1');
      res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/w?city={city}&key={key}`;

  it('reads the provider once and keeps the answer', async () => {
    answer = {
      status: 200,
      body: JSON.stringify({ now: { temp: '12.5', text: '多云', humidity: 60, wind: '东风 3级' } }),
    };
    const ctx = ctxWith(url());
    hits = 0;
    const first = await cockpitWeather(ctx, '上海');
    expect(first).toMatchObject({
      status: 'ok',
      city: '上海',
      temperature: 12.5,
      text: '多云',
      humidity: 60,
    });
    expect(await cockpitWeather(ctx, '上海')).toEqual(first);
    expect(hits).toBe(1);
  });

  it('says so plainly when the provider fails or answers nonsense, and when none is set', async () => {
    for (const bad of [
      { status: 500, body: '{"temp": 10, "text": "晴"}' },
      { status: 200, body: '{"message": "quota exceeded"}' },
      { status: 200, body: 'not json' },
    ]) {
      answer = bad;
      const w = await cockpitWeather(ctxWith(url()), '上海');
      expect(w).toMatchObject({ status: 'failed', temperature: null, text: null });
    }
    const closed = `http://127.0.0.1:1/w?city={city}`;
    expect((await cockpitWeather(ctxWith(closed), '上海')).status).toBe('failed');
    expect((await cockpitWeather(ctxWith(null), '上海')).status).toBe('off');
  });
});
