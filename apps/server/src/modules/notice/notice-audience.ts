import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import {
  AUDIENCE_PICK_LIMIT,
  type AudienceRole,
  type AudienceUser,
  NOTICE_AUDIENCE,
} from '@shuzhi/contracts/notice';
import { dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { applyFilters } from '../../platform/crud/filters.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { enabledRoleChoices } from '../role/role.service.ts';
import type { Db } from './notice-store.ts';

/** A notice's audience: stored ids, their check, and the pickers of users and roles. */

/** The audience ids stored as a JSON array. */
export function audienceIdsOf(text: string | null): number[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((v): v is number => Number.isSafeInteger(v)) : [];
  } catch {
    return [];
  }
}

/**
 * Every id of the audience must be a live org, role or user of the notice's tenant (D1002); orgs, roles and
 * users need at least one (D7003). Answers the ids without repeats, as they will be stored.
 */
export async function checkAudience(
  db: Db,
  tenantId: number,
  audience: number,
  ids: readonly number[],
): Promise<number[]> {
  if (audience === NOTICE_AUDIENCE.all) return [];
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) throw new AppError('D7003');
  const table =
    audience === NOTICE_AUDIENCE.orgs
      ? 'sys_org'
      : audience === NOTICE_AUDIENCE.roles
        ? 'sys_role'
        : 'sys_user';
  const found = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', wanted)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (found.length !== wanted.length) throw new AppError('D1002');
  return wanted;
}

/**
 * Users a notice editor may address: live, enabled users of the tenant inside the editor's data scope,
 * by keyword (account, name) or by ids (labels of chosen ones). The editor needs no user-admin permission.
 */
export async function audienceUsers(
  ctx: AppContext,
  user: AuthUser,
  query: { keyword?: string; ids?: string },
): Promise<AudienceUser[]> {
  const view = await dataScopeOf(ctx, user);
  let q = ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select(['u.id', 'u.account', 'u.real_name', 'o.name as org_name'])
    .where('u.tenant_id', '=', user.tenantId)
    .where('u.is_delete', '=', 0)
    .where('u.status', '=', STATUS.enabled)
    .where('u.account_type', '!=', ACCOUNT_TYPE.superAdmin);
  q = whereInScope(q, view, 'u.org_id', 'u.id');
  const asked = (query.ids ?? '').split(',').filter(Boolean);
  // Labels of chosen users: digits beyond the safe integers name nobody, and never reach the database.
  const ids = asked
    .map(Number)
    .filter((id) => Number.isSafeInteger(id) && id > 0)
    .slice(0, AUDIENCE_PICK_LIMIT * 50);
  if (asked.length > 0 && ids.length === 0) return [];
  if (ids.length > 0) q = q.where('u.id', 'in', ids);
  else {
    q = applyFilters(
      q,
      { keyword: { like: ['u.account', 'u.real_name'] } },
      { keyword: query.keyword },
      ctx.dialect,
    ) as typeof q;
  }
  const rows = await q
    .orderBy('u.real_name')
    .orderBy('u.id')
    .limit(ids.length > 0 ? ids.length : AUDIENCE_PICK_LIMIT)
    .execute();
  return rows.map((r) => ({ id: r.id, account: r.account, realName: r.real_name, orgName: r.org_name }));
}

/** The tenant's enabled roles, for the role audience. */
export function audienceRoles(ctx: AppContext, user: AuthUser): Promise<AudienceRole[]> {
  return enabledRoleChoices(ctx, user.tenantId);
}
