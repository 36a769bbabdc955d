/**
 * Format checks shared by the web forms and the server schemas (SPEC §5). Pure functions: every check
 * takes whatever the caller has (`unknown`) and answers false for anything that is not a string.
 */

const isString = (value: unknown): value is string => typeof value === 'string';

/** Mobile: 12x, 13x, 145, 147, 15x or 18x, then 8 digits (11 digits in all). */
export const MOBILE_PATTERN = /^1(?:2\d|3\d|4[57]|5\d|8\d)\d{8}$/;
export function isMobile(value: unknown): boolean {
  return isString(value) && MOBILE_PATTERN.test(value);
}

/** Landline: a 3-digit area code with an 8-digit number, or a 4-digit area code with a 7-digit number; the area code and its dash may be left out. */
const LANDLINE_PATTERN = /^(?:(?:\d{3}-)?\d{8}|(?:\d{4}-)?\d{7})$/;
export function isLandline(value: unknown): boolean {
  return isString(value) && LANDLINE_PATTERN.test(value);
}

/** Account name: a letter, then 4–15 letters, digits or underscores (5–16 in all). */
export const ACCOUNT_PATTERN = /^[A-Za-z]\w{4,15}$/;
export function isAccount(value: unknown): boolean {
  return isString(value) && ACCOUNT_PATTERN.test(value);
}

/** The alternative account rule of SPEC §5: a letter, then 5–15 word characters (6–16 in all). */
const ACCOUNT_ALT_PATTERN = /^[A-Za-z]\w{5,15}$/;
export function isAccountAlt(value: unknown): boolean {
  return isString(value) && ACCOUNT_ALT_PATTERN.test(value);
}

/**
 * Strong password (SPEC §5): 12–16 characters mixing all three kinds letter, digit and one of the
 * symbols `~!@#$%^&.*`. Other characters are allowed but count for no kind. Agrees with
 * `checkPassword(pw, true)` of password.ts.
 */
export function isStrongPassword(value: unknown): boolean {
  if (!isString(value)) return false;
  const length = Array.from(value).length;
  if (length < 12 || length > 16) return false;
  return /[A-Za-z]/.test(value) && /\d/.test(value) && /[~!@#$%^&.*]/.test(value);
}

export type PasswordStrength = 'weak' | 'medium' | 'strong';
export const PASSWORD_STRENGTH_ZH: Record<PasswordStrength, string> = {
  weak: '弱',
  medium: '中',
  strong: '强',
};

/**
 * Grades a password of 6–16 characters; anything shorter, longer or not a string is `null` (not gradable).
 * Kinds are lower-case letters, upper-case letters, digits and everything else (symbols):
 * - one kind → weak;
 * - two kinds, or three or more kinds in fewer than 10 characters → medium;
 * - three or more kinds in 10 characters or more → strong.
 */
export function passwordStrength(value: unknown): PasswordStrength | null {
  if (!isString(value)) return null;
  const length = Array.from(value).length;
  if (length < 6 || length > 16) return null;
  const kinds = [/[a-z]/, /[A-Z]/, /\d/, /[^A-Za-z\d]/].filter((re) => re.test(value)).length;
  if (kinds <= 1) return 'weak';
  if (kinds === 2 || length < 10) return 'medium';
  return 'strong';
}

/** Form (report) password: 6–12 characters (SPEC §5). */
const FORM_PASSWORD_MIN = 6;
const FORM_PASSWORD_MAX = 12;
export function isFormPassword(value: unknown): boolean {
  return formPasswordProblem(value) === null;
}
/** Why a form password is refused: `empty` (密码不能为空) or `length` (密码长度6~12个字符); null when fine. */
export function formPasswordProblem(value: unknown): 'empty' | 'length' | null {
  if (!isString(value) || value.length === 0) return 'empty';
  const length = Array.from(value).length;
  return length < FORM_PASSWORD_MIN || length > FORM_PASSWORD_MAX ? 'length' : null;
}

/** Dotted-quad IPv4; each part 0–255 without leading zeros. */
const IPV4_PATTERN = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
export function isIPv4(value: unknown): boolean {
  return isString(value) && IPV4_PATTERN.test(value);
}

/** E-mail: local part of word characters and `.%+-` (no leading, trailing or double dot), a dotted domain with a 2+ letter top level. */
const EMAIL_PATTERN = /^[\w%+-]+(?:\.[\w%+-]+)*@(?:[A-Za-z\d](?:[A-Za-z\d-]*[A-Za-z\d])?\.)+[A-Za-z]{2,}$/;
export function isEmail(value: unknown): boolean {
  return isString(value) && value.length <= 254 && EMAIL_PATTERN.test(value);
}

/** Six-digit postcode. */
const POSTCODE_PATTERN = /^\d{6}$/;
export function isPostcode(value: unknown): boolean {
  return isString(value) && POSTCODE_PATTERN.test(value);
}

/**
 * Absolute http(s) or ftp URL: optional user info, a host (domain with a letter top level, `localhost`,
 * IPv4 or bracketed IPv6), optional port, then path, query or fragment without white space.
 */
const URL_PATTERN =
  /^(?:https?|ftp):\/\/(?:[^\s:@/]+(?::[^\s@/]*)?@)?(?:(?:[\p{L}\d](?:[\p{L}\d-]*[\p{L}\d])?\.)+\p{L}{2,}|localhost|(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)|\[[\da-f:.]+\])(?::\d{1,5})?(?:[/?#]\S*)?$/iu;
export function isUrl(value: unknown): boolean {
  return isString(value) && URL_PATTERN.test(value);
}

/** Chinese name: 1–6 Chinese characters, optionally followed by up to two more `·`-separated parts of 1–6 (e.g. 买买提·艾力). */
const CHINESE_NAME_PATTERN = /^\p{Script=Han}{1,6}(?:·\p{Script=Han}{1,6}){0,2}$/u;
export function isChineseName(value: unknown): boolean {
  return isString(value) && CHINESE_NAME_PATTERN.test(value);
}

const PLATE_PROVINCES = '京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼';
/**
 * Chinese licence plate: a province character and an issuing-office letter (I and O are never used), then
 * - a 5-character ordinary serial of letters/digits, the last one possibly 挂/学/警/港/澳 (7 characters), or
 * - a new-energy serial (8 characters): small cars an energy letter A–H, J or K, a letter or digit and 4
 *   digits; large vehicles 5 digits and D or F.
 */
const LICENSE_PLATE_PATTERN = new RegExp(
  `^[${PLATE_PROVINCES}][A-HJ-NP-Z](?:[A-HJ-NP-Z\\d]{4}[A-HJ-NP-Z\\d挂学警港澳]|[A-HJK][A-HJ-NP-Z\\d]\\d{4}|\\d{5}[DF])$`,
);
export function isLicensePlate(value: unknown): boolean {
  return isString(value) && LICENSE_PLATE_PATTERN.test(value);
}

/** First two digits of a resident ID number: province-level division codes. */
const ID_PROVINCES = new Set([
  11, 12, 13, 14, 15, 21, 22, 23, 31, 32, 33, 34, 35, 36, 37, 41, 42, 43, 44, 45, 46, 50, 51, 52, 53, 54, 61,
  62, 63, 64, 65, 71, 81, 82, 83,
]);
const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK_CHARS = '10X98765432';

/** The check character (GB 11643) of the first 17 digits of a resident ID number. */
export function idCardCheckChar(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new RangeError('idCardCheckChar needs exactly 17 digits');
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(first17[i]) * ID_WEIGHTS[i];
  return ID_CHECK_CHARS[sum % 11];
}

export type IdCardInfo = {
  /** yyyy-MM-dd */
  birthDate: string;
  /** 1 male (odd 17th digit), 2 female — the values of the `sex` dictionary. */
  sex: 1 | 2;
  /** Full years at the reference date. */
  age: number;
};

function localDateParts(date: Date): [number, number, number] {
  return [date.getFullYear(), date.getMonth() + 1, date.getDate()];
}

/**
 * Reads an 18-digit resident ID number (a final `x` counts as `X`): province, a real birth date not after
 * `today`, and the check character must all be right. Returns null when the number is not valid.
 */
export function parseIdCard(value: unknown, today: Date = new Date()): IdCardInfo | null {
  if (!isString(value) || !/^\d{17}[\dXx]$/.test(value)) return null;
  if (!ID_PROVINCES.has(Number(value.slice(0, 2)))) return null;
  if (idCardCheckChar(value.slice(0, 17)) !== value[17].toUpperCase()) return null;
  const year = Number(value.slice(6, 10));
  const month = Number(value.slice(10, 12));
  const day = Number(value.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || birth.getUTCMonth() !== month - 1 || birth.getUTCDate() !== day) return null;
  const [ty, tm, td] = localDateParts(today);
  if (year > ty || (year === ty && (month > tm || (month === tm && day > td)))) return null;
  const age = ty - year - (tm < month || (tm === month && td < day) ? 1 : 0);
  return {
    birthDate: `${value.slice(6, 10)}-${value.slice(10, 12)}-${value.slice(12, 14)}`,
    sex: Number(value[16]) % 2 === 1 ? 1 : 2,
    age,
  };
}

export function isIdCard(value: unknown, today: Date = new Date()): boolean {
  return parseIdCard(value, today) !== null;
}

const CREDIT_CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const CREDIT_CODE_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

/** The check character (GB 32100) of the first 17 characters of a unified social credit code. */
export function creditCodeCheckChar(first17: string): string {
  if (!new RegExp(`^[${CREDIT_CODE_CHARS}]{17}$`).test(first17)) {
    throw new RangeError('creditCodeCheckChar needs 17 code characters');
  }
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += CREDIT_CODE_CHARS.indexOf(first17[i]) * CREDIT_CODE_WEIGHTS[i];
  return CREDIT_CODE_CHARS[(31 - (sum % 31)) % 31];
}

/** Unified social credit code (统一社会信用代码) of an enterprise or institution, 18 characters with its check character. */
export function isCreditCode(value: unknown): boolean {
  if (!isString(value) || !new RegExp(`^[${CREDIT_CODE_CHARS}]{18}$`).test(value)) return false;
  return creditCodeCheckChar(value.slice(0, 17)) === value[17];
}
