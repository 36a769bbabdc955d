import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Task lifecycle and zero reports (issue 19 §5, §7, docs/tasks.md): `diy_task_zero` holds a receiving unit's
 * declaration that it has nothing to report for one form of a task (with a note), one per receiver and form;
 * withdrawing it deletes the row (the history keeps both steps in `diy_task_event`). Closing, reopening,
 * editing and deleting a task use the columns `diy_task` already has (`state`, `update_*`, `is_delete`).
 */
export const m0018TaskLifecycle: Migration = {
  name: '0018-task-lifecycle',
  async up(db: Db) {
    await db.schema
      .createTable('diy_task_zero')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('receiver_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('note', 'varchar(500)', (c) => c.notNull())
      .addColumn('user_id', 'bigint')
      .addColumn('user_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_task_zero', ['receiver_id', 'table_id'])
      .execute();
    await db.schema
      .createIndex('ix_diy_task_zero_task')
      .on('diy_task_zero')
      .columns(['task_id', 'table_id'])
      .execute();
  },
};
