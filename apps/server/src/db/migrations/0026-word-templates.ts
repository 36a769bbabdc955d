import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Word documents (issue 21 §3, docs/word-documents.md):
 * - `diy_word_template`: a .docx template of a source item (`table_id`: a report form, a roll-up or a query
 *   report), its file in `sys_file` and the placeholders it uses (JSON list), checked at upload.
 * - `diy_word_output`: every generated document (or .zip of a period), its file in `sys_file`, what it was made
 *   from (a record, a period) and how many documents it holds.
 */
export const m0026WordTemplates: Migration = {
  name: '0026-word-templates',
  async up(db: Db) {
    await db.schema
      .createTable('diy_word_template')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('file_id', 'bigint', (c) => c.notNull())
      .addColumn('placeholders', 'text', (c) => c.notNull())
      .addColumn('remark', 'varchar(256)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('create_org_id', 'bigint')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ix_diy_word_template_tenant')
      .on('diy_word_template')
      .columns(['tenant_id', 'is_delete', 'table_id'])
      .execute();

    await db.schema
      .createTable('diy_word_output')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('template_id', 'bigint', (c) => c.notNull())
      // record, batch, bulletin
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('file_id', 'bigint', (c) => c.notNull())
      .addColumn('doc_count', 'integer', (c) => c.notNull())
      .addColumn('record_id', 'bigint')
      .addColumn('period_id', 'bigint')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('ix_diy_word_output_template')
      .on('diy_word_output')
      .columns(['template_id', 'id'])
      .execute();
  },
};
