/**
 * The workbook the import benchmarks read (bench/diy-import.ts uploads it, bench/xlsx-read.ts reads it): rows
 * of the 30-field bench form of bench/diy.ts as a person or a ledger would hold them (option labels, Excel
 * dates, numbers, region codes) under the ledger's two header rows, plus its 填报人 / 填报单位 columns, written
 * with the server's own streaming writer (apps/server/src/platform/xlsx).
 */
import { createWriteStream } from 'node:fs';
import type { XlsxCell } from '../apps/server/src/platform/xlsx/sheet-write.ts';
import { XlsxWriter } from '../apps/server/src/platform/xlsx/xlsx-write.ts';
import { DESIGN, valuesOf } from './diy.ts';

type Field = {
  id: string;
  type: string;
  label: string;
  options?: { items: { value: string; label: string }[] };
};
export const importFields = (DESIGN.fields as Field[]).filter(
  (f) => f.type !== 'section' && f.type !== 'serialNo',
);

const asDate = (text: string) => {
  const [d, t] = text.split(' ');
  const [y, m, day] = (d as string).split('-').map(Number);
  const [h, mi, s] = (t ?? '0:0:0').split(':').map(Number);
  return new Date(Date.UTC(y as number, (m as number) - 1, day ?? 1, h ?? 0, mi ?? 0, s ?? 0));
};

/** One sheet line: the cells a person would type or a ledger would hold. */
export function cellsOf(values: Record<string, unknown>): XlsxCell[] {
  return importFields.map((f) => {
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

/** Writes the bench workbook of `rows` lines to `file` with the server's streaming writer. */
export async function writeImportWorkbook(file: string, rows: number, regions: string[]): Promise<void> {
  const out = createWriteStream(file);
  const closed = new Promise<void>((resolve) => out.on('close', () => resolve()));
  const book = new XlsxWriter(out);
  const xlsx = await book.sheet({
    name: '导入',
    columns: [
      { width: 12 },
      { width: 16 },
      ...importFields.map((f) => ({
        width: 14,
        style:
          f.type === 'date'
            ? { numFmt: 'yyyy-mm-dd' }
            : f.type === 'datetime'
              ? { numFmt: 'yyyy-mm-dd hh:mm:ss' }
              : f.type === 'month'
                ? { numFmt: 'yyyy-mm' }
                : undefined,
      })),
    ],
    frozenRows: 2,
  });
  // The ledger's 填报人 and 填报单位 columns ride along (read and skipped), as in a re-imported ledger.
  await xlsx.rows(
    [
      ['填报人', '填报单位', '企业基本情况', ...importFields.slice(1).map(() => '')],
      ['', '', ...importFields.map((f) => f.label)],
    ],
    { bold: true, center: true },
  );
  for (let i = 0; i < rows; i += 1000) {
    const lines: XlsxCell[][] = [];
    for (let k = i; k < Math.min(rows, i + 1000); k++)
      lines.push(['系统管理员', '黄浦区', ...cellsOf(valuesOf(k, regions, '1'))]);
    await xlsx.rows(lines);
  }
  await xlsx.end({
    merges: [
      [1, 1, 2, 1],
      [1, 2, 2, 2],
      [1, 3, 1, importFields.length + 2],
    ],
  });
  await book.end();
  await closed;
}
