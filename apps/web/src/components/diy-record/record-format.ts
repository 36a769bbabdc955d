import {
  type AnyField,
  CHOICE_TYPES,
  FILE_TYPES,
  type FormField,
  locationText,
  NUMBER_TYPES,
} from '@shuzhi/contracts/diy-form';
import { formatThousands } from '@shuzhi/contracts/formatters';

/** Texts the summaries need, in the reader's language. */
export type SummaryWords = {
  rows: (count: number) => string;
  files: (count: number) => string;
  /** Between the items of a list: 、 in Chinese, a comma in English. */
  separator: string;
};

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** Plain text of rich text (tags dropped, entities of the editor decoded, spaces collapsed). */
function plainText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d)\s*\/?>/gi, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A number as the form shows it: the field's decimal places, thousands in money, a percent sign. */
function numberText(field: AnyField, value: unknown): string {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n) || (typeof value === 'string' && value.trim() === '')) return '';
  const places = field.type === 'integer' ? 0 : (field.precision ?? 2);
  const fixed = n.toFixed(places);
  if (field.type === 'money' || field.type === 'formula') return formatThousands(fixed);
  if (field.type === 'percent') return `${fixed}%`;
  return fixed;
}

const RICH_TEXT_CHARS = 60;

/**
 * One value as a single line of text (list cells, column widths, history): the server's display label for
 * coded values, numbers formatted, files and sub-tables summarised by count, rich text as its first words.
 */
export function valueText(
  field: AnyField | undefined,
  value: unknown,
  label: string | undefined,
  words: SummaryWords,
): string {
  if (isEmpty(value)) return '';
  if (label) return label;
  if (!field) return typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (field.type === 'subTable') return words.rows(Array.isArray(value) ? value.length : 0);
  if (FILE_TYPES.includes(field.type)) return words.files(Array.isArray(value) ? value.length : 1);
  if (field.type === 'richText') {
    const text = plainText(String(value));
    return text.length > RICH_TEXT_CHARS ? `${text.slice(0, RICH_TEXT_CHARS)}…` : text;
  }
  if (field.type === 'location') return locationText(value);
  if (NUMBER_TYPES.includes(field.type) || field.type === 'formula') return numberText(field, value);
  if (CHOICE_TYPES.includes(field.type) || Array.isArray(value)) {
    // Options of the design answer their labels (history has no server labels); dictionary codes stay.
    const items = field.options?.source === 'options' ? field.options.items : [];
    const text = (v: unknown) => items.find((o) => String(o.value) === String(v))?.label ?? String(v);
    return (Array.isArray(value) ? value : [value]).map(text).join(words.separator);
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The field a history change names: a top-level id, or `sub[2].col` / `sub.col` inside a sub-table. */
export function fieldOfChange(fields: readonly FormField[], path: string): AnyField | undefined {
  const m = /^([a-z][a-z0-9]*)(?:(?:\[\d+\])?\.([a-z][a-z0-9]*))?$/.exec(path);
  if (!m) return undefined;
  const field = fields.find((f) => f.id === m[1]);
  return m[2] ? field?.columns?.find((c) => c.id === m[2]) : field;
}
