import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * SMS retry of task reminders (docs/tasks.md "Urging"): on `diy_task_urge`,
 * - `attempts`: how many times the text was handed to the SMS sender (0 for notice rows and texts not yet sent;
 *   the texts already sent or failed count one);
 * - `last_error`: why the latest attempt that failed did not go (kept after a later success);
 * - `retry_at`: when a failed text is tried again by the `taskUrge` job (null: not again).
 * And on `diy_record_history`, `org_name`: the unit of a task's review level that passed, approved or returned
 * the record (a middle level's pass is a `levelPass` step); null for the other steps.
 */
export const m0028TaskUrgeRetry: Migration = {
  name: '0028-task-urge-retry',
  async up(db: Db) {
    await db.schema
      .alterTable('diy_task_urge')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('diy_task_urge').addColumn('last_error', 'varchar(500)').execute();
    await db.schema.alterTable('diy_task_urge').addColumn('retry_at', 'timestamp').execute();
    await db
      .updateTable('diy_task_urge')
      .set({ attempts: 1 })
      .where('channel', '=', 'sms')
      .where('outcome', 'in', ['sent', 'failed'])
      .execute();
    await db.schema.alterTable('diy_record_history').addColumn('org_name', 'varchar(128)').execute();
    await db.schema.createIndex('ix_diy_task_urge_retry').on('diy_task_urge').column('retry_at').execute();
  },
};
