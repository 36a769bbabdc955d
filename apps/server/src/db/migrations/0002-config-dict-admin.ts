import { type Kysely, sql } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/** The dictionaries seeded before this step; they become built-in (sysFlag 1), like the config rows. */
const SEEDED_DICT_CODES = [
  'org_type',
  'sex',
  'status',
  'yes_no',
  'sys_flag',
  'account_type',
  'menu_type',
  'data_scope',
  'notice_type',
  'notice_status',
  'config_group',
  'language',
];

/** The pages that now exist in the web app, with their directory; their buttons come along. */
const ENABLED_MENUS = ['platform', 'sysConfig', 'sysDict', 'sysInfo'];

/**
 * Config and dictionary administration: dictionary types get a built-in flag; codes (and a value within its
 * type) are unique among live rows, enforced by partial unique indexes as well as by the CRUD factory's
 * check (two concurrent adds cannot both win); the pages' menus are switched on in databases seeded before
 * (seeding inserts missing rows and never updates one).
 */
export const m0002ConfigDictAdmin: Migration = {
  name: '0002-config-dict-admin',
  async up(db: Db) {
    await db.schema
      .alterTable('sys_dict_type')
      .addColumn('sys_flag', 'smallint', (c) => c.notNull().defaultTo(2))
      .execute();
    await db
      .updateTable('sys_dict_type')
      .set({ sys_flag: 1 })
      .where('code', 'in', SEEDED_DICT_CODES)
      .execute();

    await sql`create unique index uq_sys_config_code on sys_config (code) where is_delete = 0`.execute(db);
    await sql`create unique index uq_sys_dict_type_code on sys_dict_type (code) where is_delete = 0`.execute(
      db,
    );
    await sql`create unique index uq_sys_dict_data_value on sys_dict_data (dict_type_id, value) where is_delete = 0`.execute(
      db,
    );

    const pages = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', ENABLED_MENUS)
      .where('type', 'in', [1, 2])
      .execute();
    const ids = pages.map((p) => p.id as number);
    if (ids.length > 0) {
      await db
        .updateTable('sys_menu')
        .set({ status: 1 })
        .where((eb) => eb.or([eb('id', 'in', ids), eb.and([eb('pid', 'in', ids), eb('type', '=', 3)])]))
        .execute();
    }
  },
};
