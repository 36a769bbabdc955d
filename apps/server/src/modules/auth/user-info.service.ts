import {
  ACCOUNT_TYPE,
  CITY_ADMIN_ROLE_CODE,
  SPECIAL_ROLE_NAMES,
  type UserInfo,
} from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import { visibleOrgIds } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { unauthorized } from '../../platform/errors/app-error.ts';

const TTL_SECONDS = 60;
const key = (userId: number) => `uinfo:${userId}`;

type OrgRow = {
  id: number;
  pid: number;
  code: string;
  name: string;
  type: string;
  level: number;
  region_code: string | null;
};

/** Drops the cached userInfo of a user; anything that changes what userInfo shows calls it. */
export async function forgetUserInfo(ctx: AppContext, userId: number): Promise<void> {
  await ctx.cache.del(key(userId));
}

/** The signed-in user's profile (SPEC §3 "User info"), cached for a minute per user. */
export async function userInfo(ctx: AppContext, caller: AuthUser): Promise<UserInfo> {
  const cached = await ctx.cache.get<Omit<UserInfo, 'buttons' | 'authBtnList'>>(key(caller.userId));
  const base = cached ?? (await loadUserInfo(ctx, caller));
  if (!cached) await ctx.cache.set(key(caller.userId), base, TTL_SECONDS);
  // Buttons come from the session's principal so that they always match what the server enforces.
  const buttons = [...caller.permissions];
  return { ...base, buttons, authBtnList: buttons };
}

async function loadUserInfo(
  ctx: AppContext,
  caller: AuthUser,
): Promise<Omit<UserInfo, 'buttons' | 'authBtnList'>> {
  const user = await ctx.db
    .selectFrom('sys_user')
    .selectAll()
    .where('id', '=', caller.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw unauthorized(true);

  const org = user.org_id
    ? await ctx.db
        .selectFrom('sys_org')
        .select(['id', 'full_ids', 'full_names', 'level', 'name'])
        .where('id', '=', user.org_id)
        .executeTakeFirst()
    : undefined;
  const chainIds = org ? org.full_ids.split(',').map(Number).filter(Number.isFinite) : [];
  const chainRows: OrgRow[] =
    chainIds.length > 0
      ? await ctx.db
          .selectFrom('sys_org')
          .select(['id', 'pid', 'code', 'name', 'type', 'level', 'region_code'])
          .where('id', 'in', chainIds)
          .execute()
      : [];
  // Root first, the user's own org last.
  const chain = chainIds
    .map((id) => chainRows.find((o) => o.id === id))
    .filter((o): o is OrgRow => o !== undefined);
  const ofType = (type: string) => chain.filter((o) => o.type === type);
  const area = ofType('district')[0];
  const street = ofType('street')[0];
  const community = ofType('community')[0];
  const [grid, subGrid] = ofType('grid');
  const codeOf = (o: OrgRow | undefined) => (o ? (o.region_code ?? o.code) : null);
  const withRegion = chain.filter((o) => o.region_code);
  const nearestRegion = withRegion.at(-1);

  const pos = user.pos_id
    ? await ctx.db.selectFrom('sys_pos').select('name').where('id', '=', user.pos_id).executeTakeFirst()
    : undefined;
  const roles = await ctx.db
    .selectFrom('sys_user_role as ur')
    .innerJoin('sys_role as r', 'r.id', 'ur.role_id')
    .select(['r.name', 'r.code'])
    .where('ur.user_id', '=', user.id)
    .where('r.status', '=', STATUS.enabled)
    .where('r.is_delete', '=', 0)
    .orderBy('r.order_no')
    .orderBy('r.id')
    .execute();
  const extOrgIds = (
    await ctx.db.selectFrom('sys_user_ext_org').select('org_id').where('user_id', '=', user.id).execute()
  ).map((r) => r.org_id);
  const orgIds = await visibleOrgIds(ctx, {
    userId: user.id,
    tenantId: user.tenant_id,
    accountType: user.account_type,
    orgId: user.org_id,
  });

  const roleNames = roles.map((r) => r.name);
  const roleCodes = roles.map((r) => r.code);
  const superior = chain.length > 1 && org ? chain[1] : undefined;
  return {
    id: user.id,
    account: user.account,
    realName: user.real_name,
    accountType: user.account_type,
    avatar: user.avatar ?? '',
    address: user.address,
    signature: user.signature,
    tenantId: user.tenant_id,
    orgId: user.org_id,
    orgIds,
    extOrgIds,
    orgName: org?.name ?? null,
    posName: pos?.name ?? null,
    orgParentDep: chain.length > 1 ? (chain.at(-2)?.name ?? null) : null,
    orgRank: org?.level ?? null,
    superiorDept: superior && superior.id !== org?.id ? superior.name : null,
    fullOrgIds: org?.full_ids ?? null,
    fullOrgNames: org?.full_names ?? null,
    roles: roleNames,
    roleCodes,
    isDefPwd: user.is_def_pwd === 1,
    regionId: user.region_id ?? nearestRegion?.region_code ?? null,
    regionName: user.region_name ?? nearestRegion?.name ?? null,
    fullRegionId: withRegion.length > 0 ? withRegion.map((o) => o.region_code).join(',') : null,
    fullRegionName: withRegion.length > 0 ? withRegion.map((o) => o.name).join('/') : null,
    area: area?.name ?? user.area,
    areaCode: codeOf(area) ?? user.area_code,
    street: street?.name ?? user.street,
    streetCode: codeOf(street) ?? user.street_code,
    community: community?.name ?? user.community,
    communityCode: codeOf(community) ?? user.community_code,
    wangge: grid?.name ?? user.wangge,
    wanggeCode: codeOf(grid) ?? user.wangge_code,
    weiwangge: subGrid?.name ?? user.weiwangge,
    weiwanggeCode: codeOf(subGrid) ?? user.weiwangge_code,
    idCardNum: user.id_card_num,
    phone: user.phone,
    enterprise: user.enterprise,
    streetId: street?.id ?? null,
    communityId: community?.id ?? null,
    isAreaLeader: roleNames.includes(SPECIAL_ROLE_NAMES.areaLeader),
    isDeptTownLeader: roleNames.includes(SPECIAL_ROLE_NAMES.deptTownLeader),
    isCommunityLeader: roleNames.includes(SPECIAL_ROLE_NAMES.communityLeader),
    isStaff: roleNames.includes(SPECIAL_ROLE_NAMES.staff),
    isCityAdmin: roleCodes.includes(CITY_ADMIN_ROLE_CODE),
    isAdmin: user.account_type === ACCOUNT_TYPE.superAdmin || user.account_type === ACCOUNT_TYPE.sysAdmin,
    isSuperAdmin: user.account_type === ACCOUNT_TYPE.superAdmin,
  };
}
