import { HttpError } from '../http/http-client.ts';

export type FieldError = { name: string; errors: string[] };

/** `body.Code`, `Code`, `code` all name the form field `code`. */
function fieldKey(key: string): string {
  const last = key.split('.').pop() ?? key;
  return last.toLowerCase();
}

/**
 * Server validation failures (code 400, `errors: { field: [messages] }`) matched to the form's fields,
 * case-insensitively; messages for fields the form does not have are returned apart so the caller can
 * toast them.
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
    const name = byKey.get(fieldKey(key));
    if (name) fields.push({ name, errors: messages });
    else rest.push(...messages);
  }
  return { fields, rest };
}
