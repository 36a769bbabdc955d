import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { UserGroupMember } from '@shuzhi/contracts/user-group';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type DataScopeView, dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';

type Db = AppContext['db'] | Transaction<Database>;

/** A live group the caller may see (their tenant; the super admin any), or D1002. */
async function visibleGroup(db: Db, user: AuthUser, id: number): Promise<{ id: number; tenant_id: number }> {
  let query = db
    .selectFrom('sys_user_group')
    .select(['id', 'tenant_id'])
    .where('id', '=', id)
    .where('is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('tenant_id', '=', user.tenantId);
  const group = await query.executeTakeFirst();
  if (!group) throw new AppError('D1002');
  return group;
}

/** Live users of the tenant inside the view, among `ids` (all of them when `ids` is undefined). */
function scopedUsers(db: Db, view: DataScopeView, tenantId: number) {
  return whereInScope(
    db.selectFrom('sys_user as u').where('u.tenant_id', '=', tenantId).where('u.is_delete', '=', 0),
    view,
    'u.org_id',
    'u.id',
  );
}

/** The members of a group that the caller's data scope admits, by org then name. */
export async function groupMembers(ctx: AppContext, user: AuthUser, id: number): Promise<UserGroupMember[]> {
  const group = await visibleGroup(ctx.db, user, id);
  const view = await dataScopeOf(ctx, user);
  const rows = await scopedUsers(ctx.db, view, group.tenant_id)
    .innerJoin('sys_user_group_member as m', 'm.user_id', 'u.id')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select(['u.id', 'u.account', 'u.real_name', 'u.org_id', 'o.name as org_name', 'u.status'])
    .where('m.group_id', '=', group.id)
    .orderBy('o.full_ids')
    .orderBy('u.order_no')
    .orderBy('u.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    account: r.account,
    realName: r.real_name,
    orgId: r.org_id,
    orgName: r.org_name ?? null,
    status: r.status,
  }));
}

/**
 * Makes `userIds` the group's members, in one transaction. Every user must be a live user of the group's
 * tenant (D1002) inside the caller's data scope (D2003); members the caller cannot see stay members.
 */
export async function setGroupMembers(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  userIds: readonly number[],
): Promise<void> {
  const wanted = [...new Set(userIds)];
  await ctx.db.transaction().execute(async (trx) => {
    const group = await visibleGroup(trx, user, id);
    const view = await dataScopeOf(ctx, user);
    if (wanted.length > 0) {
      const allowed = await scopedUsers(trx, view, group.tenant_id)
        .select('u.id')
        .where('u.id', 'in', wanted)
        .execute();
      if (allowed.length !== wanted.length) {
        const existing = await trx
          .selectFrom('sys_user')
          .select('id')
          .where('id', 'in', wanted)
          .where('tenant_id', '=', group.tenant_id)
          .where('is_delete', '=', 0)
          .execute();
        throw new AppError(existing.length === wanted.length ? 'D2003' : 'D1002');
      }
    }
    // Current members the caller may see are replaced; the others are not theirs to drop.
    const current = await scopedUsers(trx, view, group.tenant_id)
      .innerJoin('sys_user_group_member as m', 'm.user_id', 'u.id')
      .select('u.id')
      .where('m.group_id', '=', group.id)
      .execute();
    const keep = new Set(wanted);
    const drop = current.map((r) => r.id).filter((uid) => !keep.has(uid));
    if (drop.length > 0) {
      await trx
        .deleteFrom('sys_user_group_member')
        .where('group_id', '=', group.id)
        .where('user_id', 'in', drop)
        .execute();
    }
    const members = await trx
      .selectFrom('sys_user_group_member')
      .select('user_id')
      .where('group_id', '=', group.id)
      .execute();
    const present = new Set(members.map((r) => r.user_id));
    const add = wanted.filter((uid) => !present.has(uid));
    if (add.length > 0) {
      await trx
        .insertInto('sys_user_group_member')
        .values(add.map((uid) => ({ id: ctx.newId(), group_id: group.id, user_id: uid })))
        .execute();
    }
  });
}
