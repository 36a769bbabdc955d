import { PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Dialect } from '../db/db.ts';
import { likeContaining } from '../db/like.ts';
import type { AnyDb, DataColumn } from './data-table.ts';

/**
 * The text-search index of report forms and users (docs/search.md). It only narrows: a search keeps its
 * `LIKE` / `ILIKE` condition and adds "the id is one of the index's candidates", so results, totals, sorting,
 * paging, data scope and deleted rows are those of the plain `LIKE` by construction.
 *
 * - SQLite: an FTS5 table with the trigram tokenizer per form, `diy_fts_<formId>` (contentless, rowid = the
 *   record id, one column per searchable column holding `lower(value)`: ASCII letters folded as `LIKE` folds
 *   them), kept by triggers on the data table, so every write, import, restore and purge updates it in the
 *   writer's own transaction. Users have `sys_user_fts` (account, real name, phone), kept the same way.
 * - PostgreSQL: a `pg_trgm` GIN index per searchable column (`tg_diy_data_<formId>_<column>`), which
 *   PostgreSQL keeps itself; the candidates are read by one `ILIKE` over the indexed columns.
 *
 * A text of fewer than three characters has no trigram: no candidate condition, the plain `LIKE` scans.
 */

const FTS_NAME = /^(?:diy_fts_[1-9][0-9]{0,15}|sys_user_fts)$/;
const TRIGGER_NAME = /^tg_(?:diy_data_[1-9][0-9]{0,15}|sys_user)_(?:ai|ad|au)$/;
const TRGM_INDEX_NAME =
  /^tg_(?:diy_data_[1-9][0-9]{0,15}|sys_user)_(?:data_no|account|real_name|phone|f_[a-z][a-z0-9]{0,23}(?:_[1-9][0-9]{0,3})?)$/;
const PLAIN_COLUMN = /^(?:data_no|account|real_name|phone)$/;
/** A value column of a data table (the pattern of `data-table.ts`, which imports this module). */
const VALUE_COLUMN = /^f_[a-z][a-z0-9]{0,23}(?:_[1-9][0-9]{0,3})?$/;

/** A trigram needs three characters: shorter texts are answered by the plain `LIKE` alone. */
export const MIN_INDEXED_LENGTH = 3;
/** The index narrows with at most this many characters of a longer text (any part of a match narrows as well). */
const INDEXED_WINDOW = 64;

function assertName(name: string, pattern: RegExp): string {
  if (!pattern.test(name)) throw new Error(`text search: refusing identifier ${JSON.stringify(name)}`);
  return name;
}

const column = (name: string) => (PLAIN_COLUMN.test(name) ? name : assertName(name, VALUE_COLUMN));
const safeColumn = (name: string) => assertName(name, VALUE_COLUMN);

function dataTableName(tableId: number): string {
  if (!Number.isSafeInteger(tableId) || tableId <= 0) throw new Error(`text search: bad form id ${tableId}`);
  return `diy_data_${tableId}`;
}

/** The FTS5 table of a form (SQLite). */
export function searchTableName(tableId: number): string {
  return assertName(`diy_fts_${tableId}`, FTS_NAME);
}

/**
 * The columns a form's search covers: the serial number and every text and JSON column of the registry,
 * old ones included (docs/forms.md "Lists": exactly what the keyword reads).
 */
export function searchColumns(columns: readonly DataColumn[]): string[] {
  const own = columns.filter((c) => c.storageKind === 'text' || c.storageKind === 'json');
  return ['data_no', ...own.map((c) => safeColumn(c.columnName))];
}

/** Whether a column of a form is in its search index. */
export function isSearchColumn(c: DataColumn): boolean {
  return c.storageKind === 'text' || c.storageKind === 'json';
}

/** The schema holding `pg_trgm` (its operator class is named through it), or null when not installed. */
async function trgmSchema(db: AnyDb): Promise<string | null> {
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
    join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  return rows[0]?.schema ?? null;
}

/** Creates `pg_trgm` when missing (PostgreSQL; a trusted extension since PostgreSQL 13). */
export async function ensureTrigramExtension(db: AnyDb): Promise<void> {
  if ((await trgmSchema(db)) === null) await sql`create extension if not exists pg_trgm`.execute(db);
}

/** Whether `db` speaks to PostgreSQL (for migrations, which are not told the dialect). */
export function dialectOf(db: AnyDb): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

type Source = { table: string; prefix: string; fts: string; columns: string[] };

/** GIN trigram indexes on the columns (PostgreSQL), created when missing. */
async function ensureTrigramIndexes(db: AnyDb, source: Source): Promise<void> {
  const schema = await trgmSchema(db);
  if (schema === null) throw new Error('text search: the pg_trgm extension is not installed');
  for (const name of source.columns) {
    const index = assertName(`tg_${source.prefix}_${name}`, TRGM_INDEX_NAME);
    await sql`create index if not exists ${sql.id(index)} on ${sql.id(source.table)} using gin (${sql.id(
      column(name),
    )} ${sql.id(schema)}.gin_trgm_ops)`.execute(db);
  }
}

/** The columns an FTS5 table has now (none when it does not exist). */
async function ftsColumns(db: AnyDb, fts: string): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pragma_table_info(${fts})`.execute(db);
  return rows.map((r) => r.name);
}

async function dropFts(db: AnyDb, source: Source): Promise<void> {
  for (const suffix of ['ai', 'ad', 'au']) {
    const trigger = assertName(`tg_${source.prefix}_${suffix}`, TRIGGER_NAME);
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  }
  await sql`drop table if exists ${sql.id(source.fts)}`.execute(db);
}

/**
 * The FTS5 table and its triggers (SQLite): created, or built again when the searchable columns changed
 * (an FTS5 table cannot take a column), filled from the table's rows in the caller's transaction.
 */
async function ensureFts(db: AnyDb, source: Source): Promise<void> {
  const wanted = source.columns.map(column);
  const existing = await ftsColumns(db, source.fts);
  if (existing.length === wanted.length && existing.every((c, i) => c === wanted[i])) return;
  await dropFts(db, source);
  const fts = sql.id(source.fts);
  const table = sql.id(source.table);
  const names = sql.join(wanted.map((c) => sql.id(c)));
  const folded = (row: 'new' | 'old' | null) =>
    sql.join(wanted.map((c) => sql`lower(${row ? sql.raw(`${row}.${c}`) : sql.id(c)})`));
  await sql`create virtual table ${fts} using fts5(${names}, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1)`.execute(
    db,
  );
  await sql`insert into ${fts} (rowid, ${names}) select id, ${folded(null)} from ${table}`.execute(db);
  const trigger = (suffix: string) => sql.id(assertName(`tg_${source.prefix}_${suffix}`, TRIGGER_NAME));
  const insert = sql`insert into ${fts} (rowid, ${names}) values (new.id, ${folded('new')});`;
  const remove = sql`delete from ${fts} where rowid = old.id;`;
  await sql`create trigger ${trigger('ai')} after insert on ${table} begin ${insert} end`.execute(db);
  await sql`create trigger ${trigger('ad')} after delete on ${table} begin ${remove} end`.execute(db);
  await sql`create trigger ${trigger('au')} after update of id, ${names} on ${table} begin ${remove} ${insert} end`.execute(
    db,
  );
}

function formSource(tableId: number, columns: readonly DataColumn[]): Source {
  const table = dataTableName(tableId);
  return { table, prefix: table, fts: searchTableName(tableId), columns: searchColumns(columns) };
}

export const USER_SEARCH_COLUMNS = ['account', 'real_name', 'phone'] as const;
const USER_SOURCE: Source = {
  table: 'sys_user',
  prefix: 'sys_user',
  fts: 'sys_user_fts',
  columns: [...USER_SEARCH_COLUMNS],
};

/**
 * Makes a form's search index match its column registry, in the caller's transaction: at each publish (new
 * columns), on a clone with records and in the migration that brought the index.
 */
export async function ensureSearchIndex(
  db: AnyDb,
  dialect: Dialect,
  tableId: number,
  columns: readonly DataColumn[],
): Promise<void> {
  const source = formSource(tableId, columns);
  await (dialect === 'postgres' ? ensureTrigramIndexes(db, source) : ensureFts(db, source));
}

/** Drops a form's FTS5 table with its data table (SQLite; PostgreSQL's indexes go with the table). */
export async function dropSearchIndex(db: AnyDb, dialect: Dialect, tableId: number): Promise<void> {
  if (dialect === 'sqlite') await dropFts(db, formSource(tableId, []));
}

/** The users' search index (account, real name, phone). */
export async function ensureUserSearchIndex(db: AnyDb, dialect: Dialect): Promise<void> {
  await (dialect === 'postgres' ? ensureTrigramIndexes(db, USER_SOURCE) : ensureFts(db, USER_SOURCE));
}

/** The part of a search text the index narrows with, or null when it cannot (fewer than three characters). */
function indexedText(text: string): string | null {
  const chars = Array.from(text);
  if (chars.length < MIN_INDEXED_LENGTH) return null;
  return chars.slice(0, INDEXED_WINDOW).join('');
}

/** An FTS5 query: the text as one phrase (a substring for the trigram tokenizer), in the given columns. */
function matchQuery(text: string, columns: readonly string[] | null): string {
  const folded = text.replace(/[A-Z]+/g, (s) => s.toLowerCase());
  const phrase = `"${folded.replaceAll('"', '""')}"`;
  return columns ? `{${columns.map(column).join(' ')}} : ${phrase}` : phrase;
}

/**
 * "The row's id is one of the index's candidates" for `text` in `columns`, or null when the index cannot
 * narrow (short text): added beside the search's own LIKE, never instead of it.
 */
function candidates(
  dialect: Dialect,
  source: Source,
  idRef: string,
  text: string,
  only: readonly string[] | null,
): RawBuilder<SqlBool> | null {
  const part = indexedText(text);
  if (part === null) return null;
  const id = sql.ref(idRef);
  if (dialect === 'sqlite') {
    const fts = sql.id(source.fts);
    return sql<SqlBool>`${id} in (select rowid from ${fts} where ${fts} match ${matchQuery(part, only)})`;
  }
  // The candidates as an array built once (an init plan): the bitmap scans of the GIN indexes, never a
  // walk along the id order that a LIMIT could tempt the planner into.
  const pattern = likeContaining(part);
  const ors = sql.join(
    (only ?? source.columns).map((c) => sql`${sql.id(column(c))} ilike ${pattern} escape '\\'`),
    sql` or `,
  );
  return sql<SqlBool>`${id} = any(array(select id from ${sql.id(source.table)} where ${ors}))`;
}

/** Candidates among a form's records for `text`: in all searchable columns (the keyword) or in one. */
export function recordCandidates(
  dialect: Dialect,
  tableId: number,
  columns: readonly DataColumn[],
  text: string,
  only?: DataColumn,
  /** The record id as the outer query names it (`s2.id` in a query report's join). */
  idRef = 'id',
): RawBuilder<SqlBool> | null {
  const source = formSource(tableId, columns);
  return candidates(dialect, source, idRef, text, only ? [safeColumn(only.columnName)] : null);
}

/** Candidates among users for a keyword (account, real name, phone). */
export function userCandidates(dialect: Dialect, idRef: string, text: string): RawBuilder<SqlBool> | null {
  return candidates(dialect, USER_SOURCE, idRef, text, null);
}
