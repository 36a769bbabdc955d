import type { Writable } from 'node:stream';
import { constants, crc32, createDeflateRaw, type DeflateRaw } from 'node:zlib';

/**
 * A streaming .xlsx writer for ledgers of any length: one worksheet whose rows are deflated into the zip as
 * they are written, with backpressure down to the HTTP response. exceljs' "streaming" WorkbookWriter (4.4)
 * zips with JSZip at commit, so the whole sheet sits in memory first; this writer keeps at most a batch.
 *
 * The zip entries use data descriptors (sizes after the data), so nothing needs to be known in advance. No
 * ZIP64: an entry is limited to 4 GB uncompressed (about two million rows of 30 fields), beyond that the
 * export fails with an error instead of writing a broken file.
 */

export type XlsxCell = string | number | Date | null;

export type XlsxColumn = { width: number; numFmt?: string | undefined };

export type XlsxSheet = {
  name: string;
  columns: readonly XlsxColumn[];
  /** Rows frozen at the top (the header rows). */
  frozenRows: number;
  frozenColumns: number;
  /** Merged ranges as [top, left, bottom, right], 1-based. */
  merges: readonly (readonly [number, number, number, number])[];
};

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAX_CELL_TEXT = 32_767;
const LIMIT_32 = 0xffff_ffff;
/** Days from Excel's epoch (1899-12-30) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;

// biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 cannot carry.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;
const escapeXml = (text: string) =>
  text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

/** `A`, `B`, … `Z`, `AA`, … for a 1-based column number. */
export function columnLetter(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/** An Excel date serial (days since 1899-12-30, UTC: Excel dates carry no zone). */
export const excelSerial = (date: Date) => date.getTime() / 86_400_000 + EXCEL_EPOCH_DAYS;

/** Resolves when `stream` wants more, or has closed (the client went away). */
function writable(stream: Writable): Promise<void> {
  if (stream.destroyed || !stream.writableNeedDrain) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}

export class ClientGoneError extends Error {
  constructor() {
    super('the client closed the download');
  }
}

type Entry = { name: Buffer; crc: number; size: number; compressed: number; offset: number };

/** A zip archive written entry by entry to `out`. */
class ZipWriter {
  private offset = 0;
  private readonly entries: Entry[] = [];
  private readonly time: number;
  private readonly date: number;

  constructor(private readonly out: Writable) {
    const now = new Date();
    this.time = (now.getHours() << 11) | (now.getMinutes() << 5) | Math.floor(now.getSeconds() / 2);
    this.date = ((now.getFullYear() - 1980) << 9) | ((now.getMonth() + 1) << 5) | now.getDate();
  }

  private async push(buffer: Buffer): Promise<void> {
    if (this.out.destroyed) throw new ClientGoneError();
    this.offset += buffer.length;
    if (!this.out.write(buffer)) await writable(this.out);
  }

  /** Starts an entry: write its text with `write`, then `end`. */
  async open(name: string): Promise<{ write: (text: string) => Promise<void>; end: () => Promise<void> }> {
    const entry: Entry = {
      name: Buffer.from(name, 'utf8'),
      crc: 0,
      size: 0,
      compressed: 0,
      offset: this.offset,
    };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4); // version needed
    header.writeUInt16LE(0x0808, 6); // sizes in a data descriptor, UTF-8 names
    header.writeUInt16LE(8, 8); // deflate
    header.writeUInt16LE(this.time, 10);
    header.writeUInt16LE(this.date, 12);
    header.writeUInt16LE(entry.name.length, 26);
    await this.push(Buffer.concat([header, entry.name]));

    const deflate: DeflateRaw = createDeflateRaw({ level: constants.Z_BEST_SPEED + 2 });
    const out = this.out;
    const gone = () => deflate.destroy();
    out.once('close', gone);
    deflate.on('data', (chunk: Buffer) => {
      entry.compressed += chunk.length;
      if (!out.write(chunk)) {
        deflate.pause();
        void writable(out).then(() => deflate.resume());
      }
    });
    const finished = new Promise<void>((resolve, reject) => {
      deflate.once('end', resolve);
      deflate.once('error', reject);
      deflate.once('close', () => (out.destroyed ? reject(new ClientGoneError()) : resolve()));
    });
    return {
      write: async (text: string) => {
        if (out.destroyed) throw new ClientGoneError();
        const buffer = Buffer.from(text, 'utf8');
        entry.crc = crc32(buffer, entry.crc);
        entry.size += buffer.length;
        if (entry.size > LIMIT_32) throw new Error('ledger too large for one worksheet (4 GB)');
        if (!deflate.write(buffer)) await writable(deflate);
      },
      end: async () => {
        deflate.end();
        await finished;
        out.off('close', gone);
        this.offset += entry.compressed;
        const descriptor = Buffer.alloc(16);
        descriptor.writeUInt32LE(0x08074b50, 0);
        descriptor.writeUInt32LE(entry.crc >>> 0, 4);
        descriptor.writeUInt32LE(entry.compressed, 8);
        descriptor.writeUInt32LE(entry.size, 12);
        this.entries.push(entry);
        await this.push(descriptor);
      },
    };
  }

  async file(name: string, text: string): Promise<void> {
    const entry = await this.open(name);
    await entry.write(text);
    await entry.end();
  }

  /** The central directory and its end record. */
  async finish(): Promise<void> {
    if (this.offset > LIMIT_32) throw new Error('ledger too large (4 GB)');
    const start = this.offset;
    const parts: Buffer[] = [];
    for (const e of this.entries) {
      const record = Buffer.alloc(46);
      record.writeUInt32LE(0x02014b50, 0);
      record.writeUInt16LE(20, 4);
      record.writeUInt16LE(20, 6);
      record.writeUInt16LE(0x0808, 8);
      record.writeUInt16LE(8, 10);
      record.writeUInt16LE(this.time, 12);
      record.writeUInt16LE(this.date, 14);
      record.writeUInt32LE(e.crc >>> 0, 16);
      record.writeUInt32LE(e.compressed, 20);
      record.writeUInt32LE(e.size, 24);
      record.writeUInt16LE(e.name.length, 28);
      record.writeUInt32LE(e.offset, 42);
      parts.push(record, e.name);
    }
    const directory = Buffer.concat(parts);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(this.entries.length, 8);
    end.writeUInt16LE(this.entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(start, 16);
    await this.push(Buffer.concat([directory, end]));
  }
}

/** Styles: 0 plain, 1 header (bold, centred), then one per distinct number format. */
function stylesXml(formats: readonly string[]): string {
  const numFmts = formats.map((code, i) => `<numFmt numFmtId="${164 + i}" formatCode="${escapeXml(code)}"/>`);
  const xfs = formats.map(
    (_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`,
  );
  return `${XML_HEAD}<styleSheet xmlns="${MAIN}">${
    numFmts.length ? `<numFmts count="${numFmts.length}">${numFmts.join('')}</numFmts>` : ''
  }<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${2 + xfs.length}"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1"><alignment horizontal="center" vertical="center" wrapText="1"/></xf>${xfs.join('')}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
}

/**
 * Writes a one-sheet workbook to `out`: call `header(rows)` once, `rows(lines)` for each batch (it waits
 * while the client is slower than the database), then `end()`.
 */
export async function openXlsx(out: Writable, sheet: XlsxSheet) {
  const zip = new ZipWriter(out);
  const formats = [...new Set(sheet.columns.map((c) => c.numFmt).filter((f): f is string => !!f))];
  const styleOf = sheet.columns.map((c) => (c.numFmt ? 2 + formats.indexOf(c.numFmt) : 0));
  const letters = sheet.columns.map((_, i) => columnLetter(i + 1));
  const name = escapeXml(sheet.name);

  await zip.file(
    '[Content_Types].xml',
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  );
  await zip.file(
    '_rels/.rels',
    `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  await zip.file(
    'xl/workbook.xml',
    `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  await zip.file(
    'xl/_rels/workbook.xml.rels',
    `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
  );
  await zip.file('xl/styles.xml', stylesXml(formats));

  const data = await zip.open('xl/worksheets/sheet1.xml');
  const { frozenRows: ys, frozenColumns: xs } = sheet;
  const pane =
    ys > 0 || xs > 0
      ? `<pane${xs ? ` xSplit="${xs}"` : ''}${ys ? ` ySplit="${ys}"` : ''} topLeftCell="${columnLetter(xs + 1)}${ys + 1}" activePane="${xs && ys ? 'bottomRight' : ys ? 'bottomLeft' : 'topRight'}" state="frozen"/>`
      : '';
  const cols = sheet.columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width}" customWidth="1"/>`)
    .join('');
  await data.write(
    `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData>`,
  );
  let rowNumber = 0;

  const rowXml = (cells: readonly XlsxCell[], header: boolean): string => {
    rowNumber++;
    let xml = `<row r="${rowNumber}">`;
    for (let i = 0; i < cells.length; i++) {
      const value = cells[i];
      const ref = `${letters[i]}${rowNumber}`;
      if (header) {
        xml += `<c r="${ref}" s="1" t="inlineStr"><is><t>${escapeXml(String(value ?? ''))}</t></is></c>`;
        continue;
      }
      if (value === null || value === undefined || value === '') continue;
      const style = styleOf[i] ? ` s="${styleOf[i]}"` : '';
      if (typeof value === 'number') {
        if (Number.isFinite(value)) xml += `<c r="${ref}"${style}><v>${value}</v></c>`;
      } else if (value instanceof Date) {
        if (!Number.isNaN(value.getTime())) xml += `<c r="${ref}"${style}><v>${excelSerial(value)}</v></c>`;
      } else {
        const text = escapeXml(value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT) : value);
        const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
        xml += `<c r="${ref}" t="inlineStr"><is><t${space}>${text}</t></is></c>`;
      }
    }
    return `${xml}</row>`;
  };

  return {
    header: async (rows: readonly (readonly XlsxCell[])[]) => {
      await data.write(rows.map((cells) => rowXml(cells, true)).join(''));
    },
    rows: async (lines: readonly (readonly XlsxCell[])[]) => {
      let xml = '';
      for (const cells of lines) xml += rowXml(cells, false);
      await data.write(xml);
    },
    end: async () => {
      const merges = sheet.merges.map(
        ([top, left, bottom, right]) =>
          `<mergeCell ref="${columnLetter(left)}${top}:${columnLetter(right)}${bottom}"/>`,
      );
      await data.write(
        `</sheetData>${merges.length ? `<mergeCells count="${merges.length}">${merges.join('')}</mergeCells>` : ''}<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></worksheet>`,
      );
      await data.end();
      await zip.finish();
      out.end();
    },
  };
}
