/** A worksheet reduced to what the grid draws: formatted cell texts and merged areas. */
export type SheetModel = {
  name: string;
  /** Formatted texts by row, `columns` wide; '' for empty cells. */
  rows: string[][];
  columns: number;
  /** Column letters (A, B, … AA) for the header row. */
  letters: string[];
  merges: { row: number; col: number; rows: number; cols: number }[];
  /** `row:col` of number and date cells, drawn right-aligned as in Excel. */
  numeric: string[];
  /** Rows or columns beyond the drawn part (the grid stays usable on huge sheets). */
  clipped: boolean;
};

export const MAX_ROWS = 2000;
export const MAX_COLUMNS = 200;

/** The bytes of a blob (FileReader: also where Blob#arrayBuffer is missing). */
export function blobBytes(blob: Blob): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(blob);
  });
}

/**
 * Reads an xlsx or xls workbook with SheetJS (`@e965/xlsx`, loaded on first use as its own chunk).
 * Throws when the bytes are not a workbook it can read.
 */
export async function readWorkbook(data: ArrayBuffer): Promise<SheetModel[]> {
  const XLSX = await import('@e965/xlsx');
  const workbook = XLSX.read(new Uint8Array(data), { type: 'array', cellDates: true, dense: false });
  if (!workbook.SheetNames.length) throw new Error('no sheets');
  return workbook.SheetNames.map((name) => {
    const sheet = workbook.Sheets[name];
    const ref = sheet?.['!ref'];
    if (!sheet || !ref) {
      return { name, rows: [], columns: 0, letters: [], merges: [], numeric: [], clipped: false };
    }
    const range = XLSX.utils.decode_range(ref);
    const lastRow = Math.min(range.e.r, MAX_ROWS - 1);
    const lastCol = Math.min(range.e.c, MAX_COLUMNS - 1);
    const columns = lastCol + 1;
    const rows: string[][] = [];
    const numeric: string[] = [];
    for (let r = 0; r <= lastRow; r++) {
      const row: string[] = [];
      for (let c = 0; c <= lastCol; c++) {
        const cell = sheet[XLSX.utils.encode_cell({ r, c })];
        row.push(cell ? XLSX.utils.format_cell(cell) : '');
        if (cell && (cell.t === 'n' || cell.t === 'd')) numeric.push(`${r}:${c}`);
      }
      rows.push(row);
    }
    const merges = (sheet['!merges'] ?? [])
      .filter((m) => m.s.r <= lastRow && m.s.c <= lastCol)
      .map((m) => ({
        row: m.s.r,
        col: m.s.c,
        rows: Math.min(m.e.r, lastRow) - m.s.r + 1,
        cols: Math.min(m.e.c, lastCol) - m.s.c + 1,
      }));
    const letters = Array.from({ length: columns }, (_, c) => XLSX.utils.encode_col(c));
    return {
      name,
      rows,
      columns,
      letters,
      merges,
      numeric,
      clipped: range.e.r > lastRow || range.e.c > lastCol,
    };
  });
}
