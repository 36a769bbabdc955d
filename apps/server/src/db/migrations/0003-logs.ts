import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// Migrations are frozen history: helpers live here, not in shared code that may change later.
// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Table = CreateTableBuilder<any, any>;

/** Base and tenant columns (DESIGN §4) plus who acted: every log row has them. */
function logTable(db: Db, name: string): Table {
  return (db.schema.createTable(name) as Table)
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('create_time', 'timestamp', (c) => c.notNull())
    .addColumn('update_time', 'timestamp')
    .addColumn('create_user_id', 'bigint')
    .addColumn('create_user_name', 'varchar(64)')
    .addColumn('update_user_id', 'bigint')
    .addColumn('update_user_name', 'varchar(64)')
    .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('tenant_id', 'bigint', (c) => c.notNull())
    .addColumn('user_id', 'bigint')
    .addColumn('account', 'varchar(64)')
    .addColumn('real_name', 'varchar(64)');
}

const client = (t: Table): Table =>
  t
    .addColumn('ip', 'varchar(64)')
    .addColumn('browser', 'varchar(64)')
    .addColumn('os', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)');

async function indexes(db: Db, table: string, extra: string[] = []) {
  for (const column of ['create_time', 'tenant_id', 'account', ...extra]) {
    await db.schema.createIndex(`ix_${table}_${column}`).on(table).column(column).execute();
  }
}

/**
 * Audit logs (issue 4 §6): visits (sign-in and sign-out), operations (every write), exceptions (5xx with the
 * trace id the client saw) and field diffs of sensitive tables. Written in batches by platform/audit; their
 * menus stay disabled until the web pages exist.
 */
export const m0003Logs: Migration = {
  name: '0003-logs',
  async up(db: Db) {
    await client(logTable(db, 'sys_log_vis'))
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('status', 'smallint', (c) => c.notNull())
      .addColumn('code', 'varchar(16)')
      .addColumn('message', 'varchar(512)')
      .addColumn('elapsed', 'integer')
      .execute();
    await indexes(db, 'sys_log_vis');

    await client(logTable(db, 'sys_log_op'))
      .addColumn('http_method', 'varchar(10)', (c) => c.notNull())
      .addColumn('route_url', 'varchar(256)')
      .addColumn('url', 'varchar(1024)', (c) => c.notNull())
      .addColumn('controller', 'varchar(64)')
      .addColumn('action', 'varchar(64)')
      .addColumn('params', 'text')
      .addColumn('code', 'varchar(16)')
      .addColumn('status', 'smallint', (c) => c.notNull())
      .addColumn('message', 'varchar(512)')
      .addColumn('elapsed', 'integer', (c) => c.notNull())
      .addColumn('trace_id', 'varchar(32)')
      .execute();
    await indexes(db, 'sys_log_op');

    await client(logTable(db, 'sys_log_ex'))
      .addColumn('trace_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('http_method', 'varchar(10)', (c) => c.notNull())
      .addColumn('route_url', 'varchar(256)')
      .addColumn('url', 'varchar(1024)', (c) => c.notNull())
      .addColumn('message', 'text')
      .addColumn('stack', 'text')
      .addColumn('params', 'text')
      .execute();
    await indexes(db, 'sys_log_ex', ['trace_id']);

    await logTable(db, 'sys_log_diff')
      .addColumn('table_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('record_id', 'bigint', (c) => c.notNull())
      .addColumn('operation', 'varchar(16)', (c) => c.notNull())
      .addColumn('before_data', 'text')
      .addColumn('after_data', 'text')
      .addColumn('changed_fields', 'text')
      .addColumn('trace_id', 'varchar(32)')
      .execute();
    await indexes(db, 'sys_log_diff', ['table_name']);
  },
};
