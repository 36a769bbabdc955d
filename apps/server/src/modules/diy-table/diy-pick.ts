import { PICK_LIMIT, type PickOption, type pickQuerySchema } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { likeContaining } from '../../platform/db/like.ts';
import type { Caller } from '../../platform/diy/form-access.ts';

type Db = AppContext['db'];
type PickQuery = z.output<typeof pickQuerySchema>;

/**
 * What the user, org and enterprise fields of a form may hold, and what their pickers offer: live, enabled
 * users and orgs of the caller's tenant; an enterprise user only their own enterprise and its people. The
 * record routes check submitted ids with the same queries.
 */

function idsOf(text: string | undefined): number[] {
  if (!text) return [];
  return [...new Set(text.split(',').map(Number))]
    .filter((n) => Number.isSafeInteger(n) && n > 0)
    .slice(0, 1000);
}

function usableUsers(db: Db, caller: Caller) {
  let query = db
    .selectFrom('sys_user as u')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .where('u.tenant_id', '=', caller.user.tenantId)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled);
  if (caller.enterprise) query = query.where('u.org_id', '=', caller.orgId ?? -1);
  return query;
}

function usableOrgs(db: Db, caller: Caller, enterpriseOnly: boolean) {
  let query = db
    .selectFrom('sys_org as o')
    .where('o.tenant_id', '=', caller.user.tenantId)
    .where('o.is_delete', '=', 0)
    .where('o.status', '=', STATUS.enabled);
  if (enterpriseOnly) query = query.where('o.type', '=', 'enterprise');
  if (caller.enterprise) query = query.where('o.id', '=', caller.orgId ?? -1);
  return query;
}

export async function pickUsers(ctx: AppContext, caller: Caller, query: PickQuery): Promise<PickOption[]> {
  let q = usableUsers(ctx.db, caller).select(['u.id', 'u.real_name', 'o.name as org_name']);
  const ids = idsOf(query.ids);
  if (ids.length > 0) q = q.where('u.id', 'in', ids);
  else {
    if (query.keyword) {
      const pattern = likeContaining(query.keyword);
      q = q.where((eb) =>
        eb.or([
          sql<boolean>`${sql.ref('u.real_name')} like ${pattern} escape '\\'`,
          sql<boolean>`${sql.ref('u.account')} like ${pattern} escape '\\'`,
        ]),
      );
    }
    q = q.limit(PICK_LIMIT);
  }
  const rows = await q.orderBy('u.order_no').orderBy('u.id').execute();
  return rows.map((r) => ({ value: r.id, label: r.real_name, extra: r.org_name ?? null }));
}

export async function pickOrgs(ctx: AppContext, caller: Caller, query: PickQuery): Promise<PickOption[]> {
  let q = usableOrgs(ctx.db, caller, query.type === 'enterprise').select(['o.id', 'o.name', 'o.full_names']);
  const ids = idsOf(query.ids);
  if (ids.length > 0) q = q.where('o.id', 'in', ids);
  else {
    if (query.keyword) {
      q = q.where(sql<boolean>`${sql.ref('o.name')} like ${likeContaining(query.keyword)} escape '\\'`);
    }
    q = q.limit(PICK_LIMIT);
  }
  const rows = await q.orderBy('o.full_ids').orderBy('o.order_no').execute();
  return rows.map((r) => ({ value: r.id, label: r.name, extra: r.full_names }));
}

/** The ids among `ids` that a user field may hold, with their names. */
export async function usableUserNames(
  db: Db,
  caller: Caller,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await usableUsers(db, caller)
    .select(['u.id', 'u.real_name'])
    .where('u.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.real_name]));
}

/** The ids among `ids` that an org (or, with `enterpriseOnly`, an enterprise) field may hold, with names. */
export async function usableOrgNames(
  db: Db,
  caller: Caller,
  ids: readonly number[],
  enterpriseOnly: boolean,
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await usableOrgs(db, caller, enterpriseOnly)
    .select(['o.id', 'o.name'])
    .where('o.id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}
