import { AppError } from '../../platform/errors/app-error.ts';
import { entryString, entryText, type ZipIndex } from './zip.ts';

/**
 * Rows of the first visible worksheet of an .xlsx, read as a stream of sheet XML with a few regular
 * expressions (no DOM, no SAX events per character): exceljs' streaming reader took several times longer
 * for 100,000 × 30 cells. Shared strings are held in memory (their size is bounded by the zip checks);
 * the sheet's rows are never all held. Cells come as Excel stores them: numbers (dates are serial numbers,
 * the caller knows which columns are dates), text, booleans.
 */

export type SheetCell = string | number | boolean | null;
/** A sheet row: its 1-based number and its cells by 0-based column. */
export type SheetRow = { row: number; cells: SheetCell[] };

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

function unescapeXml(text: string): string {
  let out = text.includes('&')
    ? text.replace(ENTITY, (_, hex: string | undefined, dec: string | undefined, name: string | undefined) =>
        hex
          ? String.fromCodePoint(parseInt(hex, 16))
          : dec
            ? String.fromCodePoint(Number(dec))
            : (NAMED[name as string] as string),
      )
    : text;
  if (out.includes('_x'))
    out = out.replace(EXCEL_ESCAPE, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return out;
}

const T_TEXT = /<t(?:\s[^>]*)?>([^<]*)<\/t>/g;
const PHONETIC = /<rPh\b[\s\S]*?<\/rPh>/g;

/** The text of an `<si>` or `<is>`: its `<t>` runs, phonetic guides left out. */
function runText(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(PHONETIC, '') : xml;
  let text = '';
  T_TEXT.lastIndex = 0;
  for (let m = T_TEXT.exec(body); m; m = T_TEXT.exec(body)) text += m[1];
  return unescapeXml(text);
}

async function sharedStrings(zip: ZipIndex, path: string | null): Promise<string[]> {
  if (!path || !zip.entries.has(path)) return [];
  const strings: string[] = [];
  let buffer = '';
  const SI = /<si>([\s\S]*?)<\/si>|<si\/>/g;
  for await (const chunk of entryText(zip, path)) {
    buffer += chunk;
    SI.lastIndex = 0;
    let last = 0;
    for (let m = SI.exec(buffer); m; m = SI.exec(buffer)) {
      strings.push(m[1] === undefined ? '' : runText(m[1]));
      last = SI.lastIndex;
    }
    buffer = buffer.slice(last);
  }
  return strings;
}

const attr = (attrs: string, name: string): string | null => {
  const m = new RegExp(`\\b${name}="([^"]*)"`).exec(attrs);
  return m ? (m[1] as string) : null;
};

/** 0-based column of a cell reference (`AB12` → 27), or -1. */
function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

const resolvePart = (target: string) =>
  target.startsWith('/') ? target.slice(1) : `xl/${target.replace(/^\.\//, '')}`;

/** The first visible sheet's part and the shared strings part. */
async function locate(zip: ZipIndex): Promise<{ sheet: string; strings: string | null }> {
  const workbook = await entryString(zip, 'xl/workbook.xml');
  const rels = zip.entries.has('xl/_rels/workbook.xml.rels')
    ? await entryString(zip, 'xl/_rels/workbook.xml.rels')
    : '';
  const targets = new Map<string, { type: string; target: string }>();
  for (const m of rels.matchAll(/<Relationship\b([^>]*)\/?>/g)) {
    const id = attr(m[1] as string, 'Id');
    const target = attr(m[1] as string, 'Target');
    if (id && target) targets.set(id, { type: attr(m[1] as string, 'Type') ?? '', target });
  }
  let sheet: string | null = null;
  for (const m of workbook.matchAll(/<sheet\b([^>]*)\/?>/g)) {
    const attrs = m[1] as string;
    if (/\bstate="(?:hidden|veryHidden)"/.test(attrs)) continue;
    const id = /\br:id="([^"]*)"|\bid="([^"]*)"/.exec(attrs);
    const target = id ? targets.get((id[1] ?? id[2]) as string) : undefined;
    if (target) {
      sheet = resolvePart(target.target);
      break;
    }
  }
  if (!sheet || !zip.entries.has(sheet)) throw new AppError('F1030');
  const strings = [...targets.values()].find((t) => t.type.endsWith('/sharedStrings'));
  return { sheet, strings: strings ? resolvePart(strings.target) : null };
}

const ROW = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/g;
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const VALUE = /<v>([^<]*)<\/v>/;
const INLINE = /<is>([\s\S]*?)<\/is>/;

/** The rows of the workbook's first visible sheet, in order; `onSize` gets the sheet's declared last row. */
export async function* sheetRows(
  zip: ZipIndex,
  onSize?: (lastRow: number) => void,
): AsyncGenerator<SheetRow> {
  const { sheet, strings: stringsPart } = await locate(zip);
  const strings = await sharedStrings(zip, stringsPart);
  let buffer = '';
  let sizeSeen = false;
  let next = 1;
  for await (const chunk of entryText(zip, sheet)) {
    buffer += chunk;
    if (!sizeSeen && onSize) {
      const open = buffer.indexOf('<sheetData');
      if (open >= 0) {
        sizeSeen = true;
        const dim = /<dimension\s+ref="[A-Z]+\d+:[A-Z]+(\d+)"/.exec(buffer.slice(0, open));
        if (dim) onSize(Number(dim[1]));
      }
    }
    ROW.lastIndex = 0;
    let last = 0;
    for (let m = ROW.exec(buffer); m; m = ROW.exec(buffer)) {
      last = ROW.lastIndex;
      const rowAttrs = m[1] as string;
      const r = attr(rowAttrs, 'r');
      const row = r ? Number(r) : next;
      next = row + 1;
      const cells: SheetCell[] = [];
      const body = m[2];
      if (body) {
        CELL.lastIndex = 0;
        let position = 0;
        for (let c = CELL.exec(body); c; c = CELL.exec(body)) {
          const attrs = c[1] as string;
          const ref = attr(attrs, 'r');
          const col = ref ? columnIndex(ref) : position;
          position = col + 1;
          const inner = c[2];
          if (!inner) continue;
          const type = attr(attrs, 't');
          let value: SheetCell = null;
          if (type === 'inlineStr') {
            const is = INLINE.exec(inner);
            value = is ? runText(is[1] as string) : null;
          } else {
            const v = VALUE.exec(inner);
            if (v) {
              const text = v[1] as string;
              if (type === 's') value = strings[Number(text)] ?? null;
              else if (type === 'str' || type === 'e' || type === 'd') value = unescapeXml(text);
              else if (type === 'b') value = text === '1';
              else {
                const n = Number(text);
                value = Number.isFinite(n) ? n : unescapeXml(text);
              }
            }
          }
          if (col >= 0) cells[col] = value;
        }
      }
      yield { row, cells };
    }
    buffer = buffer.slice(last);
  }
}
