import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { Envelope } from '@shuzhi/contracts/envelope';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../src/platform/config/config.ts';
import { ConfigError } from '../src/platform/config/config-error.ts';
import { nextCronRuns, parseCron } from '../src/platform/jobs/timing.ts';
import { apiCalls, createTestApp, login, type TestApp } from './helpers.ts';

/**
 * Issue 16 §1: one configured zone governs periods, due dates, numbering by date, cron runs and the
 * envelope's time, whatever the machine's zone. The machine runs in UTC here (eight hours behind Shanghai),
 * the product in Asia/Shanghai; the clock is set to the moments where the two disagree about the date.
 */
process.env.TZ = 'UTC';

let t: TestApp;
const api = apiCalls(() => t.app);
let admin: string;
let filer: string;
let monthly: number;

/** Sets the clock (Date only: timers run on) to a wall-clock time in Shanghai. */
const at = (shanghai: string) => vi.setSystemTime(new Date(`${shanghai.replace(' ', 'T')}+08:00`));

/** Moves the clock and signs the filer in again (a month later the old session has run out). */
async function moveTo(shanghai: string) {
  at(shanghai);
  filer = (await login(t.app, 'gzlstaff')).accessToken;
}

const DESIGN = {
  fields: [
    { id: 'name', type: 'text', label: '名称', required: true },
    { id: 'sn', type: 'serialNo', label: '编号' },
  ],
  numbering: { prefix: 'T-', datePart: 'yyyyMMdd', digits: 4 },
};

async function file(name: string): Promise<{ record: DiyRecord; envelope: Envelope<number> }> {
  const envelope = await api.envelope<number>(filer, 'POST', `/api/diyData/${monthly}/add`, {
    values: { name },
    submit: true,
  });
  expect(envelope.code, JSON.stringify(envelope)).toBe(200);
  const record = await api.ok<DiyRecord>(filer, 'GET', `/api/diyData/${monthly}/${envelope.result}`);
  return { record, envelope };
}

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  // 07:00 on 1 November in Shanghai is still 31 October on the machine's clock.
  at('2026-11-01 07:00:00');
  expect(new Date().getDate()).toBe(31);
  t = await createTestApp({ env: { TIME_ZONE: 'Asia/Shanghai' } });
  const db = t.app.ctx.db;
  await db
    .updateTable('sys_menu')
    .set({ status: 1 })
    .where((eb) =>
      eb.or(['diyTable:%', 'diyReport:%', 'diyPeriod:%'].map((p) => eb('permission', 'like', p))),
    )
    .execute();
  const org = await db
    .selectFrom('sys_org')
    .select('id')
    .where('code', '=', '310101002001')
    .executeTakeFirstOrThrow();
  admin = (await login(t.app, 'admin')).accessToken;
  filer = (await login(t.app, 'gzlstaff')).accessToken;
  monthly = await api.ok<number>(admin, 'POST', '/api/diyTable/add', {
    title: '时区月报',
    fillers: { all: false, orgIds: [org.id], roleIds: [], userIds: [], enterprises: false },
    period: { kind: 'month', dueDays: 0, graceDays: 0, onePerOrg: false },
  });
  await api.ok(admin, 'PUT', '/api/diyTable/design', { id: monthly, design: DESIGN, publish: true });
});

afterEach(() => at('2026-11-01 07:00:00'));

afterAll(async () => {
  await t?.close();
  vi.useRealTimers();
});

describe('one time zone for the whole product', () => {
  it('files a record made at 07:00 on 1 November in Shanghai in November, numbered and dated by Shanghai', async () => {
    const { record, envelope } = await file('十一月第一份');
    expect(record.periodName).toBe('2026年11月');
    expect(record.dataNo).toBe('T-202611010001');
    expect(record.submitTime).toBe('2026-11-01 07:00:00');
    expect(envelope.time).toBe('2026-11-01 07:00:00');
  });

  it('keeps the period open until 23:59 of its due date in Shanghai, not eight hours longer', async () => {
    await moveTo('2026-11-30 23:59:00');
    const last = await file('截止前一分钟');
    expect(last.record.periodName).toBe('2026年11月');
    expect(last.record.dataNo).toBe('T-202611300001');

    // 00:00:30 on 1 December in Shanghai; the machine's clock still shows 30 November, 16:00.
    await moveTo('2026-12-01 00:00:30');
    expect(new Date().getDate()).toBe(30);
    const next = await file('十二月第一份');
    expect(next.record.periodName).toBe('2026年12月');
    expect(next.record.dataNo).toBe('T-202612010001');
    expect(next.envelope.time).toBe('2026-12-01 00:00:30');
    const periods = await api.ok<{ key: string; state: string }[]>(
      filer,
      'GET',
      `/api/diyPeriod/list?tableId=${monthly}`,
    );
    expect(periods.find((p) => p.key === '2026-11')?.state).toBe('overdue');
    expect(periods.find((p) => p.key === '2026-12')?.state).toBe('open');
  });

  it('runs cron triggers on Shanghai’s clock', () => {
    const { cron } = parseCron('0 0 9 * * *');
    expect(cron).not.toBeNull();
    // 08:00 in Shanghai: nine o'clock comes in an hour, the same day (01:00 UTC).
    at('2026-11-01 08:00:00');
    expect(nextCronRuns(cron as NonNullable<typeof cron>, 2, new Date())).toEqual([
      '2026-11-01 09:00:00',
      '2026-11-02 09:00:00',
    ]);
  });

  it('runs PostgreSQL sessions in the same zone, so now() reads as the same wall clock', async () => {
    if (t.app.ctx.dialect !== 'postgres') return;
    const { rows } = await sql<{
      zone: string;
      now: string;
    }>`select current_setting('TimeZone') as zone, now() as now`.execute(t.app.ctx.db);
    expect(rows[0]?.zone).toBe('Asia/Shanghai');
    // now() is the database's real clock, not the test's: compare with the real time, as Shanghai shows it.
    vi.useRealTimers();
    const real = new Date();
    vi.useFakeTimers({ toFake: ['Date'] });
    const shown = new Date(`${rows[0]?.now.replace(' ', 'T')}+08:00`).getTime();
    expect(Math.abs(shown - real.getTime())).toBeLessThan(60_000);
  });

  it('tells the browser the zone with the public profile', async () => {
    const profile = await t.app.inject({ url: '/api/sysProfile/current' });
    expect(profile.json().result.timeZone).toBe('Asia/Shanghai');
  });
});

describe('TIME_ZONE', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: t.testEnv.env.DATA_DIR ?? '', ...env });

  it('defaults to Asia/Shanghai and takes any IANA zone', () => {
    expect(load({}).timeZone).toBe('Asia/Shanghai');
    expect(load({ TIME_ZONE: 'America/New_York' }).timeZone).toBe('America/New_York');
    expect(load({ TIME_ZONE: 'UTC', DATABASE_URL: 'postgres://u@db/x' }).database).toMatchObject({
      timeZone: 'UTC',
    });
  });

  it('refuses to start with a zone that does not exist', () => {
    for (const bad of ['Asia/Shanghia', '+08:00', 'CST-8 ; drop']) {
      expect(() => load({ TIME_ZONE: bad })).toThrow(ConfigError);
      expect(() => load({ TIME_ZONE: bad })).toThrow(/TIME_ZONE.*not a time zone/);
    }
  });
});
