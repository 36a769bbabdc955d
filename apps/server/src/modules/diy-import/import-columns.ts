import {
  type AnyField,
  DATE_TYPES,
  FILE_TYPES,
  type FormDesign,
  SERVER_VALUE_TYPES,
} from '@shuzhi/contracts/diy-form';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { SheetCell } from '../../platform/xlsx/sheet-read.ts';
import { type LedgerColumn, ledgerColumns, SYSTEM_HEADERS } from '../diy-ledger/ledger-columns.ts';

/**
 * Which columns of a workbook hold which fields. The template and the ledger share one layout
 * (`ledgerColumns`): a field's label, under its section's title or its sub-table's label when the sheet
 * has two header rows. A sheet's header is read both ways (one row; two rows with the group carried over
 * merged cells) and the reading that matches more fields wins. Sub-table columns may also be headed
 * `子表/列`. The ledger's system columns (编号, 状态, …) are known and skipped without a word.
 */

export type FieldColumn = LedgerColumn & { kind: 'field' | 'sub' };

/** Columns a file can fill: not formulas or serial numbers (the server sets them), not files. */
export function importable(field: AnyField): boolean {
  return !SERVER_VALUE_TYPES.includes(field.type) && !FILE_TYPES.includes(field.type);
}

export function templateColumns(design: FormDesign, locale: Locale): FieldColumn[] {
  return ledgerColumns(design, locale).filter(
    (c): c is FieldColumn => c.kind !== 'system' && importable(c.field),
  );
}

const SYSTEM_NAMES = new Set(Object.values(SYSTEM_HEADERS).flatMap((h) => Object.values(h)));
const DATA_NO_NAMES = new Set(Object.values(SYSTEM_HEADERS.dataNo));

export const headerText = (cell: SheetCell | undefined): string =>
  cell === null || cell === undefined
    ? ''
    : String(cell)
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^\*|\*$/g, '')
        .trim();

export type Mapping = {
  /** Header rows (1 or 2). */
  headerRows: number;
  /** Sheet column → the field it fills. */
  byColumn: Map<number, FieldColumn>;
  extra: string[];
  missing: string[];
  /** The header rows as read (for the error workbook). */
  header: SheetCell[][];
  /** The ledger's 编号 column, when present: lines repeating a number continue that record. */
  dataNoColumn: number | null;
};

function mapWith(
  columns: readonly FieldColumn[],
  width: number,
  nameAt: (c: number) => { group: string; label: string },
): { byColumn: Map<number, FieldColumn>; extra: string[]; dataNo: number | null } {
  const byPair = new Map<string, FieldColumn>();
  const byLabel = new Map<string, FieldColumn[]>();
  for (const column of columns) {
    if (column.group !== null) byPair.set(`${column.group}\u0000${column.header}`, column);
    byPair.set(`${column.kind === 'sub' ? `${column.group}/${column.header}` : column.header}\u0000`, column);
    const list = byLabel.get(column.header) ?? [];
    list.push(column);
    byLabel.set(column.header, list);
  }
  const used = new Set<FieldColumn>();
  const byColumn = new Map<number, FieldColumn>();
  const extra: string[] = [];
  let dataNo: number | null = null;
  for (let c = 0; c < width; c++) {
    const { group, label } = nameAt(c);
    if (!label) continue;
    const slash = label.includes('/') ? byPair.get(`${label}\u0000`) : undefined;
    const candidates = byLabel.get(label) ?? [];
    const found =
      byPair.get(`${group}\u0000${label}`) ??
      slash ??
      (candidates.length === 1 ? candidates[0] : candidates.find((x) => !used.has(x)));
    if (found && !used.has(found)) {
      used.add(found);
      byColumn.set(c, found);
    } else if (SYSTEM_NAMES.has(label)) {
      if (dataNo === null && DATA_NO_NAMES.has(label)) dataNo = c;
    } else extra.push(group && group !== label ? `${group}/${label}` : label);
  }
  return { byColumn, extra, dataNo };
}

/** Maps the header rows of a sheet to the design's columns (`first`, `second`: the first two rows). */
export function mapHeader(
  design: FormDesign,
  locale: Locale,
  first: SheetCell[],
  second: SheetCell[] | null,
): Mapping {
  const columns = templateColumns(design, locale);
  const width = Math.max(first.length, second?.length ?? 0);
  const one = mapWith(columns, width, (c) => ({ group: '', label: headerText(first[c]) }));
  let two: ReturnType<typeof mapWith> | null = null;
  if (second) {
    const groups: string[] = [];
    let carried = '';
    for (let c = 0; c < width; c++) {
      const top = headerText(first[c]);
      if (top) carried = top;
      else if (!headerText(second[c])) carried = '';
      groups.push(top || carried);
    }
    two = mapWith(columns, width, (c) => {
      const bottom = headerText(second[c]);
      return bottom ? { group: groups[c] ?? '', label: bottom } : { group: '', label: headerText(first[c]) };
    });
  }
  const useTwo = two !== null && two.byColumn.size > one.byColumn.size;
  const chosen = useTwo && two ? two : one;
  const mapped = new Set(chosen.byColumn.values());
  const missing = columns
    .filter((c) => c.kind === 'field' && c.field.required && !mapped.has(c))
    .map((c) => c.header);
  return {
    headerRows: useTwo ? 2 : 1,
    byColumn: chosen.byColumn,
    extra: chosen.extra,
    missing,
    header: useTwo && second ? [first, second] : [first],
    dataNoColumn: chosen.dataNo,
  };
}

export const isDateField = (field: AnyField) =>
  DATE_TYPES.includes(field.type) && field.type !== 'quarter' && field.type !== 'year';
