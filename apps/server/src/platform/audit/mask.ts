/** Keys whose values never reach a log: passwords, secrets, tokens, captcha and verification codes. */
const SECRET_KEY =
  /pass(word)?|pwd|secret|token|captcha|^sign$|signature|privateKey|(verify|verification|sms|otp|auth)code/i;
/** A bare `code` is a captcha answer when it travels with a `codeId` (login); elsewhere it is a business code. */
const CAPTCHA_PAIR = /^code$/i;

export const MASK = '******';

/** Whether a field's value must not be logged (a password hash, a secret). */
export const isSecretKey = (key: string): boolean => SECRET_KEY.test(key);
export const PARAMS_LIMIT = 8 * 1024;
const STRING_LIMIT = 1024;
const ARRAY_LIMIT = 100;
const DEPTH_LIMIT = 6;

// Field names repeat from request to request: remember what the regex said about each (bounded).
const secretKeys = new Map<string, boolean>();
const SECRET_KEYS_LIMIT = 2048;

function secretKey(key: string, pair: boolean): boolean {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = SECRET_KEY.test(key);
    if (secretKeys.size < SECRET_KEYS_LIMIT) secretKeys.set(key, secret);
  }
  return secret || (pair && CAPTCHA_PAIR.test(key));
}

const hidden = (v: unknown) => v !== null && v !== undefined && v !== '';

function isPlainObject(value: object): value is Record<string, unknown> {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether `mask` would leave the value as it is (no secret with a value, no long string or array, not too deep,
 * nothing but plain objects and arrays): then its JSON is written straight away, without a masked copy.
 */
function untouched(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.length <= STRING_LIMIT;
  if (value === null || typeof value !== 'object') return true;
  if (depth >= DEPTH_LIMIT) return false;
  if (Array.isArray(value)) {
    if (value.length > ARRAY_LIMIT) return false;
    for (let i = 0; i < value.length; i++) if (!untouched(value[i], depth + 1)) return false;
    return true;
  }
  if (!isPlainObject(value)) return false;
  const pair = 'codeId' in value;
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const v = value[key];
    if (secretKey(key, pair) && hidden(v)) return false;
    if (!untouched(v, depth + 1)) return false;
  }
  return true;
}

function mask(value: unknown, depth: number): unknown {
  if (typeof value === 'string')
    return value.length > STRING_LIMIT ? `${value.slice(0, STRING_LIMIT)}…` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth >= DEPTH_LIMIT) return '…';
  if (Array.isArray(value)) {
    const items = value.slice(0, ARRAY_LIMIT).map((v) => mask(v, depth + 1));
    if (value.length > ARRAY_LIMIT) items.push(`… ${value.length - ARRAY_LIMIT} more`);
    return items;
  }
  const record = value as Record<string, unknown>;
  const pair = 'codeId' in record;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(record)) {
    out[key] = secretKey(key, pair) && hidden(v) ? MASK : mask(v, depth + 1);
  }
  return out;
}

/**
 * Request parameters as JSON for a log: secret values replaced by `******` at any depth (the structure stays),
 * long strings and arrays shortened; when the JSON still exceeds ~8 KB it is cut and ends in `…`.
 */
export function maskParams(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return null;
  // Most writes carry no secret and nothing long: skip the copy.
  const json = JSON.stringify(untouched(value, 0) ? value : mask(value, 0));
  return json.length > PARAMS_LIMIT ? `${json.slice(0, PARAMS_LIMIT)}…` : json;
}
