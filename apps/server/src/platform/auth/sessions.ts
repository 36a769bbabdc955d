import { randomBytes } from 'node:crypto';
import { STATUS } from '@shuzhi/contracts/envelope';
import { loadPermissions } from '../access/permissions.ts';
import { configBool, configInt } from '../config/sys-config.ts';
import type { AppContext } from '../context.ts';
import { formatDateTime } from '../db/time.ts';
import { onlineUsersChanged, sessionsEnded } from '../realtime/hub.ts';
import { type PasswordChange, passwordChangeDue } from './password-change.ts';
import type { AccessPayload } from './tokens.ts';

/** What an access token's session resolves to on each request (cached briefly). */
export type SessionPrincipal = {
  userId: number;
  tenantId: number;
  accountType: number;
  permissions: string[];
  /**
   * Set while the account must change its password (default or expired); platform/access then serves only
   * the calls of the forced-change screen. Never set on a service session (`/api/auth/token`).
   */
  passwordChange?: PasswordChange | null;
};

export type TokenPair = { accessToken: string; refreshToken: string; payload: AccessPayload };

const PRINCIPAL_TTL_SECONDS = 60;
/**
 * Principals are also kept in the per-process tier (ctx.cache.local) so that an authenticated call costs no
 * shared-cache round trip. Short-lived on purpose: revocations below drop it at once in every process
 * (pub/sub), and the TTL bounds staleness should any change bypass them.
 */
const PRINCIPAL_LOCAL_TTL_SECONDS = 10;
const principalKey = (sessionId: number) => `sess:${sessionId}`;
/**
 * Marks a revoked session in the shared cache. A load that read the session row just before the revocation
 * writes its principal first and checks this marker after: either it sees the marker and takes the principal
 * back out, or the revocation's own delete (which follows the marker) lands after that write.
 */
const revokedKey = (sessionId: number) => `sess-revoked:${sessionId}`;

async function markRevoked(ctx: AppContext, sessionIds: number[]): Promise<void> {
  for (const id of sessionIds) await ctx.cache.set(revokedKey(id), 1, PRINCIPAL_TTL_SECONDS);
}

/**
 * Drops cached principals: first from the shared cache, then from every process's local tier (which also
 * voids loads that were under way, so none of them can put the old principal back).
 */
async function forgetPrincipals(ctx: AppContext, sessionIds: number[]): Promise<void> {
  if (sessionIds.length === 0) return;
  const keys = sessionIds.map(principalKey);
  await ctx.cache.del(...keys);
  await ctx.cache.local.invalidate(...keys);
}
const newJti = () => randomBytes(16).toString('base64url');

async function claimsFor(ctx: AppContext, userId: number, sessionId: number): Promise<AccessPayload | null> {
  const user = await ctx.db
    .selectFrom('sys_user as u')
    .leftJoin('sys_org as o', 'o.id', 'u.org_id')
    .select([
      'u.id',
      'u.tenant_id',
      'u.account',
      'u.real_name',
      'u.account_type',
      'u.org_id',
      'o.name as org_name',
    ])
    .where('u.id', '=', userId)
    .where('u.is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) return null;
  return {
    UserId: user.id,
    TenantId: user.tenant_id,
    Account: user.account,
    RealName: user.real_name,
    AccountType: user.account_type,
    OrgId: user.org_id ?? 0,
    OrgName: user.org_name ?? '',
    SessionId: sessionId,
  };
}

async function expiries(ctx: AppContext) {
  return {
    accessMinutes: await configInt(ctx, 'sys_token_expire'),
    refreshMinutes: await configInt(ctx, 'sys_refresh_token_expire'),
  };
}

/** Starts a session for a user who just proved who they are, and signs its first token pair. */
export async function openSession(
  ctx: AppContext,
  user: { id: number; tenantId: number },
  meta: { ip: string | null; userAgent: string | null; loginType: number | null; service?: boolean },
): Promise<TokenPair> {
  const { accessMinutes, refreshMinutes } = await expiries(ctx);
  const sessionId = ctx.newId();
  const jti = newJti();
  const now = new Date();
  await ctx.db
    .insertInto('sys_session')
    .values({
      id: sessionId,
      tenant_id: user.tenantId,
      user_id: user.id,
      refresh_jti: jti,
      refresh_expire_time: formatDateTime(new Date(now.getTime() + refreshMinutes * 60_000)),
      login_type: meta.loginType,
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 512) ?? null,
      create_time: formatDateTime(now),
      last_active_time: formatDateTime(now),
      revoked: 0,
      service: meta.service ? 1 : 0,
    })
    .execute();
  // Single login (sys_single_login): here, so that every sign-in mode ends the user's older sessions, whose
  // browsers are told (D1025) and sent to the login page.
  if (await configBool(ctx, 'sys_single_login'))
    await revokeUserSessions(ctx, user.id, 'single_login', sessionId);
  onlineUsersChanged(ctx, user.tenantId);
  const payload = await claimsFor(ctx, user.id, sessionId);
  if (!payload) throw new Error(`user ${user.id} vanished while signing in`);
  return {
    payload,
    accessToken: await ctx.tokens.signAccess(payload, accessMinutes),
    refreshToken: await ctx.tokens.signRefresh({ SessionId: sessionId, jti }, refreshMinutes),
  };
}

/**
 * The pair a refresh token was exchanged for, kept for `refreshGraceSeconds` under the retired token's jti
 * (shared cache, so every process finds it), and a marker set before the compare-and-set: an exchange of that
 * token is under way, its pair is worth waiting for. Two keys, so that a late marker never hides a pair.
 */
const successorKey = (sessionId: number, jti: string) => `refresh-token-next:${sessionId}:${jti}`;
const exchangingKey = (sessionId: number, jti: string) => `refresh-token-busy:${sessionId}:${jti}`;
/** How long a request that lost the race waits for the winner's pair (the winner signs it in milliseconds). */
const SUCCESSOR_WAIT_MS = 2_000;
const SUCCESSOR_POLL_MS = 15;

/**
 * Exchanges a refresh token for a new pair and retires it. The compare-and-set on `refresh_jti` lets one
 * exchange win; for `refreshGraceSeconds` after it the retired token answers the same new pair (clients of
 * the family refresh with several parallel requests that all carry it). Null when the token is invalid,
 * expired, for another session, retired longer ago than that, or the session is over.
 */
export async function refreshSession(
  ctx: AppContext,
  refreshToken: string,
  expectedSessionId?: number,
): Promise<TokenPair | null> {
  const refresh = await ctx.tokens.verifyRefresh(refreshToken);
  if (!refresh) return null;
  if (expectedSessionId !== undefined && refresh.SessionId !== expectedSessionId) return null;
  const session = await ctx.db
    .selectFrom('sys_session')
    .select(['id', 'user_id', 'revoked', 'refresh_jti'])
    .where('id', '=', refresh.SessionId)
    .executeTakeFirst();
  if (!session) return null;
  if (session.revoked !== 0) return null;
  if (session.refresh_jti !== refresh.jti) return successorOf(ctx, session.id, refresh.jti);
  if (!(await sessionPrincipal(ctx, session.id))) return null;

  const grace = ctx.config.refreshGraceSeconds;
  const key = successorKey(session.id, refresh.jti);
  await ctx.cache.set(exchangingKey(session.id, refresh.jti), 1, grace);
  const { accessMinutes, refreshMinutes } = await expiries(ctx);
  const jti = newJti();
  const now = new Date();
  const result = await ctx.db
    .updateTable('sys_session')
    .set({
      refresh_jti: jti,
      refresh_expire_time: formatDateTime(new Date(now.getTime() + refreshMinutes * 60_000)),
      last_active_time: formatDateTime(now),
    })
    .where('id', '=', session.id)
    .where('refresh_jti', '=', refresh.jti)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return successorOf(ctx, session.id, refresh.jti);
  const payload = await claimsFor(ctx, session.user_id, session.id);
  if (!payload) return null;
  const pair: TokenPair = {
    payload,
    accessToken: await ctx.tokens.signAccess(payload, accessMinutes),
    refreshToken: await ctx.tokens.signRefresh({ SessionId: session.id, jti }, refreshMinutes),
  };
  await ctx.cache.set(key, pair, grace);
  return pair;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The pair a retired refresh token was exchanged for, while its grace lasts and the session lives; waits
 * briefly when that exchange is still under way. Null otherwise: the caller answers 401 `invalid_token`.
 */
async function successorOf(ctx: AppContext, sessionId: number, jti: string): Promise<TokenPair | null> {
  const deadline = Date.now() + SUCCESSOR_WAIT_MS;
  for (;;) {
    const pair = await ctx.cache.get<TokenPair>(successorKey(sessionId, jti));
    if (pair) return (await sessionPrincipal(ctx, sessionId)) ? pair : null;
    if (Date.now() >= deadline || !(await ctx.cache.get(exchangingKey(sessionId, jti)))) return null;
    await pause(SUCCESSOR_POLL_MS);
  }
}

/** A fresh refresh token for a live session; the previous one stops working. */
export async function reissueRefreshToken(ctx: AppContext, sessionId: number): Promise<string | null> {
  const minutes = await configInt(ctx, 'sys_refresh_token_expire');
  const jti = newJti();
  const result = await ctx.db
    .updateTable('sys_session')
    .set({
      refresh_jti: jti,
      refresh_expire_time: formatDateTime(new Date(Date.now() + minutes * 60_000)),
      last_active_time: formatDateTime(),
    })
    .where('id', '=', sessionId)
    .where('revoked', '=', 0)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return null;
  return ctx.tokens.signRefresh({ SessionId: sessionId, jti }, minutes);
}

/**
 * The live principal behind a session, or null when the session was revoked or ran out, or its user or
 * tenant is disabled or deleted. Cached for a minute; revocations drop the cache entry at once.
 */
export async function sessionPrincipal(ctx: AppContext, sessionId: number): Promise<SessionPrincipal | null> {
  const key = principalKey(sessionId);
  const local = cachedPrincipal(ctx, sessionId);
  if (local !== undefined) return local;
  const since = ctx.cache.local.mark();
  const principal = await loadPrincipal(ctx, sessionId);
  ctx.cache.local.set(key, principal, PRINCIPAL_LOCAL_TTL_SECONDS, since);
  return principal;
}

/** The principal from this process's local tier only: undefined when it has to be loaded. */
export function cachedPrincipal(ctx: AppContext, sessionId: number): SessionPrincipal | null | undefined {
  return ctx.cache.local.get<SessionPrincipal | null>(principalKey(sessionId));
}

async function loadPrincipal(ctx: AppContext, sessionId: number): Promise<SessionPrincipal | null> {
  const cached = await ctx.cache.get<SessionPrincipal | { dead: true }>(principalKey(sessionId));
  if (cached) return 'dead' in cached ? null : cached;
  const row = await ctx.db
    .selectFrom('sys_session as s')
    .innerJoin('sys_user as u', 'u.id', 's.user_id')
    .innerJoin('sys_tenant as t', 't.id', 'u.tenant_id')
    .select([
      's.revoked',
      's.refresh_expire_time',
      's.service',
      'u.id',
      'u.tenant_id',
      'u.account_type',
      'u.status',
      'u.is_delete',
      'u.is_def_pwd',
      'u.password_update_time',
      't.status as tenant_status',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  const alive =
    row !== undefined &&
    row.revoked === 0 &&
    row.refresh_expire_time > formatDateTime() &&
    row.is_delete === 0 &&
    row.status === STATUS.enabled &&
    row.tenant_status === STATUS.enabled;
  if (!alive) {
    await ctx.cache.set(principalKey(sessionId), { dead: true }, PRINCIPAL_TTL_SECONDS);
    return null;
  }
  const grantee = { userId: row.id, tenantId: row.tenant_id, accountType: row.account_type };
  const principal: SessionPrincipal = {
    ...grantee,
    permissions: await loadPermissions(ctx, grantee),
    passwordChange: row.service === 1 ? null : await passwordChangeDue(ctx, row),
  };
  await ctx.cache.set(principalKey(sessionId), principal, PRINCIPAL_TTL_SECONDS);
  if (await ctx.cache.get(revokedKey(sessionId))) {
    await ctx.cache.del(principalKey(sessionId));
    return null;
  }
  return principal;
}

/**
 * Ends one session. Its browsers get `forceOffline` with the reason (platform/realtime) and lose their
 * realtime connection; the tenant's online-user lists refresh.
 */
export async function revokeSession(ctx: AppContext, sessionId: number, reason: string): Promise<void> {
  const ended = await ctx.db
    .updateTable('sys_session')
    .set({ revoked: 1, revoke_time: formatDateTime(), revoke_reason: reason })
    .where('id', '=', sessionId)
    .where('revoked', '=', 0)
    .returning(['id', 'tenant_id'])
    .execute();
  await markRevoked(ctx, [sessionId]);
  await forgetPrincipals(ctx, [sessionId]);
  await sessionsEnded(
    ctx,
    ended.map((r) => ({ id: r.id, tenantId: r.tenant_id })),
    reason,
  );
}

/**
 * Ends every live session of a user (disable, force offline, single login), optionally keeping one; their
 * browsers are told as in `revokeSession`.
 */
export async function revokeUserSessions(
  ctx: AppContext,
  userId: number,
  reason: string,
  keepSessionId?: number,
): Promise<void> {
  let query = ctx.db
    .selectFrom('sys_session')
    .select(['id', 'tenant_id'])
    .where('user_id', '=', userId)
    .where('revoked', '=', 0);
  if (keepSessionId !== undefined) query = query.where('id', '!=', keepSessionId);
  const rows = await query.execute();
  const ids = rows.map((r) => r.id);
  if (ids.length === 0) return;
  await ctx.db
    .updateTable('sys_session')
    .set({ revoked: 1, revoke_time: formatDateTime(), revoke_reason: reason })
    .where('id', 'in', ids)
    .execute();
  await markRevoked(ctx, ids);
  await forgetPrincipals(ctx, ids);
  await sessionsEnded(
    ctx,
    rows.map((r) => ({ id: r.id, tenantId: r.tenant_id })),
    reason,
  );
}

/** Drops cached principals of a user's live sessions so that role or status changes apply at once. */
export async function forgetUserSessions(ctx: AppContext, userId: number): Promise<void> {
  const rows = await ctx.db
    .selectFrom('sys_session')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked', '=', 0)
    .execute();
  await forgetPrincipals(
    ctx,
    rows.map((r) => r.id),
  );
}

/** Live session ids of one tenant's users, or of everyone. */
async function liveSessionIds(ctx: AppContext, tenantId?: number): Promise<number[]> {
  let query = ctx.db.selectFrom('sys_session').select('id').where('revoked', '=', 0);
  if (tenantId !== undefined) query = query.where('tenant_id', '=', tenantId);
  return (await query.execute()).map((r) => r.id);
}

/**
 * Drops the cached principals of every live session of a tenant (or of everyone), so that a change to menus
 * or a tenant's menu set shows in permission checks on the next request.
 */
export async function forgetTenantSessions(ctx: AppContext, tenantId?: number): Promise<void> {
  await forgetPrincipals(ctx, await liveSessionIds(ctx, tenantId));
}

/** Ends every live session of a tenant's users (tenant disabled or deleted). */
export async function revokeTenantSessions(ctx: AppContext, tenantId: number, reason: string): Promise<void> {
  const ids = await liveSessionIds(ctx, tenantId);
  if (ids.length === 0) return;
  await ctx.db
    .updateTable('sys_session')
    .set({ revoked: 1, revoke_time: formatDateTime(), revoke_reason: reason })
    .where('id', 'in', ids)
    .execute();
  await markRevoked(ctx, ids);
  await forgetPrincipals(ctx, ids);
  await sessionsEnded(
    ctx,
    ids.map((id) => ({ id, tenantId })),
    reason,
  );
}
