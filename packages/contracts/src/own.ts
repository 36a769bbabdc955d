/**
 * `record[key]` for a caller-given key, reading own properties only: `__proto__`, `constructor` or
 * `toString` find nothing instead of Object.prototype's members (DESIGN §3.15).
 */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
