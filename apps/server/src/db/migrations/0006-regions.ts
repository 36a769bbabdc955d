import { type Kysely, sql } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// Migrations are frozen history: helpers live here, not in shared code that may change later.
// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/** The region page that now exists in the web app (its directory 平台管理 is on already); its buttons come along. */
const ENABLED_MENUS = ['sysRegion'];

/**
 * Administrative regions (issue 4 §3): `sys_region`, five levels. Bundled rows take their statistical code
 * as id (so a parent's id is known from the code alone and an import needs no lookups); local additions get
 * ordinary generated ids, which are far above any 12-digit code. Codes are unique among live rows; `pid`
 * serves the lazy tree, `name` and `code` the search. The data itself is imported by the region module
 * (at first start and by `POST /api/sysRegion/sync`), not here. The 行政区划 menu is switched on.
 */
export const m0006Regions: Migration = {
  name: '0006-regions',
  async up(db: Db) {
    await db.schema
      .createTable('sys_region')
      .addColumn('id', 'bigint', (c) => c.primaryKey())
      .addColumn('create_time', 'timestamp', (c) => c.notNull())
      .addColumn('update_time', 'timestamp')
      .addColumn('create_user_id', 'bigint')
      .addColumn('create_user_name', 'varchar(64)')
      .addColumn('update_user_id', 'bigint')
      .addColumn('update_user_name', 'varchar(64)')
      .addColumn('is_delete', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('pid', 'bigint', (c) => c.notNull())
      .addColumn('code', 'varchar(32)', (c) => c.notNull())
      .addColumn('name', 'varchar(128)', (c) => c.notNull())
      .addColumn('short_name', 'varchar(64)')
      .addColumn('level', 'smallint', (c) => c.notNull())
      .addColumn('full_code', 'varchar(256)', (c) => c.notNull())
      .addColumn('full_name', 'varchar(768)', (c) => c.notNull())
      .addColumn('is_local', 'smallint', (c) => c.notNull().defaultTo(0))
      .addColumn('order_no', 'integer', (c) => c.notNull().defaultTo(100))
      .addColumn('remark', 'varchar(256)')
      .execute();
    await sql`create unique index uq_sys_region_code on sys_region (code) where is_delete = 0`.execute(db);
    await db.schema.createIndex('ix_sys_region_pid').on('sys_region').columns(['pid', 'code']).execute();
    await db.schema.createIndex('ix_sys_region_name').on('sys_region').column('name').execute();
    await db.schema.createIndex('ix_sys_region_level').on('sys_region').column('level').execute();

    const menus = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', ENABLED_MENUS)
      .where('type', 'in', [1, 2])
      .execute();
    const ids = menus.map((m) => m.id as number);
    if (ids.length === 0) return;
    await db
      .updateTable('sys_menu')
      .set({ status: 1 })
      .where((eb) => eb.or([eb('id', 'in', ids), eb.and([eb('pid', 'in', ids), eb('type', '=', 3)])]))
      .execute();
  },
};
