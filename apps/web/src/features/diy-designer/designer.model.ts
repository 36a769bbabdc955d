import { DESIGN_PROBLEM_TEXTS, validateDesign } from '@shuzhi/contracts/diy-design-check';
import {
  type AnyField,
  CHOICE_TYPES,
  type FieldType,
  type FormDesign,
  type FormField,
  formDesignSchema,
  LAYOUT_TYPES,
  type Numbering,
  type SubField,
} from '@shuzhi/contracts/diy-form';
import { format, type Locale } from '@shuzhi/contracts/i18n';
import { wallClockNow } from '../../platform/time/time-zone.ts';

/**
 * The designer's pure side: the palette, new fields, edits of the design (top fields and sub-table columns),
 * the bounded undo history and the problems shown beside fields. The rules themselves come from the contracts
 * (`formDesignSchema`, `validateDesign`); nothing here re-implements them.
 */

export type PaletteGroup = {
  key: 'basic' | 'number' | 'date' | 'choice' | 'people' | 'formatted' | 'files' | 'computed' | 'layout';
  types: FieldType[];
};

/** Every field type, grouped as the palette shows them (each type exactly once). */
export const PALETTE: PaletteGroup[] = [
  { key: 'basic', types: ['text', 'textarea'] },
  { key: 'number', types: ['integer', 'decimal', 'money', 'percent'] },
  { key: 'date', types: ['date', 'datetime', 'month', 'quarter', 'year'] },
  { key: 'choice', types: ['select', 'multiSelect', 'radio', 'checkbox'] },
  { key: 'people', types: ['region', 'org', 'user', 'enterprise', 'location'] },
  { key: 'formatted', types: ['mobile', 'landline', 'idCard', 'email', 'url', 'postcode', 'licensePlate'] },
  { key: 'files', types: ['attachment', 'image', 'richText'] },
  { key: 'computed', types: ['formula', 'serialNo'] },
  { key: 'layout', types: ['subTable', 'section', 'staticText'] },
];

/** Types a sub-table column may have (no sub-table in a sub-table, no layout items). */
export const canBeColumn = (type: FieldType) => type !== 'subTable' && !LAYOUT_TYPES.includes(type);

/** Types that take the full row when added. */
const FULL_ROW: readonly FieldType[] = [
  'textarea',
  'richText',
  'subTable',
  'section',
  'staticText',
  'attachment',
  'image',
];

/** Where a field sits: a top field, or a column of a sub-table. */
export type FieldPath = { id: string; column?: string };
export const pathKey = (path: FieldPath) => (path.column ? `${path.id}.${path.column}` : path.id);
export const samePath = (a: FieldPath | null, b: FieldPath | null) =>
  !!a && !!b && a.id === b.id && a.column === b.column;

/** Every id in the design, top fields and columns (new ids avoid all of them). */
export function allIds(design: FormDesign): Set<string> {
  const ids = new Set<string>();
  for (const field of design.fields) {
    ids.add(field.id);
    for (const column of field.columns ?? []) ids.add(column.id);
  }
  return ids;
}

/** A free id for a new field of this type: `text1`, `money2`, … (lowercase, FIELD_ID_PATTERN). */
function newFieldId(type: FieldType, taken: ReadonlySet<string>): string {
  const stem = type.toLowerCase().slice(0, 20);
  for (let n = 1; ; n++) {
    const id = `${stem}${n}`;
    if (!taken.has(id)) return id;
  }
}

/** A new field of the type with sensible defaults: its label is the type's name (the caller translates). */
export function newField(
  type: FieldType,
  label: string,
  taken: ReadonlySet<string>,
  optionWord = '',
): FormField {
  const field: FormField = {
    id: newFieldId(type, taken),
    type,
    label,
    span: FULL_ROW.includes(type) ? 24 : 12,
    required: false,
    readOnly: false,
    unique: 'none',
  };
  if (CHOICE_TYPES.includes(type)) {
    field.options = {
      source: 'options',
      items: [1, 2, 3].map((n) => ({ label: `${optionWord}${n}`, value: String(n) })),
    };
  }
  if (type === 'subTable') field.columns = [];
  if (type === 'decimal' || type === 'money' || type === 'percent' || type === 'formula') field.precision = 2;
  if (type === 'formula') field.formula = '';
  if (type === 'money') field.moneyCapital = true;
  if (type === 'staticText') field.content = '';
  return field;
}

/** The field at a path (a top field or a column), if any. */
export function fieldAt(design: FormDesign, path: FieldPath | null): AnyField | undefined {
  if (!path) return undefined;
  const top = design.fields.find((f) => f.id === path.id);
  if (!path.column) return top;
  return top?.columns?.find((c) => c.id === path.column);
}

/** The design with the field at a path replaced by `patch(field)`. */
export function updateField(
  design: FormDesign,
  path: FieldPath,
  patch: (field: AnyField) => AnyField,
): FormDesign {
  return {
    ...design,
    fields: design.fields.map((field) => {
      if (field.id !== path.id) return field;
      if (!path.column) return patch(field) as FormField;
      return {
        ...field,
        columns: (field.columns ?? []).map((c) => (c.id === path.column ? (patch(c) as SubField) : c)),
      };
    }),
  };
}

/** Inserts a field at `index` of the top level, or as a column of a sub-table. */
export function insertField(design: FormDesign, field: FormField, index: number, into?: string): FormDesign {
  if (into) {
    return {
      ...design,
      fields: design.fields.map((f) => {
        if (f.id !== into) return f;
        const columns = [...(f.columns ?? [])];
        const { columns: _drop, ...column } = field;
        columns.splice(Math.max(0, Math.min(index, columns.length)), 0, column);
        return { ...f, columns };
      }),
    };
  }
  const fields = [...design.fields];
  fields.splice(Math.max(0, Math.min(index, fields.length)), 0, field);
  return { ...design, fields };
}

export function removeField(design: FormDesign, path: FieldPath): FormDesign {
  if (!path.column) return { ...design, fields: design.fields.filter((f) => f.id !== path.id) };
  return {
    ...design,
    fields: design.fields.map((f) =>
      f.id === path.id ? { ...f, columns: (f.columns ?? []).filter((c) => c.id !== path.column) } : f,
    ),
  };
}

/** Moves a top field or a column (within its sub-table) from one index to another. */
export function moveField(design: FormDesign, from: FieldPath, to: FieldPath): FormDesign {
  const move = <T extends { id: string }>(list: T[], a: string, b: string): T[] => {
    const i = list.findIndex((x) => x.id === a);
    const j = list.findIndex((x) => x.id === b);
    if (i < 0 || j < 0 || i === j) return list;
    const next = [...list];
    const [item] = next.splice(i, 1);
    next.splice(j, 0, item as T);
    return next;
  };
  if (!from.column && !to.column) return { ...design, fields: move(design.fields, from.id, to.id) };
  if (from.column && to.column && from.id === to.id) {
    return {
      ...design,
      fields: design.fields.map((f) =>
        f.id === from.id ? { ...f, columns: move(f.columns ?? [], from.column ?? '', to.column ?? '') } : f,
      ),
    };
  }
  return design;
}

/** A copy of the field right after it, with fresh ids (a sub-table's columns too). */
export function duplicateField(
  design: FormDesign,
  path: FieldPath,
  copyWord: string,
): {
  design: FormDesign;
  path: FieldPath;
} {
  const field = fieldAt(design, path);
  if (!field) return { design, path };
  const taken = allIds(design);
  const id = newFieldId(field.type, taken);
  taken.add(id);
  const copy = structuredClone(field) as FormField;
  copy.id = id;
  copy.label = `${field.label}${copyWord}`.slice(0, 128);
  if (copy.columns) {
    copy.columns = copy.columns.map((c) => {
      const cid = newFieldId(c.type, taken);
      taken.add(cid);
      return { ...c, id: cid };
    });
  }
  if (path.column) {
    const parent = design.fields.find((f) => f.id === path.id);
    const index = (parent?.columns ?? []).findIndex((c) => c.id === path.column);
    return { design: insertField(design, copy, index + 1, path.id), path: { id: path.id, column: id } };
  }
  const index = design.fields.findIndex((f) => f.id === path.id);
  return { design: insertField(design, copy, index + 1), path: { id } };
}

/** Renames a field (before it is published): the show-when rules that named it follow. */
export function renameField(design: FormDesign, path: FieldPath, next: string): FormDesign {
  const old = path.column ?? path.id;
  const renamed = updateField(design, path, (f) => ({ ...f, id: next }));
  const follow = <T extends AnyField>(f: T): T =>
    f.showWhen?.rules.some((r) => r.field === old)
      ? {
          ...f,
          showWhen: {
            ...f.showWhen,
            rules: f.showWhen.rules.map((r) => (r.field === old ? { ...r, field: next } : r)),
          },
        }
      : f;
  return {
    ...renamed,
    fields: renamed.fields.map((f) => ({
      ...follow(f),
      ...(f.columns ? { columns: f.columns.map(follow) } : {}),
    })),
  };
}

/** Ids already published (top fields and `sub.col`): their id is fixed, the data column hangs on it. */
export function publishedIds(published: FormDesign | null): Set<string> {
  const ids = new Set<string>();
  for (const field of published?.fields ?? []) {
    ids.add(field.id);
    for (const column of field.columns ?? []) ids.add(`${field.id}.${column.id}`);
  }
  return ids;
}

/**
 * Problems of the design by path (`id` or `sub.col`), in the UI language: the contract's `validateDesign`
 * plus what the design schema refuses (an empty label, a bad id, a bound out of range).
 */
export function designProblems(design: FormDesign, locale: Locale): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (key: string, text: string) => {
    const list = out.get(key) ?? [];
    if (!list.includes(text)) list.push(text);
    out.set(key, list);
  };
  for (const p of validateDesign(design)) {
    add(p.fieldId, format(DESIGN_PROBLEM_TEXTS[p.code][locale], { detail: p.detail ?? '' }));
  }
  const parsed = formDesignSchema.safeParse(design);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const [root, index, key, columnIndex] = issue.path;
      if (root !== 'fields' || typeof index !== 'number') {
        add('', `${issue.path.join('.')}: ${issue.message}`);
        continue;
      }
      const field = design.fields[index];
      if (!field) continue;
      if (key === 'columns' && typeof columnIndex === 'number') {
        const column = field.columns?.[columnIndex];
        const rest = issue.path.slice(4).join('.');
        if (column) add(`${field.id}.${column.id}`, SCHEMA_TEXT(rest, locale));
      } else {
        add(field.id, SCHEMA_TEXT(issue.path.slice(2).join('.'), locale));
      }
    }
  }
  return out;
}

const SCHEMA_TEXTS: Record<string, Record<Locale, string>> = {
  label: { 'zh-CN': '请填写字段名称', en: 'Enter the field name', 'zh-TW': '請填寫欄位名稱' },
  id: {
    'zh-CN': '字段标识须以小写字母开头，只含小写字母和数字',
    en: 'The field id must start with a lowercase letter and hold only lowercase letters and digits',
    'zh-TW': '欄位標識須以小寫字母開頭，只含小寫字母和數字',
  },
};
function SCHEMA_TEXT(key: string, locale: Locale): string {
  const head = key.split('.')[0] ?? '';
  const known = SCHEMA_TEXTS[head];
  if (known) return known[locale];
  const generic: Record<Locale, string> = {
    'zh-CN': `设置“${head}”超出允许范围`,
    en: `The setting “${head}” is out of range`,
    'zh-TW': `設定「${head}」超出允許範圍`,
  };
  return generic[locale];
}

/** A sample record number of the numbering (`HP20261122` + `0001`). */
export function sampleNumber(numbering: Numbering | null | undefined, today = wallClockNow()): string {
  const n = numbering ?? { prefix: '', datePart: 'yyyyMMdd' as const, digits: 4 };
  const y = String(today.year);
  const m = String(today.month).padStart(2, '0');
  const d = String(today.day).padStart(2, '0');
  const date = { none: '', yyyy: y, yyyyMM: `${y}${m}`, yyyyMMdd: `${y}${m}${d}` }[n.datePart ?? 'yyyyMMdd'];
  return `${n.prefix ?? ''}${date}${'1'.padStart(n.digits ?? 4, '0')}`;
}

/** Bounded undo history of the design; edits with the same `mergeKey` in a row become one step (typing). */
export const HISTORY_LIMIT = 100;
export type History = {
  past: FormDesign[];
  present: FormDesign;
  future: FormDesign[];
  mergeKey: string | null;
};

export const startHistory = (design: FormDesign): History => ({
  past: [],
  present: design,
  future: [],
  mergeKey: null,
});

export function pushHistory(h: History, next: FormDesign, mergeKey: string | null = null): History {
  if (next === h.present) return h;
  if (mergeKey && mergeKey === h.mergeKey) return { ...h, present: next, future: [] };
  const past = [...h.past, h.present].slice(-HISTORY_LIMIT);
  return { past, present: next, future: [], mergeKey };
}

export function undoHistory(h: History): History {
  const previous = h.past[h.past.length - 1];
  if (!previous) return h;
  return { past: h.past.slice(0, -1), present: previous, future: [h.present, ...h.future], mergeKey: null };
}

export function redoHistory(h: History): History {
  const [next, ...rest] = h.future;
  if (!next) return h;
  return { past: [...h.past, h.present].slice(-HISTORY_LIMIT), present: next, future: rest, mergeKey: null };
}

/** JSON with sorted keys and without unset values, to compare designs whatever their key order. */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined && v !== null)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([k, v]) => [k, stable(v)]),
    );
  }
  return value;
}

/** Whether two designs are the same once the schema's defaults are applied (draft vs published). */
export function sameDesign(a: FormDesign | null, b: FormDesign | null): boolean {
  if (!a || !b) return a === b;
  const norm = (d: FormDesign) => {
    const parsed = formDesignSchema.safeParse(d);
    return JSON.stringify(stable(parsed.success ? parsed.data : d));
  };
  return norm(a) === norm(b);
}
