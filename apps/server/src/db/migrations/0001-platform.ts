import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// Migrations are frozen history: helpers live here, not in shared code that may change later.
// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Table = CreateTableBuilder<any, any>;

function base(t: Table, tenant: boolean): Table {
  let table = t
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn('create_time', 'timestamp', (c) => c.notNull())
    .addColumn('update_time', 'timestamp')
    .addColumn('create_user_id', 'bigint')
    .addColumn('create_user_name', 'varchar(64)')
    .addColumn('update_user_id', 'bigint')
    .addColumn('update_user_name', 'varchar(64)')
    .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0));
  if (tenant) table = table.addColumn('tenant_id', 'bigint', (c) => c.notNull());
  return table;
}

function link(db: Db, name: string, left: string, right: string, extra?: (t: Table) => Table) {
  let table = db.schema
    .createTable(name)
    .addColumn('id', 'bigint', (c) => c.primaryKey())
    .addColumn(left, 'bigint', (c) => c.notNull())
    .addColumn(right, 'bigint', (c) => c.notNull()) as Table;
  if (extra) table = extra(table);
  return table.addUniqueConstraint(`uq_${name}`, [left, right]).execute();
}

export const m0001Platform: Migration = {
  name: '0001-platform',
  async up(db: Db) {
    await base(db.schema.createTable('sys_tenant') as Table, false)
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('org_id', 'bigint')
      .addColumn('host', 'varchar(128)')
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('remark', 'varchar(256)')
      .execute();

    await base(db.schema.createTable('sys_org') as Table, true)
      .addColumn('pid', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('type', 'varchar(32)', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('full_ids', 'varchar(1024)', (c) => c.notNull())
      .addColumn('full_names', 'varchar(2048)', (c) => c.notNull())
      .addColumn('region_code', 'varchar(32)')
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema.createIndex('ix_sys_org_code').on('sys_org').columns(['tenant_id', 'code']).execute();
    await db.schema.createIndex('ix_sys_org_pid').on('sys_org').column('pid').execute();

    await base(db.schema.createTable('sys_pos') as Table, true)
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();

    await base(db.schema.createTable('sys_user') as Table, true)
      .addColumn('account', 'varchar(64)', (c) => c.notNull())
      .addColumn('password', 'varchar(256)', (c) => c.notNull())
      .addColumn('real_name', 'varchar(64)', (c) => c.notNull())
      .addColumn('nick_name', 'varchar(64)')
      .addColumn('avatar', 'varchar(512)')
      .addColumn('sex', 'smallint')
      .addColumn('phone', 'varchar(32)')
      .addColumn('email', 'varchar(128)')
      .addColumn('id_card_num', 'varchar(32)')
      .addColumn('address', 'varchar(256)')
      .addColumn('signature', 'varchar(256)')
      .addColumn('account_type', 'integer', (c) => c.notNull().defaultTo(777))
      .addColumn('org_id', 'bigint')
      .addColumn('pos_id', 'bigint')
      .addColumn('enterprise', 'varchar(128)')
      .addColumn('area', 'varchar(64)')
      .addColumn('area_code', 'varchar(32)')
      .addColumn('street', 'varchar(64)')
      .addColumn('street_code', 'varchar(32)')
      .addColumn('community', 'varchar(64)')
      .addColumn('community_code', 'varchar(32)')
      .addColumn('wangge', 'varchar(64)')
      .addColumn('wangge_code', 'varchar(32)')
      .addColumn('weiwangge', 'varchar(64)')
      .addColumn('weiwangge_code', 'varchar(32)')
      .addColumn('region_id', 'varchar(32)')
      .addColumn('region_name', 'varchar(128)')
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('remark', 'varchar(256)')
      .addColumn('password_update_time', 'timestamp')
      .addColumn('is_def_pwd', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('login_fail_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lock_until', 'timestamp')
      .addColumn('last_login_time', 'timestamp')
      .addColumn('last_login_ip', 'varchar(64)')
      .execute();
    await db.schema.createIndex('ix_sys_user_account').on('sys_user').column('account').execute();
    await db.schema.createIndex('ix_sys_user_org').on('sys_user').columns(['tenant_id', 'org_id']).execute();

    await link(db, 'sys_user_ext_org', 'user_id', 'org_id', (t) => t.addColumn('pos_id', 'bigint'));

    await base(db.schema.createTable('sys_role') as Table, true)
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('data_scope', 'smallint', (c) => c.notNull().defaultTo(4))
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema.createIndex('ix_sys_role_code').on('sys_role').columns(['tenant_id', 'code']).execute();

    await link(db, 'sys_user_role', 'user_id', 'role_id');
    await link(db, 'sys_role_menu', 'role_id', 'menu_id');
    await link(db, 'sys_role_org', 'role_id', 'org_id');
    await link(db, 'sys_tenant_menu', 'tenant_id', 'menu_id');

    await base(db.schema.createTable('sys_menu') as Table, false)
      .addColumn('pid', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('type', 'smallint', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('path', 'varchar(256)')
      .addColumn('component', 'varchar(256)')
      .addColumn('redirect', 'varchar(256)')
      .addColumn('permission', 'varchar(128)')
      .addColumn('title', 'varchar(128)', (c) => c.notNull())
      .addColumn('icon', 'varchar(128)')
      .addColumn('is_iframe', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('out_link', 'varchar(512)')
      .addColumn('is_hide', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('is_keep_alive', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('is_affix', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema.createIndex('ix_sys_menu_pid').on('sys_menu').column('pid').execute();

    await base(db.schema.createTable('sys_config') as Table, false)
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('value', 'text')
      .addColumn('sys_flag', 'smallint', (c) => c.notNull().defaultTo(2))
      .addColumn('group_code', 'varchar(64)')
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema.createIndex('ix_sys_config_code').on('sys_config').column('code').execute();

    await base(db.schema.createTable('sys_dict_type') as Table, false)
      .addColumn('code', 'varchar(64)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema.createIndex('ix_sys_dict_type_code').on('sys_dict_type').column('code').execute();

    await base(db.schema.createTable('sys_dict_data') as Table, false)
      .addColumn('dict_type_id', 'bigint', (c) => c.notNull())
      .addColumn('label', 'varchar(128)', (c) => c.notNull())
      .addColumn('value', 'varchar(128)', (c) => c.notNull())
      .addColumn('tag_type', 'varchar(32)')
      .addColumn('style_setting', 'varchar(512)')
      .addColumn('class_setting', 'varchar(512)')
      .addColumn('ext_data', 'text')
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('status', 'smallint', (c) => c.notNull().defaultTo(1))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await db.schema.createIndex('ix_sys_dict_data_type').on('sys_dict_data').column('dict_type_id').execute();

    await db.schema
      .createTable('sys_session')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('tenant_id', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('refresh_jti', 'varchar(64)', (c) => c.notNull())
      .addColumn('refresh_expire_time', 'timestamp', (c) => c.notNull())
      .addColumn('login_type', 'integer')
      .addColumn('ip', 'varchar(64)')
      .addColumn('user_agent', 'varchar(512)')
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('last_active_time', 'timestamp', (c) => c.notNull())
      .addColumn('revoked', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('revoke_time', 'timestamp')
      .addColumn('revoke_reason', 'varchar(32)')
      .execute();
    await db.schema.createIndex('ix_sys_session_user').on('sys_session').column('user_id').execute();
  },
};
