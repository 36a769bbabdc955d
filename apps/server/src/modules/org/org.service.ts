import {
  buildOrgTree,
  ORG_NAME_SEPARATOR,
  ORG_PATH_SEPARATOR,
  ORG_TYPE_DICT,
  type OrgListItem,
  type OrgNode,
  type OrgRow,
  type orgAddInputSchema,
  type orgUpdateInputSchema,
} from '@shuzhi/contracts/org';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, SysOrgTable } from '../../db/schema.ts';
import {
  assertOrgInScope,
  type DataScopeView,
  dataScopeOf,
  forgetDataScope,
} from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';
import { followOrgChange, ORG_AREA_SOURCE, orgAreaFields } from '../../platform/org/org-area.ts';
import { forgetAllUserInfo } from '../auth/user-info.service.ts';

type Trx = Transaction<Database>;
type OrgTableRow = SysOrgTable & { id: number };

const subject = (user: AuthUser) => ({
  userId: user.userId,
  tenantId: user.tenantId,
  accountType: user.accountType,
  orgId: user.orgId || null,
});

export const scopeOf = (ctx: AppContext, user: AuthUser): Promise<DataScopeView> =>
  dataScopeOf(ctx, subject(user));

/**
 * The caller's visible org tree: the orgs of their data scope (all of the tenant for admins), plus the
 * ancestors of those orgs flagged `outOfScope`, so that the tree stays connected.
 */
export async function orgTreeAll(ctx: AppContext, user: AuthUser): Promise<OrgNode[]> {
  const view = await scopeOf(ctx, user);
  const rows = await ctx.db
    .selectFrom('sys_org')
    .select(['id', 'pid', 'code', 'name', 'type', 'level', 'status', 'order_no', 'full_ids'])
    .where('tenant_id', '=', user.tenantId)
    .where('is_delete', '=', 0)
    .execute();
  const visible = new Set(view.orgIds);
  const wanted = new Set<number>();
  if (view.all) for (const r of rows) wanted.add(r.id);
  else {
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const id of visible) {
      const row = byId.get(id);
      if (!row) continue;
      for (const part of row.full_ids.split(ORG_PATH_SEPARATOR)) wanted.add(Number(part));
    }
  }
  const nodes: OrgNode[] = [];
  for (const r of rows) {
    if (!wanted.has(r.id)) continue;
    nodes.push({
      id: r.id,
      pid: r.pid,
      code: r.code,
      name: r.name,
      type: r.type,
      level: r.level,
      status: r.status,
      orderNo: r.order_no,
      outOfScope: !view.all && !visible.has(r.id),
      children: [],
    });
  }
  return buildOrgTree(nodes);
}

/**
 * `GET /sysOrg/list` (Admin.NET): with Name/Code/Type a flat list of the matching visible orgs (inside `Id`'s
 * subtree when given), otherwise the visible tree below `Id` (none or 0: from the roots).
 */
export async function orgList(
  rows: OrgRow[],
  input: { Id?: number; Name?: string; Code?: string; Type?: string },
): Promise<OrgListItem[]> {
  const id = input.Id ?? 0;
  const under = (row: OrgRow) =>
    id === 0 || (row.id !== id && row.fullIds.split(ORG_PATH_SEPARATOR).includes(String(id)));
  const name = input.Name?.toLowerCase();
  if (name || input.Code || input.Type) {
    return rows
      .filter(
        (r) =>
          (id === 0 || r.id === id || under(r)) &&
          (!name || r.name.toLowerCase().includes(name)) &&
          (!input.Code || r.code === input.Code) &&
          (!input.Type || r.type === input.Type),
      )
      .sort((a, b) => a.level - b.level || a.orderNo - b.orderNo || a.id - b.id);
  }
  type Tree = OrgRow & { children: Tree[] };
  const items: Tree[] = rows.filter(under).map((r) => ({ ...r, children: [] }));
  // The requested node's children are the roots of the answer; orgs whose parent is hidden float up.
  const roots: OrgListItem[] = buildOrgTree(items);
  return roots;
}

/** Whether `type` is a value of the org type dictionary (disabled items included: old rows keep them). */
async function assertOrgType(trx: Trx, type: string | undefined): Promise<void> {
  if (type === undefined) return;
  const hit = await trx
    .selectFrom('sys_dict_data as d')
    .innerJoin('sys_dict_type as t', 't.id', 'd.dict_type_id')
    .select('d.id')
    .where('t.code', '=', ORG_TYPE_DICT)
    .where('d.value', '=', type)
    .where('d.is_delete', '=', 0)
    .where('t.is_delete', '=', 0)
    .executeTakeFirst();
  if (hit) return;
  throw new ValidationError(
    [{ code: 'custom', path: ['type'], message: `"${type}" is not an org type`, input: type }],
    'body',
  );
}

/** A live org of the tenant by id, or D1002. */
async function liveOrg(trx: Trx, tenantId: number, id: number): Promise<OrgTableRow> {
  const row = await trx
    .selectFrom('sys_org')
    .selectAll()
    .where('id', '=', id)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}

type Place = { level: number; full_ids: string; full_names: string };

/** Level and paths of org `id` named `name` under `pid` (0: a root). */
async function placeUnder(
  trx: Trx,
  tenantId: number,
  view: DataScopeView,
  pid: number,
  id: number,
  name: string,
): Promise<Place> {
  if (pid === 0) {
    // A new root is a new branch of the tenant: only who sees the whole tenant may make one.
    if (!view.all) throw new AppError('D2003');
    return { level: 1, full_ids: String(id), full_names: name };
  }
  const parent = await liveOrg(trx, tenantId, pid);
  assertOrgInScope(view, parent.id);
  return {
    level: parent.level + 1,
    full_ids: `${parent.full_ids}${ORG_PATH_SEPARATOR}${id}`,
    full_names: `${parent.full_names}${ORG_NAME_SEPARATOR}${name}`,
  };
}

/**
 * After org `root` got a new place, its live descendants take theirs from it: level, id path and name path,
 * recomputed parent by parent (their own names are kept).
 */
async function cascade(trx: Trx, root: OrgTableRow, place: Place): Promise<void> {
  const descendants = await trx
    .selectFrom('sys_org')
    .select(['id', 'pid', 'name', 'level', 'full_ids', 'full_names'])
    .where('tenant_id', '=', root.tenant_id)
    .where('is_delete', '=', 0)
    .where('full_ids', 'like', `${root.full_ids}${ORG_PATH_SEPARATOR}%`)
    .orderBy('level')
    .execute();
  const placed = new Map<number, Place>([[root.id, place]]);
  for (const d of descendants) {
    const parent = placed.get(d.pid);
    if (!parent) continue; // not below a placed node (cannot happen in a consistent tree)
    const next: Place = {
      level: parent.level + 1,
      full_ids: `${parent.full_ids}${ORG_PATH_SEPARATOR}${d.id}`,
      full_names: `${parent.full_names}${ORG_NAME_SEPARATOR}${d.name}`,
    };
    placed.set(d.id, next);
    if (next.level === d.level && next.full_ids === d.full_ids && next.full_names === d.full_names) continue;
    await trx.updateTable('sys_org').set(next).where('id', '=', d.id).execute();
  }
}

/** The orgs of live users in org `root`'s subtree (itself included), read before the subtree's paths change. */
async function userOrgsBelow(trx: Trx, root: OrgTableRow): Promise<number[]> {
  const rows = await trx
    .selectFrom('sys_user as u')
    .innerJoin('sys_org as o', 'o.id', 'u.org_id')
    .select('u.org_id')
    .distinct()
    .where('u.tenant_id', '=', root.tenant_id)
    .where('u.is_delete', '=', 0)
    .where((eb) =>
      eb.or([eb('o.id', '=', root.id), eb('o.full_ids', 'like', `${root.full_ids}${ORG_PATH_SEPARATOR}%`)]),
    )
    .execute();
  return rows.flatMap((r) => (r.org_id === null ? [] : [r.org_id]));
}

export const orgHooks: CrudHooks<
  'sys_org',
  z.output<typeof orgAddInputSchema>,
  z.output<typeof orgUpdateInputSchema>
> = {
  async beforeAdd({ ctx, trx, user, input, values }) {
    const view = await scopeOf(ctx, user);
    await assertOrgType(trx, input.type);
    const place = await placeUnder(trx, user.tenantId, view, input.pid, values.id as number, input.name);
    Object.assign(values, place);
  },

  async beforeUpdate({ ctx, trx, user, input, values, row }) {
    const view = await scopeOf(ctx, user);
    assertOrgInScope(view, row.id);
    await assertOrgType(trx, input.type);
    const self = row as OrgTableRow;
    const pid = input.pid ?? row.pid;
    const name = input.name ?? row.name;
    let place: Place | null = null;
    if (pid !== row.pid || name !== row.name) {
      if (pid !== row.pid && pid !== 0) {
        const parent = await liveOrg(trx, row.tenant_id, pid);
        if (parent.id === self.id || parent.full_ids.split(ORG_PATH_SEPARATOR).includes(String(self.id)))
          throw new AppError('D2002');
      }
      if (pid !== row.pid) place = await placeUnder(trx, row.tenant_id, view, pid, self.id, name);
      else if (pid === 0) place = { level: 1, full_ids: String(self.id), full_names: name };
      else {
        // Renamed in place: the parent may lie outside the caller's scope (editing their own org).
        const parent = await liveOrg(trx, row.tenant_id, pid);
        place = {
          level: parent.level + 1,
          full_ids: `${parent.full_ids}${ORG_PATH_SEPARATOR}${self.id}`,
          full_names: `${parent.full_names}${ORG_NAME_SEPARATOR}${name}`,
        };
      }
      Object.assign(values, place);
    }
    const next = { ...self, ...values } as OrgTableRow;
    const chainChanged = ORG_AREA_SOURCE.some((column) => next[column] !== self[column]);
    // Users copy area fields from their org chain: those of this org and every org below follow it.
    const userOrgIds = chainChanged ? await userOrgsBelow(trx, self) : [];
    const before = await orgAreaFields(trx, userOrgIds);
    if (place) await cascade(trx, self, place);
    if (userOrgIds.length > 0) {
      const after = await orgAreaFields(trx, userOrgIds, [next]);
      await followOrgChange(trx, self.tenant_id, before, after);
    }
  },

  async beforeSetStatus({ ctx, user, row }) {
    assertOrgInScope(await scopeOf(ctx, user), row.id);
  },

  async beforeDelete({ ctx, trx, user, rows }) {
    const view = await scopeOf(ctx, user);
    const ids = rows.map((r) => (r as OrgTableRow).id);
    for (const id of ids) assertOrgInScope(view, id);
    const child = await trx
      .selectFrom('sys_org')
      .select('id')
      .where('pid', 'in', ids)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (child) throw new AppError('D2000');
    const member = await trx
      .selectFrom('sys_user')
      .select('id')
      .where('org_id', 'in', ids)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    const extMember = member
      ? member
      : await trx
          .selectFrom('sys_user_ext_org as e')
          .innerJoin('sys_user as u', 'u.id', 'e.user_id')
          .select('u.id')
          .where('e.org_id', 'in', ids)
          .where('u.is_delete', '=', 0)
          .executeTakeFirst();
    if (extMember) throw new AppError('D2001');
    // A custom data scope that named the org loses it with the org.
    await trx.deleteFrom('sys_role_org').where('org_id', 'in', ids).execute();
  },

  async afterChange({ ctx }) {
    await forgetDataScope(ctx);
    await forgetAllUserInfo(ctx);
  },
};
