import {
  type AnyField,
  CHOICE_TYPES,
  FILE_TYPES,
  type FormDesign,
  type FormField,
  LAYOUT_TYPES,
} from '@shuzhi/contracts/diy-form';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';

/**
 * The columns of an Excel ledger (issue 6 §3): five system columns, then every value field of the form's
 * published design in design order. A field after a section carries the section's title as its group; a
 * sub-table's columns carry the sub-table's label. With any group the sheet has two header rows (the group
 * over its columns, an ungrouped header spans both rows); without, one.
 */

export type LedgerCell = string | number | Date | null;

export type SystemKey = 'dataNo' | 'status' | 'period' | 'createUserName' | 'createOrgName' | 'submitTime';

export type LedgerColumn =
  | { kind: 'system'; key: SystemKey; header: string; group: null; width: number; numFmt?: string }
  | { kind: 'field'; field: AnyField; header: string; group: string | null; width: number; numFmt?: string }
  | {
      kind: 'sub';
      table: FormField;
      field: AnyField;
      header: string;
      group: string;
      width: number;
      numFmt?: string;
    };

/** The ledger's own columns (the import knows them and skips them); 填报周期 only for periodic forms. */
export const SYSTEM_HEADERS: Record<SystemKey, Localized> = {
  dataNo: { 'zh-CN': '编号', en: 'No.', 'zh-TW': '編號' },
  status: { 'zh-CN': '状态', en: 'Status', 'zh-TW': '狀態' },
  period: { 'zh-CN': '填报周期', en: 'Period', 'zh-TW': '填報週期' },
  createUserName: { 'zh-CN': '填报人', en: 'Filed by', 'zh-TW': '填報人' },
  createOrgName: { 'zh-CN': '填报单位', en: 'Org', 'zh-TW': '填報單位' },
  submitTime: { 'zh-CN': '提交时间', en: 'Submitted', 'zh-TW': '提交時間' },
};

export const STATUS_LABELS: Record<number, Localized> = {
  0: { 'zh-CN': '草稿', en: 'Draft', 'zh-TW': '草稿' },
  1: { 'zh-CN': '已提交', en: 'Submitted', 'zh-TW': '已提交' },
  2: { 'zh-CN': '已审核', en: 'Approved', 'zh-TW': '已審核' },
  3: { 'zh-CN': '已退回', en: 'Returned', 'zh-TW': '已退回' },
};

export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATETIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';
export const MONTH_FORMAT = 'yyyy-mm';

/** The Excel number format of a field's cells (undefined: general / text). */
export function numFmtOf(field: AnyField): string | undefined {
  const places = field.precision ?? 2;
  const decimals = places > 0 ? `.${'0'.repeat(places)}` : '';
  switch (field.type) {
    case 'integer':
    case 'year':
      return '0';
    case 'money':
      return '#,##0.00';
    case 'decimal':
    case 'formula':
      return `0${decimals}`;
    case 'percent':
      return `0${decimals}"%"`;
    case 'date':
      return DATE_FORMAT;
    case 'datetime':
      return DATETIME_FORMAT;
    case 'month':
      return MONTH_FORMAT;
    default:
      return undefined;
  }
}

function widthOf(field: AnyField, header: string): number {
  const base = Math.max(10, header.length * 2 + 2);
  if (field.type === 'datetime') return Math.max(base, 20);
  if (field.type === 'textarea' || field.type === 'richText' || field.type === 'region')
    return Math.max(base, 30);
  if (CHOICE_TYPES.includes(field.type) || FILE_TYPES.includes(field.type)) return Math.max(base, 16);
  return Math.min(base, 40);
}

export function ledgerColumns(design: FormDesign, locale: Locale, periodic = false): LedgerColumn[] {
  const keys = (Object.keys(SYSTEM_HEADERS) as SystemKey[]).filter((key) => periodic || key !== 'period');
  const columns: LedgerColumn[] = keys.map((key) => ({
    kind: 'system',
    key,
    header: SYSTEM_HEADERS[key][locale],
    group: null,
    width: key === 'submitTime' ? 20 : key === 'createOrgName' ? 24 : key === 'period' ? 16 : 14,
    ...(key === 'submitTime' ? { numFmt: DATETIME_FORMAT } : {}),
  }));
  let section: string | null = null;
  for (const field of design.fields) {
    if (field.type === 'section') {
      section = field.label;
      continue;
    }
    if (LAYOUT_TYPES.includes(field.type)) continue;
    if (field.type === 'subTable') {
      for (const sub of field.columns ?? []) {
        if (LAYOUT_TYPES.includes(sub.type)) continue;
        columns.push({
          kind: 'sub',
          table: field,
          field: sub,
          header: sub.label,
          group: field.label,
          width: widthOf(sub, sub.label),
          ...withFmt(sub),
        });
      }
      continue;
    }
    columns.push({
      kind: 'field',
      field,
      header: field.label,
      group: section,
      width: widthOf(field, field.label),
      ...withFmt(field),
    });
  }
  return columns;
}

function withFmt(field: AnyField): { numFmt?: string } {
  const numFmt = numFmtOf(field);
  return numFmt ? { numFmt } : {};
}

/** Header rows: one, or two when a column has a group; merges as [top, left, bottom, right] (1-based). */
export function headerLayout(columns: readonly LedgerColumn[]): {
  rows: string[][];
  merges: [number, number, number, number][];
} {
  if (!columns.some((c) => c.group !== null)) return { rows: [columns.map((c) => c.header)], merges: [] };
  const top: string[] = [];
  const bottom: string[] = [];
  const merges: [number, number, number, number][] = [];
  let i = 0;
  while (i < columns.length) {
    const column = columns[i] as LedgerColumn;
    if (column.group === null) {
      top.push(column.header);
      bottom.push('');
      merges.push([1, i + 1, 2, i + 1]);
      i++;
      continue;
    }
    let end = i;
    const sameGroup = (c: LedgerColumn | undefined) =>
      c !== undefined &&
      c.group === column.group &&
      c.kind === column.kind &&
      (c.kind !== 'sub' || column.kind !== 'sub' || c.table.id === column.table.id);
    while (sameGroup(columns[end + 1])) end++;
    for (let k = i; k <= end; k++) {
      top.push(k === i ? column.group : '');
      bottom.push((columns[k] as LedgerColumn).header);
    }
    if (end > i) merges.push([1, i + 1, 1, end + 1]);
    i = end + 1;
  }
  return { rows: [top, bottom], merges };
}
