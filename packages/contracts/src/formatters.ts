/**
 * Input helpers and display formatters shared by the web app and the server (SPEC §5, §8, §9). Pure
 * functions without locale or time-zone side effects unless a date is passed in.
 */

const HAN = /\p{Script=Han}/gu;

/**
 * Integer percent as typed into an input: keeps digits only, drops leading zeros, and caps the value at
 * 100 (so anything of more than 3 digits becomes 100). An empty or all-zero input gives ''.
 */
export function percentInput(value: string): string {
  const digits = value.replace(/\D/g, '').replace(/^0+/, '');
  if (digits.length > 3 || Number(digits) > 100) return '100';
  return digits;
}

/**
 * Non-negative decimal as typed into an input: digits and one decimal point, no point first, no
 * superfluous leading zeros, at most `places` decimals (default 2). A trailing point is kept so typing can go on.
 */
export function decimalInput(value: string, places = 2): string {
  let v = value.trim().replace(/[^\d.]/g, '');
  v = v.replace(/^\.+/, '');
  const point = v.indexOf('.');
  if (point >= 0) v = v.slice(0, point + 1) + v.slice(point + 1).replace(/\./g, '');
  v = v.replace(/^0+(?=\d)/, '');
  const [int, frac] = v.split('.');
  if (frac === undefined) return int;
  return places > 0 ? `${int}.${frac.slice(0, places)}` : int;
}

/** Keeps digits only. */
export function digitsOnly(value: string): string {
  return value.replace(/\D/g, '');
}

/** Removes Chinese (Han) characters. */
export function stripChinese(value: string): string {
  return value.replace(HAN, '');
}

/** Removes Latin letters. */
export function stripLetters(value: string): string {
  return value.replace(/[A-Za-z]/g, '');
}

/** Removes white space at both ends. */
export function trimInput(value: string): string {
  return value.trim();
}

/**
 * Thousands separators on the integer part: 1234567.891 → '1,234,567.891', -1234 → '-1,234'. Strings may
 * already hold separators; anything that is not a number gives ''.
 */
export function formatThousands(value: number | string): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    text = String(value);
    if (/e/i.test(text))
      text = value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
  } else {
    text = value.trim().replace(/,/g, '');
  }
  const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] === '' && !match[3])) return '';
  const [, sign, int, frac] = match;
  const grouped = (int || '0').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign === '-' ? '-' : ''}${grouped}${frac !== undefined && frac !== '' ? `.${frac}` : ''}`;
}

const CN_DIGITS = '零壹贰叁肆伍陆柒捌玖';
const CN_SMALL_UNITS = ['仟', '佰', '拾', ''];

/** Up to four digits (no leading zeros) in capitals, a 零 for each run of inner zeros: 1001 → 壹仟零壹. */
function capitalsBelowTenThousand(digits: string): string {
  const padded = digits.padStart(4, '0');
  let out = '';
  let pendingZero = false;
  for (let i = 0; i < 4; i++) {
    const d = Number(padded[i]);
    if (d === 0) {
      if (out) pendingZero = true;
      continue;
    }
    if (pendingZero) out += '零';
    pendingZero = false;
    out += CN_DIGITS[d] + CN_SMALL_UNITS[i];
  }
  return out;
}

/** A positive integer given as a digit string without leading zeros, in capitals with 万 and 亿 sections. */
function integerCapitals(digits: string): string {
  for (const [size, unit] of [
    [8, '亿'],
    [4, '万'],
  ] as const) {
    if (digits.length > size) {
      const high = digits.slice(0, -size);
      const low = digits.slice(-size);
      const lowTrimmed = low.replace(/^0+/, '');
      if (!lowTrimmed) return integerCapitals(high) + unit;
      return integerCapitals(high) + unit + (low[0] === '0' ? '零' : '') + integerCapitals(lowTrimmed);
    }
  }
  return capitalsBelowTenThousand(digits);
}

/**
 * Money in Chinese capitals, rounded to the fen: 1234.56 → 壹仟贰佰叁拾肆元伍角陆分, 100.05 → 壹佰元零伍分,
 * 0 → 零元整, negatives get 负. Not a finite number → ''.
 */
export function moneyToChinese(value: number | string): string {
  const n = typeof value === 'number' ? value : Number(String(value).trim().replace(/,/g, ''));
  if (!Number.isFinite(n) || (typeof value === 'string' && value.trim() === '')) return '';
  const fixed = Math.abs(n).toFixed(2);
  if (/e/i.test(fixed)) return '';
  const [intPart, fracPart] = fixed.split('.');
  const int = intPart.replace(/^0+/, '');
  const jiao = Number(fracPart[0]);
  const fen = Number(fracPart[1]);
  if (!int && jiao === 0 && fen === 0) return '零元整';
  let out = int ? `${integerCapitals(int)}元` : '';
  if (jiao === 0 && fen === 0) {
    out += '整';
  } else {
    if (jiao > 0) out += `${CN_DIGITS[jiao]}角`;
    else if (int) out += '零';
    if (fen > 0) out += `${CN_DIGITS[fen]}分`;
  }
  return n < 0 ? `负${out}` : out;
}

/** Name masking: keeps the first character, masks the rest (张三丰 → 张**). */
export function maskName(value: string): string {
  const chars = Array.from(value);
  return chars.length <= 1 ? value : chars[0] + '*'.repeat(chars.length - 1);
}

/** Phone masking: first 3 and last 4 digits with **** between (13812345678 → 138****5678). Shorter than 7 → unchanged. */
export function maskPhone(value: string): string {
  return value.length < 7 ? value : `${value.slice(0, 3)}****${value.slice(-4)}`;
}

/** Card / ID number masking: keeps the first 6 and last 3 characters, masks each one between. 9 or fewer → unchanged. */
export function maskCard(value: string): string {
  return value.length <= 9 ? value : value.slice(0, 6) + '*'.repeat(value.length - 9) + value.slice(-3);
}

export type AmountUnit = '亿' | '万' | '元';

/**
 * Amount in the largest fitting unit with 2 decimals: |n| ≥ 1e8 → 亿, ≥ 1e4 → 万, else 元.
 * A value that rounds up to the next unit moves there (99999999 → 1.00亿, not 10000.00万).
 */
export function amountParts(value: number): { value: string; unit: AmountUnit } {
  if (!Number.isFinite(value)) return { value: '', unit: '元' };
  const abs = Math.abs(value);
  const pick = (divisor: number, unit: AmountUnit) => ({ value: (value / divisor).toFixed(2), unit });
  if (abs >= 1e8 || Number((abs / 1e4).toFixed(2)) >= 1e4) return pick(1e8, '亿');
  if (abs >= 1e4 || Number(abs.toFixed(2)) >= 1e4) return pick(1e4, '万');
  const parts = pick(1, '元');
  return parts.value === '-0.00' ? { value: '0.00', unit: '元' } : parts;
}

/** amountParts as one string: 123456789 → '1.23亿', 12345 → '1.23万', 12.3 → '12.30元'. */
export function formatAmount(value: number): string {
  const { value: v, unit } = amountParts(value);
  return v ? v + unit : '';
}

export const COLUMN_WIDTH = { letter: 8, chinese: 25, other: 10, min: 100, max: 650 } as const;

/** Table column width for a cell text: Latin letters 8 px, Chinese 25 px, anything else 10 px; clamped to 100–650. */
export function estimateColumnWidth(text: unknown): number {
  const s = text === null || text === undefined ? '' : String(text);
  let width = 0;
  for (const ch of s) {
    if (/[A-Za-z]/.test(ch)) width += COLUMN_WIDTH.letter;
    else if (/\p{Script=Han}/u.test(ch)) width += COLUMN_WIDTH.chinese;
    else width += COLUMN_WIDTH.other;
  }
  return Math.min(COLUMN_WIDTH.max, Math.max(COLUMN_WIDTH.min, width));
}

/** Width for a column from its title and cell texts: the widest of them. */
export function estimateColumnsWidth(texts: readonly unknown[]): number {
  return texts.reduce<number>((max, t) => Math.max(max, estimateColumnWidth(t)), COLUMN_WIDTH.min);
}

export type GreetingBand =
  | 'dawn'
  | 'morning'
  | 'forenoon'
  | 'noon'
  | 'afternoon'
  | 'dusk'
  | 'evening'
  | 'night';

export const GREETING_ZH: Record<GreetingBand, string> = {
  dawn: '凌晨',
  morning: '早上',
  forenoon: '上午',
  noon: '中午',
  afternoon: '下午',
  dusk: '傍晚',
  evening: '晚上',
  night: '夜里',
};

/** Greeting band of an hour 0–23 (SPEC §8): before 6, 9, 12, 14, 17, 19, 22, else night. */
export function greetingBand(hour: number): GreetingBand {
  if (hour < 6) return 'dawn';
  if (hour < 9) return 'morning';
  if (hour < 12) return 'forenoon';
  if (hour < 14) return 'noon';
  if (hour < 17) return 'afternoon';
  if (hour < 19) return 'dusk';
  if (hour < 22) return 'evening';
  return 'night';
}

/** The zh-CN greeting for a moment in local time, e.g. '上午'. */
export function greetingZh(date: Date = new Date()): string {
  return GREETING_ZH[greetingBand(date.getHours())];
}

const TAB_TITLE_MAX = 10;

/** Tab title: at most 10 characters, longer ones cut to 10 plus '…'. */
export function cutTabTitle(title: string, max: number = TAB_TITLE_MAX): string {
  const chars = Array.from(title);
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : title;
}
