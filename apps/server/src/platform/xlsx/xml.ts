/** XML text and cell-reference helpers shared by the .xlsx reader and writer. */

// biome-ignore lint/suspicious/noControlCharactersInRegex: characters XML 1.0 cannot carry.
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text for an XML attribute or element: characters XML cannot hold are dropped, markup escaped. */
export const escapeXml = (text: string) =>
  text
    .replace(INVALID_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

const ENTITY = /&(?:#x([0-9a-fA-F]+)|#(\d+)|(amp|lt|gt|quot|apos));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const EXCEL_ESCAPE = /_x([0-9A-Fa-f]{4})_/g;

/** XML entities and Excel's `_xHHHH_` escapes back to characters. */
export function unescapeXml(text: string): string {
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

/** `A`, `B`, … `Z`, `AA`, … for a 1-based column number. */
export function columnLetter(n: number): string {
  let out = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) out = String.fromCharCode(65 + ((k - 1) % 26)) + out;
  return out;
}

/** 0-based column of a cell reference (`AB12` → 27), or -1. */
export function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) break;
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/** Days from Excel's epoch (1899-12-30) to 1970-01-01. */
const EXCEL_EPOCH_DAYS = 25_569;

/** An Excel date serial (days since 1899-12-30, UTC: Excel dates carry no zone). */
export const excelSerial = (date: Date) => date.getTime() / 86_400_000 + EXCEL_EPOCH_DAYS;
