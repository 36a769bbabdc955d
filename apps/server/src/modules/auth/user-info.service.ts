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
import { SerializedResult } from '../../platform/http/envelope.ts';

type BaseInfo = Omit<UserInfo, 'buttons' | 'authBtnList'>;

/**
 * userInfo is cached per user in the process's local tier (ctx.cache.local), with its serialised JSON, so
 * that the call every page load makes costs neither queries nor serialisation.
 *
 * Invalidation contract: whatever changes what userInfo shows — the user's own row (names, org, position,
 * password flag, region fields), their roles, their org or external orgs, or their data scope — calls
 * `forgetUserInfo(ctx, userId)` after writing; a change that touches many users at once (renaming an org or
 * a position, editing or disabling a role, moving a subtree) calls `forgetAllUserInfo(ctx)`. Both apply at
 * once here and in every other process. Buttons are not part of this cache: they come from the session's
 * principal (see platform/auth/sessions.ts, `forgetUserSessions`).
 */
const TTL_SECONDS = 60;
const KEY_PREFIX = 'uinfo:';
const key = (userId: number) => `${KEY_PREFIX}${userId}`;
/** Variants per user (one per distinct button set among their sessions), before they are rebuilt. */
const MAX_VARIANTS = 8;

type CachedUserInfo = {
  base: BaseInfo;
  /** `JSON.stringify(base)` without its closing brace. */
  head: string;
  /** Serialised results by the JSON of their button list. */
  variants: Map<string, SerializedResult>;
};

/** JSON of a principal's button list; the set object is stable for as long as the principal is cached. */
const buttonsJson = new WeakMap<ReadonlySet<string>, string>();
function buttonsJsonOf(permissions: ReadonlySet<string>): string {
  let json = buttonsJson.get(permissions);
  if (json === undefined) {
    json = JSON.stringify([...permissions]);
    buttonsJson.set(permissions, json);
  }
  return json;
}

type OrgRow = {
  id: number;
  pid: number;
  code: string;
  name: string;
  type: string;
  level: number;
  region_code: string | null;
};

/** Drops the cached userInfo of a user, here and in every other process. */
export async function forgetUserInfo(ctx: AppContext, userId: number): Promise<void> {
  await ctx.cache.local.invalidate(key(userId));
}

/** Drops every cached userInfo (org, position or role changes that touch many users). */
export async function forgetAllUserInfo(ctx: AppContext): Promise<void> {
  await ctx.cache.local.invalidatePrefix(KEY_PREFIX);
}

async function cachedUserInfo(ctx: AppContext, caller: AuthUser): Promise<CachedUserInfo> {
  const k = key(caller.userId);
  const hit = ctx.cache.local.get<CachedUserInfo>(k);
  if (hit) return hit;
  const since = ctx.cache.local.mark();
  const base = await loadUserInfo(ctx, caller);
  const entry: CachedUserInfo = { base, head: JSON.stringify(base).slice(0, -1), variants: new Map() };
  ctx.cache.local.set(k, entry, TTL_SECONDS, since);
  return entry;
}

/** The signed-in user's profile (SPEC §3 "User info"). */
export async function userInfo(ctx: AppContext, caller: AuthUser): Promise<UserInfo> {
  const { base } = await cachedUserInfo(ctx, caller);
  // Buttons come from the session's principal so that they always match what the server enforces.
  const buttons = [...caller.permissions];
  return { ...base, buttons, authBtnList: buttons };
}

/**
 * `userInfo` already serialised, as the route sends it: the same JSON as `JSON.stringify(userInfo(…))`.
 * Synchronous when cached.
 */
export function userInfoResult(
  ctx: AppContext,
  caller: AuthUser,
): SerializedResult | Promise<SerializedResult> {
  const hit = ctx.cache.local.get<CachedUserInfo>(key(caller.userId));
  if (hit) return serializedFor(hit, caller);
  return cachedUserInfo(ctx, caller).then((entry) => serializedFor(entry, caller));
}

function serializedFor(entry: CachedUserInfo, caller: AuthUser): SerializedResult {
  const buttons = buttonsJsonOf(caller.permissions);
  let result = entry.variants.get(buttons);
  if (result === undefined) {
    if (entry.variants.size >= MAX_VARIANTS) entry.variants.clear();
    result = new SerializedResult(`${entry.head},"buttons":${buttons},"authBtnList":${buttons}}`);
    entry.variants.set(buttons, result);
  }
  return result;
}

async function loadUserInfo(ctx: AppContext, caller: AuthUser): Promise<BaseInfo> {
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
    .select(['r.id', 'r.name', 'r.code'])
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
    roleIds: roles.map((r) => r.id),
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
    email: user.email,
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
