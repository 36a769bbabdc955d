import { mergeStyles, type Styles, type XlsxStyle } from './styles.ts';
import { columnLetter, escapeXml, excelSerial } from './xml.ts';
import type { ZipEntryWriter, ZipWriter } from './zip-write.ts';

/** One worksheet of a streamed workbook: rows go into the zip as they are written. */

export type XlsxValue = string | number | boolean | Date | null | undefined;
/** A value, or a value with its own style and a note (a comment shown on hover). */
export type XlsxCell =
  | XlsxValue
  | { value: XlsxValue; style?: XlsxStyle | undefined; note?: string | undefined };

export type XlsxColumn = {
  width?: number | undefined;
  /** Applies to the whole column (what is typed into it later, too) and to every value written in it. */
  style?: XlsxStyle | undefined;
};

export type SheetOptions = {
  name: string;
  columns?: readonly XlsxColumn[];
  /** Rows frozen at the top (the header rows). */
  frozenRows?: number;
  frozenColumns?: number;
  state?: 'visible' | 'hidden' | 'veryHidden';
};

/** A drop-down of the values in `formula` (`'_lists'!$A$1:$A$9`) over `range` (`G3:G5002`). */
export type ListValidation = { range: string; formula: string; title?: string; error?: string };

export type SheetEnd = {
  /** Merged ranges as [top, left, bottom, right], 1-based. */
  merges?: readonly (readonly [number, number, number, number])[];
  validations?: readonly ListValidation[];
};

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
export const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAX_CELL_TEXT = 32_767;
/** Note shapes per VML id block. */
const SHAPES_PER_BLOCK = 1024;

type Note = { row: number; column: number; text: string };

const isRich = (cell: XlsxCell): cell is Exclude<XlsxCell, XlsxValue> =>
  cell !== null && typeof cell === 'object' && !(cell instanceof Date);

function valueXml(ref: string, style: string, value: XlsxValue): string {
  if (value === null || value === undefined || value === '') return `<c r="${ref}"${style}/>`;
  if (typeof value === 'number')
    return Number.isFinite(value) ? `<c r="${ref}"${style}><v>${value}</v></c>` : `<c r="${ref}"${style}/>`;
  if (typeof value === 'boolean') return `<c r="${ref}"${style} t="b"><v>${value ? 1 : 0}</v></c>`;
  if (value instanceof Date)
    return Number.isNaN(value.getTime())
      ? `<c r="${ref}"${style}/>`
      : `<c r="${ref}"${style}><v>${excelSerial(value)}</v></c>`;
  const text = escapeXml(value.length > MAX_CELL_TEXT ? value.slice(0, MAX_CELL_TEXT) : value);
  const space = /^\s|\s$/.test(text) ? ' xml:space="preserve"' : '';
  return `<c r="${ref}"${style} t="inlineStr"><is><t${space}>${text}</t></is></c>`;
}

export class SheetWriter {
  private rowNumber = 0;
  private readonly letters: string[] = [];
  private readonly columnStyles: (XlsxStyle | undefined)[];
  private readonly notes: Note[] = [];
  ended = false;

  constructor(
    private readonly zip: ZipWriter,
    private readonly styles: Styles,
    private readonly data: ZipEntryWriter,
    /** 1-based position of the sheet in the workbook. */
    readonly index: number,
    /** The first VML id block of this sheet's notes. */
    private readonly noteBlock: number,
    options: SheetOptions,
  ) {
    this.columnStyles = (options.columns ?? []).map((c) => c.style);
  }

  /** The worksheet's opening (views and column widths); written once by the workbook. */
  static head(styles: Styles, options: SheetOptions): string {
    const ys = options.frozenRows ?? 0;
    const xs = options.frozenColumns ?? 0;
    const pane =
      ys > 0 || xs > 0
        ? `<pane${xs ? ` xSplit="${xs}"` : ''}${ys ? ` ySplit="${ys}"` : ''} topLeftCell="${columnLetter(xs + 1)}${ys + 1}" activePane="${xs && ys ? 'bottomRight' : ys ? 'bottomLeft' : 'topRight'}" state="frozen"/>`
        : '';
    const cols = (options.columns ?? [])
      .map((c, i) => {
        const style = c.style ? ` style="${styles.id(c.style)}"` : '';
        const width = c.width ? ` width="${c.width}" customWidth="1"` : ' width="9.140625"';
        return `<col min="${i + 1}" max="${i + 1}"${width}${style}/>`;
      })
      .join('');
    return `${XML_HEAD}<worksheet xmlns="${MAIN}" xmlns:r="${REL}"><sheetViews><sheetView workbookViewId="0">${pane}</sheetView></sheetViews><sheetFormatPr defaultRowHeight="15"/>${
      cols ? `<cols>${cols}</cols>` : ''
    }<sheetData>`;
  }

  private letter(i: number): string {
    let letter = this.letters[i];
    if (letter === undefined) {
      letter = columnLetter(i + 1);
      this.letters[i] = letter;
    }
    return letter;
  }

  private rowXml(cells: readonly XlsxCell[], rowStyle: XlsxStyle | undefined): string {
    this.rowNumber++;
    let xml = `<row r="${this.rowNumber}">`;
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i];
      const rich = isRich(cell) ? cell : null;
      const value = rich ? rich.value : (cell as XlsxValue);
      const own = mergeStyles(rowStyle, rich?.style);
      // Blank cells are left out unless the row or the cell gives them a look.
      if ((value === null || value === undefined || value === '') && !own) continue;
      const style = mergeStyles(this.columnStyles[i], own);
      const id = this.styles.id(style);
      const ref = `${this.letter(i)}${this.rowNumber}`;
      xml += valueXml(ref, id ? ` s="${id}"` : '', value);
      if (rich?.note) this.notes.push({ row: this.rowNumber, column: i, text: rich.note });
    }
    return `${xml}</row>`;
  }

  /** Appends rows (`style` for all their cells, e.g. a bold header); waits while the reader is slower. */
  async rows(rows: readonly (readonly XlsxCell[])[], style?: XlsxStyle): Promise<void> {
    if (this.ended) throw new Error('the sheet is ended');
    let xml = '';
    for (const cells of rows) xml += this.rowXml(cells, style);
    await this.data.write(xml);
  }

  /** Closes the sheet: merges and drop-downs, then its notes as their own parts. */
  async end(extras: SheetEnd = {}): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const merges = (extras.merges ?? []).map(
      ([top, left, bottom, right]) =>
        `<mergeCell ref="${columnLetter(left)}${top}:${columnLetter(right)}${bottom}"/>`,
    );
    const validations = (extras.validations ?? []).map(
      (v) =>
        `<dataValidation type="list" allowBlank="1" showErrorMessage="1"${v.title ? ` errorTitle="${escapeXml(v.title)}"` : ''}${
          v.error ? ` error="${escapeXml(v.error)}"` : ''
        } sqref="${v.range}"><formula1>${escapeXml(v.formula)}</formula1></dataValidation>`,
    );
    await this.data.write(
      `</sheetData>${merges.length ? `<mergeCells count="${merges.length}">${merges.join('')}</mergeCells>` : ''}${
        validations.length
          ? `<dataValidations count="${validations.length}">${validations.join('')}</dataValidations>`
          : ''
      }<pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/>${
        this.notes.length ? '<legacyDrawing r:id="rId1"/>' : ''
      }</worksheet>`,
    );
    await this.data.end();
    if (this.notes.length) await this.writeNotes();
  }

  /** VML id blocks the notes of this sheet took. */
  get noteBlocks(): number {
    return Math.ceil(this.notes.length / SHAPES_PER_BLOCK);
  }

  get hasNotes(): boolean {
    return this.notes.length > 0;
  }

  private async writeNotes(): Promise<void> {
    const n = this.index;
    await this.zip.file(
      `xl/worksheets/_rels/sheet${n}.xml.rels`,
      `${XML_HEAD}<Relationships xmlns="${PKG_REL}"><Relationship Id="rId1" Type="${REL}/vmlDrawing" Target="../drawings/vmlDrawing${n}.vml"/><Relationship Id="rId2" Type="${REL}/comments" Target="../comments${n}.xml"/></Relationships>`,
    );
    const comments = await this.zip.open(`xl/comments${n}.xml`);
    await comments.write(
      `${XML_HEAD}<comments xmlns="${MAIN}"><authors><author></author></authors><commentList>`,
    );
    for (let i = 0; i < this.notes.length; i += 1000) {
      await comments.write(
        this.notes
          .slice(i, i + 1000)
          .map(
            (note) =>
              `<comment ref="${this.letter(note.column)}${note.row}" authorId="0"><text><r><t xml:space="preserve">${escapeXml(note.text)}</t></r></text></comment>`,
          )
          .join(''),
      );
    }
    await comments.write('</commentList></comments>');
    await comments.end();

    const blocks = Array.from({ length: this.noteBlocks }, (_, k) => this.noteBlock + k);
    const vml = await this.zip.open(`xl/drawings/vmlDrawing${n}.vml`);
    await vml.write(
      `<xml xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office" xmlns:x="urn:schemas-microsoft-com:office:excel"><o:shapelayout v:ext="edit"><o:idmap v:ext="edit" data="${blocks.join(',')}"/></o:shapelayout><v:shapetype id="_x0000_t202" coordsize="21600,21600" o:spt="202" path="m,l,21600r21600,l21600,xe"><v:stroke joinstyle="miter"/><v:path gradientshapeok="t" o:connecttype="rect"/></v:shapetype>`,
    );
    for (let i = 0; i < this.notes.length; i += 1000) {
      await vml.write(
        this.notes
          .slice(i, i + 1000)
          .map((note, k) => {
            const id = this.noteBlock * SHAPES_PER_BLOCK + i + k + 1;
            const row = note.row - 1;
            const col = note.column;
            return `<v:shape id="_x0000_s${id}" type="#_x0000_t202" style="position:absolute;margin-left:59.25pt;margin-top:1.5pt;width:108pt;height:59.25pt;z-index:${i + k + 1};visibility:hidden" fillcolor="#ffffe1" o:insetmode="auto"><v:fill color2="#ffffe1"/><v:shadow on="t" color="black" obscured="t"/><v:path o:connecttype="none"/><v:textbox style="mso-direction-alt:auto"><div style="text-align:left"></div></v:textbox><x:ClientData ObjectType="Note"><x:MoveWithCells/><x:SizeWithCells/><x:Anchor>${col + 1}, 15, ${row}, 2, ${col + 3}, 15, ${row + 4}, 16</x:Anchor><x:AutoFill>False</x:AutoFill><x:Row>${row}</x:Row><x:Column>${col}</x:Column></x:ClientData></v:shape>`;
          })
          .join(''),
      );
    }
    await vml.write('</xml>');
    await vml.end();
  }
}
