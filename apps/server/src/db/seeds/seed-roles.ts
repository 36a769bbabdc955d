import { STATUS } from '@shuzhi/contracts/envelope';
import { insertMany, type SeedRun } from './seed-kit.ts';
import { resolveRoleMenus, type SeededMenus } from './seed-menus.ts';
import type { SeededOrgs } from './seed-orgs.ts';

/** The tenant's roles by code, and the ids this run inserted. */
export type SeededRoles = { roles: Map<string, number>; newRoleIds: Set<number> };

/** Roles by code with their menus and custom orgs (links only beside a new role, menu or org). */
export async function seedRoles(
  run: SeedRun,
  tenantId: number,
  { orgs, newOrgIds }: SeededOrgs,
  { tenantMenus, menuById, newMenuIds }: SeededMenus,
): Promise<SeededRoles> {
  const { trx, ctx, data, base, report } = run;
  const roleRows = await trx
    .selectFrom('sys_role')
    .select(['id', 'code'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const roles = new Map(roleRows.map((r) => [r.code, r.id]));
  const newRoleIds = new Set<number>();
  const roleInserts: Record<string, unknown>[] = [];
  const roleMenuLinks: Record<string, unknown>[] = [];
  const roleOrgLinks: Record<string, unknown>[] = [];
  for (const role of data.roles) {
    let roleId = roles.get(role.code);
    const isNew = roleId === undefined;
    if (roleId === undefined) {
      roleId = ctx.newId();
      roles.set(role.code, roleId);
      newRoleIds.add(roleId);
      roleInserts.push({
        ...base(),
        id: roleId,
        tenant_id: tenantId,
        code: role.code,
        name: role.name,
        data_scope: role.dataScope,
        order_no: role.orderNo,
        status: STATUS.enabled,
        remark: role.remark ?? null,
      });
    }
    for (const menuId of resolveRoleMenus(role, tenantMenus, menuById)) {
      if (isNew || newMenuIds.has(menuId))
        roleMenuLinks.push({ id: ctx.newId(), role_id: roleId, menu_id: menuId });
    }
    for (const code of role.customOrgCodes ?? []) {
      const org = orgs.get(code);
      if (!org) throw new Error(`Seed role ${role.code}: unknown custom org code ${code}`);
      if (isNew || newOrgIds.has(org.id))
        roleOrgLinks.push({ id: ctx.newId(), role_id: roleId, org_id: org.id });
    }
  }
  await insertMany(trx, 'sys_role', roleInserts, report);
  await insertMany(trx, 'sys_role_menu', roleMenuLinks, report);
  await insertMany(trx, 'sys_role_org', roleOrgLinks, report);
  return { roles, newRoleIds };
}
