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
    const secret = SECRET_KEY.test(key) || (pair && CAPTCHA_PAIR.test(key));
    out[key] = secret && v !== null && v !== undefined && v !== '' ? MASK : mask(v, depth + 1);
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
  const json = JSON.stringify(mask(value, 0));
  return json.length > PARAMS_LIMIT ? `${json.slice(0, PARAMS_LIMIT)}…` : json;
}
