function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || value === '';
}

function appendPairs(pairs: string[], name: string, value: unknown): void {
  if (isEmpty(value)) return;
  if (typeof value === 'object' && !(value instanceof Date)) {
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      appendPairs(pairs, `${name}[${key}]`, inner);
    }
    return;
  }
  const text = value instanceof Date ? value.toISOString() : String(value);
  pairs.push(`${encodeURIComponent(name)}=${encodeURIComponent(text)}`);
}

/** SPEC §7: a GET body becomes a query string, nested objects as `name[key]`, empty values dropped. */
export function buildQueryString(params: Record<string, unknown> | null | undefined): string {
  if (!params) return '';
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(params)) appendPairs(pairs, name, value);
  return pairs.join('&');
}

export function appendQuery(url: string, params: Record<string, unknown> | null | undefined): string {
  const query = buildQueryString(params);
  if (!query) return url;
  return `${url}${url.includes('?') ? '&' : '?'}${query}`;
}
