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
    .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
    .addColumn('tenant_id', 'bigint', (c) => c.notNull());
}

/** The identity pages that now exist in the web app; their directory 系统管理 and their buttons come along. */
const ENABLED_MENUS = [
  'system',
  'sysUser',
  'sysUserOpPassword',
  'sysOrg',
  'sysPos',
  'sysUserGroup',
  'sysRole',
  'sysTenant',
  'sysMenu',
  'sysOpenAccess',
  'sysOnlineUser',
];

/**
 * Identity and access (issue 3): user groups and their members, open-access keys, uploaded files (avatars
 * and signatures first), the operation password of a user; live-row unique keys for accounts (global: an
 * account signs in without naming its tenant), org, position and role codes (per tenant); indexes the
 * 100,000-user page search needs. The 系统管理 pages are switched on; tenant and menu management are taken out
 * of every tenant's menu set and roles (they are the super admin's).
 */
export const m0007Identity: Migration = {
  name: '0007-identity',
  async up(db: Db) {
    await db.schema.alterTable('sys_user').addColumn('op_password', 'varchar(256)').execute();
    await db.schema.alterTable('sys_user').addColumn('op_password_time', 'timestamp').execute();

    await base(db.schema.createTable('sys_user_group') as Table)
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await sql`create unique index uq_sys_user_group_code on sys_user_group (tenant_id, code) where is_delete = 0`.execute(
      db,
    );
    await db.schema
      .createTable('sys_user_group_member')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('group_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('uq_sys_user_group_member', ['group_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('ix_sys_user_group_member_user')
      .on('sys_user_group_member')
      .column('user_id')
      .execute();

    await base(db.schema.createTable('sys_open_access') as Table)
      .addColumn('access_key', 'varchar(64)', (c) => c.notNull())
      // SM4-encrypted with the server's data key: the HMAC needs the secret itself, so it cannot be hashed.
      .addColumn('access_secret', 'varchar(512)', (c) => c.notNull())
      .addColumn('bind_user_id', 'bigint', (c) => c.notNull())
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('last_used_time', 'timestamp')
      .addColumn('remark', 'varchar(256)')
      .execute();
    await sql`create unique index uq_sys_open_access_key on sys_open_access (access_key) where is_delete = 0`.execute(
      db,
    );

    await base(db.schema.createTable('sys_file') as Table)
      .addColumn('provider', 'varchar(32)', (c) => c.notNull())
      .addColumn('file_name', 'varchar(256)', (c) => c.notNull())
      .addColumn('suffix', 'varchar(32)')
      .addColumn('file_path', 'varchar(512)', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('content_type', 'varchar(128)')
      .addColumn('file_md5', 'varchar(64)')
      .addColumn('file_type', 'varchar(32)')
      .addColumn('belong_id', 'bigint')
      .addColumn('is_public', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema
      .createIndex('ix_sys_file_belong')
      .on('sys_file')
      .columns(['belong_id', 'file_type'])
      .execute();

    await sql`create unique index uq_sys_user_account on sys_user (account) where is_delete = 0`.execute(db);
    await sql`create unique index uq_sys_org_code on sys_org (tenant_id, code) where is_delete = 0`.execute(
      db,
    );
    await sql`create unique index uq_sys_pos_code on sys_pos (tenant_id, code) where is_delete = 0`.execute(
      db,
    );
    await sql`create unique index uq_sys_role_code on sys_role (tenant_id, code) where is_delete = 0`.execute(
      db,
    );
    await db.schema.createIndex('ix_sys_user_phone').on('sys_user').column('phone').execute();
    // Covers the user page's count and its page of ids (tenant, live, scope orgs, super admin hidden).
    await db.schema
      .createIndex('ix_sys_user_live')
      .on('sys_user')
      .columns(['tenant_id', 'is_delete', 'org_id', 'account_type', 'id'])
      .execute();
    await db.schema.createIndex('ix_sys_user_role_role').on('sys_user_role').column('role_id').execute();
    await db.schema
      .createIndex('ix_sys_session_active')
      .on('sys_session')
      .columns(['revoked', 'tenant_id'])
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

    // Tenant and menu management stay with the platform operator: no tenant, nor any tenant's role, holds
    // those pages or their buttons.
    const platformPages = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', ['sysTenant', 'sysMenu'])
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
