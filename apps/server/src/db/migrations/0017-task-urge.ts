import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Urging (催办, issue 19 §3, docs/tasks.md):
 * - `diy_task.urge_plan`: the task's automatic ladder as JSON `{enabled, beforeDays, afterDays}` (null: none);
 * - `diy_task_urge`: every reminder, by hand or by the ladder, one row per channel and person reached
 *   (`channel` notice: the in-app notice to a unit; sms: one text to one person), with its step (`manual`,
 *   `T-3`, `T+1` …), outcome and who sent it (null: the ladder). `claim` is set on the ladder's notice row
 *   (`receiver:step`) and unique, so one process alone sends each step of each receiver, whichever runs first.
 */
export const m0017TaskUrge: Migration = {
  name: '0017-task-urge',
  async up(db: Db) {
    await db.schema.alterTable('diy_task').addColumn('urge_plan', 'text').execute();
    await db.schema
      .createTable('diy_task_urge')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('receiver_id', 'bigint', (c) => c.notNull())
      .addColumn('org_name', 'varchar(128)', (c) => c.notNull())
      // manual, T-3, T-1, T+1, T+2 …
      .addColumn('step', 'varchar(16)', (c) => c.notNull())
      // notice, sms
      .addColumn('channel', 'varchar(8)', (c) => c.notNull())
      // sent, pending, failed, nobody, taskClosed, periodClosed
      .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
      .addColumn('user_id', 'bigint')
      .addColumn('user_name', 'varchar(64)')
      .addColumn('phone', 'varchar(32)')
      .addColumn('notice_id', 'bigint')
      .addColumn('message', 'varchar(500)')
      .addColumn('claim', 'varchar(64)', (c) => c.unique())
      .addColumn('sender_id', 'bigint')
      .addColumn('sender_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('update_time', 'timestamp')
      .execute();
    await db.schema
      .createIndex('ix_diy_task_urge_task')
      .on('diy_task_urge')
      .columns(['task_id', 'id'])
      .execute();
  },
};
