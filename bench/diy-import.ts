/**
 * `npm run bench:import -w bench` (after `npm run build -w apps/server`): issue 6 §8, the Excel import.
 * Starts the built server on a temporary SQLite database, creates the 30-field bench form of bench/diy.ts,
 * writes a workbook of `BENCH_IMPORT_ROWS` (100,000) rows × 30 columns (labels for options, Excel dates,
 * numbers, region codes; two header rows as the ledger has them) with the server's own streaming writer,
 * uploads it, polls the job until it is checked, confirms, polls until done. Prints the upload, check and
 * confirm times, the total, the file size and the server's peak RSS (sampled every 50 ms). Target: the
 * whole import under 60 s. Nothing asserts a timing; the figures are printed.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openXlsx, type XlsxCell } from '../apps/server/src/modules/diy-ledger/xlsx-stream.ts';
import { launchShuzhi } from '../e2e/server.ts';
import { benchRegions, cpuOf, createBenchForm, DESIGN, ok, pidOf, valuesOf } from './diy.ts';
import { signIn } from './sign-in.ts';

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const TARGET_S = 60;

type Job = {
  state: string;
  processed: number;
  total: number | null;
  valid: number;
  invalid: number;
  duplicates: number;
  inserted: number;
  failure: string | null;
  errors: { row: number; column: string | null; message: string }[];
};

function memoryOf(pid: number | null, key: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  if (pid === null) return null;
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

type Field = {
  id: string;
  type: string;
  label: string;
  options?: { items: { value: string; label: string }[] };
};
const fields = (DESIGN.fields as Field[]).filter((f) => f.type !== 'section' && f.type !== 'serialNo');

const asDate = (text: string) => {
  const [d, t] = text.split(' ');
  const [y, m, day] = (d as string).split('-').map(Number);
  const [h, mi, s] = (t ?? '0:0:0').split(':').map(Number);
  return new Date(Date.UTC(y as number, (m as number) - 1, day ?? 1, h ?? 0, mi ?? 0, s ?? 0));
};

/** One sheet line: the cells a person would type or a ledger would hold. */
function cellsOf(values: Record<string, unknown>): XlsxCell[] {
  return fields.map((f) => {
    const v = values[f.id];
    if (v === null || v === undefined) return null;
    if (f.options) {
      const label = (x: unknown) => f.options?.items.find((o) => o.value === x)?.label ?? String(x);
      return Array.isArray(v) ? v.map(label).join('、') : label(v);
    }
    if (f.type === 'date' || f.type === 'datetime' || f.type === 'month') return asDate(String(v));
    if (typeof v === 'number') return v;
    return String(v);
  });
}

async function writeWorkbook(file: string, regions: string[]): Promise<void> {
  const out = createWriteStream(file);
  const closed = new Promise<void>((resolve) => out.on('close', () => resolve()));
  const xlsx = await openXlsx(out, {
    name: '导入',
    columns: [
      { width: 12 },
      { width: 16 },
      ...fields.map((f) => ({
        width: 14,
        numFmt:
          f.type === 'date'
            ? 'yyyy-mm-dd'
            : f.type === 'datetime'
              ? 'yyyy-mm-dd hh:mm:ss'
              : f.type === 'month'
                ? 'yyyy-mm'
                : undefined,
      })),
    ],
    frozenRows: 2,
    frozenColumns: 0,
    merges: [
      [1, 1, 2, 1],
      [1, 2, 2, 2],
      [1, 3, 1, fields.length + 2],
    ],
  });
  // The ledger's 填报人 and 填报单位 columns ride along (read and skipped), as in a re-imported ledger.
  await xlsx.header([
    ['填报人', '填报单位', '企业基本情况', ...fields.slice(1).map(() => '')],
    ['', '', ...fields.map((f) => f.label)],
  ]);
  for (let i = 0; i < ROWS; i += 1000) {
    const lines: XlsxCell[][] = [];
    for (let k = i; k < Math.min(ROWS, i + 1000); k++)
      lines.push(['系统管理员', '黄浦区', ...cellsOf(valuesOf(k, regions, '1'))]);
    await xlsx.rows(lines);
  }
  await xlsx.end();
  await closed;
}

async function poll(base: string, token: string, jobId: number, until: string[]): Promise<Job> {
  for (;;) {
    const job = await ok<Job>(base, token, 'GET', `/api/diyImport/job/${jobId}`);
    if (until.includes(job.state)) return job;
    if (job.state === 'failed') throw new Error(`import failed: ${job.failure}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const mb = (n: number | null) => (n === null ? '?' : `${n.toFixed(0)} MB`);

const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
const work = mkdtempSync(join(tmpdir(), 'bench-import-'));
try {
  const base = shuzhi.baseUrl;
  const pid = pidOf(base);
  const admin = await signIn(base);
  const formId = await createBenchForm(base, admin, '企业经营情况（导入基准）');
  const setup = new Database(join(shuzhi.dataDir, 'shuzhi.db'));
  setup.pragma('busy_timeout = 60000');
  const regions = benchRegions(setup);
  setup.close();

  const file = join(work, 'import.xlsx');
  let started = performance.now();
  await writeWorkbook(file, regions);
  const fileMb = statSync(file).size / 1024 / 1024;
  console.log(
    `\nWorkbook: ${ROWS.toLocaleString('en')} rows × ${fields.length + 2} columns (${fields.length} fields), ${fileMb.toFixed(1)} MB, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const rssBefore = memoryOf(pid);
  let rssPeak = rssBefore;
  let phasePeak = rssBefore;
  const sampler = setInterval(() => {
    const now = memoryOf(pid);
    if (now !== null && (rssPeak === null || now > rssPeak)) rssPeak = now;
    if (now !== null && (phasePeak === null || now > phasePeak)) phasePeak = now;
  }, 50);
  const phase = () => {
    const peak = phasePeak;
    phasePeak = memoryOf(pid);
    return peak;
  };
  const cpuBefore = cpuOf(pid);
  started = performance.now();
  const form = new FormData();
  form.append('file', new Blob([readFileSync(file)]), 'import.xlsx');
  const response = await fetch(`${base}/api/diyImport/${formId}/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin}` },
    body: form,
  });
  const env = (await response.json()) as { code: number; message?: string; result: { jobId: number } };
  if (env.code !== 200) throw new Error(`upload: ${JSON.stringify(env)}`);
  const uploaded = performance.now();
  const checkedJob = await poll(base, admin, env.result.jobId, ['checked']);
  const checkedAt = performance.now();
  const checkPeak = phase();
  await ok(base, admin, 'POST', `/api/diyImport/job/${env.result.jobId}/confirm`, { submit: true });
  const done = await poll(base, admin, env.result.jobId, ['done']);
  const doneAt = performance.now();
  const confirmPeak = phase();
  clearInterval(sampler);
  const cpuAfter = cpuOf(pid);

  const db = new Database(join(shuzhi.dataDir, 'shuzhi.db'), { readonly: true });
  const live = (
    db.prepare(`select count(*) as n from diy_data_${formId} where is_delete = 0`).get() as { n: number }
  ).n;
  db.close();

  const s = (a: number, b: number) => ((b - a) / 1000).toFixed(1);
  const total = (doneAt - started) / 1000;
  console.log('\nRESULT (SQLite)');
  console.log(`  upload (send + zip check + header): ${s(started, uploaded)} s`);
  console.log(
    `  check: ${s(uploaded, checkedAt)} s — ${checkedJob.processed.toLocaleString('en')} rows, ${checkedJob.valid.toLocaleString('en')} valid, ${checkedJob.invalid} invalid, RSS peak ${mb(checkPeak)}${checkedJob.errors[0] ? ` (first: row ${checkedJob.errors[0].row} ${checkedJob.errors[0].column}: ${checkedJob.errors[0].message})` : ''}`,
  );
  console.log(
    `  confirm: ${s(checkedAt, doneAt)} s — ${done.inserted.toLocaleString('en')} inserted, ${live.toLocaleString('en')} live records in the table, RSS peak ${mb(confirmPeak)}`,
  );
  console.log(
    `  total: ${total.toFixed(1)} s (target < ${TARGET_S} s: ${total < TARGET_S && done.inserted === ROWS ? 'met' : 'NOT met'})${cpuBefore !== null && cpuAfter !== null ? `, server CPU ${((cpuAfter - cpuBefore) / 1000).toFixed(1)} s` : ''}`,
  );
  console.log(
    `  server RSS ${mb(rssBefore)} → peak ${mb(rssPeak)} (growth ${mb(rssPeak === null || rssBefore === null ? null : rssPeak - rssBefore)}), process peak (VmHWM) ${mb(memoryOf(pid, 'VmHWM'))}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
  await shuzhi.stop();
}
