import { STATUS } from '@shuzhi/contracts/envelope';
import { DEFAULT_TENANT_ID, insertMany, type SeedRun } from './seed-kit.ts';
import type { SeedOrg } from './types.ts';

const DEFAULT_TENANT_CODE = 'default';

export type SeededTenant = { tenantId: number; tenantIsNew: boolean };
type OrgRef = { id: number; code: string; full_ids: string; full_names: string; level: number };
/** The tenant's orgs by code, and the ids of those this run inserted. */
export type SeededOrgs = { orgs: Map<string, OrgRef>; newOrgIds: Set<number> };

/** The default tenant by code; a new one is named after the first org. */
export async function seedTenant(run: SeedRun): Promise<SeededTenant> {
  const { trx, data, base, report } = run;
  const tenant = await trx
    .selectFrom('sys_tenant')
    .select('id')
    .where('code', '=', DEFAULT_TENANT_CODE)
    .executeTakeFirst();
  const tenantId = tenant?.id ?? DEFAULT_TENANT_ID;
  const tenantIsNew = !tenant;
  if (tenantIsNew) {
    await insertMany(
      trx,
      'sys_tenant',
      [
        {
          ...base(),
          id: tenantId,
          code: DEFAULT_TENANT_CODE,
          name: data.orgs[0]?.name ?? DEFAULT_TENANT_CODE,
          org_id: null,
          host: null,
          status: STATUS.enabled,
          order_no: 1,
          remark: null,
        },
      ],
      report,
    );
  }
  return { tenantId, tenantIsNew };
}

/** Orgs by code: walks the tree; a new org takes its place under its parent as the parent is now. */
export async function seedOrgs(run: SeedRun, { tenantId, tenantIsNew }: SeededTenant): Promise<SeededOrgs> {
  const { trx, ctx, data, base, report } = run;
  const orgRows = await trx
    .selectFrom('sys_org')
    .select(['id', 'code', 'full_ids', 'full_names', 'level'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const orgs = new Map(orgRows.map((o) => [o.code, o]));
  const newOrgIds = new Set<number>();
  const orgInserts: Record<string, unknown>[] = [];
  const walkOrgs = (list: SeedOrg[], parent: OrgRef | null) => {
    for (const org of list) {
      let row = orgs.get(org.code);
      if (!row) {
        const id = ctx.newId();
        row = {
          id,
          code: org.code,
          full_ids: parent ? `${parent.full_ids},${id}` : String(id),
          full_names: parent ? `${parent.full_names}/${org.name}` : org.name,
          level: parent ? parent.level + 1 : 1,
        };
        orgs.set(org.code, row);
        newOrgIds.add(id);
        orgInserts.push({
          ...base(),
          id,
          tenant_id: tenantId,
          pid: parent?.id ?? 0,
          code: org.code,
          name: org.name,
          type: org.type,
          level: row.level,
          full_ids: row.full_ids,
          full_names: row.full_names,
          region_code: org.regionCode ?? null,
          order_no: org.orderNo,
          status: STATUS.enabled,
          remark: org.remark ?? null,
        });
      }
      walkOrgs(org.children ?? [], row);
    }
  };
  walkOrgs(data.orgs, null);
  await insertMany(trx, 'sys_org', orgInserts, report);
  const rootOrg = data.orgs[0] ? orgs.get(data.orgs[0].code) : undefined;
  if (tenantIsNew && rootOrg) {
    await trx.updateTable('sys_tenant').set({ org_id: rootOrg.id }).where('id', '=', tenantId).execute();
  }
  return { orgs, newOrgIds };
}

/** Positions by code; answers every position of the tenant by code. */
export async function seedPositions(run: SeedRun, tenantId: number): Promise<Map<string, number>> {
  const { trx, data, base, report } = run;
  const posRows = await trx
    .selectFrom('sys_pos')
    .select(['id', 'code'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const positions = new Map(posRows.map((p) => [p.code, p.id]));
  const posInserts = data.positions
    .filter((p) => !positions.has(p.code))
    .map((p) => {
      const row = {
        ...base(),
        tenant_id: tenantId,
        code: p.code,
        name: p.name,
        order_no: p.orderNo,
        status: STATUS.enabled,
        remark: null,
      };
      positions.set(p.code, row.id);
      return row;
    });
  await insertMany(trx, 'sys_pos', posInserts, report);
  return positions;
}
