import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Public statements and custom scenes (issue 22 §2, docs/no-login.md):
 * - `sys_statement`: a published view of a form's filed records (`kind` dataset, `filter` a JSON of record
 *   filters) or of one record (`kind` record), showing the fields listed in `fields` (JSON array of field ids),
 *   until `expire_time` unless withdrawn. Its code (`/statement?loadCodedate=…`) is signed from the row, not
 *   stored.
 * - `sys_scene`: a scene page (`/customScene?id=…`, its signed code): title, banner (a `sys_file` image), intro
 *   and `entries` (JSON: fill links, statements, external addresses).
 * Both count the openings of their public page in `view_count`. The menus are inserted by the seed.
 */
export const m0027PublicStatementsScenes: Migration = {
  name: '0027-public-statements-scenes',
  async up(db: Db) {
    await db.schema
      .createTable('sys_statement')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      .addColumn('intro', 'varchar(2000)')
      // dataset, record
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('record_id', 'bigint')
      .addColumn('fields', 'text', (c) => c.notNull())
      .addColumn('filter', 'text')
      .addColumn('expire_time', 'timestamp', (c) => c.notNull())
      .addColumn('withdraw_time', 'timestamp')
      .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('update_time', 'timestamp')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ix_sys_statement_tenant')
      .on('sys_statement')
      .columns(['tenant_id', 'is_delete', 'id'])
      .execute();

    await db.schema
      .createTable('sys_scene')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      .addColumn('intro', 'varchar(2000)')
      .addColumn('banner_file_id', 'bigint')
      .addColumn('entries', 'text', (c) => c.notNull())
      .addColumn('expire_time', 'timestamp', (c) => c.notNull())
      .addColumn('withdraw_time', 'timestamp')
      .addColumn('view_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('update_time', 'timestamp')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ix_sys_scene_tenant')
      .on('sys_scene')
      .columns(['tenant_id', 'is_delete', 'id'])
      .execute();
  },
};
