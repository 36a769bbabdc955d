import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Tasks (issue 19, docs/tasks.md):
 * - `diy_task`: what is asked (title, instructions as cleaned HTML, attachments as JSON), by when, by whom;
 * - `diy_task_form`: the forms of a task, each with the period it asks for (null: a form without periods);
 * - `diy_task_receiver`: the receiving units as a tree (`parent_id`: the receiver that handed it on; null at
 *   the top), each with its own due time; a unit receives a task once (unique task + org), so a transfer back
 *   to a unit that passed it on is refused by the key too; a transferred part keeps its row (state
 *   `transferred`) and the new unit's row names it in `transfer_from_id`;
 * - `diy_task_event`: the task's history (create, hand on, transfer) with the units each step reached.
 * The menus (任务管理, 我的任务, 任务详情) are inserted by the seed, which also grants them to the seeded roles.
 */
export const m0016Tasks: Migration = {
  name: '0016-tasks',
  async up(db: Db) {
    await db.schema
      .createTable('diy_task')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(128)', (c) => c.notNull())
      .addColumn('instructions', 'text', (c) => c.notNull())
      // JSON [{fileId, name}]
      .addColumn('attachments', 'text', (c) => c.notNull())
      .addColumn('due_time', 'timestamp', (c) => c.notNull())
      // open, closed
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('update_time', 'timestamp')
      .addColumn('create_user_id', 'bigint')
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('update_user_id', 'bigint')
      .addColumn('update_user_name', 'varchar(64)')
      .addColumn('create_org_id', 'bigint')
      .addColumn('create_org_name', 'varchar(128)')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ix_diy_task_tenant')
      .on('diy_task')
      .columns(['tenant_id', 'is_delete', 'id'])
      .execute();

    await db.schema
      .createTable('diy_task_form')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('period_id', 'bigint')
      .addColumn('order_no', 'integer', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_task_form', ['task_id', 'table_id'])
      .execute();
    await db.schema.createIndex('ix_diy_task_form_table').on('diy_task_form').columns(['table_id']).execute();

    await db.schema
      .createTable('diy_task_receiver')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('parent_id', 'bigint')
      .addColumn('org_id', 'bigint', (c) => c.notNull())
      .addColumn('org_name', 'varchar(128)', (c) => c.notNull())
      .addColumn('due_time', 'timestamp', (c) => c.notNull())
      // received, handedOn, transferred
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('transfer_from_id', 'bigint')
      .addColumn('transfer_reason', 'varchar(500)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint')
      .addColumn('create_user_name', 'varchar(64)')
      .addUniqueConstraint('uq_diy_task_receiver', ['task_id', 'org_id'])
      .execute();
    await db.schema
      .createIndex('ix_diy_task_receiver_org')
      .on('diy_task_receiver')
      .columns(['org_id', 'task_id'])
      .execute();

    await db.schema
      .createTable('diy_task_event')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('task_id', 'bigint', (c) => c.notNull())
      .addColumn('receiver_id', 'bigint')
      // create, handOn, transfer
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('org_name', 'varchar(128)')
      // JSON {names: string[] (at most 20), count}
      .addColumn('targets', 'text', (c) => c.notNull())
      .addColumn('comment', 'varchar(500)')
      .addColumn('user_id', 'bigint')
      .addColumn('user_name', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ix_diy_task_event_task')
      .on('diy_task_event')
      .columns(['task_id', 'id'])
      .execute();
  },
};
