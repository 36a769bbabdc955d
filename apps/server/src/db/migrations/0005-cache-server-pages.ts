import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/** The two monitoring pages that now exist in the web app, with their directory; their buttons come along. */
const ENABLED_MENUS = ['platform', 'sysCache', 'sysServer'];

/**
 * 缓存管理 and 服务监控 under 平台管理 are switched on, with their buttons, in databases seeded before they
 * existed (seeding inserts missing rows and never updates one).
 */
export const m0005CacheServerPages: Migration = {
  name: '0005-cache-server-pages',
  async up(db: Db) {
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
