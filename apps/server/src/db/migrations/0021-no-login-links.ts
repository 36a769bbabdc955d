import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * Login-free links (issue 22 §1, docs/no-login.md):
 * - `sys_nologin_link`: a published link or QR code: what it opens (a form, or one record of it), what it may
 *   do (view, fillOne, fillMany), until when, how many uses (null: no limit) and how many were used, revoked
 *   or not. The code itself is not stored: it is the HMAC-signed `(tenant, link, expiry)`, computed again
 *   when staff print the link.
 * - `sys_nologin_use`: every use (open, view, list, add, update, refused) with time, IP and user agent;
 *   `token_id` is set on writes only and is unique, so a scoped token files once (a replay is refused by the
 *   key, across processes).
 * The menu (扫码填报链接) is inserted by the seed.
 */
export const m0021NoLoginLinks: Migration = {
  name: '0021-no-login-links',
  async up(db: Db) {
    await db.schema
      .createTable('sys_nologin_link')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('title', 'varchar(64)', (c) => c.notNull())
      // form, record
      .addColumn('qr_type', 'varchar(16)', (c) => c.notNull())
      .addColumn('table_id', 'bigint', (c) => c.notNull())
      .addColumn('record_id', 'bigint')
      // view, fillOne, fillMany
      .addColumn('mode', 'varchar(16)', (c) => c.notNull())
      .addColumn('expire_time', 'timestamp', (c) => c.notNull())
      .addColumn('max_uses', 'integer')
      .addColumn('use_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('revoke_time', 'timestamp')
      .addColumn('remark', 'varchar(256)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createIndex('ix_sys_nologin_link_tenant')
      .on('sys_nologin_link')
      .columns(['tenant_id', 'is_delete', 'id'])
      .execute();

    await db.schema
      .createTable('sys_nologin_use')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('link_id', 'bigint', (c) => c.notNull())
      .addColumn('action', 'varchar(16)', (c) => c.notNull())
      .addColumn('record_id', 'bigint')
      .addColumn('code', 'varchar(16)')
      .addColumn('token_id', 'varchar(32)', (c) => c.unique())
      .addColumn('ip', 'varchar(64)', (c) => c.notNull())
      .addColumn('user_agent', 'varchar(256)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('ix_sys_nologin_use_link')
      .on('sys_nologin_use')
      .columns(['link_id', 'id'])
      .execute();
  },
};
