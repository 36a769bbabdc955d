import { type Kysely, sql } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

const DATA_TABLE = /^diy_data_[1-9][0-9]{0,15}$/;

/** 填报周期 and the roll-up page (数据加载) now exist in the web app. */
const ENABLED_MENUS = ['diyReportPeriod', 'diyLoadTable'];

/**
 * Reporting periods, roll-ups and Excel import (issue 6, docs/periods.md, docs/import.md):
 * - `diy_table.period` (JSON period settings) and `diy_table.rollup` (JSON roll-up config of report type 2);
 * - `diy_table_period`: one row per period of a form (unique key per form), with its dates, the version its
 *   records are filed with, and whether it is closed; `diy_table_period_log`: every create, change, close and
 *   reopen;
 * - every form data table gets `period_id`, `is_zero` (a zero report) and `late` (submitted after the due
 *   date), and an index for the lists and roll-ups of one period;
 * - `diy_import_job`: Excel imports being checked or confirmed (their staged rows live in files).
 * 填报周期 and the roll-up page are switched on, with their buttons.
 */
export const m0012DiyPeriodsRollupsImport: Migration = {
  name: '0012-diy-periods-rollups-import',
  async up(db: Db) {
    await db.schema.alterTable('diy_table').addColumn('period', 'text').execute();
    await db.schema.alterTable('diy_table').addColumn('rollup', 'text').execute();

    await db.schema
      .createTable('diy_table_period')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('period_key', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('start_date', 'varchar(10)', (c) => c.notNull())
      .addColumn('end_date', 'varchar(10)', (c) => c.notNull())
      .addColumn('due_date', 'varchar(10)', (c) => c.notNull())
      .addColumn('grace_until', 'varchar(10)')
      .addColumn('reopen_until', 'varchar(10)')
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('closed', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('close_time', 'timestamp')
      .addColumn('close_user_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint')
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('update_time', 'timestamp')
      .addUniqueConstraint('uq_diy_table_period', ['table_id', 'period_key'])
      .execute();
    await db.schema
      .createIndex('ix_diy_table_period_start')
      .on('diy_table_period')
      .columns(['table_id', 'start_date'])
      .execute();

    await db.schema
      .createTable('diy_table_period_log')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('period_id', 'bigint', (c) => c.notNull())
      // create, update, close, reopen
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('comment', 'varchar(500)')
      // JSON [{field, before, after}]
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('user_id', 'bigint')
      .addColumn('user_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ix_diy_table_period_log_period')
      .on('diy_table_period_log')
      .columns(['period_id', 'id'])
      .execute();

    // A form has its data table from its first publish until it is purged (which deletes the form's row too),
    // so the published forms name exactly the data tables of this schema. (Introspection would also list the
    // tables of other PostgreSQL schemas of the same database.)
    const published = await db.selectFrom('diy_table').select('id').where('version', '>', 0).execute();
    for (const { id } of published) {
      const name = `diy_data_${id}`;
      if (!DATA_TABLE.test(name)) continue;
      await db.schema.alterTable(name).addColumn('period_id', 'bigint').execute();
      await db.schema
        .alterTable(name)
        .addColumn('is_zero', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable(name)
        .addColumn('late', 'smallint', (c) => c.notNull().defaultTo(0))
        .execute();
      await sql`create index if not exists ${sql.id(`ix_${name}_period`)} on ${sql.id(name)} (tenant_id, is_delete, period_id, create_org_id)`.execute(
        db,
      );
    }

    await db.schema
      .createTable('diy_import_job')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('period_id', 'bigint')
      .addColumn('file_name', 'varchar(256)', (c) => c.notNull())
      // checking, checked, importing, done, failed, cancelled
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('processed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('total', 'integer')
      .addColumn('valid_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('invalid_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('duplicate_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('inserted', 'integer', (c) => c.notNull().defaultTo(0))
      // JSON: extra and missing columns, the first errors.
      .addColumn('summary', 'text')
      .addColumn('failure', 'varchar(500)')
      // Files of the job under the data folder (the staged valid rows, the error rows).
      .addColumn('work_dir', 'varchar(512)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('finish_time', 'timestamp')
      .execute();
    await db.schema
      .createIndex('ix_diy_import_job_user')
      .on('diy_import_job')
      .columns(['user_id', 'table_id', 'id'])
      .execute();

    const menus = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', ENABLED_MENUS)
      .where('type', 'in', [1, 2])
      .execute();
    const ids = menus.map((m) => m.id as number);
    if (ids.length === 0) return;
    await db
      .updateTable('sys_menu')
      .set({ status: 1 })
      .where((eb) => eb.or([eb('id', 'in', ids), eb.and([eb('pid', 'in', ids), eb('type', '=', 3)])]))
      .execute();
  },
};
