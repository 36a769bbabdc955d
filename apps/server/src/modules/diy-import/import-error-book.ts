import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { FastifyReply } from 'fastify';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { contentDisposition } from '../../platform/files/storage.ts';
import type { XlsxCell } from '../../platform/xlsx/sheet-write.ts';
import { workbookStream, XLSX_TYPE, type XlsxWriter } from '../../platform/xlsx/xlsx-write.ts';
import { ownJob, parseSummary, type Summary, workDir } from './diy-import.service.ts';
import type { Line } from './import-check.ts';
import { importText } from './import-values.ts';

/**
 * The error workbook of a checked job (docs/import.md "Error workbook"): the header rows as uploaded plus
 * 错误原因, then each bad record's lines as uploaded from `errors.jsonl`; a bad cell gets a light red fill and
 * a note with the reason; 错误原因 on the record's first line lists every reason. Streamed to the client as
 * it is read (platform/xlsx), so no copy is kept.
 */

const BAD_CELL = { fill: 'FFFFC7CE' };
const REASON = { color: 'FFC00000' };
const DATE_TIME = { numFmt: 'yyyy-mm-dd hh:mm:ss' };

type ErrorItem = { lines: Line[]; marks: [number, number, string][] };

/** The sheet lines of one bad record: its cells, marks on the bad ones, the reasons after the last column. */
function errorLines(item: ErrorItem, width: number, dates: Set<number>): XlsxCell[][] {
  return item.lines.map((line, k) => {
    const cells: XlsxCell[] = Array.from({ length: width }, (_, c) => {
      const value = line.cells[c] ?? null;
      return dates.has(c) && typeof value === 'number' ? { value, style: DATE_TIME } : value;
    });
    for (const [l, col, message] of item.marks) {
      if (l !== k || col < 0) continue;
      const cell = cells[col];
      const value = cell !== null && typeof cell === 'object' && !(cell instanceof Date) ? cell.value : cell;
      cells[col] = { value, style: BAD_CELL, note: message };
    }
    if (k === 0) cells.push({ value: item.marks.map(([, , m]) => m).join('；'), style: REASON });
    return cells;
  });
}

async function writeErrors(book: XlsxWriter, dir: string, summary: Summary): Promise<void> {
  const width = Math.max(...summary.header.map((r) => r.length), 0);
  const sheet = await book.sheet({ name: '错误数据' });
  await sheet.rows(
    summary.header.map((header, i) => [
      ...Array.from({ length: width }, (_, c) => header[c] ?? null),
      i === summary.header.length - 1 ? importText('reason', summary.locale) : null,
    ]),
    { bold: true },
  );
  const dates = new Set(summary.dateColumns);
  const input = createInterface({
    input: createReadStream(join(dir, 'errors.jsonl')),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const text of input) {
    if (text) await sheet.rows(errorLines(JSON.parse(text) as ErrorItem, width, dates));
  }
  await book.end();
}

export async function errorWorkbook(
  ctx: AppContext,
  user: AuthUser,
  jobId: number,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const row = await ownJob(ctx, user, jobId);
  if (row.state === 'checking' || row.state === 'failed' || row.state === 'cancelled')
    throw new AppError('F1034');
  const summary = parseSummary(row);
  const dir = workDir(ctx, jobId);
  return reply
    .header('content-type', XLSX_TYPE)
    .header(
      'content-disposition',
      contentDisposition('attachment', `${row.file_name.replace(/\.xlsx$/i, '')}_错误数据.xlsx`),
    )
    .header('cache-control', 'no-store')
    .send(workbookStream(ctx.log, (book) => writeErrors(book, dir, summary)));
}
