import { AppError } from '../errors/app-error.ts';
import { columnIndex, unescapeXml } from './xml.ts';
import {
  entryString,
  entryText,
  openZip,
  WORKBOOK_LIMITS,
  type ZipIndex,
  type ZipLimits,
} from './zip-read.ts';

/**
 * Rows of the first visible worksheet of an .xlsx, read as a stream of sheet XML with a few regular
 * expressions (no DOM, no SAX events per character): exceljs' streaming reader takes several times longer
 * and more memory for 100,000 × 30 cells (bench/xlsx-read.ts). Shared strings are held in memory (their part
 * may declare at most `SHARED_STRINGS_LIMIT` bytes); the sheet's rows are never all held. Cells come as Excel
 * stores them: numbers (dates are serial numbers, the caller knows which columns are dates), text, booleans.
 */

export type SheetCell = string | number | boolean | null;
/** A sheet row: its 1-based number and its cells by 0-based column. */
export type SheetRow = { row: number; cells: SheetCell[] };

/** Most bytes the shared strings part may unpack to: its strings are all held while the sheet is read. */
const SHARED_STRINGS_LIMIT = 256 * 1024 * 1024;

/**
 * The workbook at `path`, its zip checked against `limits` (F1031 for a zip bomb) and holding a workbook
 * part (F1030 for a text file renamed .xlsx, a .docx, an old .xls).
 */
export async function openWorkbook(path: string, limits: ZipLimits = WORKBOOK_LIMITS): Promise<ZipIndex> {
  const zip = await openZip(path, limits);
  if (!zip.entries.has('xl/workbook.xml') || !zip.entries.has('[Content_Types].xml'))
    throw new AppError('F1030');
  return zip;
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
  const entry = path ? zip.entries.get(path) : undefined;
  if (!path || !entry) return [];
  if (entry.size > SHARED_STRINGS_LIMIT) throw new AppError('F1031');
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

const ROW_SOURCE = /<row\b([^>]*?)(?:\/>|>([\s\S]*?)<\/row>)/.source;
const CELL = /<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/g;
const VALUE = /<v>([^<]*)<\/v>/;
const INLINE = /<is>([\s\S]*?)<\/is>/;

/** One `<c>`'s value as Excel stored it. */
function cellValue(attrs: string, inner: string, strings: readonly string[]): SheetCell {
  const type = attr(attrs, 't');
  if (type === 'inlineStr') {
    const is = INLINE.exec(inner);
    return is ? runText(is[1] as string) : null;
  }
  const v = VALUE.exec(inner);
  if (!v) return null;
  const text = v[1] as string;
  if (type === 's') return strings[Number(text)] ?? null;
  if (type === 'str' || type === 'e' || type === 'd') return unescapeXml(text);
  if (type === 'b') return text === '1';
  const n = Number(text);
  return Number.isFinite(n) ? n : unescapeXml(text);
}

/** The cells of a `<row>`'s body by 0-based column. */
function rowCells(body: string | undefined, strings: readonly string[]): SheetCell[] {
  const cells: SheetCell[] = [];
  if (!body) return cells;
  CELL.lastIndex = 0;
  let position = 0;
  for (let c = CELL.exec(body); c; c = CELL.exec(body)) {
    const attrs = c[1] as string;
    const ref = attr(attrs, 'r');
    const col = ref ? columnIndex(ref) : position;
    position = col + 1;
    const inner = c[2];
    if (inner && col >= 0) cells[col] = cellValue(attrs, inner, strings);
  }
  return cells;
}

/** The rows of the workbook's first visible sheet, in order; `onSize` gets the sheet's declared last row. */
export async function* sheetRows(
  zip: ZipIndex,
  onSize?: (lastRow: number) => void,
): AsyncGenerator<SheetRow> {
  const { sheet, strings: stringsPart } = await locate(zip);
  const strings = await sharedStrings(zip, stringsPart);
  // Its own expression: `lastIndex` must survive the yields while other reads run meanwhile.
  const ROW = new RegExp(ROW_SOURCE, 'g');
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
      const r = attr(m[1] as string, 'r');
      const row = r ? Number(r) : next;
      next = row + 1;
      yield { row, cells: rowCells(m[2], strings) };
    }
    buffer = buffer.slice(last);
  }
}
