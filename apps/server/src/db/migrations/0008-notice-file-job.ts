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

/** The pages that now exist in the web app; their buttons come along. */
const ENABLED_MENUS = ['sysNotice', 'sysFile', 'sysJob'];

/** Scheduled jobs run for the whole installation: only the platform operator sees them. */
const PLATFORM_ONLY = ['sysJob', 'jobDashboard'];

/**
 * Notices with their recipients' inbox rows, more columns for files (the org that uploaded, for the data
 * scope, as on every business table), scheduled jobs (details, triggers, run records, the cluster of server processes) and the lease row
 * through which one process is elected to run them. 通知公告, 文件管理 and 任务调度 are switched on; 任务调度 and
 * its dashboard leave every tenant's menu set and roles.
 */
export const m0008NoticeFileJob: Migration = {
  name: '0008-notice-file-job',
  async up(db: Db) {
    await base(db.schema.createTable('sys_notice') as Table)
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(256)', (c) => c.notNull())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('type', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('audience', 'smallint', (c) => c.notNull().defaultTo(1))
      // JSON array of org, role or user ids (empty for everyone).
      .addColumn('audience_ids', 'text')
      .addColumn('publish_at', 'timestamp')
      .addColumn('public_time', 'timestamp')
      .addColumn('public_user_id', 'bigint')
      .addColumn('public_user_name', 'varchar(64)')
      .addColumn('public_org_id', 'bigint')
      .addColumn('public_org_name', 'varchar(128)')
      .addColumn('cancel_time', 'timestamp')
      .addColumn('create_org_id', 'bigint')
      .addColumn('create_org_name', 'varchar(128)')
      .execute();
    await db.schema
      .createIndex('ix_sys_notice_due')
      .on('sys_notice')
      .columns(['status', 'publish_at'])
      .execute();
    await db.schema
      .createIndex('ix_sys_notice_tenant')
      .on('sys_notice')
      .columns(['tenant_id', 'is_delete', 'create_time'])
      .execute();

    await db.schema
      .createTable('sys_notice_user')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('notice_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('read_status', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('read_time', 'timestamp')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_sys_notice_user', ['notice_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('ix_sys_notice_user_inbox')
      .on('sys_notice_user')
      .columns(['user_id', 'read_status', 'notice_id'])
      .execute();

    await db.schema.alterTable('sys_file').addColumn('create_org_id', 'bigint').execute();
    await db.schema.alterTable('sys_file').addColumn('create_org_name', 'varchar(128)').execute();
    await db.schema
      .createIndex('ix_sys_file_tenant')
      .on('sys_file')
      .columns(['tenant_id', 'is_delete', 'create_time'])
      .execute();

    await base(db.schema.createTable('sys_job_detail') as Table)
      .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('group_name', 'varchar(64)')
      .addColumn('description', 'varchar(256)')
      // 1 built in (a handler of the server), 2 HTTP call.
      .addColumn('create_type', 'smallint', (c) => c.notNull())
      .addColumn('handler', 'varchar(64)')
      .addColumn('http_url', 'varchar(1024)')
      .addColumn('http_method', 'varchar(10)')
      // JSON object of header names to values.
      .addColumn('http_headers', 'text')
      .addColumn('http_body', 'text')
      .addColumn('timeout_seconds', 'integer', (c) => c.notNull().defaultTo(60))
      .addColumn('concurrent', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await sql`create unique index uq_sys_job_detail_job on sys_job_detail (job_id) where is_delete = 0`.execute(
      db,
    );

    await base(db.schema.createTable('sys_job_trigger') as Table)
      .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('trigger_id', 'varchar(64)', (c) => c.notNull())
      // 'cron' (six fields, with seconds) or 'period' (every n seconds).
      .addColumn('trigger_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('cron', 'varchar(128)')
      .addColumn('period_seconds', 'integer')
      .addColumn('description', 'varchar(256)')
      // 1 running (scheduled), 2 paused, 3 ended (past its end time or its maximum number of runs).
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('start_time', 'timestamp')
      .addColumn('end_time', 'timestamp')
      .addColumn('max_number_of_runs', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_on_start', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('last_run_time', 'timestamp')
      .addColumn('next_run_time', 'timestamp')
      .addColumn('number_of_runs', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('number_of_errors', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`create unique index uq_sys_job_trigger on sys_job_trigger (job_id, trigger_id) where is_delete = 0`.execute(
      db,
    );

    await db.schema
      .createTable('sys_job_record')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('trigger_id', 'varchar(64)')
      // 'schedule' or 'manual' (run now).
      .addColumn('source', 'varchar(16)', (c) => c.notNull())
      // 'running', 'succeeded', 'failed', 'cancelled'.
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('start_time', 'timestamp', (c) => c.notNull())
      .addColumn('end_time', 'timestamp')
      .addColumn('elapsed_ms', 'integer')
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .addColumn('node_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('ix_sys_job_record_job')
      .on('sys_job_record')
      .columns(['job_id', 'start_time'])
      .execute();
    await db.schema
      .createIndex('ix_sys_job_record_start')
      .on('sys_job_record')
      .column('start_time')
      .execute();

    await db.schema
      .createTable('sys_job_cluster')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('node_id', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('host', 'varchar(128)')
      .addColumn('pid', 'integer')
      .addColumn('version', 'varchar(32)')
      .addColumn('start_time', 'timestamp', (c) => c.notNull())
      .addColumn('heartbeat_time', 'timestamp', (c) => c.notNull())
      // 1 online, 0 stopped (signed off, or no heartbeat for a while).
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .execute();

    // One row per lease name; a process holds it while `expires_at` (epoch ms) lies ahead and renews it.
    await db.schema
      .createTable('sys_job_lease')
      .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('holder', 'varchar(64)')
      .addColumn('expires_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('acquired_time', 'timestamp')
      .execute();

    const menus = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', ENABLED_MENUS)
      .where('type', 'in', [1, 2])
      .execute();
    const ids = menus.map((m) => m.id as number);
    if (ids.length > 0) {
      await db
        .updateTable('sys_menu')
        .set({ status: 1 })
        .where((eb) => eb.or([eb('id', 'in', ids), eb.and([eb('pid', 'in', ids), eb('type', '=', 3)])]))
        .execute();
    }

    const platformPages = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', PLATFORM_ONLY)
      .where('type', 'in', [1, 2])
      .execute();
    const pageIds = platformPages.map((m) => m.id as number);
    if (pageIds.length === 0) return;
    const platformOnly = db
      .selectFrom('sys_menu')
      .select('id')
      .where((eb) => eb.or([eb('id', 'in', pageIds), eb('pid', 'in', pageIds)]));
    await db.deleteFrom('sys_tenant_menu').where('menu_id', 'in', platformOnly).execute();
    await db.deleteFrom('sys_role_menu').where('menu_id', 'in', platformOnly).execute();
  },
};
