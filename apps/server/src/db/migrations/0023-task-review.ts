import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Level-by-level review of tasks (issue 19 §4, docs/tasks.md "Level-by-level review"): `diy_task.level_review`
 * (0/1) switches it on for a task; `diy_task_review` keeps every step — a level passing or returning one record
 * of one form, with the record's submission judged (`submission_id`: the id of its latest submission step
 * in `diy_record_history`; a resubmission starts the levels again), the reviewing
 * receiver (null: the task's creating unit) and its depth, who, when and the comment.
 */
export const m0023TaskReview: Migration = {
  name: '0023-task-review',
  async up(db: Db) {
    await db.schema
      .alterTable('diy_task')
      .addColumn('level_review', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('diy_task_review')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('record_id', 'bigint', (c) => c.notNull())
      .addColumn('submission_id', 'bigint', (c) => c.notNull())
      .addColumn('filer_receiver_id', 'bigint', (c) => c.notNull())
      .addColumn('reviewer_receiver_id', 'bigint')
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('org_name', 'varchar(128)')
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('comment', 'varchar(500)')
      .addColumn('user_id', 'bigint')
      .addColumn('user_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ix_diy_task_review_record')
      .on('diy_task_review')
      .columns(['task_id', 'table_id', 'record_id'])
      .execute();
  },
};
