/**
 * `npm run bench:import -w bench` (after `npm run build -w apps/server`): issue 6 §8, the Excel import.
 * Starts the built server on a temporary SQLite database, creates the 30-field bench form of bench/diy.ts,
 * writes a workbook of `BENCH_IMPORT_ROWS` (100,000) rows × 30 columns (labels for options, Excel dates,
 * numbers, region codes; two header rows as the ledger has them) with the server's own streaming writer,
 * uploads it, polls the job until it is checked, confirms, polls until done. Prints the upload, check and
 * confirm times, the total, the file size and the server's peak RSS (sampled every 50 ms). Target: the
 * whole import under 60 s. Nothing asserts a timing; the figures are printed.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { launchShuzhi } from '../e2e/server.ts';
import { benchRegions, cpuOf, createBenchForm, ok, pidOf } from './diy.ts';
import { importFields, writeImportWorkbook } from './import-workbook.ts';
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
  await writeImportWorkbook(file, ROWS, regions);
  const fileMb = statSync(file).size / 1024 / 1024;
  console.log(
    `\nWorkbook: ${ROWS.toLocaleString('en')} rows × ${importFields.length + 2} columns (${importFields.length} fields), ${fileMb.toFixed(1)} MB, written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
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
