import type { Kysely } from 'kysely';
import type { Migration } from '../../platform/db/migrator.ts';

// Migrations are frozen history: the names are listed here, not read from the contracts.
// biome-ignore lint/suspicious/noExplicitAny: a migration works on any schema state.
type Db = Kysely<any>;

/**
 * The pages of platform-wide data: parameters, dictionaries and system info (one row set for every tenant),
 * regions (one national table), the shared cache (every tenant's sessions) and the host's figures.
 */
const PLATFORM_ONLY = ['sysConfig', 'sysDict', 'sysInfo', 'sysRegion', 'sysCache', 'sysServer'];

/**
 * Issue 14 §3: a tenant admin changed settings every tenant shares. These pages become the platform
 * operator's (docs/tenancy.md): no tenant's menu set nor any role keeps them or their buttons, so no tenant
 * admin or role holds their permissions; the super admin is granted every menu and keeps them.
 */
export const m0013PlatformWidePages: Migration = {
  name: '0013-platform-wide-pages',
  async up(db: Db) {
    const pages = await db
      .selectFrom('sys_menu')
      .select('id')
      .where('name', 'in', PLATFORM_ONLY)
      .where('type', 'in', [1, 2])
      .execute();
    const pageIds = pages.map((m) => m.id as number);
    if (pageIds.length === 0) return;
    const platformOnly = db
      .selectFrom('sys_menu')
      .select('id')
      .where((eb) => eb.or([eb('id', 'in', pageIds), eb('pid', 'in', pageIds)]));
    await db.deleteFrom('sys_tenant_menu').where('menu_id', 'in', platformOnly).execute();
    await db.deleteFrom('sys_role_menu').where('menu_id', 'in', platformOnly).execute();
  },
};
