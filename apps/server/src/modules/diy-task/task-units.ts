import { TASK_MAX_RECEIVERS, type taskReceiversInputSchema } from '@shuzhi/contracts/diy-task';
import { STATUS } from '@shuzhi/contracts/envelope';
import { ORG_PATH_SEPARATOR } from '@shuzhi/contracts/org';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import { type DataScopeView, orgInScope } from '../../platform/access/data-scope.ts';
import type { Db } from '../../platform/db/db.ts';
import { audienceUserOrgIds, parseAudience } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/** The org tree of a task's tenant, who may fill its forms, and which units a distribution reaches. */

export type TaskOrg = {
  id: number;
  pid: number;
  name: string;
  type: string;
  enabled: boolean;
  chain: number[];
};

export async function loadOrgs(db: Db, tenantId: number): Promise<Map<number, TaskOrg>> {
  const rows = await db
    .selectFrom('sys_org')
    .select(['id', 'pid', 'name', 'type', 'status', 'full_ids'])
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .orderBy('order_no')
    .orderBy('id')
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        pid: Number(r.pid),
        name: r.name,
        type: r.type,
        enabled: r.status === STATUS.enabled,
        chain: r.full_ids.split(ORG_PATH_SEPARATOR).filter(Boolean).map(Number),
      },
    ]),
  );
}

/** Whether `org` lies strictly below `ancestorId`. */
export const isBelow = (org: TaskOrg, ancestorId: number) =>
  org.id !== ancestorId && org.chain.includes(ancestorId);

/**
 * Who may fill a form, as org units (docs/tasks.md "Receivers"): a unit can take a task for the form when it
 * fills the form itself (the fill scope names it or an org above it, names everyone, or names a user of it or
 * a role one of its users holds) or when a unit below it does — it hands the task on to them.
 */
export type FillCheck = (org: TaskOrg) => boolean;

export async function fillCheck(
  db: Db,
  form: Pick<DiyTableTable, 'tenant_id' | 'fillers'>,
  orgs: Map<number, TaskOrg>,
): Promise<FillCheck> {
  const audience = parseAudience(form.fillers);
  const named = new Set(audience.orgIds);
  // Orgs of the named users and role holders: they and every org above them can take the form.
  const userOrgs = new Set<number>();
  for (const id of await audienceUserOrgIds(db, form.tenant_id, audience)) userOrgs.add(id);
  // Every org that has a fill-capable unit at or below it.
  const above = new Set<number>();
  for (const id of [...named, ...userOrgs]) for (const a of orgs.get(id)?.chain ?? []) above.add(a);
  return (org) => {
    const inNamed = org.chain.some((id) => named.has(id));
    if (org.type === 'enterprise')
      return (audience.enterprises && (audience.all || inNamed)) || userOrgs.has(org.id);
    return audience.all || inNamed || above.has(org.id);
  };
}

/** Where a distribution may reach: anywhere in the caller's data scope, or only below a receiving unit. */
export type Reach = { kind: 'scope'; view: DataScopeView } | { kind: 'below'; orgId: number };

const reaches = (reach: Reach, org: TaskOrg) =>
  reach.kind === 'below' ? isBelow(org, reach.orgId) : reach.view.all || orgInScope(reach.view, org.id);

/**
 * The units a distribution names, in tree order: named orgs (T1003 when unknown, disabled or out of reach;
 * T1009 when a hand-on names a unit not below its own), their subtrees with `subtree`, narrowed to `orgTypes`;
 * with no org named, every org of `orgTypes` in reach. Named units that cannot fill every form → T1004 with
 * their names; found units that cannot are left out. None left → T1008; too many → T1011.
 */
export function resolveReceivers(
  input: z.output<typeof taskReceiversInputSchema>,
  orgs: Map<number, TaskOrg>,
  reach: Reach,
  canFill: readonly FillCheck[],
  people: PeopleUnits = NO_PEOPLE,
): TaskOrg[] {
  const types = new Set<string>(input.orgTypes);
  const typeOk = (org: TaskOrg) => types.size === 0 || types.has(org.type);
  const fills = (org: TaskOrg) => canFill.every((check) => check(org));
  const chosen = new Set<number>();
  const unfit: string[] = [];
  const named = [...new Set(input.orgIds)];
  for (const id of named) {
    const org = orgs.get(id);
    if (!org?.enabled) throw new AppError('T1003');
    if (!reaches(reach, org)) throw new AppError(reach.kind === 'below' ? 'T1009' : 'T1003');
    if (input.orgTypes.length > 0 && input.subtree) continue;
    if (!typeOk(org)) continue;
    if (fills(org)) chosen.add(org.id);
    else unfit.push(org.name);
  }
  // The units of named users count as named; those of role holders as found (left out when they cannot).
  for (const id of people.named) {
    const org = orgs.get(id);
    if (!org?.enabled) throw new AppError('T1003');
    if (!reaches(reach, org)) throw new AppError(reach.kind === 'below' ? 'T1009' : 'T1003');
    if (fills(org)) chosen.add(org.id);
    else if (!unfit.includes(org.name)) unfit.push(org.name);
  }
  for (const id of people.found) {
    const org = orgs.get(id);
    if (org?.enabled && reaches(reach, org) && fills(org)) chosen.add(org.id);
  }
  if (unfit.length > 0) throw new AppError('T1004', { names: unfit.slice(0, 10).join('、') });
  const namedSet = new Set(named);
  const found =
    named.length === 0 ? (types.size > 0 ? [...orgs.values()] : []) : input.subtree ? [...orgs.values()] : [];
  for (const org of found) {
    if (!org.enabled || !typeOk(org) || !reaches(reach, org)) continue;
    if (named.length > 0 && !org.chain.some((id) => namedSet.has(id))) continue;
    if (fills(org)) chosen.add(org.id);
  }
  if (chosen.size === 0) throw new AppError('T1008');
  if (chosen.size > TASK_MAX_RECEIVERS) throw new AppError('T1011', { max: TASK_MAX_RECEIVERS });
  // Tree order: the org map is ordered by order_no; parents before children by depth.
  return [...orgs.values()].filter((o) => chosen.has(o.id)).sort((a, b) => a.chain.length - b.chain.length);
}

/** Units reached through people: the units of named users (`named`) and of the holders of named roles (`found`). */
export type PeopleUnits = { named: readonly number[]; found: readonly number[] };
const NO_PEOPLE: PeopleUnits = { named: [], found: [] };

/**
 * The units of a distribution's named users (their own org) and of its roles' enabled users (docs/tasks.md
 * "Receivers"): a task goes to units, so a person or a role stands for the unit they belong to. Users or roles
 * that are not live and enabled in the tenant → T1003.
 */
export async function peopleUnits(
  db: Db,
  tenantId: number,
  input: Pick<z.output<typeof taskReceiversInputSchema>, 'userIds' | 'roleIds'>,
): Promise<PeopleUnits> {
  const userIds = [...new Set(input.userIds)];
  const roleIds = [...new Set(input.roleIds)];
  if (userIds.length === 0 && roleIds.length === 0) return NO_PEOPLE;
  const users = userIds.length
    ? await db
        .selectFrom('sys_user')
        .select(['id', 'org_id'])
        .where('id', 'in', userIds)
        .where('tenant_id', '=', tenantId)
        .where('is_delete', '=', 0)
        .where('status', '=', STATUS.enabled)
        .execute()
    : [];
  if (users.length !== userIds.length || users.some((u) => !u.org_id)) throw new AppError('T1003');
  if (roleIds.length > 0) {
    const roles = await db
      .selectFrom('sys_role')
      .select('id')
      .where('id', 'in', roleIds)
      .where('tenant_id', '=', tenantId)
      .where('is_delete', '=', 0)
      .where('status', '=', STATUS.enabled)
      .execute();
    if (roles.length !== roleIds.length) throw new AppError('T1003');
  }
  const audience = { all: false, orgIds: [], userIds: [], roleIds, enterprises: false };
  return {
    named: [...new Set(users.map((u) => Number(u.org_id)))],
    found: roleIds.length ? await audienceUserOrgIds(db, tenantId, audience) : [],
  };
}
