import { type CreateTableBuilder, type Kysely, sql } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// Migrations are frozen history: helpers live here, not in shared code that may change later.
// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Table = CreateTableBuilder<any, any>;

function base(t: Table): Table {
  return t
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('create_time', 'timestamp', (c) => c.notNull())
    .addColumn('update_time', 'timestamp')
    .addColumn('create_user_id', 'bigint')
    .addColumn('create_user_name', 'varchar(64)')
    .addColumn('update_user_id', 'bigint')
    .addColumn('update_user_name', 'varchar(64)')
    .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0));
}

/**
 * Report forms (issue 5, docs/forms.md): forms with their draft and published designs, one row per published
 * version, the registry of physical columns of each form's own data table (`diy_data_<id>`, created on the
 * first publish), every step of every record, serial-number counters, form categories and when each user
 * last opened a form (the tip flag). No menu is switched on here: the pages come with the web app.
 */
export const m0009DiyForms: Migration = {
  name: '0009-diy-forms',
  async up(db: Db) {
    await base(db.schema.createTable('diy_table') as Table)
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(128)', (c) => c.notNull())
      .addColumn('report_type', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('classify_id', 'bigint')
      .addColumn('owner_org_id', 'bigint')
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      // Argon2id hash of the form password; null: no password.
      .addColumn('pwd_hash', 'varchar(256)')
      // JSON audiences (formAudienceSchema) and reviewer ids.
      .addColumn('fillers', 'text', (c) => c.notNull())
      .addColumn('viewers', 'text', (c) => c.notNull())
      .addColumn('reviewer_ids', 'text', (c) => c.notNull())
      .addColumn('needs_review', 'smallint', (c) => c.notNull().defaultTo(1))
      // The design being edited (JSON); null when it equals the published one.
      .addColumn('draft_design', 'text')
      .addColumn('draft_revision', 'integer', (c) => c.notNull().defaultTo(0))
      // Published version (0: never published).
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
      // Extra query fields of the opening (JSON object) and the list's hidden columns (JSON array).
      .addColumn('query', 'text')
      .addColumn('last_update_time', 'timestamp')
      .addColumn('record_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('remark', 'varchar(256)')
      .addColumn('create_org_id', 'bigint')
      .addColumn('create_org_name', 'varchar(128)')
      .addColumn('delete_time', 'timestamp')
      .addColumn('delete_user_name', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('ix_diy_table_tenant')
      .on('diy_table')
      .columns(['tenant_id', 'is_delete', 'order_no'])
      .execute();
    await db.schema
      .createIndex('ix_diy_table_owner')
      .on('diy_table')
      .columns(['tenant_id', 'owner_org_id'])
      .execute();

    await db.schema
      .createTable('diy_table_version')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('design', 'text', (c) => c.notNull())
      .addColumn('publish_user_id', 'bigint')
      .addColumn('publish_user_name', 'varchar(64)')
      .addColumn('publish_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_table_version', ['table_id', 'version'])
      .execute();

    await db.schema
      .createTable('diy_table_column')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('field_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('column_name', 'varchar(40)', (c) => c.notNull())
      // text, integer, decimal, json
      .addColumn('storage_kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('created_version', 'integer', (c) => c.notNull())
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_table_column', ['table_id', 'column_name'])
      .execute();
    await db.schema
      .createIndex('ix_diy_table_column_field')
      .on('diy_table_column')
      .columns(['table_id', 'field_id', 'created_version'])
      .execute();

    await db.schema
      .createTable('diy_record_history')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('record_id', 'bigint', (c) => c.notNull())
      .addColumn('action', 'varchar(32)', (c) => c.notNull())
      // JSON [{field, label, before, after}].
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('comment', 'varchar(1000)')
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'bigint')
      .addColumn('user_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ix_diy_record_history_record')
      .on('diy_record_history')
      .columns(['table_id', 'record_id', 'id'])
      .execute();

    await db.schema
      .createTable('diy_table_seq')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      // The date part of the number ('' when the pattern has none).
      .addColumn('period_key', 'varchar(16)', (c) => c.notNull())
      .addColumn('last_no', 'bigint', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('uq_diy_table_seq', ['table_id', 'period_key'])
      .execute();

    await base(db.schema.createTable('diy_table_classify') as Table)
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('pid', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('icon', 'varchar(128)')
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .addColumn('create_org_id', 'bigint')
      .addColumn('create_org_name', 'varchar(128)')
      .execute();
    await db.schema
      .createIndex('ix_diy_table_classify_tenant')
      .on('diy_table_classify')
      .columns(['tenant_id', 'is_delete', 'order_no'])
      .execute();
    await sql`create unique index uq_diy_table_classify_name on diy_table_classify (tenant_id, pid, name) where is_delete = 0`.execute(
      db,
    );

    await db.schema
      .createTable('diy_table_visit')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('visit_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_table_visit', ['user_id', 'table_id'])
      .execute();
  },
};
