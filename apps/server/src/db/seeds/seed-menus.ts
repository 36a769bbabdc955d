import { STATUS } from '@shuzhi/contracts/envelope';
import { MENU_TYPE, PLATFORM_ONLY_MENUS } from '@shuzhi/contracts/menu';
import { insertMany, type SeedRun } from './seed-kit.ts';
import type { SeededTenant } from './seed-orgs.ts';
import type { SeedMenu, SeedRole } from './types.ts';

type MenuRef = { id: number; pid: number; name: string; type: number; permission: string | null };
/** The tenant's menus (platform-only ones left out), all menus by id, and the ids this run inserted. */
export type SeededMenus = { tenantMenus: MenuRef[]; menuById: Map<number, MenuRef>; newMenuIds: Set<number> };

/**
 * Menus (global): directories and pages by name, buttons by name under their parent; then the tenant's
 * grant of the new ones (of all of them for a new tenant).
 */
export async function seedMenus(run: SeedRun, { tenantId, tenantIsNew }: SeededTenant): Promise<SeededMenus> {
  const { trx, ctx, data, base, report } = run;
  const menuRows = await trx
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'name', 'type', 'permission'])
    .execute();
  const menuKey = (parentId: number, name: string, type: number) =>
    type === MENU_TYPE.button ? `${parentId}/${name}` : name;
  const menus = new Map(menuRows.map((m) => [menuKey(m.pid, m.name, m.type), m]));
  const newMenuIds = new Set<number>();
  const menuInserts: Record<string, unknown>[] = [];
  const walkMenus = (list: SeedMenu[], parentId: number) => {
    for (const menu of list) {
      const key = menuKey(parentId, menu.name, menu.type);
      let row = menus.get(key);
      if (!row) {
        row = {
          id: ctx.newId(),
          pid: parentId,
          name: menu.name,
          type: menu.type,
          permission: menu.permission ?? null,
        };
        menus.set(key, row);
        newMenuIds.add(row.id);
        menuInserts.push({ ...base(), ...menuColumns(menu), id: row.id, pid: parentId });
      }
      walkMenus(menu.children ?? [], row.id);
    }
  };
  walkMenus(data.menus, 0);
  await insertMany(trx, 'sys_menu', menuInserts, report);
  const allMenus = [...menus.values()];
  const menuById = new Map(allMenus.map((m) => [m.id, m]));

  // Tenant and menu management stay with the super admin: no tenant (nor its roles) is granted them.
  const platformOnly = platformOnlyMenuIds(allMenus, menuById);
  const tenantMenus = allMenus.filter((m) => !platformOnly.has(m.id));
  await insertMany(
    trx,
    'sys_tenant_menu',
    tenantMenus
      .filter((m) => tenantIsNew || newMenuIds.has(m.id))
      .map((m) => ({ id: ctx.newId(), tenant_id: tenantId, menu_id: m.id })),
    report,
  );
  return { tenantMenus, menuById, newMenuIds };
}

const menuColumns = (menu: SeedMenu) => ({
  type: menu.type,
  name: menu.name,
  path: menu.path ?? null,
  component: menu.component ?? null,
  redirect: menu.redirect ?? null,
  permission: menu.permission ?? null,
  title: menu.title,
  icon: menu.icon ?? null,
  is_iframe: menu.isIframe ? 1 : 0,
  out_link: menu.outLink ?? null,
  is_hide: menu.isHide ? 1 : 0,
  is_keep_alive: menu.isKeepAlive ? 1 : 0,
  is_affix: menu.isAffix ? 1 : 0,
  order_no: menu.orderNo,
  status: menu.enabled ? STATUS.enabled : STATUS.disabled,
  remark: null,
});

/** The platform-only pages (PLATFORM_ONLY_MENUS) and everything below them. */
function platformOnlyMenuIds(all: MenuRef[], byId: Map<number, MenuRef>): Set<number> {
  const roots = new Set(
    all
      .filter(
        (m) => m.type !== MENU_TYPE.button && (PLATFORM_ONLY_MENUS as readonly string[]).includes(m.name),
      )
      .map((m) => m.id),
  );
  const out = new Set<number>();
  for (const menu of all) {
    for (let node: MenuRef | undefined = menu; node; node = byId.get(node.pid)) {
      if (roots.has(node.id)) {
        out.add(menu.id);
        break;
      }
    }
  }
  return out;
}

/** A role's menus: named directories/pages and buttons by permission, each with its ancestors. */
export function resolveRoleMenus(role: SeedRole, all: MenuRef[], byId: Map<number, MenuRef>): Set<number> {
  if (role.menus === 'all') return new Set(all.map((m) => m.id));
  const picked = new Set<number>();
  const unknown: string[] = [];
  for (const name of role.menus) {
    const matches = all.filter((m) =>
      m.type === MENU_TYPE.button ? m.permission === name || m.name === name : m.name === name,
    );
    if (matches.length === 0) unknown.push(name);
    for (const match of matches) {
      let node: MenuRef | undefined = match;
      while (node && !picked.has(node.id)) {
        picked.add(node.id);
        node = byId.get(node.pid);
      }
    }
  }
  if (unknown.length > 0) throw new Error(`Seed role ${role.code}: unknown menus ${unknown.join(', ')}`);
  return picked;
}
