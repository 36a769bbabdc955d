import {
  CHOICE_TYPES,
  DATE_TYPES,
  FILE_TYPES,
  type FormField,
  LAYOUT_TYPES,
  NUMBER_TYPES,
  PICKER_TYPES,
} from '@shuzhi/contracts/diy-form';
import type { recordFilterSchema } from '@shuzhi/contracts/diy-table';
import type { z } from 'zod';

export type RecordFilter = z.input<typeof recordFilterSchema>;
type FilterOp = RecordFilter['op'];
/** The operators the filter builder offers: `prefix` only comes from the URL (the roll-up drill-down). */
export type BuilderOp = Exclude<FilterOp, 'prefix'>;

/** How a field is filtered: the widget of the value and the operators that make sense for it. */
export type FilterKind = 'text' | 'number' | 'date' | 'choice' | 'picker' | 'region' | 'presence';

export function filterKindOf(field: FormField): FilterKind | null {
  const type = field.type;
  if (LAYOUT_TYPES.includes(type)) return null;
  if (NUMBER_TYPES.includes(type) || type === 'formula') return 'number';
  if (DATE_TYPES.includes(type)) return 'date';
  if (CHOICE_TYPES.includes(type)) return 'choice';
  if (PICKER_TYPES.includes(type)) return 'picker';
  if (type === 'region') return 'region';
  if (FILE_TYPES.includes(type) || type === 'subTable') return 'presence';
  return 'text';
}

export const OPS_BY_KIND: Record<FilterKind, readonly BuilderOp[]> = {
  text: ['contains', 'eq', 'empty', 'notEmpty'],
  number: ['between', 'eq', 'gte', 'lte', 'empty', 'notEmpty'],
  date: ['between', 'eq', 'gte', 'lte', 'empty', 'notEmpty'],
  choice: ['in', 'empty', 'notEmpty'],
  picker: ['in', 'empty', 'notEmpty'],
  region: ['eq', 'empty', 'notEmpty'],
  presence: ['notEmpty', 'empty'],
};

/** A filter row as the builder edits it (the value may still be incomplete). */
export type FilterDraft = { key: number; field: string; op: BuilderOp; value?: unknown };

const NO_VALUE: readonly BuilderOp[] = ['empty', 'notEmpty'];

const blank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

/** A picked date as the form stores it, widened to whole days for datetimes (from 00:00:00, to 23:59:59). */
function dateBound(field: FormField, value: unknown, end: 'from' | 'to'): string | null {
  if (blank(value)) return null;
  const text = String(value).trim();
  if (field.type === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(text)) {
    return `${text} ${end === 'from' ? '00:00:00' : '23:59:59'}`;
  }
  return text;
}

/**
 * The filters the server gets (`recordFilterSchema`): incomplete rows and fields no longer in the design are
 * dropped, numbers become numbers, date ranges are widened to whole days on datetimes, a one-sided range
 * becomes gte / lte.
 */
export function buildFilters(drafts: readonly FilterDraft[], fields: readonly FormField[]): RecordFilter[] {
  const out: RecordFilter[] = [];
  for (const draft of drafts) {
    const field = fields.find((f) => f.id === draft.field);
    const kind = field ? filterKindOf(field) : null;
    if (!field || !kind || !OPS_BY_KIND[kind].includes(draft.op)) continue;
    if (NO_VALUE.includes(draft.op)) {
      out.push({ field: field.id, op: draft.op });
      continue;
    }
    const value = draft.value;
    if (kind === 'number') {
      const num = (v: unknown) => (blank(v) || !Number.isFinite(Number(v)) ? null : Number(v));
      if (draft.op === 'between') {
        const [from, to] = Array.isArray(value) ? value.map(num) : [null, null];
        if (from === null && to === null) continue;
        if (from !== null && to !== null) out.push({ field: field.id, op: 'between', value: [from, to] });
        else if (from !== null) out.push({ field: field.id, op: 'gte', value: from });
        else out.push({ field: field.id, op: 'lte', value: to });
      } else {
        const n = num(value);
        if (n !== null) out.push({ field: field.id, op: draft.op, value: n });
      }
      continue;
    }
    if (kind === 'date') {
      if (draft.op === 'between') {
        const [a, b] = Array.isArray(value) ? value : [null, null];
        const from = dateBound(field, a, 'from');
        const to = dateBound(field, b, 'to');
        if (from === null && to === null) continue;
        if (from !== null && to !== null) out.push({ field: field.id, op: 'between', value: [from, to] });
        else if (from !== null) out.push({ field: field.id, op: 'gte', value: from });
        else out.push({ field: field.id, op: 'lte', value: to });
      } else {
        const bound = dateBound(field, value, draft.op === 'lte' ? 'to' : 'from');
        if (bound === null) continue;
        // A whole day on a datetime field: "on" that day is the range of the day.
        if (field.type === 'datetime' && draft.op === 'eq' && /^\d{4}-\d{2}-\d{2}$/.test(String(value))) {
          out.push({ field: field.id, op: 'between', value: [bound, dateBound(field, value, 'to')] });
        } else out.push({ field: field.id, op: draft.op, value: bound });
      }
      continue;
    }
    if (draft.op === 'in') {
      const list = (Array.isArray(value) ? value : blank(value) ? [] : [value]).filter((v) => !blank(v));
      if (list.length === 0) continue;
      out.push({ field: field.id, op: 'in', value: kind === 'picker' ? list.map(Number) : list.map(String) });
      continue;
    }
    if (blank(value)) continue;
    out.push({ field: field.id, op: draft.op, value: String(value).trim() });
  }
  return out;
}

/** Query keys of the record list's URL that filter it (not presets of new records' fields). */
export const URL_QUERY_KEYS: readonly string[] = ['periodId', 'orgId', 'orgOwn', 'orgName', 'filter'];

/** Operators a `filter=<field>:<op>:<value>` query may carry. */
const URL_OPS: readonly FilterOp[] = ['prefix', 'eq', 'contains'];

/**
 * Filters from the URL (`filter=<fieldId>:prefix:<code>`, as the roll-up drill-down opens the list; also `eq`
 * and `contains`). Fields not in the design, other operators and empty values are ignored. `raw` is the query
 * value, to remove the filter again.
 */
export function parseUrlFilters(
  raws: readonly string[],
  fields: readonly Pick<FormField, 'id'>[],
): (RecordFilter & { raw: string })[] {
  const out: (RecordFilter & { raw: string })[] = [];
  for (const raw of raws) {
    const first = raw.indexOf(':');
    const second = first < 0 ? -1 : raw.indexOf(':', first + 1);
    if (second < 0) continue;
    const field = raw.slice(0, first);
    const op = raw.slice(first + 1, second) as FilterOp;
    const value = raw.slice(second + 1).trim();
    if (!value || !URL_OPS.includes(op) || !fields.some((f) => f.id === field)) continue;
    if (out.some((f) => f.raw === raw)) continue;
    out.push({ field, op, value, raw });
  }
  return out;
}
