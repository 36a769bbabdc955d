import { STATUS } from '@shuzhi/contracts/envelope';
import { ORG_PATH_SEPARATOR } from '@shuzhi/contracts/org';
import type { DiyTableTable } from '../../db/schema.ts';
import type { Db } from '../../platform/db/db.ts';
import { audienceUserOrgIds, parseAudience } from '../../platform/diy/form-access.ts';

/** The org tree of a roll-up's tenant, and the units expected to file the source form. */

export type OrgNode = {
  id: number;
  pid: number;
  name: string;
  type: string;
  status: number;
  orderNo: number;
  chain: number[];
};

export async function tenantOrgs(db: Db, tenantId: number): Promise<Map<number, OrgNode>> {
  const rows = await db
    .selectFrom('sys_org')
    .select(['id', 'pid', 'name', 'type', 'status', 'order_no', 'full_ids'])
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        pid: Number(r.pid),
        name: r.name,
        type: r.type,
        status: r.status,
        orderNo: r.order_no,
        chain: r.full_ids.split(ORG_PATH_SEPARATOR).filter(Boolean).map(Number),
      },
    ]),
  );
}

/**
 * Units expected to file (docs/rollups.md): the units the source's fillers audience names — its orgs (the
 * tenant's top orgs with `all`), the enterprise orgs inside them when it admits enterprises (each files for
 * itself), the orgs of the users it names and of the holders of the roles it names; enabled orgs only. A
 * named org stands for its subtree: records filed below it count for it (`reportedUnits`).
 */
export async function expectedUnits(
  db: Db,
  source: DiyTableTable,
  orgs: Map<number, OrgNode>,
): Promise<Set<number>> {
  const audience = parseAudience(source.fillers);
  const named = new Set(audience.orgIds);
  const units = new Set<number>();
  for (const org of orgs.values()) {
    if (org.status !== STATUS.enabled) continue;
    const top = !orgs.has(org.pid);
    if (org.type === 'enterprise') {
      if (audience.enterprises && (audience.all || org.chain.some((id) => named.has(id)))) units.add(org.id);
    } else if (named.has(org.id) || (audience.all && top)) units.add(org.id);
  }
  for (const id of await audienceUserOrgIds(db, source.tenant_id, audience)) {
    const org = orgs.get(id);
    if (org && org.status === STATUS.enabled) units.add(org.id);
  }
  return units;
}

/**
 * Units that reported: the orgs that filed (a counted record in the period) and every ancestor of them — a
 * unit's own record counts for it and rolls up into the units above it.
 */
export function reportedUnits(filed: Iterable<number>, orgs: Map<number, OrgNode>): Set<number> {
  const reported = new Set<number>();
  for (const id of filed) for (const a of orgs.get(id)?.chain ?? [id]) reported.add(a);
  return reported;
}

export const byOrder = (a: OrgNode, b: OrgNode) => a.orderNo - b.orderNo || a.id - b.id;
