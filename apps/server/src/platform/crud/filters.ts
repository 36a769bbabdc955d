import { type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../db/db.ts';
import { escapeLikeText } from '../db/like.ts';

/**
 * How a declared filter of a page/list/export request narrows the query. The request schema (in contracts)
 * owns the value's shape; the resource declares which column(s) it applies to:
 * - `eq`: column equals the value;
 * - `like`: any of the columns contains the text (case-insensitive, `%` and `_` taken literally);
 * - `prefix`: column starts with the text (`%` and `_` taken literally; case-sensitive, so an index serves it);
 * - `in`: column is one of the values;
 * - `range`: column lies in `[from, to]`; a date-only `to` includes that whole day;
 * - `since` / `until`: one bound of such a range, from its own field (`startTime`, `endTime`).
 * Empty values (undefined, null, '', []) mean "no filter".
 */
export type FilterRule<Column extends string> =
  | { eq: Column }
  | { like: Column | readonly Column[] }
  | { prefix: Column }
  | { in: Column }
  | { range: Column }
  | { since: Column }
  | { until: Column };

/** `yyyy-MM-dd` or `yyyy-MM-dd HH:mm` → a full `yyyy-MM-dd HH:mm:ss`, filled from `end` ('00:00:00' or '23:59:59'). */
const complete = (text: string, end: string) =>
  text.length >= 19 ? text : `${text}${` ${end}`.slice(text.length - 10)}`;

const isEmpty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

// biome-ignore lint/suspicious/noExplicitAny: filters work on any resource table; columns come from typed declarations.
type AnySelect = SelectQueryBuilder<any, any, any>;

export function applyFilters(
  query: AnySelect,
  rules: Record<string, FilterRule<string> | undefined>,
  input: Record<string, unknown>,
  dialect: Dialect,
): AnySelect {
  let qb = query;
  for (const [name, rule] of Object.entries(rules)) {
    const value = input[name];
    if (!rule || isEmpty(value)) continue;
    if ('eq' in rule) {
      qb = qb.where(rule.eq, '=', value);
    } else if ('prefix' in rule) {
      const text = String(value);
      // A range on the column rather than LIKE: it uses the column's index in both dialects.
      qb = qb.where(rule.prefix, '>=', text).where(rule.prefix, '<', `${text}\u{10FFFF}`);
    } else if ('in' in rule) {
      qb = qb.where(rule.in, 'in', value as unknown[]);
    } else if ('like' in rule) {
      const pattern = `%${escapeLikeText(String(value))}%`;
      const op = sql.raw(dialect === 'postgres' ? 'ilike' : 'like');
      const columns: readonly string[] = typeof rule.like === 'string' ? [rule.like] : rule.like;
      qb = qb.where((eb) =>
        eb.or(columns.map((column) => sql<SqlBool>`${sql.ref(column)} ${op} ${pattern} escape '\\'`)),
      );
    } else if ('range' in rule) {
      const [from, to] = value as [string | undefined, string | undefined];
      if (from) qb = qb.where(rule.range, '>=', complete(from, '00:00:00'));
      if (to) qb = qb.where(rule.range, '<=', complete(to, '23:59:59'));
    } else if ('since' in rule) {
      qb = qb.where(rule.since, '>=', complete(String(value), '00:00:00'));
    } else if ('until' in rule) {
      qb = qb.where(rule.until, '<=', complete(String(value), '23:59:59'));
    }
  }
  return qb;
}
