import {
  type AnyField,
  CHOICE_TYPES,
  DATE_TYPES,
  FILE_TYPES,
  type FormDesign,
  type FormField,
  LAYOUT_TYPES,
  MULTI_CHOICE_TYPES,
  NUMBER_TYPES,
  PICKER_TYPES,
  type RecordValues,
  SERVER_VALUE_TYPES,
  type ShowWhen,
  toLocationValue,
} from './diy-form.ts';
import { evaluateFormula, type FormulaNode, formulaRefs, parseFormula, roundTo } from './diy-formula.ts';
import { format, type Locale, type Localized } from './i18n.ts';
import { own } from './own.ts';
import type { WallClock } from './time-zone.ts';
import { isEmail, isIdCard, isLandline, isLicensePlate, isMobile, isPostcode, isUrl } from './validators.ts';

/**
 * One set of rules for a record of a report form, run by the filling page while the user types and by the
 * server on every save: the server answers the same field errors the browser showed. Checks that need the
 * database (unique values, that an org, user, enterprise, region or file exists and may be used) are the
 * server's, on top of these.
 */

const FIELD_ERROR_CODES = [
  'required',
  'type',
  'format',
  'tooShort',
  'tooLong',
  'tooSmall',
  'tooBig',
  'precision',
  'pattern',
  'option',
  'tooFewRows',
  'tooManyRows',
  'tooManyFiles',
  'duplicate',
  'notFound',
] as const;
type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];
export type FieldError = { code: FieldErrorCode; params?: Record<string, string | number> };
/** Errors by path: `amount`, or `items[2].qty` inside a sub-table. */
export type FieldErrors = Record<string, FieldError>;

const FIELD_ERROR_TEXTS: Record<FieldErrorCode, Localized> = {
  required: { 'zh-CN': '{label}不能为空', en: '{label} is required', 'zh-TW': '{label}不能為空' },
  type: {
    'zh-CN': '{label}的值类型不正确',
    en: '{label} has a value of the wrong kind',
    'zh-TW': '{label}的值類型不正確',
  },
  format: {
    'zh-CN': '{label}格式不正确',
    en: '{label} is not in a valid format',
    'zh-TW': '{label}格式不正確',
  },
  tooShort: {
    'zh-CN': '{label}至少{min}个字符',
    en: '{label} must be at least {min} characters',
    'zh-TW': '{label}至少{min}個字元',
  },
  tooLong: {
    'zh-CN': '{label}最多{max}个字符',
    en: '{label} must be at most {max} characters',
    'zh-TW': '{label}最多{max}個字元',
  },
  tooSmall: {
    'zh-CN': '{label}不能小于{min}',
    en: '{label} must be at least {min}',
    'zh-TW': '{label}不能小於{min}',
  },
  tooBig: {
    'zh-CN': '{label}不能大于{max}',
    en: '{label} must be at most {max}',
    'zh-TW': '{label}不能大於{max}',
  },
  precision: {
    'zh-CN': '{label}最多{precision}位小数',
    en: '{label} allows at most {precision} decimal places',
    'zh-TW': '{label}最多{precision}位小數',
  },
  pattern: {
    'zh-CN': '{label}格式不正确',
    en: '{label} does not match the required format',
    'zh-TW': '{label}格式不正確',
  },
  option: {
    'zh-CN': '{label}的选项无效',
    en: '{label} has an option that is not offered',
    'zh-TW': '{label}的選項無效',
  },
  tooFewRows: {
    'zh-CN': '{label}至少{min}行',
    en: '{label} needs at least {min} rows',
    'zh-TW': '{label}至少{min}列',
  },
  tooManyRows: {
    'zh-CN': '{label}最多{max}行',
    en: '{label} allows at most {max} rows',
    'zh-TW': '{label}最多{max}列',
  },
  tooManyFiles: {
    'zh-CN': '{label}最多{max}个文件',
    en: '{label} allows at most {max} files',
    'zh-TW': '{label}最多{max}個檔案',
  },
  duplicate: {
    'zh-CN': '{label}已存在：{value}',
    en: '{label} already exists: {value}',
    'zh-TW': '{label}已存在：{value}',
  },
  notFound: {
    'zh-CN': '{label}选择的数据不存在或无权使用',
    en: '{label} refers to something that does not exist or is not yours to use',
    'zh-TW': '{label}選擇的資料不存在或無權使用',
  },
};

/** The text of a field error; a pattern's own message wins. */
export function fieldErrorText(error: FieldError, label: string, locale: Locale): string {
  if (error.code === 'pattern' && error.params?.message) return String(error.params.message);
  return format(FIELD_ERROR_TEXTS[error.code][locale], { ...error.params, label });
}

const DATE_FORMATS: Record<string, RegExp> = {
  date: /^(\d{4})-(\d{2})-(\d{2})$/,
  datetime: /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})(?::(\d{2}))?$/,
  month: /^(\d{4})-(\d{2})$/,
  quarter: /^(\d{4})-Q([1-4])$/,
  year: /^(\d{4})$/,
};

function validDate(type: string, text: string): boolean {
  const m = DATE_FORMATS[type]?.exec(text);
  if (!m) return false;
  const year = Number(m[1]);
  if (year < 1000 || year > 9999) return false;
  if (type === 'year' || type === 'quarter') return true;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return false;
  if (type === 'month') return true;
  const day = Number(m[3]);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > days) return false;
  if (type === 'datetime') {
    const [h, min, s] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
    return h < 24 && min < 60 && s < 60;
  }
  return true;
}

const FORMAT_CHECKS: Partial<Record<string, (value: string) => boolean>> = {
  mobile: isMobile,
  landline: isLandline,
  idCard: (v) => isIdCard(v),
  email: isEmail,
  url: isUrl,
  postcode: isPostcode,
  licensePlate: isLicensePlate,
};

const isEmpty = (value: unknown) =>
  value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

const decimals = (n: number) => {
  const text = String(n);
  if (text.includes('e-')) return Number(text.split('e-')[1]);
  return text.includes('.') ? (text.split('.')[1] as string).length : 0;
};

export type ValidateOptions = {
  /** Drafts keep what was typed: only the kinds of the values are checked, not required fields or bounds. */
  mode: 'draft' | 'submit';
  /** Values of dictionary-bound choices; without it, dictionary choices are checked for shape only. */
  dictOptions?: (dictCode: string) => ReadonlySet<string> | undefined;
  /** Compiled regexes of `pattern` rules, cached by the caller. */
  regexCache?: Map<string, RegExp | null>;
};

export type ValidateResult = { values: RecordValues; errors: FieldErrors };

function optionsOf(field: AnyField, options: ValidateOptions): ReadonlySet<string> | undefined {
  const source = field.options;
  if (!source) return undefined;
  if (source.source === 'options') return new Set(source.items.map((o) => o.value));
  return options.dictOptions?.(source.dictCode);
}

function compile(pattern: string, cache?: Map<string, RegExp | null>): RegExp | null {
  if (cache?.has(pattern)) return cache.get(pattern) ?? null;
  let regex: RegExp | null = null;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    regex = null;
  }
  cache?.set(pattern, regex);
  return regex;
}

/** The largest magnitude a number field holds: within the safe integers and PostgreSQL's numeric(24,6). */
export const MAX_RECORD_NUMBER = 1e15;

/**
 * Normalises one value to its stored shape (trimmed text, numbers, id arrays) or reports why it cannot be
 * one; `undefined` error means fine. Bounds and required are checked separately (not for drafts).
 */
export function normalise(field: AnyField, raw: unknown): { value: unknown; error?: FieldError } {
  if (raw === undefined || raw === null) return { value: null };
  const type = field.type;
  if (NUMBER_TYPES.includes(type)) {
    if (raw === '') return { value: null };
    const n =
      typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.replace(/,/g, '').trim()) : NaN;
    if (!Number.isFinite(n)) return { value: null, error: { code: 'type' } };
    if (type === 'integer' && !Number.isInteger(n)) return { value: null, error: { code: 'type' } };
    if (Math.abs(n) > MAX_RECORD_NUMBER) {
      return { value: null, error: { code: 'tooBig', params: { max: '1e15' } } };
    }
    return { value: n };
  }
  if (MULTI_CHOICE_TYPES.includes(type)) {
    if (!Array.isArray(raw) || !raw.every((v) => typeof v === 'string' || typeof v === 'number')) {
      return { value: null, error: { code: 'type' } };
    }
    const list = [...new Set(raw.map((v) => String(v).trim()).filter((v) => v !== ''))];
    if (list.some((v) => v.includes('\u0000'))) return { value: null, error: { code: 'format' } };
    return { value: list.length ? list : null };
  }
  if (PICKER_TYPES.includes(type) || FILE_TYPES.includes(type)) {
    const many = FILE_TYPES.includes(type) || field.multiple === true;
    const list = Array.isArray(raw) ? raw : [raw];
    if (!many && Array.isArray(raw) && raw.length > 1) return { value: null, error: { code: 'type' } };
    const ids = list.map((v) => (typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v));
    if (!ids.every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v > 0)) {
      return { value: null, error: { code: 'type' } };
    }
    const unique = [...new Set(ids as number[])];
    if (unique.length === 0) return { value: null };
    return { value: many ? unique : unique[0] };
  }
  if (type === 'location') {
    const location = toLocationValue(raw);
    return location ? { value: location } : { value: null, error: { code: 'format' } };
  }
  if (type === 'subTable') {
    if (!Array.isArray(raw) || !raw.every((row) => row && typeof row === 'object' && !Array.isArray(row))) {
      return { value: null, error: { code: 'type' } };
    }
    return { value: raw };
  }
  if (typeof raw !== 'string' && typeof raw !== 'number') return { value: null, error: { code: 'type' } };
  const text = String(raw).trim();
  if (text === '') return { value: null };
  // A NUL cannot be stored (PostgreSQL text) and is no character anyone types: imports can carry one.
  if (text.includes('\u0000')) return { value: null, error: { code: 'format' } };
  if (DATE_TYPES.includes(type)) {
    const normalised =
      type === 'datetime' && /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(text) ? `${text}:00` : text;
    return validDate(type, normalised) ? { value: normalised } : { value: null, error: { code: 'format' } };
  }
  if (type === 'region') {
    return /^\d{2,12}$/.test(text) ? { value: text } : { value: null, error: { code: 'format' } };
  }
  // ID numbers and plates are stored upper-case (沪a12345 is 沪A12345), and checked as stored.
  const stored = type === 'idCard' || type === 'licensePlate' ? text.toUpperCase() : text;
  const check = FORMAT_CHECKS[type];
  if (check && !check(stored)) return { value: stored, error: { code: 'format' } };
  return { value: stored };
}

/** Bounds, lengths, options, patterns: the checks a submitted, visible value must pass. */
function constrain(field: AnyField, value: unknown, options: ValidateOptions): FieldError | undefined {
  const type = field.type;
  if (NUMBER_TYPES.includes(type) && typeof value === 'number') {
    const places = type === 'integer' ? 0 : (field.precision ?? 2);
    if (decimals(value) > places) return { code: 'precision', params: { precision: places } };
    if (typeof field.min === 'number' && value < field.min)
      return { code: 'tooSmall', params: { min: field.min } };
    if (typeof field.max === 'number' && value > field.max)
      return { code: 'tooBig', params: { max: field.max } };
    return undefined;
  }
  if (DATE_TYPES.includes(type) && typeof value === 'string') {
    if (typeof field.min === 'string' && value < field.min)
      return { code: 'tooSmall', params: { min: field.min } };
    if (typeof field.max === 'string' && value > field.max)
      return { code: 'tooBig', params: { max: field.max } };
    return undefined;
  }
  if (CHOICE_TYPES.includes(type)) {
    const offered = optionsOf(field, options);
    const chosen = Array.isArray(value) ? value : [value];
    if (offered && !chosen.every((v) => offered.has(String(v)))) return { code: 'option' };
    if (Array.isArray(value)) {
      if (typeof field.min === 'number' && value.length < field.min) {
        return { code: 'tooSmall', params: { min: field.min } };
      }
      if (typeof field.max === 'number' && value.length > field.max) {
        return { code: 'tooBig', params: { max: field.max } };
      }
    }
    return undefined;
  }
  if (FILE_TYPES.includes(type) && Array.isArray(value)) {
    const max = field.maxFiles ?? 10;
    return value.length > max ? { code: 'tooManyFiles', params: { max } } : undefined;
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    const maxLength = field.maxLength ?? (type === 'richText' ? 100_000 : type === 'textarea' ? 2000 : 255);
    if (field.minLength && length < field.minLength)
      return { code: 'tooShort', params: { min: field.minLength } };
    if (length > maxLength) return { code: 'tooLong', params: { max: maxLength } };
    if (field.pattern?.regex) {
      const regex = compile(field.pattern.regex, options.regexCache);
      if (regex && !regex.test(value)) {
        return { code: 'pattern', params: field.pattern.message ? { message: field.pattern.message } : {} };
      }
    }
  }
  return undefined;
}

/** Whether a show-when rule set holds for the values. */
export function showWhenHolds(rule: ShowWhen | null | undefined, values: RecordValues): boolean {
  if (!rule) return true;
  const results = rule.rules.map(({ field, op, value: expected }) => {
    const actual = own(values, field);
    const list = Array.isArray(actual) ? actual.map(String) : isEmpty(actual) ? [] : [String(actual)];
    const wanted = Array.isArray(expected)
      ? expected.map(String)
      : expected === undefined
        ? []
        : [String(expected)];
    const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));
    switch (op) {
      case 'empty':
        return isEmpty(actual);
      case 'notEmpty':
        return !isEmpty(actual);
      case 'eq':
        return list.length === 1 && wanted.length === 1 && list[0] === wanted[0];
      case 'ne':
        return !(list.length === 1 && wanted.length === 1 && list[0] === wanted[0]);
      case 'in':
        return list.some((v) => wanted.includes(v));
      case 'notIn':
        return !list.some((v) => wanted.includes(v));
      case 'contains':
        return list.some((v) => wanted.some((w) => v.includes(w)));
      case 'gt':
        return !isEmpty(actual) && num(actual) > num(expected);
      case 'gte':
        return !isEmpty(actual) && num(actual) >= num(expected);
      case 'lt':
        return !isEmpty(actual) && num(actual) < num(expected);
      case 'lte':
        return !isEmpty(actual) && num(actual) <= num(expected);
    }
    return false;
  });
  return rule.logic === 'or' ? results.some(Boolean) : results.every(Boolean);
}

const parsedFormulas = new Map<string, FormulaNode | null>();
function formulaOf(field: AnyField): FormulaNode | null {
  const source = field.formula ?? '';
  if (!parsedFormulas.has(source)) {
    let node: FormulaNode | null = null;
    try {
      node = source ? parseFormula(source) : null;
    } catch {
      node = null;
    }
    if (parsedFormulas.size > 5000) parsedFormulas.clear();
    parsedFormulas.set(source, node);
  }
  return parsedFormulas.get(source) ?? null;
}

function computeFormula(field: AnyField, scope: (path: string[]) => unknown): number | null {
  const node = formulaOf(field);
  if (!node) return null;
  const result = evaluateFormula(node, scope);
  const n = typeof result === 'number' ? result : result === null ? null : Number(result);
  if (n === null || !Number.isFinite(n)) return null;
  return roundTo(n, field.precision ?? 2);
}

/** Order in which formula fields of one level are computed: dependencies first (designs have no cycles). */
function formulaOrder(fields: readonly AnyField[]): AnyField[] {
  const formulas = fields.filter((f) => f.type === 'formula');
  const byId = new Map(formulas.map((f) => [f.id, f]));
  const done = new Set<string>();
  const order: AnyField[] = [];
  const visit = (f: AnyField, stack: Set<string>) => {
    if (done.has(f.id) || stack.has(f.id)) return;
    stack.add(f.id);
    const node = formulaOf(f);
    for (const path of node ? formulaRefs(node) : []) {
      const dep = byId.get(path[0] as string);
      if (dep) visit(dep, stack);
    }
    stack.delete(f.id);
    done.add(f.id);
    order.push(f);
  };
  for (const f of formulas) visit(f, new Set());
  return order;
}

function validateLevel(
  fields: readonly AnyField[],
  raw: RecordValues,
  options: ValidateOptions,
  prefix: string,
  errors: FieldErrors,
  outer: RecordValues | null,
): RecordValues {
  const values: RecordValues = {};
  for (const field of fields) {
    if (LAYOUT_TYPES.includes(field.type) || SERVER_VALUE_TYPES.includes(field.type)) continue;
    const { value, error } = normalise(field, own(raw, field.id));
    values[field.id] = value;
    if (error) errors[`${prefix}${field.id}`] = error;
  }
  // Sub-tables: each row on its own, with the row as the formula scope.
  for (const field of fields) {
    if (field.type !== 'subTable' || errors[`${prefix}${field.id}`]) continue;
    const rows = (values[field.id] as RecordValues[] | null) ?? [];
    const columns = (field as FormField).columns ?? [];
    values[field.id] = rows.length
      ? rows.map((row, i) =>
          validateLevel(columns, row, options, `${prefix}${field.id}[${i}].`, errors, values),
        )
      : null;
  }
  // Formulas read the level's values first, then (inside a sub-table) the record's.
  const scope = (path: string[]): unknown => {
    const [head, tail] = path as [string, string | undefined];
    const found = Object.hasOwn(values, head) ? values[head] : outer ? own(outer, head) : undefined;
    if (tail === undefined) return found;
    return Array.isArray(found) ? found.map((row) => own(row as RecordValues, tail) ?? null) : null;
  };
  for (const field of formulaOrder(fields)) values[field.id] = computeFormula(field, scope);

  // Hidden fields hold nothing and are not checked.
  const visibleScope = outer ? { ...outer, ...values } : values;
  for (const field of fields) {
    if (LAYOUT_TYPES.includes(field.type)) continue;
    const path = `${prefix}${field.id}`;
    if (!showWhenHolds(field.showWhen, visibleScope)) {
      values[field.id] = null;
      delete errors[path];
      for (const key of Object.keys(errors)) if (key.startsWith(`${path}[`)) delete errors[key];
      continue;
    }
    if (options.mode === 'draft' || errors[path] || field.type === 'serialNo') continue;
    const value = values[field.id];
    if (isEmpty(value)) {
      if (field.required && field.type !== 'formula') errors[path] = { code: 'required' };
      else if (field.type === 'subTable' && field.minRows) {
        errors[path] = { code: 'tooFewRows', params: { min: field.minRows } };
      }
      continue;
    }
    if (field.type === 'subTable') {
      const count = (value as unknown[]).length;
      if (field.minRows && count < field.minRows)
        errors[path] = { code: 'tooFewRows', params: { min: field.minRows } };
      else if (field.maxRows && count > field.maxRows) {
        errors[path] = { code: 'tooManyRows', params: { max: field.maxRows } };
      }
      continue;
    }
    const problem = constrain(field, value, options);
    if (problem) errors[path] = problem;
  }
  return values;
}

/**
 * Checks and normalises a record against a design: values of unknown fields are dropped, formulas are
 * computed here (a value sent for a formula or serial-number field is ignored), hidden fields are emptied.
 */
export function validateRecord(
  design: Pick<FormDesign, 'fields'>,
  raw: RecordValues,
  options: ValidateOptions,
): ValidateResult {
  const errors: FieldErrors = {};
  const values = validateLevel(design.fields, raw ?? {}, options, '', errors, null);
  return { values, errors };
}

/** Labels by error path (`items[2].qty` → `明细 第3行 数量`), for messages. */
export function labelOfPath(
  design: Pick<FormDesign, 'fields'>,
  path: string,
  rowWord = (n: number) => `#${n}`,
): string {
  const m = /^([a-z0-9]+)(?:\[(\d+)\]\.([a-z0-9]+))?$/.exec(path);
  if (!m) return path;
  const field = design.fields.find((f) => f.id === m[1]);
  if (!field) return path;
  if (!m[2]) return field.label;
  const column = field.columns?.find((c) => c.id === m[3]);
  return `${field.label} ${rowWord(Number(m[2]) + 1)} ${column?.label ?? m[3]}`;
}

/** Who is filling, for defaults. */
export type Filler = { orgId: number | null; regionCode: string | null; realName: string; userId: number };

const pad = (n: number) => String(n).padStart(2, '0');

/** A date-like value of `type` for a day (`time` for datetime fields). */
function dayValue(type: string, y: number, m: number, d: number, time: string): string {
  if (type === 'datetime') return `${y}-${pad(m)}-${pad(d)} ${time}`;
  if (type === 'month') return `${y}-${pad(m)}`;
  if (type === 'year') return String(y);
  if (type === 'quarter') return `${y}-Q${Math.floor((m - 1) / 3) + 1}`;
  return `${y}-${pad(m)}-${pad(d)}`;
}

/**
 * The values a new record starts with. `today` is the product zone's wall clock now (never the machine's or
 * the browser's own). `periodStart` (`YYYY-MM-DD`) is the first day of the period the record is filed in, for
 * `period` defaults; without it they take today.
 */
export function defaultValues(
  design: { fields: readonly AnyField[] },
  filler: Filler,
  today: WallClock,
  periodStart?: string | null,
): RecordValues {
  const values: RecordValues = {};
  const now = `${pad(today.hour)}:${pad(today.minute)}:00`;
  const todayValue = (type: string) => dayValue(type, today.year, today.month, today.day, now);
  const start = periodStart ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(periodStart) : null;
  for (const field of design.fields) {
    const def = field.default;
    if (!def || def.kind === 'none') continue;
    let value: unknown = null;
    switch (def.kind) {
      case 'constant':
        value = def.value ?? null;
        break;
      case 'fillerOrg':
        value = field.type === 'org' ? (field.multiple ? [filler.orgId] : filler.orgId) : null;
        break;
      case 'fillerRegion':
        value = filler.regionCode;
        break;
      case 'fillerName':
        value = filler.realName;
        break;
      case 'today':
        value = todayValue(field.type);
        break;
      case 'period':
        value = start
          ? dayValue(field.type, Number(start[1]), Number(start[2]), Number(start[3]), '00:00:00')
          : todayValue(field.type);
        break;
    }
    if (value !== null && value !== undefined) values[field.id] = value;
  }
  return values;
}

/** The values a new row of a sub-table starts with: its columns' defaults, as a new record's fields. */
export function rowDefaultValues(
  subTable: Pick<FormField, 'columns'>,
  filler: Filler,
  today: WallClock,
  periodStart?: string | null,
): RecordValues {
  return subTable.columns?.length
    ? defaultValues({ fields: subTable.columns }, filler, today, periodStart)
    : {};
}
