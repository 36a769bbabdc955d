import { assertOrgInScope, forgetDataScope } from '../../platform/access/data-scope.ts';
import { forgetUserSessions } from '../../platform/auth/sessions.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { areaFieldsOf, followOrgArea, orgAreaFields } from '../../platform/org/org-area.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';
import { forgetMenuTree } from '../menu/menu.service.ts';
import { ACCOUNT_LABEL, type Db, type ExtOrgInput, scopeOf, type UserRowDb } from './user-admin.service.ts';

// ---------------------------------------------------------------------------------------------------------
// Related rows: orgs, positions and roles must exist in the user's tenant; orgs must lie in the caller's scope.

/** D1002 unless every id is a live row of the tenant in `table` (orgs, positions, roles). */
export async function assertLiveOfTenant(
  trx: Db,
  table: 'sys_org' | 'sys_pos' | 'sys_role',
  tenantId: number,
  ids: number[],
): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await trx
    .selectFrom(table)
    .select('id')
    .where('id', 'in', unique)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (found.length !== unique.length) throw new AppError('D1002');
}

const assertOrgsExist = (trx: Db, tenantId: number, ids: number[]) =>
  assertLiveOfTenant(trx, 'sys_org', tenantId, ids);
const assertPositionsExist = (trx: Db, tenantId: number, ids: number[]) =>
  assertLiveOfTenant(trx, 'sys_pos', tenantId, ids);
/** D1002 unless every role is a live role of the tenant. */
export const assertRolesOfTenant = (trx: Db, tenantId: number, ids: number[]) =>
  assertLiveOfTenant(trx, 'sys_role', tenantId, ids);

/** D1006 when another live user (of any tenant) has the account. */
export async function assertAccountFree(trx: Db, account: string, selfId: number | null): Promise<void> {
  let query = trx
    .selectFrom('sys_user')
    .select('id')
    .where('account', '=', account)
    .where('is_delete', '=', 0);
  if (selfId !== null) query = query.where('id', '!=', selfId);
  if (await query.executeTakeFirst()) throw new AppError('D1006', { field: ACCOUNT_LABEL, value: account });
}

export async function replaceRoles(trx: Db, ctx: AppContext, userId: number, roleIds: number[]) {
  await trx.deleteFrom('sys_user_role').where('user_id', '=', userId).execute();
  const unique = [...new Set(roleIds)];
  if (unique.length === 0) return;
  await trx
    .insertInto('sys_user_role')
    .values(unique.map((roleId) => ({ id: ctx.newId(), user_id: userId, role_id: roleId })))
    .execute();
}

export async function replaceExtOrgs(trx: Db, ctx: AppContext, userId: number, list: ExtOrgInput[]) {
  await trx.deleteFrom('sys_user_ext_org').where('user_id', '=', userId).execute();
  const byOrg = new Map<number, number | null>();
  for (const item of list) byOrg.set(item.orgId, item.posId ?? null);
  if (byOrg.size === 0) return;
  await trx
    .insertInto('sys_user_ext_org')
    .values(
      [...byOrg].map(([orgId, posId]) => ({
        id: ctx.newId(),
        user_id: userId,
        org_id: orgId,
        pos_id: posId,
      })),
    )
    .execute();
}

export type LinkInput = {
  orgId?: number;
  posId?: number | null;
  roleIdList?: number[];
  extOrgList?: ExtOrgInput[];
};

/** Checks org, position, ext orgs and roles of an add or update; `before` is the stored user on update. */
export async function checkLinks(
  ctx: AppContext,
  trx: Db,
  caller: AuthUser,
  tenantId: number,
  input: LinkInput,
  before: { org_id: number | null; userId: number } | null,
): Promise<void> {
  const view = await scopeOf(ctx, caller);
  if (input.orgId !== undefined) {
    await assertOrgsExist(trx, tenantId, [input.orgId]);
    if (!before || before.org_id !== input.orgId) assertOrgInScope(view, input.orgId);
  }
  if (input.posId != null) await assertPositionsExist(trx, tenantId, [input.posId]);
  if (input.extOrgList) {
    await assertOrgsExist(
      trx,
      tenantId,
      input.extOrgList.map((e) => e.orgId),
    );
    await assertPositionsExist(
      trx,
      tenantId,
      input.extOrgList.flatMap((e) => (e.posId == null ? [] : [e.posId])),
    );
    // Extra orgs the user already had stay even when out of the caller's sight; new ones must be in it.
    const had = before
      ? new Set(
          (
            await trx
              .selectFrom('sys_user_ext_org')
              .select('org_id')
              .where('user_id', '=', before.userId)
              .execute()
          ).map((r) => r.org_id),
        )
      : new Set<number>();
    for (const ext of input.extOrgList) if (!had.has(ext.orgId)) assertOrgInScope(view, ext.orgId);
  }
  if (input.roleIdList) await assertRolesOfTenant(trx, tenantId, input.roleIdList);
}

/** After a user's row, roles or orgs changed: every cache that holds them, and their sessions' principals. */
export async function forgetUser(ctx: AppContext, userId: number): Promise<void> {
  await forgetUserInfo(ctx, userId);
  await forgetMenuTree(ctx, userId);
  await forgetDataScope(ctx, userId);
  await forgetUserSessions(ctx, userId);
}

/**
 * The area levels of an edited user: those still as the stored org's chain gave them (the form sends them back
 * unchanged) or left blank follow the org the user will have; levels the admin typed stay.
 */
export async function followOrg(
  trx: Db,
  row: UserRowDb & { id: number },
  values: Partial<UserRowDb>,
): Promise<void> {
  const orgId = values.org_id ?? row.org_id;
  if (orgId === null) return;
  const ids = row.org_id === null ? [orgId] : [orgId, row.org_id];
  const chains = await orgAreaFields(trx, ids);
  const before = row.org_id === null ? null : (chains.get(row.org_id) ?? null);
  const after = chains.get(orgId);
  if (!after) return;
  Object.assign(values, followOrgArea(areaFieldsOf({ ...row, ...values }), before, after));
}
