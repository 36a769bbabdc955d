import {
  type AnyField,
  CHOICE_TYPES,
  MULTI_CHOICE_TYPES,
  NUMBER_TYPES,
  PICKER_TYPES,
  parseLocationText,
} from '@shuzhi/contracts/diy-form';
import { STATUS } from '@shuzhi/contracts/envelope';
import { format, type Locale, type Localized } from '@shuzhi/contracts/i18n';
import type { AppContext } from '../../platform/context.ts';
import type { Caller } from '../../platform/diy/form-access.ts';
import type { SheetCell } from '../../platform/xlsx/sheet-read.ts';

/**
 * Cells back to stored values: labels of options and dictionaries to their values, regions by full name,
 * name or code, orgs, enterprises and users by name among those the caller may pick (a name two of them
 * share is refused, not guessed), Excel date serials and date texts to `yyyy-MM-dd[ HH:mm:ss]`.
 */

export const IMPORT_TEXTS = {
  option: { 'zh-CN': '“{v}”不是可选项', en: '"{v}" is not one of the options', 'zh-TW': '「{v}」不是可選項' },
  notFound: { 'zh-CN': '找不到“{v}”', en: '"{v}" was not found', 'zh-TW': '找不到「{v}」' },
  ambiguous: {
    'zh-CN': '“{v}”有重名，无法确定是哪一个',
    en: '"{v}" matches more than one; it cannot be told apart',
    'zh-TW': '「{v}」有重名，無法確定是哪一個',
  },
  date: { 'zh-CN': '“{v}”不是有效日期', en: '"{v}" is not a valid date', 'zh-TW': '「{v}」不是有效日期' },
  inFile: {
    'zh-CN': '与第{row}行重复',
    en: 'Repeats row {row} of the file',
    'zh-TW': '與第{row}列重複',
  },
  existing: {
    'zh-CN': '与已有记录重复',
    en: 'Repeats an existing record',
    'zh-TW': '與已有記錄重複',
  },
  recheck: {
    'zh-CN': '“{label}”与其他用户刚提交的记录重复，请重新上传检查',
    en: '"{label}" repeats a record filed meanwhile; upload the file again to check it',
    'zh-TW': '「{label}」與其他使用者剛提交的記錄重複，請重新上傳檢查',
  },
  reason: { 'zh-CN': '错误原因', en: 'Errors', 'zh-TW': '錯誤原因' },
} satisfies Record<string, Localized>;

export const importText = (
  key: keyof typeof IMPORT_TEXTS,
  locale: Locale,
  params?: Record<string, string | number>,
) => format(IMPORT_TEXTS[key][locale], params);

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);
const pad = (n: number) => String(n).padStart(2, '0');

/** An Excel serial (days since 1899-12-30, no zone) as `yyyy-MM-dd HH:mm:ss`. */
function fromSerial(serial: number): string {
  const d = new Date(EXCEL_EPOCH_MS + Math.round(serial * 86_400) * 1000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** `2026/3/5`, `2026.3.5`, `2026年3月5日 9:30` → `2026-03-05[ 09:30[:00]]`; other text as is. */
function dateText(text: string): string {
  const m =
    /^(\d{4})\s*[-/.年]\s*(\d{1,2})(?:\s*[-/.月]\s*(\d{1,2})\s*日?)?(?:[ T]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/.exec(
      text,
    ) ?? /^(\d{4})\s*年\s*(\d{1,2})\s*月?$/.exec(text);
  if (!m) return text;
  const [, y, mo, d, h, mi, s] = m;
  let out = `${y}-${pad(Number(mo))}`;
  if (d) out += `-${pad(Number(d))}`;
  if (d && h) out += ` ${pad(Number(h))}:${mi}${s ? `:${s}` : ''}`;
  return out;
}

function dateValue(type: string, cell: SheetCell): string {
  const full = typeof cell === 'number' ? fromSerial(cell) : dateText(String(cell).trim());
  if (type === 'date')
    return /^\d{4}-\d{2}-\d{2} 00:00:00$/.test(full)
      ? full.slice(0, 10)
      : typeof cell === 'number'
        ? full.slice(0, 10)
        : full;
  if (type === 'month') return /^\d{4}-\d{2}-\d{2}/.test(full) ? full.slice(0, 7) : full;
  if (type === 'datetime' && /^\d{4}-\d{2}-\d{2}$/.test(full)) return `${full} 00:00:00`;
  return full;
}

/**
 * A copy of a string that does not hold on to the text it was cut from: cell texts are slices of the sheet
 * XML chunk they came from, and a long-lived map keyed by them would keep every chunk of the sheet alive.
 */
export const owned = (text: string): string => Buffer.from(text, 'utf8').toString('utf8');

const SPLIT = /\s*[、,，;；]\s*/;

/** Lookups shared by the rows of one job: label maps per choice field, names resolved batch by batch. */
export class Resolver {
  readonly regions = new Map<string, string | null | 'ambiguous'>();
  readonly orgs = new Map<string, number | null | 'ambiguous'>();
  readonly enterprises = new Map<string, number | null | 'ambiguous'>();
  readonly users = new Map<string, number | null | 'ambiguous'>();
  private readonly labels = new WeakMap<AnyField, Map<string, string>>();

  constructor(
    private readonly ctx: AppContext,
    private readonly caller: Caller,
    private readonly dicts: Map<string, Map<string, string>>,
  ) {}

  /** label → value (values themselves accepted too) of a choice field. */
  choiceMap(field: AnyField): Map<string, string> {
    let map = this.labels.get(field);
    if (!map) {
      map = new Map();
      const source = field.options;
      const pairs: [string, string][] =
        source?.source === 'options'
          ? source.items.map((o) => [o.value, o.label])
          : source?.source === 'dict'
            ? [...(this.dicts.get(source.dictCode) ?? new Map<string, string>())]
            : [];
      for (const [value] of pairs) map.set(value, value);
      for (const [value, label] of pairs) map.set(label, value);
      this.labels.set(field, map);
    }
    return map;
  }

  /** Remembers the names a batch needs, to be looked up by `load`. */
  want(
    field: AnyField,
    cell: SheetCell,
    wanted: Record<'regions' | 'orgs' | 'enterprises' | 'users', Set<string>>,
  ) {
    if (cell === null || cell === undefined || cell === '') return;
    const text = String(cell).trim();
    if (field.type === 'region') {
      if (!this.regions.has(text)) wanted.regions.add(text);
      return;
    }
    const key = field.type === 'org' ? 'orgs' : field.type === 'enterprise' ? 'enterprises' : 'users';
    for (const name of text.split(SPLIT)) if (name && !this[key].has(name)) wanted[key].add(name);
  }

  async load(wanted: Record<'regions' | 'orgs' | 'enterprises' | 'users', Set<string>>): Promise<void> {
    const db = this.ctx.db;
    const chunks = <T>(list: T[]) =>
      Array.from({ length: Math.ceil(list.length / 500) }, (_, i) => list.slice(i * 500, i * 500 + 500));
    for (const part of chunks([...wanted.regions])) {
      for (const t of part) this.regions.set(owned(t), null);
      const rows = await db
        .selectFrom('sys_region')
        .select(['code', 'name', 'full_name'])
        .where('is_delete', '=', 0)
        .where((eb) => eb.or([eb('code', 'in', part), eb('full_name', 'in', part), eb('name', 'in', part)]))
        .execute();
      const byName = new Map<string, string[]>();
      for (const r of rows) {
        if (part.includes(r.code)) this.regions.set(r.code, r.code);
        if (r.full_name && part.includes(r.full_name)) this.regions.set(r.full_name, r.code);
        byName.set(r.name, [...(byName.get(r.name) ?? []), r.code]);
      }
      for (const [name, codes] of byName) {
        if (this.regions.get(name) === null)
          this.regions.set(name, codes.length === 1 ? (codes[0] as string) : 'ambiguous');
      }
    }
    const { caller } = this;
    for (const kind of ['orgs', 'enterprises'] as const) {
      for (const part of chunks([...wanted[kind]])) {
        for (const t of part) this[kind].set(owned(t), null);
        let query = db
          .selectFrom('sys_org')
          .select(['id', 'name'])
          .where('tenant_id', '=', caller.user.tenantId)
          .where('is_delete', '=', 0)
          .where('status', '=', STATUS.enabled)
          .where('name', 'in', part);
        if (kind === 'enterprises') query = query.where('type', '=', 'enterprise');
        if (caller.enterprise) query = query.where('id', '=', caller.orgId ?? -1);
        this.fill(
          this[kind],
          (await query.execute()).map((r) => [r.name, r.id]),
        );
      }
    }
    for (const part of chunks([...wanted.users])) {
      for (const t of part) this.users.set(owned(t), null);
      let query = db
        .selectFrom('sys_user')
        .select(['id', 'real_name'])
        .where('tenant_id', '=', caller.user.tenantId)
        .where('is_delete', '=', 0)
        .where('status', '=', STATUS.enabled)
        .where('real_name', 'in', part);
      if (caller.enterprise) query = query.where('org_id', '=', caller.orgId ?? -1);
      this.fill(
        this.users,
        (await query.execute()).map((r) => [r.real_name, r.id]),
      );
    }
  }

  private fill(map: Map<string, number | null | 'ambiguous'>, rows: [string, number][]) {
    for (const [name, id] of rows) {
      const seen = map.get(name);
      map.set(name, seen === null || seen === undefined || seen === id ? id : 'ambiguous');
    }
  }

  /** One cell as the value the form stores, or the reason it cannot be one. */
  convert(field: AnyField, cell: SheetCell, locale: Locale): { value: unknown; error?: string } {
    if (cell === null || cell === undefined || (typeof cell === 'string' && cell.trim() === ''))
      return { value: null };
    const type = field.type;
    if (NUMBER_TYPES.includes(type)) {
      if (typeof cell === 'number') return { value: cell };
      const text = String(cell).trim();
      return { value: type === 'percent' ? text.replace(/%$/, '') : text };
    }
    if (type === 'date' || type === 'datetime' || type === 'month') return { value: dateValue(type, cell) };
    if (type === 'year')
      return { value: typeof cell === 'number' ? String(Math.trunc(cell)) : String(cell).trim() };
    if (CHOICE_TYPES.includes(type)) {
      const map = this.choiceMap(field);
      const text = String(cell).trim();
      const parts = MULTI_CHOICE_TYPES.includes(type) ? text.split(SPLIT).filter(Boolean) : [text];
      const values: string[] = [];
      for (const part of parts) {
        const value = map.get(part);
        if (value === undefined) return { value: null, error: importText('option', locale, { v: part }) };
        values.push(value);
      }
      return { value: MULTI_CHOICE_TYPES.includes(type) ? values : values[0] };
    }
    if (type === 'region') {
      const text = String(cell).trim();
      const code = this.regions.get(text);
      if (code === 'ambiguous') return { value: null, error: importText('ambiguous', locale, { v: text }) };
      if (!code) return { value: null, error: importText('notFound', locale, { v: text }) };
      return { value: code };
    }
    if (PICKER_TYPES.includes(type)) {
      const map = type === 'org' ? this.orgs : type === 'enterprise' ? this.enterprises : this.users;
      const ids: number[] = [];
      for (const name of String(cell).trim().split(SPLIT).filter(Boolean)) {
        const id = map.get(name);
        if (id === 'ambiguous') return { value: null, error: importText('ambiguous', locale, { v: name }) };
        if (id === null || id === undefined)
          return { value: null, error: importText('notFound', locale, { v: name }) };
        ids.push(id);
      }
      return { value: field.multiple ? ids : ids.length > 1 ? ids : ids[0] };
    }
    if (type === 'location') {
      // Text that is no location stays text: the record's check names it (格式不正确).
      return { value: parseLocationText(String(cell)) ?? String(cell) };
    }
    if (typeof cell === 'boolean') return { value: cell ? '1' : '0' };
    if (type === 'richText') {
      const html = String(cell).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      return {
        value: html
          .split(/\r?\n/)
          .map((line) => `<p>${line}</p>`)
          .join(''),
      };
    }
    return { value: typeof cell === 'number' ? String(cell) : cell };
  }
}
