import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * The cockpit `/jsc` (issue 20 §4, docs/dashboards.md "The cockpit"):
 * - `sys_cockpit`: one row per tenant, the admin's choice of panels, forms, scaling and refresh (JSON in
 *   `config`); no row means the defaults.
 * - `sys_cockpit_link`: signed login-free links to the cockpit: who published it (the data is read as them),
 *   until when, revoked or not. The code itself is not stored: it is the HMAC-signed `(tenant, link, expiry)`.
 * The menu (驾驶舱) is inserted by the seed.
 */
export const m0025Cockpit: Migration = {
  name: '0025-cockpit',
  async up(db: Db) {
    await db.schema
      .createTable('sys_cockpit')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull().unique())
      .addColumn('config', 'text', (c) => c.notNull())
      .addColumn('update_time', 'timestamp', (c) => c.notNull())
      .addColumn('update_user_id', 'bigint')
      .addColumn('update_user_name', 'varchar(64)')
      .execute();

    await db.schema
      .createTable('sys_cockpit_link')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('expire_time', 'timestamp', (c) => c.notNull())
      .addColumn('revoke_time', 'timestamp')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('create_user_id', 'bigint', (c) => c.notNull())
      .addColumn('create_user_name', 'varchar(64)')
      .execute();
    await db.schema
      .createIndex('ix_sys_cockpit_link_tenant')
      .on('sys_cockpit_link')
      .columns(['tenant_id', 'id'])
      .execute();
  },
};
