import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Query reports (issue 21 §1, docs/query-reports.md): `diy_table.query_config` holds the JSON config of a report
 * item of type 3 (its sources, columns, parameters, grouping, sorting, chart). A query report has no design and no
 * records of its own; its rows are read from its sources' data tables on every call.
 */
export const m0022QueryReports: Migration = {
  name: '0022-query-reports',
  async up(db: Db) {
    await db.schema.alterTable('diy_table').addColumn('query_config', 'text').execute();
  },
};
