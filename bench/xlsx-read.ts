/**
 * `npm run bench:xlsx-read -w bench` — issue 15 §2: which .xlsx reader the server keeps. Writes the import
 * benchmark's workbook (`BENCH_READ_ROWS`, 100,000 rows × 30 columns, bench/import-workbook.ts) once, then
 * reads it in a fresh child process per reader and round (`BENCH_ROUNDS`, 2), alternating:
 *
 * - `own`: the server's reader (apps/server/src/platform/xlsx: zip directory with the zip-bomb limits, inflate
 *   stream, regular expressions over the sheet XML);
 * - `exceljs`: exceljs 4.4's streaming WorkbookReader (unzipper + the saxes SAX parser), the best-kept
 *   alternative (it holds none of the limits).
 *
 * Each child counts rows and non-blank cells (so both read the same cells) and prints its wall time, CPU time,
 * peak RSS (VmHWM) and peak heap (sampled every 20 ms), after a child that reads nothing (the baseline). On a
 * shared machine the CPU time is the steadier figure. Nothing asserts a timing; the figures are printed.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { openWorkbook, sheetRows } from '../apps/server/src/platform/xlsx/sheet-read.ts';
import { importFields, writeImportWorkbook } from './import-workbook.ts';

type Reader = 'own' | 'exceljs' | 'none';
type Figures = { rows: number; cells: number; seconds: number; cpu: number; rssMb: number; heapMb: number };

const ROWS = Number(process.env.BENCH_READ_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const REGIONS = ['310101', '310104', '310105', '310106', '310107', '310109', '310110', '310112'];

const blank = (v: unknown) => v === null || v === undefined || v === '';

async function readOwn(file: string): Promise<{ rows: number; cells: number }> {
  let rows = 0;
  let cells = 0;
  for await (const row of sheetRows(await openWorkbook(file))) {
    rows++;
    for (const cell of row.cells) if (!blank(cell)) cells++;
  }
  return { rows, cells };
}

async function readExceljs(file: string): Promise<{ rows: number; cells: number }> {
  let rows = 0;
  let cells = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    worksheets: 'emit',
    entries: 'emit',
  });
  for await (const sheet of reader) {
    for await (const row of sheet as AsyncIterable<ExcelJS.Row>) {
      rows++;
      for (const cell of (row.values as unknown[]).slice(1)) if (!blank(cell)) cells++;
    }
    break;
  }
  return { rows, cells };
}

function vmHwmMb(): number {
  const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

/** In the child: reads `file` with `reader` and prints its figures as JSON. */
async function child(reader: Reader, file: string): Promise<void> {
  let heap = process.memoryUsage().heapUsed;
  const sampler = setInterval(() => {
    heap = Math.max(heap, process.memoryUsage().heapUsed);
  }, 20);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const counted =
    reader === 'own'
      ? await readOwn(file)
      : reader === 'exceljs'
        ? await readExceljs(file)
        : { rows: 0, cells: 0 };
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  heap = Math.max(heap, process.memoryUsage().heapUsed);
  const figures: Figures = {
    ...counted,
    seconds,
    cpu: (used.user + used.system) / 1e6,
    rssMb: vmHwmMb(),
    heapMb: heap / 1024 / 1024,
  };
  console.log(JSON.stringify(figures));
}

function run(reader: Reader, file: string): Figures {
  const self = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, [...process.execArgv, self, '--child', reader, file], {
    encoding: 'utf8',
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(out.trim().split('\n').at(-1) as string) as Figures;
}

async function main(): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'bench-xlsx-read-'));
  try {
    const file = join(work, 'import.xlsx');
    await writeImportWorkbook(file, ROWS, REGIONS);
    console.log(
      `Workbook: ${ROWS.toLocaleString('en')} rows × ${importFields.length + 2} columns, ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB (inline strings, as the server's writer and the ledger write them)`,
    );
    const idle = run('none', file);
    console.log(
      `  a child that reads nothing (both readers loaded): peak RSS ${idle.rssMb.toFixed(0)} MB, heap ${idle.heapMb.toFixed(0)} MB`,
    );
    const results: Record<'own' | 'exceljs', Figures[]> = { own: [], exceljs: [] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const reader of ['own', 'exceljs'] as const) {
        const f = run(reader, file);
        results[reader].push(f);
        console.log(
          `  round ${round} ${reader.padEnd(7)} ${f.seconds.toFixed(1)} s (CPU ${f.cpu.toFixed(1)} s), ${f.rows.toLocaleString('en')} rows, ${f.cells.toLocaleString('en')} cells, peak RSS ${f.rssMb.toFixed(0)} MB, peak heap ${f.heapMb.toFixed(0)} MB`,
        );
      }
    }
    console.log('\nRESULT (best of the rounds)');
    for (const reader of ['own', 'exceljs'] as const) {
      const list = results[reader];
      const best = (key: keyof Figures) => Math.min(...list.map((f) => f[key]));
      console.log(
        `  ${reader.padEnd(7)} time ${best('seconds').toFixed(1)} s, CPU ${best('cpu').toFixed(1)} s, peak RSS ${best('rssMb').toFixed(0)} MB, peak heap ${best('heapMb').toFixed(0)} MB`,
      );
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] as Reader, process.argv[4] as string);
else await main();
