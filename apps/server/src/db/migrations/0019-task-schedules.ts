import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Scheduled tasks (计划任务, issue 19 §6, docs/tasks.md):
 * - `diy_task_schedule`: periodic forms (JSON ids), receivers (JSON, the shape of a task's), instructions, the
 *   due offset (`due_anchor` start / due, `due_days`, `due_at` HH:mm), state (active / paused), `since_date`
 *   (periods ending before it are not the schedule's: set on create and on resume);
 * - `diy_task_schedule_run`: one row per (schedule, period key), claimed in the same transaction as the task it
 *   makes (unique), so a period gets its task once, also with several processes; a skipped or failed period
 *   keeps its reason (catalogue code and parameters).
 * The menu (计划任务) is inserted by the seed.
 */
export const m0019TaskSchedules: Migration = {
  name: '0019-task-schedules',
  async up(db: Db) {
    await db.schema
      .createTable('diy_task_schedule')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(128)', (c) => c.notNull())
      // JSON [tableId, …]
      .addColumn('table_ids', 'text', (c) => c.notNull())
      // JSON {orgIds, subtree, orgTypes}
      .addColumn('receivers', 'text', (c) => c.notNull())
      .addColumn('instructions', 'text', (c) => c.notNull())
      // start, due
      .addColumn('due_anchor', 'varchar(8)', (c) => c.notNull())
      .addColumn('due_days', 'integer', (c) => c.notNull())
      .addColumn('due_at', 'varchar(5)', (c) => c.notNull())
      // active, paused
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('since_date', 'varchar(10)', (c) => c.notNull())
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('update_time', 'timestamp')
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('update_user_id', 'bigint')
      .addColumn('update_user_name', 'varchar(64)')
      .addColumn('create_org_id', 'bigint')
      .addColumn('create_org_name', 'varchar(128)')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ix_diy_task_schedule_tenant')
      .on('diy_task_schedule')
      .columns(['tenant_id', 'is_delete', 'id'])
      .execute();

    await db.schema
      .createTable('diy_task_schedule_run')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('schedule_id', 'bigint', (c) => c.notNull())
      .addColumn('period_key', 'varchar(32)', (c) => c.notNull())
      .addColumn('period_name', 'varchar(64)', (c) => c.notNull())
      // created, skipped, failed
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('task_id', 'bigint')
      .addColumn('due_time', 'timestamp')
      .addColumn('code', 'varchar(16)')
      // JSON message parameters of `code`
      .addColumn('params', 'text')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_task_schedule_run', ['schedule_id', 'period_key'])
      .execute();
  },
};
