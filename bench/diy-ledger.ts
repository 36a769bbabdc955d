/**
 * `npm run bench:ledger -w bench` (after `npm run build -w apps/server`): issue 6 §8, the Excel ledger. Starts
 * the built server on a temporary SQLite database, creates two copies of the 30-field bench form of
 * bench/diy.ts through the API, loads `BENCH_LEDGER_RECORDS` (100,000) records into the first and
 * `BENCH_LEDGER_BIG` (1,000,000) into the second (the same fast loader), then exports each with
 * `POST /api/diyTable/export_ledger` while sampling the server's resident memory (/proc/<pid>/status,
 * every 50 ms). Prints the time to the last byte, the file size, the rows read back from the 100,000-record
 * file, the peak RSS and its growth over the RSS before the export. Targets: 100,000 × 30 under 15 s with
 * growth under 200 MB; 1,000,000 without failing. Nothing asserts a timing; the figures are printed.
 */
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import { launchShuzhi } from '../e2e/server.ts';
import { benchRegions, cpuOf, createBenchForm, load, pidOf } from './diy.ts';
import { signIn } from './sign-in.ts';

const RECORDS = Number(process.env.BENCH_LEDGER_RECORDS ?? 100_000);
const BIG = Number(process.env.BENCH_LEDGER_BIG ?? 1_000_000);
const TIME_TARGET_S = 15;
const GROWTH_TARGET_MB = 200;

/** Resident memory of a process in MB (VmRSS), or its peak so far (VmHWM); null off Linux. */
function memoryOf(pid: number | null, key: 'VmRSS' | 'VmHWM' = 'VmRSS'): number | null {
  if (pid === null) return null;
  try {
    const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

type ExportFigure = {
  records: number;
  seconds: number;
  firstByteMs: number;
  mb: number;
  rssBefore: number | null;
  rssPeak: number | null;
  rows: number | null;
  /** Server CPU time (user + system, all threads) in seconds: steadier than wall time on a shared machine. */
  cpu: number | null;
};

/** One export, to `file` or thrown away; the server's RSS sampled while it runs. */
async function exportOnce(
  base: string,
  token: string,
  pid: number | null,
  tableId: number,
  records: number,
  file: string | null,
): Promise<ExportFigure> {
  const rssBefore = memoryOf(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    const now = memoryOf(pid);
    if (now !== null && (rssPeak === null || now > rssPeak)) rssPeak = now;
  }, 50);
  const cpuBefore = cpuOf(pid);
  const started = performance.now();
  try {
    const request = () =>
      fetch(`${base}/api/diyTable/export_ledger`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ tableId }),
      });
    // A keep-alive connection may have been closed by the server while the records were loading: once more.
    const response = await request().catch(request);
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || !type.includes('spreadsheetml') || !response.body) {
      throw new Error(
        `export ${tableId}: HTTP ${response.status} ${type} ${(await response.text()).slice(0, 300)}`,
      );
    }
    const firstByteMs = performance.now() - started;
    let bytes = 0;
    const counted = Readable.fromWeb(response.body as never).on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    if (file) await pipeline(counted, createWriteStream(file));
    else for await (const _ of counted);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const cpuAfter = cpuOf(pid);
    const cpu = cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / 1000;
    const last = memoryOf(pid);
    if (last !== null && (rssPeak === null || last > rssPeak)) rssPeak = last;
    let rows: number | null = null;
    if (file) {
      rows = 0;
      const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, { worksheets: 'emit' });
      for await (const sheet of reader) for await (const _ of sheet) rows++;
    }
    return { records, seconds, firstByteMs, mb: bytes / 1024 / 1024, rssBefore, rssPeak, rows, cpu };
  } finally {
    clearInterval(sampler);
  }
}

const mbText = (n: number | null) => (n === null ? '?' : `${n.toFixed(0)} MB`);
const cpuText = (f: ExportFigure) => (f.cpu === null ? '' : ` (server CPU ${f.cpu.toFixed(1)} s)`);

const shuzhi = await launchShuzhi({ sys_captcha: 'false' });
const work = mkdtempSync(join(tmpdir(), 'bench-ledger-'));
try {
  const base = shuzhi.baseUrl;
  const pid = pidOf(base);
  const admin = await signIn(base);
  const small = await createBenchForm(base, admin, '企业经营情况台账（10万）');
  const big = await createBenchForm(base, admin, '企业经营情况台账（100万）');
  const setup = new Database(join(shuzhi.dataDir, 'shuzhi.db'));
  setup.pragma('busy_timeout = 60000');
  const regions = benchRegions(setup);
  setup.close();

  console.log(`\nLoading ${RECORDS.toLocaleString('en')} records into form ${small} …`);
  const loadedSmall = load(shuzhi, small, regions, RECORDS);
  console.log(`  ${loadedSmall.seconds.toFixed(1)} s`);
  console.log(`Loading ${BIG.toLocaleString('en')} records into form ${big} …`);
  const loadedBig = load(shuzhi, big, regions, BIG);
  console.log(`  ${loadedBig.seconds.toFixed(1)} s, database ${loadedBig.dbMb.toFixed(0)} MB`);

  // Live rows (the loader deletes one in 500, as the recycle bin would hold them).
  const count = (tableId: number) => {
    const db = new Database(join(shuzhi.dataDir, 'shuzhi.db'), { readonly: true });
    try {
      return (
        db.prepare(`select count(*) as n from diy_data_${tableId} where is_delete = 0`).get() as { n: number }
      ).n;
    } finally {
      db.close();
    }
  };
  const liveSmall = count(small);
  const liveBig = count(big);

  console.log(
    `\nPOST /api/diyTable/export_ledger, ${liveSmall.toLocaleString('en')} live records × 30 fields …`,
  );
  const first = await exportOnce(base, admin, pid, small, liveSmall, join(work, 'small.xlsx'));
  console.log(
    `  ${first.seconds.toFixed(1)} s (first byte ${first.firstByteMs.toFixed(0)} ms), ${first.mb.toFixed(1)} MB, ${first.rows} sheet rows read back`,
  );
  console.log(`POST /api/diyTable/export_ledger, ${liveBig.toLocaleString('en')} live records × 30 fields …`);
  const second = await exportOnce(base, admin, pid, big, liveBig, null);
  console.log(`  ${second.seconds.toFixed(1)} s, ${second.mb.toFixed(1)} MB`);

  const growth = (f: ExportFigure) =>
    f.rssPeak === null || f.rssBefore === null ? null : f.rssPeak - f.rssBefore;
  const g1 = growth(first);
  const headerRows = 2;
  console.log('\nRESULT (SQLite)');
  console.log(
    `  ${liveSmall.toLocaleString('en')} records: ${first.seconds.toFixed(1)} s${cpuText(first)}, ${first.mb.toFixed(1)} MB file, rows ${first.rows === null ? '?' : first.rows - headerRows} (+${headerRows} header), server RSS ${mbText(first.rssBefore)} → peak ${mbText(first.rssPeak)} (growth ${mbText(g1)}); target < ${TIME_TARGET_S} s and < ${GROWTH_TARGET_MB} MB: ${first.seconds < TIME_TARGET_S && g1 !== null && g1 < GROWTH_TARGET_MB && first.rows === liveSmall + headerRows ? 'met' : 'NOT met'}`,
  );
  console.log(
    `  ${liveBig.toLocaleString('en')} records: ${second.seconds.toFixed(1)} s${cpuText(second)}, ${second.mb.toFixed(1)} MB file, server RSS ${mbText(second.rssBefore)} → peak ${mbText(second.rssPeak)} (growth ${mbText(growth(second))}), process peak (VmHWM) ${mbText(memoryOf(pid, 'VmHWM'))}`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
  await shuzhi.stop();
}
