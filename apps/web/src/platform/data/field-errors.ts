import { HttpError } from '../http/http-client.ts';

/** A form field's name: a top-level name, or the path of a nested one (array indexes as numbers). */
export type FieldName = string | (string | number)[];
export type FieldError = { name: FieldName; errors: string[] };

/**
 * The form field a server key names. `body.Code`, `Code`, `code` all name the top-level field `code` (the last
 * segment, as before); otherwise a dotted path whose segment is one of the form's fields names the nested field
 * below it: `urge.beforeDays.1` (or `body.urge.beforeDays.1`, `urge.beforeDays[1]`) is `['urge', 'beforeDays', 1]`
 * when the form has `urge`.
 */
function fieldName(key: string, byKey: ReadonlyMap<string, string>): FieldName | undefined {
  const segments = key
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '');
  const last = segments.at(-1);
  const top = last === undefined ? undefined : byKey.get(last.toLowerCase());
  if (top) return top;
  for (let i = 0; i < segments.length - 1; i++) {
    const root = byKey.get((segments[i] as string).toLowerCase());
    if (root) return [root, ...segments.slice(i + 1).map((s) => (/^\d+$/.test(s) ? Number(s) : s))];
  }
  return undefined;
}

/**
 * Server validation failures (code 400, `errors: { field: [messages] }`) matched to the form's fields,
 * case-insensitively, nested paths under their field (see `fieldName`); messages for fields the form does not
 * have are returned apart so the caller can toast them.
 */
export function serverFieldErrors(
  error: unknown,
  formFields: readonly string[],
): { fields: FieldError[]; rest: string[] } {
  if (!(error instanceof HttpError) || !error.errors || typeof error.errors === 'string') {
    return { fields: [], rest: [] };
  }
  const byKey = new Map(formFields.map((name) => [name.toLowerCase(), name]));
  const fields: FieldError[] = [];
  const rest: string[] = [];
  for (const [key, value] of Object.entries(error.errors)) {
    const messages = [value].flat().filter(Boolean);
    const name = fieldName(key, byKey);
    if (name) fields.push({ name, errors: messages });
    else rest.push(...messages);
  }
  return { fields, rest };
}
