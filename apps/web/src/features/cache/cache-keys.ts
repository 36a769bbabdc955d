import { CACHE_PREFIX_MIN } from '@shuzhi/contracts/server';

/** A namespace group of keys: the text up to and including the first `:` (or the whole key). */
export type KeyGroup = { prefix: string; count: number };

export function groupOf(key: string): string {
  const at = key.indexOf(':');
  return at < 0 ? key : key.slice(0, at + 1);
}

/** Groups with their key counts, the largest first, then by name. */
export function keyGroups(keys: readonly string[]): KeyGroup[] {
  const counts = new Map<string, number>();
  for (const key of keys) counts.set(groupOf(key), (counts.get(groupOf(key)) ?? 0) + 1);
  return [...counts]
    .map(([prefix, count]) => ({ prefix, count }))
    .sort((a, b) => b.count - a.count || a.prefix.localeCompare(b.prefix));
}

/** Keys in `group` (when set) containing `search` (case-insensitive). */
export function filterKeys(keys: readonly string[], search: string, group: string | null): string[] {
  const needle = search.trim().toLowerCase();
  return keys.filter(
    (key) => (!group || key.startsWith(group)) && (!needle || key.toLowerCase().includes(needle)),
  );
}

/** The prefix "delete by prefix" would use: the selected group, else the search text; null when too short. */
export function deletablePrefix(search: string, group: string | null): string | null {
  const prefix = group ?? search.trim();
  return prefix.length >= CACHE_PREFIX_MIN ? prefix : null;
}
