import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Favourite forms of a user (`POST /api/diyTableCollect/collect`, the enterprise portal) and the row
 * confirmations sent to the subject of a record (`/diyReport/rowConfirm`): one row per link, holding the hash
 * of its signed code (never the code), when it expires, and the subject's answer once given (a code is
 * answered once).
 */
export const m0011DiyCollectConfirm: Migration = {
  name: '0011-diy-collect-confirm',
  async up(db: Db) {
    await db.schema
      .createTable('diy_table_collect')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addUniqueConstraint('uq_diy_table_collect', ['user_id', 'table_id'])
      .execute();

    await db.schema
      .createTable('diy_row_confirm')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('record_id', 'bigint', (c) => c.notNull())
      // SHA-256 (hex) of the signed code the link carries.
      .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
      .addColumn('expire_time', 'timestamp', (c) => c.notNull())
      // Who the link is for (free text the sender typed: a name, a phone number).
      .addColumn('subject', 'varchar(128)')
      // 'confirm' or 'dispute' once answered; null while open.
      .addColumn('answer', 'varchar(16)')
      .addColumn('answer_comment', 'varchar(1000)')
      .addColumn('answer_time', 'timestamp')
      .addColumn('answer_ip', 'varchar(64)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint')
      .addColumn('create_user_name', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('ix_diy_row_confirm_record')
      .on('diy_row_confirm')
      .columns(['table_id', 'record_id'])
      .execute();
  },
};
