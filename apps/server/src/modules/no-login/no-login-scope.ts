import { STATUS } from '@shuzhi/contracts/envelope';
import {
  NO_LOGIN_TOKEN_HEADER,
  type NoLoginAction,
  type NoLoginMode,
  type NoLoginQrType,
  type NoLoginScope,
  type NoLoginToken,
} from '@shuzhi/contracts/no-login';
import type { FastifyRequest } from 'fastify';
import type { SysNoLoginLinkTable } from '../../db/schema.ts';
import { actingUser } from '../../platform/access/acting-user.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { type LinkClaims, readLinkCode, readToken, signToken } from './no-login-code.ts';

/**
 * The one mechanism of the login-free pages (docs/no-login.md): a link's code is checked and exchanged for a
 * short-lived scoped token; every `…ByNoLogin` call checks the token, the link again (revoked, expired, used
 * up) and that what it asks lies within the link's scope, then acts as the link's service identity — the
 * staff member who published it, within that scope only. Every use and every refusal is logged.
 */

/** How long a scoped token lives (never past its link's expiry). */
export const TOKEN_TTL_SECONDS = 30 * 60;
const RATE_WINDOW_SECONDS = 60;

/** What a caller asks of a link's scope. */
export type ScopeNeed =
  | { action: 'design' | 'list'; tableId: number }
  | { action: 'view'; tableId: number; recordId: number }
  | { action: 'add'; tableId: number }
  | { action: 'update'; tableId: number; recordId: number };

export type Caller = { ip: string; userAgent: string | null };
export const callerOf = (req: FastifyRequest): Caller => {
  const agent = req.headers['user-agent'];
  return { ip: req.ip.slice(0, 64), userAgent: typeof agent === 'string' ? agent.slice(0, 256) : null };
};

export type Scoped = {
  link: SysNoLoginLinkTable;
  tokenId: string;
  /** The link's service identity: its publisher, reached only through the scope's checks. */
  actor: AuthUser;
};

/** A stored time (the deployment's wall clock) as epoch seconds. */
export const epochOf = (time: string) => Math.floor(parseDateTime(time).getTime() / 1000);

/** Writes a use row (open, view, list, add, update, refused); never fails the request. */
export function logUse(
  ctx: AppContext,
  link: Pick<SysNoLoginLinkTable, 'id' | 'tenant_id'>,
  caller: Caller,
  action: NoLoginAction,
  extra: { recordId?: number | null; code?: string | null } = {},
): Promise<void> {
  return ctx.db
    .insertInto('sys_nologin_use')
    .values({
      id: ctx.newId(),
      tenant_id: link.tenant_id,
      link_id: link.id,
      action,
      record_id: extra.recordId ?? null,
      code: extra.code ?? null,
      token_id: null,
      ip: caller.ip,
      user_agent: caller.userAgent,
      create_time: formatDateTime(),
    })
    .execute()
    .then(
      () => undefined,
      (error: unknown) => ctx.log.warn({ err: error, linkId: link.id }, 'no-login use not logged'),
    );
}

/**
 * The live link of signed claims, checked in this order: exists (N1008), same tenant (N1005), not revoked
 * (N1002), not expired (N1001), not used up (N1003). Refusals after the link is found are logged.
 */
async function checkedLink(
  ctx: AppContext,
  claims: LinkClaims,
  caller: Caller,
  countUses: boolean,
): Promise<SysNoLoginLinkTable> {
  const link = await ctx.db
    .selectFrom('sys_nologin_link')
    .selectAll()
    .where('id', '=', claims.linkId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!link) throw new AppError('N1008', undefined, 401);
  const refuse = async (code: 'N1001' | 'N1002' | 'N1003' | 'N1005', httpStatus: 401 | 403 = 401) => {
    await logUse(ctx, link, caller, 'refused', { code });
    return new AppError(code, undefined, httpStatus);
  };
  if (Number(link.tenant_id) !== claims.tenantId) throw await refuse('N1005', 403);
  if (link.revoke_time !== null) throw await refuse('N1002');
  const now = Date.now();
  if (claims.expires * 1000 <= now || link.expire_time <= formatDateTime(new Date(now))) {
    throw await refuse('N1001');
  }
  if (countUses && link.max_uses !== null && link.use_count >= link.max_uses) throw await refuse('N1003');
  return { ...link, id: Number(link.id), tenant_id: Number(link.tenant_id), table_id: Number(link.table_id) };
}

/**
 * At most `RATE_LIMIT_NOLOGIN_LINK` calls a minute through one link (a statement's or scene's code: `statement:id`,
 * `scene:id`), whoever calls (N1009, HTTP 429).
 */
export async function throttle(ctx: AppContext, linkId: number | string): Promise<void> {
  const window = Math.floor(Date.now() / 1000 / RATE_WINDOW_SECONDS);
  const count = await ctx.cache.incr(`nologin-rate:${linkId}:${window}`, RATE_WINDOW_SECONDS * 2);
  if (count > ctx.config.rateLimit.noLoginLink) throw new AppError('N1009', undefined, 429);
}

/** The form a link opens, live and published in the link's tenant (N1010 otherwise). */
export async function liveForm(ctx: AppContext, link: Pick<SysNoLoginLinkTable, 'table_id' | 'tenant_id'>) {
  const form = await ctx.db
    .selectFrom('diy_table')
    .select(['id', 'title', 'version', 'status'])
    .where('id', '=', link.table_id)
    .where('tenant_id', '=', link.tenant_id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!form || form.version <= 0 || form.status !== STATUS.enabled)
    throw new AppError('N1010', undefined, 403);
  return form;
}

/** The publisher as the platform sees a signed-in user (no session); N1010 when the account is gone. */
export async function actorOf(
  ctx: AppContext,
  link: Pick<SysNoLoginLinkTable, 'create_user_id' | 'tenant_id'>,
): Promise<AuthUser> {
  const user = await actingUser(ctx, Number(link.create_user_id), Number(link.tenant_id));
  if (!user) throw new AppError('N1010', undefined, 403);
  return user;
}

function scopeOf(link: SysNoLoginLinkTable, tableTitle: string): NoLoginScope {
  return {
    linkId: link.id,
    title: link.title,
    qrType: link.qr_type as NoLoginQrType,
    mode: link.mode as NoLoginMode,
    tableId: link.table_id,
    tableTitle,
    recordId: link.record_id === null ? null : Number(link.record_id),
    expireTime: link.expire_time,
    usesLeft: link.max_uses === null ? null : Math.max(0, link.max_uses - link.use_count),
  };
}

/** Counts one use of a link if it has one left (atomic); false when used up meanwhile. */
export async function takeUse(ctx: AppContext, linkId: number): Promise<boolean> {
  const taken = await ctx.db
    .updateTable('sys_nologin_link')
    .set((eb) => ({ use_count: eb('use_count', '+', 1) }))
    .where('id', '=', linkId)
    .where('revoke_time', 'is', null)
    .where((eb) => eb.or([eb('max_uses', 'is', null), eb('use_count', '<', eb.ref('max_uses'))]))
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) === 1;
}

export async function giveBackUse(ctx: AppContext, linkId: number): Promise<void> {
  await ctx.db
    .updateTable('sys_nologin_link')
    .set((eb) => ({ use_count: eb('use_count', '-', 1) }))
    .where('id', '=', linkId)
    .where('use_count', '>', 0)
    .execute();
}

/**
 * `POST /api/noLogin/token`: a link's code for a scoped token. Tampered or malformed N1000; then the link's
 * checks. A view link counts a use per opening; fill links count filed records.
 */
export async function exchangeCode(ctx: AppContext, code: string, caller: Caller): Promise<NoLoginToken> {
  const claims = readLinkCode(ctx, code);
  if (!claims) throw new AppError('N1000', undefined, 401);
  const link = await checkedLink(ctx, claims, caller, true);
  await throttle(ctx, link.id);
  const form = await liveForm(ctx, link);
  if (link.mode === 'view') {
    if (!(await takeUse(ctx, link.id))) throw new AppError('N1003', undefined, 401);
    link.use_count += 1;
  }
  await logUse(ctx, link, caller, 'open');
  const expires = Math.min(Math.floor(Date.now() / 1000) + TOKEN_TTL_SECONDS, epochOf(link.expire_time));
  const { token } = signToken(ctx, { tenantId: link.tenant_id, linkId: link.id, expires });
  return {
    token,
    expiresIn: Math.max(0, expires - Math.floor(Date.now() / 1000)),
    scope: scopeOf(link, form.title),
  };
}

/** Which actions a link's kind and mode allow. */
function allows(link: SysNoLoginLinkTable, need: ScopeNeed): boolean {
  if (need.tableId !== link.table_id) return false;
  const recordId = link.record_id === null ? null : Number(link.record_id);
  if (need.action === 'design') return true;
  if (link.qr_type === 'record') {
    if (need.action === 'view') return need.recordId === recordId;
    if (need.action === 'update') return link.mode === 'fillOne' && need.recordId === recordId;
    return false;
  }
  if (need.action === 'list' || need.action === 'view') return link.mode === 'view';
  if (need.action === 'add') return link.mode === 'fillOne' || link.mode === 'fillMany';
  return false;
}

/**
 * A `…ByNoLogin` call: the token (N1006, 401: absent, tampered, expired), its link (as for the exchange),
 * the scope (N1004, 403), the link's rate; then the service identity to act as.
 */
export async function scoped(ctx: AppContext, req: FastifyRequest, need: ScopeNeed): Promise<Scoped> {
  const header = req.headers[NO_LOGIN_TOKEN_HEADER];
  const claims = typeof header === 'string' ? readToken(ctx, header) : null;
  if (!claims || claims.expires * 1000 <= Date.now()) throw new AppError('N1006', undefined, 401);
  const caller = callerOf(req);
  // Uses count at opening (view links) or per filed record: reading with a token already given stays open.
  const link = await checkedLink(ctx, claims, caller, false);
  if (need.action === 'add' || need.action === 'update') {
    // A replay is named as such before the uses are counted (the unique token id stops a racing one).
    const used = await ctx.db
      .selectFrom('sys_nologin_use')
      .select('id')
      .where('token_id', '=', claims.tokenId)
      .executeTakeFirst();
    if (used) {
      await logUse(ctx, link, caller, 'refused', { code: 'N1007' });
      throw new AppError('N1007', undefined, 409);
    }
    if (link.max_uses !== null && link.use_count >= link.max_uses) {
      await logUse(ctx, link, caller, 'refused', { code: 'N1003' });
      throw new AppError('N1003', undefined, 401);
    }
  }
  if (!allows(link, need)) {
    await logUse(ctx, link, caller, 'refused', { code: 'N1004' });
    throw new AppError('N1004', undefined, 403);
  }
  await throttle(ctx, link.id);
  await liveForm(ctx, link);
  return { link, tokenId: claims.tokenId, actor: await actorOf(ctx, link) };
}
