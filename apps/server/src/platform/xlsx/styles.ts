import { escapeXml } from './xml.ts';

/** How a cell looks: bold or coloured text (ARGB `FFC00000`), a solid fill, a number format, centred wrapped text. */
export type XlsxStyle = {
  bold?: boolean | undefined;
  color?: string | undefined;
  fill?: string | undefined;
  numFmt?: string | undefined;
  center?: boolean | undefined;
};

/** Number formats Excel knows by id; any other code is written into the workbook from id 164 on. */
const BUILT_IN_FORMATS: Record<string, number> = { General: 0, '0': 1, '0.00': 2, '@': 49 };
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const FONT_SIZE = '<sz val="11"/><name val="Calibri"/>';

/** Later keys win; undefined keys do not override. */
export function mergeStyles(...styles: (XlsxStyle | undefined)[]): XlsxStyle | undefined {
  let out: XlsxStyle | undefined;
  for (const style of styles) {
    if (!style) continue;
    out = { ...out };
    for (const [key, value] of Object.entries(style))
      if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  }
  return out;
}

/**
 * The workbook's style table, grown as cells ask for styles (id 0 is the plain cell) and written last: the
 * parts of a zip may come in any order, so the sheets can be streamed before their styles are all known.
 */
export class Styles {
  private readonly fonts = new Map<string, number>([[`<font>${FONT_SIZE}</font>`, 0]]);
  private readonly fills = new Map<string, number>([
    ['<fill><patternFill patternType="none"/></fill>', 0],
    ['<fill><patternFill patternType="gray125"/></fill>', 1],
  ]);
  private readonly formats = new Map<string, number>();
  private readonly xfs = new Map<string, number>([
    ['<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>', 0],
  ]);

  private static index(map: Map<string, number>, key: string): number {
    let id = map.get(key);
    if (id === undefined) {
      id = map.size;
      map.set(key, id);
    }
    return id;
  }

  private formatId(code: string): number {
    const builtIn = BUILT_IN_FORMATS[code];
    if (builtIn !== undefined) return builtIn;
    let id = this.formats.get(code);
    if (id === undefined) {
      id = 164 + this.formats.size;
      this.formats.set(code, id);
    }
    return id;
  }

  /** The id of `style` for a cell's `s` attribute (0: none). */
  id(style: XlsxStyle | undefined): number {
    if (!style) return 0;
    const color = style.color ? `<color rgb="${escapeXml(style.color)}"/>` : '';
    const font = Styles.index(this.fonts, `<font>${style.bold ? '<b/>' : ''}${color}${FONT_SIZE}</font>`);
    const fill = style.fill
      ? Styles.index(
          this.fills,
          `<fill><patternFill patternType="solid"><fgColor rgb="${escapeXml(style.fill)}"/><bgColor indexed="64"/></patternFill></fill>`,
        )
      : 0;
    const format = style.numFmt ? this.formatId(style.numFmt) : 0;
    const applied = `${font ? ' applyFont="1"' : ''}${fill ? ' applyFill="1"' : ''}${format ? ' applyNumberFormat="1"' : ''}`;
    const alignment = style.center ? '<alignment horizontal="center" vertical="center" wrapText="1"/>' : '';
    const xf = `<xf numFmtId="${format}" fontId="${font}" fillId="${fill}" borderId="0" xfId="0"${applied}${
      alignment ? ' applyAlignment="1">' : '>'
    }${alignment}</xf>`;
    return Styles.index(this.xfs, xf);
  }

  xml(): string {
    const formats = [...this.formats].map(
      ([code, id]) => `<numFmt numFmtId="${id}" formatCode="${escapeXml(code)}"/>`,
    );
    return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<styleSheet xmlns="${MAIN}">${
      formats.length ? `<numFmts count="${formats.length}">${formats.join('')}</numFmts>` : ''
    }<fonts count="${this.fonts.size}">${[...this.fonts.keys()].join('')}</fonts><fills count="${this.fills.size}">${[
      ...this.fills.keys(),
    ].join(
      '',
    )}</fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${this.xfs.size}">${[
      ...this.xfs.keys(),
    ].join(
      '',
    )}</cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;
  }
}
