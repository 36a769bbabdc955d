import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../src/platform/errors/app-error.ts';
import { openWorkbook, type SheetRow, sheetRows } from '../src/platform/xlsx/sheet-read.ts';
import { workbookBuffer, XlsxWriter } from '../src/platform/xlsx/xlsx-write.ts';
import { openZip, readDirectory, WORKBOOK_LIMITS, type ZipLimits } from '../src/platform/xlsx/zip-read.ts';
import { type Part, zip } from './zip.fixture.ts';

/**
 * Issue 15 §2: the one spreadsheet module (platform/xlsx). The zip reader's limits (entry count, unpacked
 * size, ratio), ZIP64 directories, broken zips; the writer's output read back by exceljs and by the reader.
 */

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'xlsx-test-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

let files = 0;
async function saved(data: Buffer): Promise<string> {
  const path = join(dir, `f${files++}.xlsx`);
  await writeFile(path, data);
  return path;
}

const SHEET_XML =
  '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>名称</t></is></c><c r="B1"><v>42</v></c></row>' +
  '<row r="3"><c r="B3" t="b"><v>1</v></c></row></sheetData></worksheet>';

/** The parts of a minimal workbook whose first sheet is SHEET_XML. */
const workbookParts = (sheet = SHEET_XML): Part[] => [
  { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
  {
    name: 'xl/workbook.xml',
    data: Buffer.from('<workbook><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'),
  },
  {
    name: 'xl/_rels/workbook.xml.rels',
    data: Buffer.from(
      '<Relationships><Relationship Id="rId1" Type="x/worksheet" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
  },
  { name: 'xl/worksheets/sheet1.xml', data: Buffer.from(sheet) },
];

async function rowsOf(path: string, limits?: ZipLimits): Promise<SheetRow[]> {
  const rows: SheetRow[] = [];
  for await (const row of sheetRows(await openWorkbook(path, limits))) rows.push(row);
  return rows;
}

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'none';
}

describe('zip limits', () => {
  it('reads a plain workbook', async () => {
    const rows = await rowsOf(await saved(zip(workbookParts())));
    expect(rows).toEqual([
      { row: 1, cells: ['名称', 42] },
      { row: 3, cells: [undefined, true] },
    ]);
  });

  it('refuses more entries than the limit before reading the directory', async () => {
    const parts = [
      ...workbookParts(),
      ...Array.from({ length: 9 }, (_, i) => ({ name: `x/${i}`, data: Buffer.from('x') })),
    ];
    const path = await saved(zip(parts));
    expect(await code(openWorkbook(path, { ...WORKBOOK_LIMITS, entries: 12 }))).toBe('F1031');
    expect(await code(openWorkbook(path, { ...WORKBOOK_LIMITS, entries: 13 }))).toBe('none');
  });

  it('refuses declared sizes adding up past the unpacked limit', async () => {
    const parts = [...workbookParts(), { name: 'xl/media/a.bin', data: Buffer.alloc(3000, 1) }];
    const path = await saved(zip(parts));
    const limits = { ...WORKBOOK_LIMITS, unpacked: 3000, ratioFloor: Number.POSITIVE_INFINITY };
    expect(await code(openWorkbook(path, limits))).toBe('F1031');
    expect(await code(openWorkbook(path, { ...limits, unpacked: 4000 }))).toBe('none');
  });

  it('refuses an entry packing past the ratio, and one inflating past its declared size', async () => {
    const bomb = await saved(
      zip([...workbookParts(), { name: 'xl/media/z.bin', data: Buffer.alloc(20 * 1024 * 1024) }]),
    );
    expect(await code(openWorkbook(bomb))).toBe('F1031');
    const sheet = `<worksheet><sheetData>${'<row><c t="inlineStr"><is><t>x</t></is></c></row>'.repeat(2000)}</sheetData></worksheet>`;
    const parts = workbookParts(sheet);
    (parts[3] as Part).declaredSize = 1000;
    expect(await code(rowsOf(await saved(zip(parts))))).toBe('F1031');
  });

  it('reads ZIP64 directories and entries, limits applied to their real sizes', async () => {
    const path = await saved(zip(workbookParts(), { zip64: true }));
    const entries = await openZip(path);
    expect(entries.entries.get('xl/worksheets/sheet1.xml')?.size).toBe(Buffer.byteLength(SHEET_XML));
    expect((await rowsOf(path))[0]).toEqual({ row: 1, cells: ['名称', 42] });
    const bomb = await saved(
      zip([...workbookParts(), { name: 'xl/media/z.bin', data: Buffer.alloc(20 * 1024 * 1024) }], {
        zip64: true,
      }),
    );
    expect(await code(openWorkbook(bomb))).toBe('F1031');
    // ZIP64 sizes announced in the directory without the extra field that holds them: a broken zip.
    const broken = zip(workbookParts(), { zip64: true });
    const at = broken.indexOf(Buffer.from([0x01, 0x00, 0x18, 0x00]));
    broken.writeUInt16LE(0x9999, at);
    expect(await code(openWorkbook(await saved(broken)))).toBe('F1030');
  });

  it('refuses malformed zips and zips that hold no workbook', async () => {
    expect(await code(openWorkbook(await saved(Buffer.from('名称,代码\n甲,1\n'))))).toBe('F1030');
    const whole = zip(workbookParts());
    expect(await code(openWorkbook(await saved(whole.subarray(0, whole.length - 30))))).toBe('F1030');
    const badDirectory = Buffer.from(whole);
    badDirectory.writeUInt32LE(0x12345678, whole.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])));
    expect(await code(openWorkbook(await saved(badDirectory)))).toBe('F1030');
    const docx = zip([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'word/document.xml', data: Buffer.from('<w:document/>') },
    ]);
    expect(await code(openWorkbook(await saved(docx)))).toBe('F1030');
    const unknownMethod = zip(workbookParts());
    unknownMethod.writeUInt16LE(12, unknownMethod.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])) + 10);
    expect(await code(openWorkbook(await saved(unknownMethod)))).toBe('F1030');
  });

  it('lists entries of any zip for file sniffing, without limits', async () => {
    const entries = await readDirectory({
      size: zip(workbookParts()).length,
      read: async (position, length) => zip(workbookParts()).subarray(position, position + length),
    });
    expect(entries.map((e) => e.name)).toContain('xl/workbook.xml');
  });
});

describe('writer', () => {
  it('writes sheets, styles, notes, merges, drop-downs and hidden sheets that exceljs reads back', async () => {
    const data = await workbookBuffer(async (book) => {
      const sheet = await book.sheet({
        name: '数据/一',
        columns: [{ width: 20 }, { width: 12, style: { numFmt: 'yyyy-mm-dd' } }, { style: { numFmt: '@' } }],
        frozenRows: 2,
      });
      await sheet.rows(
        [
          ['分组', null, '备注'],
          ['名称', '日期', null],
        ],
        { bold: true, center: true },
      );
      await sheet.rows([
        ['甲', new Date(Date.UTC(2026, 2, 5)), ' 前后有空格 '],
        [{ value: 'bad', style: { fill: 'FFFFC7CE' }, note: '人数：须为整数' }, null, 45_000.5],
        [{ value: '原因', style: { color: 'FFC00000' } }, null, true],
      ]);
      await sheet.end({
        merges: [[1, 1, 1, 2]],
        validations: [{ range: 'A3:A10', formula: "'_lists'!$A$1:$A$2", title: '名称', error: '请选择' }],
      });
      const lists = await book.sheet({ name: '_lists', state: 'veryHidden' });
      await lists.rows([['工业'], ['建筑业']]);
      await book.end();
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(data as never);
    const sheet = wb.worksheets[0] as ExcelJS.Worksheet;
    expect(sheet.name).toBe('数据_一');
    expect(sheet.getCell('A1').value).toBe('分组');
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getCell('A1').alignment?.horizontal).toBe('center');
    expect(sheet.getCell('B1').isMerged).toBe(true);
    expect(sheet.getCell('B3').value).toEqual(new Date(Date.UTC(2026, 2, 5)));
    expect(sheet.getCell('B3').numFmt).toBe('yyyy-mm-dd');
    expect(sheet.getColumn(3).numFmt).toBe('@');
    expect(sheet.getColumn(1).width).toBe(20);
    expect(sheet.getCell('C3').value).toBe(' 前后有空格 ');
    expect((sheet.getCell('A4').fill as ExcelJS.FillPattern).fgColor?.argb).toBe('FFFFC7CE');
    expect(String(sheet.getCell('A4').note)).toBe('人数：须为整数');
    expect(sheet.getCell('C4').value).toBe(45_000.5);
    expect(sheet.getCell('C5').value).toBe(true);
    expect(sheet.getCell('A5').font?.color?.argb).toBe('FFC00000');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 2 });
    const validations = (sheet as unknown as { dataValidations: { model: Record<string, { type: string }> } })
      .dataValidations.model;
    expect(Object.values(validations).some((v) => v.type === 'list')).toBe(true);
    expect(wb.worksheets[1]?.state).toBe('veryHidden');
    expect(wb.worksheets[1]?.getCell('A2').value).toBe('建筑业');

    // The reader skips the hidden sheet and takes the cells as stored.
    const rows = await rowsOf(await saved(data));
    expect(rows[2]?.cells).toEqual(['甲', 46_086, ' 前后有空格 ']);
    expect(rows[3]?.cells).toEqual(['bad', undefined, 45_000.5]);
    expect(rows[4]?.cells).toEqual(['原因', undefined, true]);
  });

  it('streams: rows leave as they are written, and a closed destination stops the writer', async () => {
    const out = new PassThrough();
    let received = 0;
    out.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    const book = new XlsxWriter(out);
    const sheet = await book.sheet({ name: 'S' });
    for (let i = 0; i < 200; i++)
      await sheet.rows(Array.from({ length: 100 }, (_, k) => [`row ${i * 100 + k}`, Math.random(), i]));
    expect(received).toBeGreaterThan(100_000);
    out.destroy();
    await expect(sheet.rows([['after']])).rejects.toThrow('closed');
  });
});
