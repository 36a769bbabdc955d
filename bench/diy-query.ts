/**
 * `npm run bench:query -w bench` (after `npm run build -w apps/server`): issue 21 §5, a query report exported as
 * Excel. Starts the built server on a temporary SQLite database, creates two copies of the 30-field bench form
 * of bench/diy.ts through the API, loads `BENCH_QUERY_RECORDS` (10,000) records into each (the same fast loader,
 * the same values in both), creates a query report over the two joined on the unified credit code (a unique
 * field, so one row per base record) with eleven columns (texts, numbers, an option and a region shown by their
 * labels, a computed column) and exports it with `POST /api/diyQuery/{id}/export`. Prints the time to the last
 * byte, the file size, the rows read back, the server's CPU time, and the same for one page of the report.
 * Target: the export under 5 s. Nothing asserts a timing; the figures are printed.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { launchShuzhi } from '../e2e/server.ts';
import { benchRegions, cpuOf, createBenchForm, load, ok, pidOf } from './diy.ts';
import { signIn } from './sign-in.ts';

const RECORDS = Number(process.env.BENCH_QUERY_RECORDS ?? 10_000);
const TARGET_S = 5;

const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
const work = mkdtempSync(join(tmpdir(), 'bench-query-'));
try {
  const base = shuzhi.baseUrl;
  const pid = pidOf(base);
  const admin = await signIn(base);
  const first = await createBenchForm(base, admin, '企业经营情况（查询报表 A）');
  const second = await createBenchForm(base, admin, '企业经营情况（查询报表 B）');
  const setup = new Database(join(shuzhi.dataDir, 'shuzhi.db'));
  setup.pragma('busy_timeout = 60000');
  const regions = benchRegions(setup);
  setup.close();
  console.log(`\nLoading ${RECORDS.toLocaleString('en')} records into forms ${first} and ${second} …`);
  const loaded = [load(shuzhi, first, regions, RECORDS), load(shuzhi, second, regions, RECORDS)];
  console.log(`  ${loaded.map((l) => `${l.seconds.toFixed(1)} s`).join(', ')}`);

  const reportId = await ok<number>(base, admin, 'POST', '/api/diyQuery/add', {
    title: '企业经营情况查询（基准）',
    config: {
      sources: [
        { alias: 's1', tableId: first, key: 'credit' },
        { alias: 's2', tableId: second, key: 'credit' },
      ],
      join: 'field',
      statuses: 'all',
      columns: [
        { id: 'c1', label: '企业名称', source: 's1', field: 'entname' },
        { id: 'c2', label: '信用代码', source: 's1', field: 'credit' },
        { id: 'c3', label: '填报单位', source: 's1', field: '$org' },
        { id: 'c4', label: '门类', source: 's1', field: 'kind' },
        { id: 'c5', label: '所在区域', source: 's1', field: 'area' },
        { id: 'c6', label: '职工人数', source: 's1', field: 'staff' },
        { id: 'c7', label: '营业收入', source: 's1', field: 'revenue' },
        { id: 'c8', label: '利润总额', source: 's1', field: 'profit' },
        { id: 'c9', label: '职工人数（B）', source: 's2', field: 'staff' },
        { id: 'c10', label: '营业收入（B）', source: 's2', field: 'revenue' },
        { id: 'c11', label: '利润率%', formula: 'IF({c7} > 0, ROUND({c8} / {c7} * 100, 2), 0)' },
      ],
      params: [{ id: 'p1', kind: 'keyword', label: '企业名称', source: 's1', field: 'entname' }],
      sort: [{ column: 'c6', desc: true }],
    },
  });

  const cpuBefore = cpuOf(pid);
  let started = performance.now();
  await ok(base, admin, 'POST', `/api/diyQuery/${reportId}/data`, { params: {}, page: 3, pageSize: 50 });
  const pageMs = performance.now() - started;
  const cpuPage = cpuOf(pid);
  console.log(
    `\nPOST /api/diyQuery/${reportId}/data (page 3 of 50 rows, count and total): ${pageMs.toFixed(0)} ms`,
  );

  console.log(`POST /api/diyQuery/${reportId}/export, ${RECORDS.toLocaleString('en')} rows × 11 columns …`);
  started = performance.now();
  const response = await fetch(`${base}/api/diyQuery/${reportId}/export`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ params: {} }),
  });
  const type = response.headers.get('content-type') ?? '';
  if (!response.ok || !type.includes('spreadsheetml'))
    throw new Error(`export: HTTP ${response.status} ${type} ${(await response.text()).slice(0, 300)}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = cpuOf(pid);
  const file = join(work, 'query.xlsx');
  writeFileSync(file, bytes);
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit' });
  for await (const sheet of reader) for await (const _ of sheet) rows++;
  const cpu =
    cpuPage === null || cpuAfter === null
      ? ''
      : ` (server CPU ${((cpuAfter - cpuPage) / 1000).toFixed(1)} s)`;
  const cpuOfPage = cpuBefore === null || cpuPage === null ? '' : ` (server CPU ${cpuPage - cpuBefore} ms)`;
  console.log(`  page: ${pageMs.toFixed(0)} ms${cpuOfPage}`);
  console.log(
    `  export: ${seconds.toFixed(2)} s${cpu}, ${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${rows.toLocaleString('en')} sheet rows read back (header, rows, total)`,
  );
  console.log(`RESULT query report export ${seconds.toFixed(2)} s (target < ${TARGET_S} s)`);
} finally {
  await shuzhi.stop();
  rmSync(work, { recursive: true, force: true });
}
