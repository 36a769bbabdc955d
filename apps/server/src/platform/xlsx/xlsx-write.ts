import { PassThrough, type Writable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { type SheetOptions, SheetWriter, XML_HEAD } from './sheet-write.ts';
import { Styles } from './styles.ts';
import { escapeXml } from './xml.ts';
import { ClientGoneError, ZipWriter } from './zip-write.ts';

/**
 * The one .xlsx writer of the server (docs/import.md "Spreadsheets"): sheets are streamed into the zip one
 * after the other as their rows come, so an export of any length holds at most a batch of rows (exceljs'
 * "streaming" WorkbookWriter zips with JSZip at commit, the whole file in memory). Styles, the workbook part
 * and the content types are written last, once every sheet is known. Notes are held per sheet until it ends.
 *
 * ```ts
 * const book = new XlsxWriter(out);
 * const sheet = await book.sheet({ name: '数据', columns, frozenRows: 1 });
 * await sheet.rows([header], { bold: true });
 * await sheet.rows(batch);
 * await sheet.end({ merges });
 * await book.end();
 * ```
 */

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const SHEET_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml';
const COMMENTS_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.comments+xml';

/** A name Excel accepts for a sheet: no `[]:*?/\`, at most 31 characters, not blank. */
export const sheetName = (name: string) => name.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1';

type Placed = { name: string; state: SheetOptions['state']; sheet: SheetWriter };

export class XlsxWriter {
  private readonly zip: ZipWriter;
  private readonly styles = new Styles();
  private readonly sheets: Placed[] = [];
  private noteBlocks = 1;

  constructor(private readonly out: Writable) {
    this.zip = new ZipWriter(out);
  }

  /** Starts the next sheet (the one before is ended first). */
  async sheet(options: SheetOptions): Promise<SheetWriter> {
    const last = this.sheets.at(-1);
    if (last) await this.close(last.sheet);
    const index = this.sheets.length + 1;
    const data = await this.zip.open(`xl/worksheets/sheet${index}.xml`);
    await data.write(SheetWriter.head(this.styles, options));
    const sheet = new SheetWriter(this.zip, this.styles, data, index, this.noteBlocks, options);
    this.sheets.push({ name: sheetName(options.name), state: options.state, sheet });
    return sheet;
  }

  private async close(sheet: SheetWriter): Promise<void> {
    await sheet.end();
    this.noteBlocks += sheet.noteBlocks;
  }

  /** Writes the workbook's own parts and the zip directory, then ends `out`. */
  async end(): Promise<void> {
    const last = this.sheets.at(-1);
    if (last) await this.close(last.sheet);
    else await this.sheet({ name: 'Sheet1' }).then((sheet) => this.close(sheet));
    const overrides = this.sheets
      .map(({ sheet }) => {
        const part = `<Override PartName="/xl/worksheets/sheet${sheet.index}.xml" ContentType="${SHEET_TYPE}"/>`;
        return sheet.hasNotes
          ? `${part}<Override PartName="/xl/comments${sheet.index}.xml" ContentType="${COMMENTS_TYPE}"/>`
          : part;
      })
      .join('');
    await this.zip.file(
      '[Content_Types].xml',
      `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Default Extension="vml" ContentType="application/vnd.openxmlformats-officedocument.vmlDrawing"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${overrides}<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    );
    await this.zip.file(
      '_rels/.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    );
    const sheets = this.sheets
      .map(
        ({ name, state, sheet }) =>
          `<sheet name="${escapeXml(name)}" sheetId="${sheet.index}"${state && state !== 'visible' ? ` state="${state}"` : ''} r:id="rId${sheet.index}"/>`,
      )
      .join('');
    await this.zip.file(
      'xl/workbook.xml',
      `${XML_HEAD}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><bookViews><workbookView/></bookViews><sheets>${sheets}</sheets></workbook>`,
    );
    const rels = this.sheets
      .map(
        ({ sheet }) =>
          `<Relationship Id="rId${sheet.index}" Type="${REL}/worksheet" Target="worksheets/sheet${sheet.index}.xml"/>`,
      )
      .join('');
    await this.zip.file(
      'xl/_rels/workbook.xml.rels',
      `${XML_HEAD}<Relationships xmlns="${PKG_REL}">${rels}<Relationship Id="rId${this.sheets.length + 1}" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    await this.zip.file('xl/styles.xml', this.styles.xml());
    await this.zip.finish();
    this.out.end();
  }
}

/**
 * A workbook written by `write` into a stream to send (a download), at the pace the client reads it: an error
 * after the headers are gone cuts the download off and is logged (a client that went away is not an error).
 */
export function workbookStream(
  log: FastifyBaseLogger,
  write: (book: XlsxWriter) => Promise<void>,
): PassThrough {
  const out = new PassThrough();
  write(new XlsxWriter(out)).catch((error: unknown) => {
    if (error instanceof ClientGoneError) return;
    log.error({ err: error }, 'excel export failed');
    out.destroy(error as Error);
  });
  return out;
}

/** A whole (small) workbook in memory, for a file kept in the cache. */
export async function workbookBuffer(write: (book: XlsxWriter) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    out.once('end', resolve);
    out.once('error', reject);
  });
  await write(new XlsxWriter(out));
  await ended;
  return Buffer.concat(chunks);
}
