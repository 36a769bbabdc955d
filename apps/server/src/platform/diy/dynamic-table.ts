import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type DataRow, dataTableName } from './data-table.ts';

/**
 * The per-form data tables as the query builder sees them (docs/forms.md "Storage"). They are created at run
 * time, so the static schema (`db/schema.ts`) does not list them; this view adds them: every
 * `diy_data_<formId>` is a `DataRow`, whose system columns (`id`, `status`, `create_org_id`, …) have their
 * types and whose value columns (`f_…`, named only at run time, always through `safeColumn`) are `unknown`.
 * A condition on a system column is checked (`where('is_delete', '=', 'x')` does not compile); a value column
 * is reached with `sql.ref(safeColumn(name))`. Writes go through `insertRecord` / `updateRecords`, which type
 * the system columns and take the value columns as a `Record<string, unknown>`.
 *
 * Kysely maps the selected row type over its keys, and the index signature of the value columns swallows the
 * system columns' types there: whole rows are read with `.selectAll().$castTo<DataRow>()`.
 */

/** A form's data table as the query builder names it. */
export type DataTableName = `diy_data_${number}`;

/** The static schema plus every form's data table. */
export type DataDatabase = Database & { [table: DataTableName]: DataRow };

/** A database (or a transaction) with the data tables in view. */
export type DataDb = Kysely<DataDatabase>;

/** The system columns of a data table: a `DataRow` without its value columns. */
export type SystemColumns = {
  [K in keyof DataRow as string extends K ? never : number extends K ? never : K]: DataRow[K];
};

/** The system columns a new record is written with (the others take their defaults or null). */
export type NewRecord = Pick<
  SystemColumns,
  'id' | 'tenant_id' | 'version' | 'status' | 'create_time' | 'is_delete' | 'is_zero' | 'late'
> &
  Partial<SystemColumns>;

/** `db` with the data tables in view: the same connection or transaction, only its static type grows. */
export function withDataTables(db: Kysely<Database>): DataDb {
  // The only cast of the data tables: the tables exist at run time, the schema type cannot list them.
  return db as unknown as DataDb;
}

/** The data table of a form, as `withDataTables` types it. */
export function formTable(formId: number): DataTableName {
  return dataTableName(formId) as DataTableName;
}

/** The records of a form (every row: callers add `is_delete`, tenant and reach conditions). */
export function recordsOf(db: Kysely<Database>, formId: number) {
  return withDataTables(db).selectFrom(formTable(formId));
}

/** Inserts one record: its system columns checked, its value columns (`toColumnValues`) as they come. */
export function insertRecord(
  db: Kysely<Database>,
  formId: number,
  row: NewRecord,
  values: Record<string, unknown> = {},
) {
  return withDataTables(db)
    .insertInto(formTable(formId))
    .values({ ...values, ...row });
}

/** Updates records of a form (the caller adds the `where`): system columns checked, value columns as they come. */
export function updateRecords(
  db: Kysely<Database>,
  formId: number,
  set: Partial<SystemColumns>,
  values: Record<string, unknown> = {},
) {
  return withDataTables(db)
    .updateTable(formTable(formId))
    .set({ ...values, ...set });
}
