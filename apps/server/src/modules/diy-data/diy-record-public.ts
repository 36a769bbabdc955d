import type { FormField, RecordValues, SubField } from '@shuzhi/contracts/diy-form';

/**
 * A record as a stranger sees it, for the login-free pages (row confirmation, docs/no-login.md): the fields'
 * kinds, labels and layout without rules, formulas or defaults, and looked-up values as their labels.
 */

/**
 * Kinds whose display needs a signed-in lookup (names of orgs, users, regions; files): on the no-login page
 * they are shown as text, the record's labels standing in for the value.
 */
export const SHOWN_AS_TEXT: readonly FormField['type'][] = [
  'org',
  'user',
  'enterprise',
  'region',
  'attachment',
  'image',
];

/** What a field may show a stranger: its kind, label, layout and value display; no rules, formulas or defaults. */
export function publicField<F extends FormField | SubField>(field: F): F {
  const asText = SHOWN_AS_TEXT.includes(field.type);
  return {
    id: field.id,
    type: asText ? 'text' : field.type,
    label: field.label,
    span: field.span,
    required: false,
    readOnly: true,
    unique: 'none',
    options: field.options ?? null,
    multiple: asText ? null : (field.multiple ?? null),
    precision: field.precision ?? null,
    moneyCapital: field.moneyCapital ?? null,
    showWhen: field.showWhen ?? null,
    ...('columns' in field ? { columns: field.columns ? field.columns.map(publicField) : null } : {}),
  } as F;
}

const textOf = (value: unknown): string | null =>
  value === null || value === undefined
    ? null
    : Array.isArray(value)
      ? value.map(String).join('、')
      : String(value);

/** The values as the public design shows them: looked-up kinds become their labels (ids inside sub-tables). */
export function publicValues(
  fields: readonly FormField[],
  values: RecordValues,
  labels: Record<string, string>,
): RecordValues {
  const out: RecordValues = {};
  for (const field of fields) {
    const value = values[field.id];
    if (SHOWN_AS_TEXT.includes(field.type)) out[field.id] = labels[field.id] ?? textOf(value);
    else if (field.type === 'subTable' && Array.isArray(value)) {
      const columns = (field.columns ?? []).filter((c) => SHOWN_AS_TEXT.includes(c.type));
      out[field.id] = value.map((row: RecordValues) => {
        const copy = { ...row };
        for (const c of columns) copy[c.id] = textOf(row?.[c.id]);
        return copy;
      });
    } else out[field.id] = value;
  }
  return out;
}

/**
 * The design a stranger fills: the value fields whose input needs no signed-in lookup (no org, user,
 * enterprise, region or file fields, none inside sub-tables either), with their rules.
 */
export function fillableFields(fields: readonly FormField[]): FormField[] {
  return fields
    .filter((field) => !SHOWN_AS_TEXT.includes(field.type))
    .map((field) =>
      field.type === 'subTable' && field.columns
        ? { ...field, columns: field.columns.filter((c) => !SHOWN_AS_TEXT.includes(c.type)) }
        : field,
    );
}

/** Only the values of `fields` (own keys; sub-table rows keep their fillable columns only). */
export function fillableValues(fields: readonly FormField[], values: RecordValues): RecordValues {
  const out: RecordValues = {};
  for (const field of fields) {
    if (!Object.hasOwn(values, field.id)) continue;
    const value = values[field.id];
    if (field.type === 'subTable' && Array.isArray(value)) {
      const columns = (field.columns ?? []).map((c) => c.id);
      out[field.id] = value.map((row: unknown) => {
        const copy: RecordValues = {};
        if (row && typeof row === 'object') {
          for (const id of columns) if (Object.hasOwn(row, id)) copy[id] = (row as RecordValues)[id];
        }
        return copy;
      });
    } else out[field.id] = value;
  }
  return out;
}
