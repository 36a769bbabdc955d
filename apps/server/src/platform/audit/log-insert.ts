import { CompiledQuery, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { sqliteHandle } from '../db/db.ts';
import { isDatabaseUnavailable } from '../db/db.ts';

export type LogTable = 'sys_log_vis' | 'sys_log_op' | 'sys_log_ex' | 'sys_log_diff';
export type LogRow<T extends LogTable> = Insertable<Database[T]>;

const BASE = [
  'id',
  'create_time',
  'update_time',
  'create_user_id',
  'create_user_name',
  'update_user_id',
  'update_user_name',
  'is_delete',
  'tenant_id',
  'user_id',
  'account',
  'real_name',
] as const;
const CLIENT = ['ip', 'browser', 'os', 'user_agent'] as const;

/** Every column of each log table, in one fixed order: the writer binds rows by these lists. */
export const LOG_COLUMNS = {
  sys_log_vis: [...BASE, ...CLIENT, 'action', 'status', 'code', 'message', 'elapsed'],
  sys_log_op: [
    ...BASE,
    ...CLIENT,
    'http_method',
    'route_url',
    'url',
    'controller',
    'action',
    'params',
    'code',
    'status',
    'message',
    'elapsed',
    'trace_id',
  ],
  sys_log_ex: [
    ...BASE,
    ...CLIENT,
    'trace_id',
    'http_method',
    'route_url',
    'url',
    'message',
    'stack',
    'params',
  ],
  sys_log_diff: [
    ...BASE,
    'table_name',
    'record_id',
    'operation',
    'before_data',
    'after_data',
    'changed_fields',
    'trace_id',
  ],
} as const satisfies { [T in LogTable]: readonly (keyof Database[T] & string)[] };

export const LOG_TABLES = Object.keys(LOG_COLUMNS) as LogTable[];

/** Rows per PostgreSQL INSERT: 500 × ~27 columns stays far below its 65,535 bound parameters. */
const PG_CHUNK = 500;

export type Row = Record<string, unknown>;

/** Rows not written because the database could not be reached: they go back to the queue. */
export class Unwritten extends Error {
  constructor(
    readonly rows: Row[],
    cause: unknown,
  ) {
    super('database unavailable', { cause });
  }
}

/** Called for rows the database refused (a bad row, not an outage): counted and logged by the writer. */
export type Refused = (table: LogTable, count: number, error: unknown) => void;

/** A column's value; `is_delete` is the one NOT NULL column with a default, which a NULL would break. */
const columnValue = (row: Row, column: string): unknown => row[column] ?? (column === 'is_delete' ? 0 : null);

const insertSql = (table: LogTable, rows: number, placeholder: (n: number) => string) => {
  const columns = LOG_COLUMNS[table];
  let n = 0;
  const tuples = Array.from({ length: rows }, () => `(${columns.map(() => placeholder(++n)).join(', ')})`);
  return `insert into ${table} (${columns.join(', ')}) values ${tuples.join(', ')}`;
};

/**
 * SQLite: one prepared single-row INSERT per table, bound from a reused array. A batch goes in one transaction;
 * when it is refused the transaction is undone and the rows are tried alone, so a bad row costs only itself.
 */
export function sqliteLogInserter(db: NonNullable<ReturnType<typeof sqliteHandle>>, refused: Refused) {
  const statements = new Map<LogTable, { run(values: unknown[]): unknown }>();
  const buffers = new Map<LogTable, unknown[]>();
  return function write(table: LogTable, rows: Row[]): void {
    let statement = statements.get(table);
    if (!statement) {
      statement = db.prepare(insertSql(table, 1, () => '?'));
      statements.set(table, statement);
      buffers.set(table, new Array(LOG_COLUMNS[table].length));
    }
    const columns = LOG_COLUMNS[table];
    const values = buffers.get(table) as unknown[];
    const insert = statement;
    const runOne = (row: Row) => {
      for (let c = 0; c < columns.length; c++) values[c] = columnValue(row, columns[c] as string);
      insert.run(values);
    };
    try {
      db.transaction(() => {
        for (const row of rows) runOne(row);
      })();
    } catch (error) {
      if (rows.length === 1) {
        refused(table, 1, error);
        return;
      }
      for (const row of rows) {
        try {
          runOne(row);
        } catch (rowError) {
          refused(table, 1, rowError);
        }
      }
    }
  };
}

/**
 * PostgreSQL: one multi-row INSERT per chunk through the pool, its SQL text built once per chunk size instead
 * of compiled by Kysely row by row. A refused chunk is tried row by row; an unreachable database throws
 * `Unwritten` with the rows not yet written.
 */
export function postgresLogInserter(db: Kysely<Database>, refused: Refused) {
  const texts = new Map<string, string>();
  return async function write(table: LogTable, rows: Row[]): Promise<void> {
    const columns = LOG_COLUMNS[table];
    for (let i = 0; i < rows.length; i += PG_CHUNK) {
      const chunk = rows.slice(i, i + PG_CHUNK);
      const signature = `${table}:${chunk.length}`;
      let text = texts.get(signature);
      if (!text) {
        text = insertSql(table, chunk.length, (n) => `$${n}`);
        // Full batches and the odd remainder: keep the texts of the recent sizes only.
        if (texts.size > 64) texts.clear();
        texts.set(signature, text);
      }
      const values: unknown[] = [];
      for (const row of chunk) for (const column of columns) values.push(columnValue(row, column));
      try {
        await db.executeQuery(CompiledQuery.raw(text, values));
      } catch (error) {
        if (isDatabaseUnavailable(error)) throw new Unwritten(rows.slice(i), error);
        if (chunk.length === 1) {
          refused(table, 1, error);
          continue;
        }
        for (let j = 0; j < chunk.length; j++) {
          try {
            await write(table, [chunk[j] as Row]);
          } catch (rowError) {
            if (rowError instanceof Unwritten) throw new Unwritten(rows.slice(i + j), rowError.cause);
            throw rowError;
          }
        }
      }
    }
  };
}
