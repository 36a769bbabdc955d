import { z } from 'zod';

/**
 * The report-form model (issue 5 §1): what a form's design holds, shared by the designer, the filling page
 * and the server. A design is a list of fields on a 24-column grid; each field has a stable `id` (the
 * physical column is derived from it, so renaming a field never touches the data), a type and its rules.
 * `validateRecord` in `diy-validate.ts` applies the rules the same way in the browser and on the server.
 */

/** Report types of SPEC §2 (only 1 is built by the forms issue). */
export const REPORT_TYPE = { form: 1, load2: 2, load3: 3, load4: 4, screen: 6, word: 7 } as const;

export const FIELD_TYPES = [
  // text and numbers
  'text',
  'textarea',
  'integer',
  'decimal',
  'money',
  'percent',
  // dates
  'date',
  'datetime',
  'month',
  'quarter',
  'year',
  // choices
  'select',
  'multiSelect',
  'radio',
  'checkbox',
  // pickers
  'region',
  'org',
  'user',
  'enterprise',
  // formatted text (SPEC §5 validators)
  'mobile',
  'landline',
  'idCard',
  'email',
  'url',
  'postcode',
  'licensePlate',
  // files and rich content
  'attachment',
  'image',
  'richText',
  // computed and structural
  'formula',
  'subTable',
  'serialNo',
  'section',
  'staticText',
  // place (issue 22 §3)
  'location',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Types that only lay the form out: no value, no column. */
export const LAYOUT_TYPES: readonly FieldType[] = ['section', 'staticText'];
/** Types whose value the server sets (never taken from the client). */
export const SERVER_VALUE_TYPES: readonly FieldType[] = ['formula', 'serialNo'];
export const NUMBER_TYPES: readonly FieldType[] = ['integer', 'decimal', 'money', 'percent'];
export const DATE_TYPES: readonly FieldType[] = ['date', 'datetime', 'month', 'quarter', 'year'];
export const CHOICE_TYPES: readonly FieldType[] = ['select', 'multiSelect', 'radio', 'checkbox'];
export const MULTI_CHOICE_TYPES: readonly FieldType[] = ['multiSelect', 'checkbox'];
export const PICKER_TYPES: readonly FieldType[] = ['org', 'user', 'enterprise'];
export const FILE_TYPES: readonly FieldType[] = ['attachment', 'image'];
/** Formatted single-line text with a SPEC §5 check. */
export const FORMATTED_TYPES: readonly FieldType[] = [
  'mobile',
  'landline',
  'idCard',
  'email',
  'url',
  'postcode',
  'licensePlate',
];

/** How a value is stored in the form's table (a type change across kinds adds a new column). */
export type StorageKind = 'text' | 'integer' | 'decimal' | 'json' | 'none';
export function storageKindOf(type: FieldType, multiple = false): StorageKind {
  if (LAYOUT_TYPES.includes(type)) return 'none';
  if (type === 'integer') return 'integer';
  if (type === 'decimal' || type === 'money' || type === 'percent' || type === 'formula') return 'decimal';
  if (
    MULTI_CHOICE_TYPES.includes(type) ||
    FILE_TYPES.includes(type) ||
    type === 'subTable' ||
    type === 'location'
  )
    return 'json';
  if (PICKER_TYPES.includes(type)) return multiple ? 'json' : 'integer';
  return 'text';
}

export const FIELD_ID_PATTERN = /^[a-z][a-z0-9]{0,23}$/;
const fieldIdSchema = z.string().regex(FIELD_ID_PATTERN);

const optionSchema = z.object({
  label: z.string().trim().min(1).max(128),
  value: z.string().trim().min(1).max(64),
});
export type FieldOption = z.infer<typeof optionSchema>;

/** Where a choice field's options come from: its own list, or a dictionary by code. */
const optionsSourceSchema = z.discriminatedUnion('source', [
  z.object({ source: z.literal('options'), items: z.array(optionSchema).min(1).max(500) }),
  z.object({ source: z.literal('dict'), dictCode: z.string().trim().min(1).max(64) }),
]);
export type OptionsSource = z.infer<typeof optionsSourceSchema>;

/** A field's default on a new record. */
export const DEFAULT_KINDS = [
  'none',
  'constant',
  'fillerOrg',
  'fillerRegion',
  'fillerName',
  'today',
  /** The first day of the period the record is filed in (today on a form without periods). */
  'period',
] as const;
const fieldDefaultSchema = z.object({
  kind: z.enum(DEFAULT_KINDS),
  value: z.unknown().optional(),
});

export const CONDITION_OPS = [
  'eq',
  'ne',
  'in',
  'notIn',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'empty',
  'notEmpty',
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** "Show when": the field shows (and counts) only while the rules hold. */
const showWhenSchema = z.object({
  logic: z.enum(['and', 'or']).default('and'),
  rules: z
    .array(
      z.object({
        field: fieldIdSchema,
        op: z.enum(CONDITION_OPS),
        value: z.unknown().optional(),
      }),
    )
    .min(1)
    .max(20),
});
export type ShowWhen = z.infer<typeof showWhenSchema>;

export const UNIQUE_SCOPES = ['none', 'form', 'period'] as const;

const fieldBase = {
  id: fieldIdSchema,
  type: z.enum(FIELD_TYPES),
  label: z.string().trim().min(1).max(128),
  /** Grid columns out of 24. */
  span: z.number().int().min(1).max(24).default(24),
  required: z.boolean().default(false),
  readOnly: z.boolean().default(false),
  unique: z.enum(UNIQUE_SCOPES).default('none'),
  help: z.string().max(500).nullish(),
  placeholder: z.string().max(128).nullish(),
  /** Numbers: bounds of the value; dates: bounds as `yyyy-MM-dd` (or the type's own format). */
  min: z.union([z.number(), z.string().max(32)]).nullish(),
  max: z.union([z.number(), z.string().max(32)]).nullish(),
  /** Text: bounds of the length in characters. */
  minLength: z.number().int().min(0).max(100_000).nullish(),
  maxLength: z.number().int().min(1).max(100_000).nullish(),
  /** Decimal places for decimal, money, percent and formula (default 2). */
  precision: z.number().int().min(0).max(6).nullish(),
  pattern: z.object({ regex: z.string().min(1).max(200), message: z.string().max(200).nullish() }).nullish(),
  default: fieldDefaultSchema.nullish(),
  showWhen: showWhenSchema.nullish(),
  options: optionsSourceSchema.nullish(),
  /** Pickers: more than one value. */
  multiple: z.boolean().nullish(),
  /** Money: show the amount in Chinese capitals under the input. */
  moneyCapital: z.boolean().nullish(),
  /** Formula fields. */
  formula: z.string().max(1000).nullish(),
  /** Attachments and images: allowed suffixes, count and size. */
  accept: z
    .array(z.string().regex(/^[a-z0-9]{1,10}$/))
    .max(30)
    .nullish(),
  maxFiles: z.number().int().min(1).max(50).nullish(),
  /** Static text (plain text) or a section's subtitle. */
  content: z.string().max(5000).nullish(),
  /** Sub-table row bounds. */
  minRows: z.number().int().min(0).max(1000).nullish(),
  maxRows: z.number().int().min(1).max(1000).nullish(),
  /** Hidden in the record list until the user shows the column (SPEC defaultHideDataList). */
  listHidden: z.boolean().nullish(),
  /**
   * 每期沿用 (periodic forms): a new record starts with the value of the unit's record of the period before
   * (figures that rarely change month to month); numbered, uploaded and computed values are never carried.
   */
  carry: z.boolean().nullish(),
};

const subFieldSchema = z.object(fieldBase);
export type SubField = z.infer<typeof subFieldSchema>;

const fieldSchema = z.object({
  ...fieldBase,
  /** Sub-table columns (no sub-table inside a sub-table). */
  columns: z.array(subFieldSchema).max(100).nullish(),
});
export type FormField = z.infer<typeof fieldSchema>;
export type AnyField = FormField | SubField;

export const DATE_PARTS = ['none', 'yyyy', 'yyyyMM', 'yyyyMMdd'] as const;

/** Serial numbers of the form's records (`tableDataNo`): prefix, date part, zero-padded sequence. */
export const numberingSchema = z.object({
  prefix: z.string().max(20).default(''),
  datePart: z.enum(DATE_PARTS).default('yyyyMMdd'),
  digits: z.number().int().min(1).max(12).default(4),
});
export type Numbering = z.infer<typeof numberingSchema>;

export const formDesignSchema = z.object({
  fields: z.array(fieldSchema).max(500),
  labelWidth: z.number().int().min(40).max(400).default(120),
  numbering: numberingSchema.nullish(),
});
export type FormDesign = z.infer<typeof formDesignSchema>;

/** Every field of a design that holds a value (layout fields and sub-table columns excluded). */
export function valueFields(design: Pick<FormDesign, 'fields'>): FormField[] {
  return design.fields.filter((f) => !LAYOUT_TYPES.includes(f.type));
}

/** Types 沿用上期 never copies: numbered, uploaded and computed values belong to their own record. */
export const UNCARRIED_TYPES: readonly FieldType[] = [
  'serialNo',
  'formula',
  ...FILE_TYPES,
  ...LAYOUT_TYPES,
  'location',
];
/** Defaults a new record takes from its own filer and period (an earlier record's value would be stale). */
const CONTEXT_DEFAULTS: readonly string[] = ['fillerOrg', 'fillerRegion', 'fillerName', 'today', 'period'];

/**
 * Whether 沿用上期 copies the field's value from an earlier record: not for uncarried types, nor for a field
 * whose default comes from the new record's filer or period (填报单位, 填报人, 统计月份 take it afresh).
 */
export function carriedField(field: Pick<AnyField, 'type' | 'default'>): boolean {
  return !UNCARRIED_TYPES.includes(field.type) && !CONTEXT_DEFAULTS.includes(field.default?.kind ?? 'none');
}

/** Record values: field id → value (JSON-shaped). */
export type RecordValues = Record<string, unknown>;

/** A record's review state. */
export const RECORD_STATUS = { draft: 0, submitted: 1, approved: 2, returned: 3 } as const;
export type RecordStatus = (typeof RECORD_STATUS)[keyof typeof RECORD_STATUS];

/**
 * A location field's value (issue 22 §3): where the phone was when the field was filled, from the browser's
 * geolocation — WGS 84 degrees, the accuracy radius in metres and when it was measured (ISO time).
 */
export type LocationValue = { lat: number; lng: number; accuracy: number; time?: string };

/** The stored shape of a location value, or null when the value is none (bounds checked, degrees to 7 places). */
export function toLocationValue(raw: unknown): LocationValue | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { lat, lng, accuracy, time } = raw as Record<string, unknown>;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (!finite(lat) || !finite(lng) || !finite(accuracy)) return null;
  if (lat < -90 || lat > 90 || lng < -180 || lng > 180 || accuracy < 0 || accuracy > 1_000_000) return null;
  if (
    time !== undefined &&
    time !== null &&
    (typeof time !== 'string' || !/^\d{4}-\d{2}-\d{2}T[\d:.]+Z?$/.test(time))
  )
    return null;
  const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
  return {
    lat: round(lat, 7),
    lng: round(lng, 7),
    accuracy: round(accuracy, 1),
    ...(typeof time === 'string' ? { time } : {}),
  };
}

/** A location as one line of text: `31.2304160, 121.4737010 ±15m` (exports, lists, search text). */
export function locationText(value: unknown): string {
  const location = toLocationValue(value);
  if (!location) return '';
  return `${location.lat.toFixed(6)}, ${location.lng.toFixed(6)} ±${Math.round(location.accuracy)}m`;
}

/**
 * A location typed as text (`31.230416, 121.473701 ±15m`, or `lat,lng` alone: accuracy 0), as `locationText`
 * writes it: the import of a sheet exported from the ledger. Anything else is null.
 */
export function parseLocationText(text: string): LocationValue | null {
  const m = /^(-?\d{1,3}(?:\.\d+)?)\s*[,，]\s*(-?\d{1,3}(?:\.\d+)?)(?:\s*±\s*(\d+(?:\.\d+)?)\s*m)?$/i.exec(
    text.trim(),
  );
  if (!m) return null;
  return toLocationValue({ lat: Number(m[1]), lng: Number(m[2]), accuracy: Number(m[3] ?? 0) });
}
