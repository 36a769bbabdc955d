/**
 * `npm run bench:search-pg -w bench`: the text searches of `bench:diy` on PostgreSQL (issue 18). Builds the app
 * in this process on a schema of its own in `BENCH_DATABASE_URL` (default the local PostgreSQL), creates and
 * publishes the 30-field bench form through the API, loads `BENCH_RECORDS` (1,000,000) records straight into
 * its data table (the indexes publishing made are dropped for the load and built again after it, timed), then
 * times `POST /api/diyData/{id}/page` with the search cases of `bench:diy` and without a filter: p50 / p99 over
 * `BENCH_SAMPLES` requests, the data table's size and its trigram indexes' size. Nothing asserts a timing.
 * The schema is dropped at the end.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/platform/config/config.ts';
import { login, setConfig } from '../apps/server/test/helpers.ts';
import { DESIGN, mix, pad, searchCases, valuesOf } from './diy.ts';

type App = Awaited<ReturnType<typeof buildApp>>;

const RECORDS = Number(process.env.BENCH_RECORDS ?? 1_000_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 100);
const URL_BASE = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BATCH = 5000;
const REGIONS = ['310101', '310104', '310105', '310106', '310107', '310109', '310110', '310112'];

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;

async function inject<T>(app: App, token: string, url: string, payload: object): Promise<T> {
  const response = await app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${token}` },
    payload,
  });
  const env = response.json() as { code: number; result: T };
  if (env.code !== 200) throw new Error(`${url}: ${response.body.slice(0, 300)}`);
  return env.result;
}

/** Loads the records with their indexes dropped, then builds them again; answers the seconds of each. */
async function load(app: App, formId: number): Promise<{ load: number; index: number }> {
  const db = app.ctx.db;
  const table = `diy_data_${formId}`;
  const { rows: indexes } = await sql<{ name: string; def: string }>`select indexname as name, indexdef as def
    from pg_indexes where tablename = ${table} and indexname not like '%pkey'`.execute(db);
  for (const { name } of indexes) await sql`drop index ${sql.id(name)}`.execute(db);
  const columns = await db
    .selectFrom('diy_table_column')
    .select(['field_id', 'column_name'])
    .where('table_id', '=', formId)
    .execute();
  const tenant = await db
    .selectFrom('diy_table')
    .select('tenant_id')
    .where('id', '=', formId)
    .executeTakeFirstOrThrow();
  const creators = await db
    .selectFrom('sys_user as u')
    .innerJoin('sys_org as o', 'o.id', 'u.org_id')
    .select(['u.id', 'u.real_name', 'o.id as org_id', 'o.name as org_name'])
    .where('u.tenant_id', '=', tenant.tenant_id)
    .where('u.is_delete', '=', 0)
    .execute();
  const year = new Date().getFullYear();
  const started = performance.now();
  for (let from = 0; from < RECORDS; from += BATCH) {
    const rows: Record<string, unknown>[] = [];
    for (let i = from; i < Math.min(RECORDS, from + BATCH); i++) {
      const v = valuesOf(i, REGIONS, '1');
      const who = creators[mix(i, 99) % creators.length] as (typeof creators)[number];
      const created = new Date(Date.UTC(year, 0, 1) + Math.floor((i / RECORDS) * 300 * 86_400) * 1000)
        .toISOString()
        .slice(0, 19)
        .replace('T', ' ');
      const row: Record<string, unknown> = {
        id: 1_000_000_000_000 + i,
        tenant_id: tenant.tenant_id,
        version: 1,
        status: 2,
        data_no: `BX${year}${pad(i + 1, 8)}`,
        submit_time: created,
        create_time: created,
        create_user_id: who.id,
        create_user_name: who.real_name,
        is_delete: mix(i, 98) % 500 === 0 ? 1 : 0,
        is_zero: 0,
        late: 0,
        create_org_id: who.org_id,
        create_org_name: who.org_name,
      };
      for (const c of columns) {
        const value = c.field_id === 'sn' ? row.data_no : v[c.field_id];
        row[c.column_name] = Array.isArray(value) ? JSON.stringify(value) : (value ?? null);
      }
      rows.push(row);
    }
    await sql`insert into ${sql.id(table)} select * from json_populate_recordset(null::${sql.id(table)}, ${JSON.stringify(rows)})`.execute(
      db,
    );
    process.stdout.write(`\r  loaded ${Math.min(RECORDS, from + BATCH).toLocaleString('en')} records`);
  }
  process.stdout.write('\n');
  const loaded = (performance.now() - started) / 1000;
  const indexing = performance.now();
  for (const { def } of indexes) await sql.raw(def).execute(db);
  await sql`analyze ${sql.id(table)}`.execute(db);
  return { load: loaded, index: (performance.now() - indexing) / 1000 };
}

async function sizes(app: App, formId: number): Promise<{ tableMb: number; indexMb: number }> {
  const table = `diy_data_${formId}`;
  const { rows } = await sql<{ t: string; i: string | null }>`select pg_table_size(${table}::regclass) as t,
    (select sum(pg_relation_size(indexname::regclass)) from pg_indexes
      where tablename = ${table} and indexname like 'tg\\_%') as i`.execute(app.ctx.db);
  const mb = (n: string | null) => Number(n ?? 0) / 1024 / 1024;
  return { tableMb: mb(rows[0]?.t ?? null), indexMb: mb(rows[0]?.i ?? null) };
}

async function main(): Promise<void> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'shuzhi-bench-search-pg-'));
  const url = new URL(URL_BASE);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // The schema (and pg_trgm, shared in public) with psql: the app migrates inside the schema it is given.
  execFileSync('psql', [
    URL_BASE,
    '-qc',
    `create schema ${schema}; create extension if not exists pg_trgm with schema public;`,
  ]);
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: url.toString() });
  const app = await buildApp({ config, logger: false, regionSource: null });
  try {
    await setConfig(app, 'sys_captcha', 'false');
    const token = (await login(app, 'admin')).accessToken;
    const formId = await inject<number>(app, token, '/api/diyTable/add', {
      title: '企业经营情况月报（基准）',
      fillers: { all: true, orgIds: [], roleIds: [], userIds: [], enterprises: true },
    });
    const published = await app.inject({
      method: 'PUT',
      url: '/api/diyTable/design',
      headers: { authorization: `Bearer ${token}` },
      payload: { id: formId, design: DESIGN, publish: true },
    });
    if ((published.json() as { code: number }).code !== 200) throw new Error(published.body.slice(0, 300));
    console.log(`Loading ${RECORDS.toLocaleString('en')} records into PostgreSQL (schema ${schema}) …`);
    const took = await load(app, formId);
    const size = await sizes(app, formId);
    console.log(
      `  loaded in ${took.load.toFixed(0)} s, indexes built in ${took.index.toFixed(0)} s; data table ${size.tableMb.toFixed(0)} MB, trigram indexes ${size.indexMb.toFixed(0)} MB`,
    );
    const cases = [{ name: 'no filter, page 1', body: () => ({ page: 1, pageSize: 20 }) }, ...searchCases()];
    console.log(
      `\nPOST /api/diyData/${formId}/page on PostgreSQL, ${SAMPLES} requests each (one at a time):`,
    );
    for (const c of cases) {
      await inject(app, token, `/api/diyData/${formId}/page`, c.body(0));
      const times: number[] = [];
      let total = 0;
      for (let n = 0; n < SAMPLES; n++) {
        const started = performance.now();
        const page = await inject<{ total: number }>(app, token, `/api/diyData/${formId}/page`, c.body(n));
        times.push(performance.now() - started);
        total += page.total;
      }
      times.sort((a, b) => a - b);
      console.log(
        `  ${c.name.padEnd(42)} p50 ${percentile(times, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(1).padStart(7)} ms   mean total ${(total / SAMPLES).toFixed(0)}`,
      );
    }
  } finally {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(app.ctx.db);
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
