/**
 * `npm run bench:dashboard -w bench`: the data dashboard's calls over many records (issue 20 §7). Loads
 * `BENCH_RECORDS` (default 1,000,000) submitted records of the demo 社区人口月报 into a temporary SQLite
 * database, spread over its last 13 monthly periods and the demo district's communities and grids, then
 * times through the real routes, one request at a time, `BENCH_SAMPLES` (default 20) calls each: the form's
 * dashboard by street (key figures, last period, last year, 12-period trend), by community, at district level
 * (the map), the seeded roll-up's dashboard, the chart's Excel and the home summary. Prints p50 / p99;
 * target p50 under 200 ms. Nothing here asserts a timing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { formatDateTime } from '../apps/server/src/platform/db/time.ts';
import { withDataTables } from '../apps/server/src/platform/diy/dynamic-table.ts';
import { body, login, setConfig } from '../apps/server/test/helpers.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20);
const BATCH = 500;
const PERIODS = 13;

function percentile(times: number[], q: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number;
}

/** The form's periods, newest first; older months are added until there are `PERIODS`. */
async function periodsOf(app: App, formId: number, tenantId: number): Promise<number[]> {
  const db = app.ctx.db;
  const rows = await db
    .selectFrom('diy_table_period')
    .select(['id', 'start_date'])
    .where('table_id', '=', formId)
    .orderBy('start_date', 'desc')
    .execute();
  const ids = rows.map((r) => Number(r.id));
  let oldest = new Date(`${(rows.at(-1) as { start_date: string }).start_date}T00:00:00Z`);
  while (ids.length < PERIODS) {
    const start = new Date(Date.UTC(oldest.getUTCFullYear(), oldest.getUTCMonth() - 1, 1));
    const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 0));
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const key = day(start).slice(0, 7);
    const id = app.ctx.newId();
    await db
      .insertInto('diy_table_period')
      .values({
        id,
        tenant_id: tenantId,
        table_id: formId,
        period_key: key,
        name: `${key.slice(0, 4)}年${Number(key.slice(5))}月`,
        start_date: day(start),
        end_date: day(end),
        due_date: day(end),
        grace_until: null,
        reopen_until: null,
        version: 1,
        closed: 1,
        close_time: null,
        close_user_name: null,
        create_time: formatDateTime(),
        create_user_id: null,
        create_user_name: null,
        update_time: null,
      })
      .execute();
    ids.push(id);
    oldest = start;
  }
  return ids.slice(0, PERIODS);
}

async function load(app: App, formId: number, tenantId: number, periods: number[]): Promise<number> {
  const orgs = await app.ctx.db
    .selectFrom('sys_org')
    .select(['id', 'name'])
    .where('type', 'in', ['community', 'grid'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const db = withDataTables(app.ctx.db);
  const table = `diy_data_${formId}` as const;
  const now = formatDateTime();
  const started = performance.now();
  let id = 8_000_000_000_000;
  for (let done = 0; done < RECORDS; ) {
    await db.transaction().execute(async (trx) => {
      for (let b = 0; b < 100 && done < RECORDS; b++) {
        const rows = [];
        for (let i = 0; i < BATCH && done < RECORDS; i++, done++) {
          const org = orgs[done % orgs.length] as { id: number; name: string };
          rows.push({
            id: id++,
            tenant_id: tenantId,
            version: 1,
            status: done % 10 === 0 ? 0 : 2,
            create_time: now,
            create_user_id: 1,
            create_user_name: 'bench',
            is_delete: 0,
            create_org_id: org.id,
            create_org_name: org.name,
            is_zero: 0,
            late: 0,
            period_id: periods[done % periods.length] as number,
            f_huji: 1000 + (done % 2000),
            f_liudong: done % 500,
            f_elderly: done % 300,
          });
        }
        await trx.insertInto(table).values(rows).execute();
      }
    });
  }
  return performance.now() - started;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-bench-dashboard-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, logger: false, regionSource: null });
  try {
    await setConfig(app, 'sys_captcha', 'false');
    const token = (await login(app, 'admin')).accessToken;
    const call = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const started = performance.now();
      const response = await app.inject({
        method,
        url,
        payload,
        headers: { authorization: `Bearer ${token}` },
      });
      const ms = performance.now() - started;
      if (!String(response.headers['content-type']).includes('json')) return { ms, result: null };
      const envelope = body<unknown>(response);
      if (envelope.code !== 200) throw new Error(`${url}: ${JSON.stringify(envelope).slice(0, 300)}`);
      return { ms, result: envelope.result };
    };
    const forms = await app.ctx.db.selectFrom('diy_table').select(['id', 'title', 'tenant_id']).execute();
    const pop = forms.find((f) => f.title === '社区人口月报') as (typeof forms)[number];
    const rollup = forms.find((f) => f.title === '社区人口月报汇总') as (typeof forms)[number];
    // The current period is made by the first read.
    await call('GET', `/api/diyPeriod/list?tableId=${pop.id}`);
    const periods = await periodsOf(app, pop.id, pop.tenant_id);
    const loadMs = await load(app, pop.id, pop.tenant_id, periods);
    console.log(
      `loaded ${RECORDS.toLocaleString('en')} records over ${periods.length} periods in ${(loadMs / 1000).toFixed(1)} s`,
    );
    const cases: [string, 'GET' | 'POST', string, object | undefined][] = [
      ['form by street (figures, compare, trend)', 'POST', '/api/dashboard/form/data', { id: pop.id }],
      ['form by community', 'POST', '/api/dashboard/form/data', { id: pop.id, orgType: 'community' }],
      [
        'form at district level (map)',
        'POST',
        '/api/dashboard/form/data',
        { id: pop.id, orgType: 'district' },
      ],
      ['roll-up by street', 'POST', '/api/dashboard/form/data', { id: rollup.id }],
      ['the roll-up page, for comparison', 'POST', `/api/diyLoad/${rollup.id}/data`, { compare: true }],
      ['Excel of the breakdown', 'POST', '/api/dashboard/form/export', { id: pop.id, chart: 'breakdown' }],
      ['home summary', 'GET', '/api/dashboard/home', undefined],
    ];
    for (const [name, method, url, payload] of cases) {
      await call(method, url, payload);
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) times.push((await call(method, url, payload)).ms);
      console.log(
        `${name}: p50 ${percentile(times, 0.5).toFixed(0)} ms, p99 ${percentile(times, 0.99).toFixed(0)} ms ` +
          `over ${SAMPLES} calls (target p50 < 200 ms)`,
      );
    }
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
