import { createHmac, timingSafeEqual } from 'node:crypto';
import type { CockpitLink } from '@shuzhi/contracts/cockpit';
import { actingUser } from '../../platform/access/acting-user.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime, parseDateTime } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/**
 * Signed login-free links to the cockpit (issue 20 §4, SPEC §6): `/jsc?link=…`, the code being
 * `base64url(version ‖ tenant ‖ link id ‖ expiry ‖ HMAC-SHA256[0..16])` under a key derived from the server
 * secret for this purpose only (no other signed string of the product is accepted as one). The page sends it
 * with each data call; the call reads the data as the link's publisher — read-only, their data scope, only the
 * configured panels — while the link is live, unexpired and the publisher may still view the cockpit.
 */

const VERSION = 1;
const PAYLOAD = 1 + 8 + 8 + 4;
const MAC = 16;
const CODE_LENGTH = Math.ceil(((PAYLOAD + MAC) * 4) / 3);
const DAY_MS = 86_400_000;
const links = new WeakMap<AppContext['config'], Buffer>();

function keyOf(ctx: AppContext): Buffer {
  let key = links.get(ctx.config);
  if (!key) {
    key = createHmac('sha256', ctx.config.jwtSecret).update('shuzhi:cockpit-link:v1').digest();
    links.set(ctx.config, key);
  }
  return key;
}

const macOf = (ctx: AppContext, payload: Buffer) =>
  createHmac('sha256', keyOf(ctx)).update(payload).digest().subarray(0, MAC);

function signCode(ctx: AppContext, tenantId: number, linkId: number, expires: Date): string {
  const payload = Buffer.alloc(PAYLOAD);
  payload.writeUInt8(VERSION, 0);
  payload.writeBigUInt64BE(BigInt(tenantId), 1);
  payload.writeBigUInt64BE(BigInt(linkId), 9);
  payload.writeUInt32BE(Math.floor(expires.getTime() / 1000), 17);
  return Buffer.concat([payload, macOf(ctx, payload)]).toString('base64url');
}

/** Tenant, link and expiry (epoch seconds) of a code whose signature holds; B1021 for anything else. */
function readCode(ctx: AppContext, code: string) {
  const invalid = new AppError('B1021', undefined, 401);
  if (code.length !== CODE_LENGTH || !/^[A-Za-z0-9_-]+$/.test(code)) throw invalid;
  const bytes = Buffer.from(code, 'base64url');
  const payload = bytes.subarray(0, PAYLOAD);
  if (bytes.length !== PAYLOAD + MAC || !timingSafeEqual(bytes.subarray(PAYLOAD), macOf(ctx, payload)))
    throw invalid;
  if (payload.readUInt8(0) !== VERSION) throw invalid;
  return {
    tenantId: Number(payload.readBigUInt64BE(1)),
    linkId: Number(payload.readBigUInt64BE(9)),
    expires: payload.readUInt32BE(17),
  };
}

type LinkRow = {
  id: number;
  tenant_id: number;
  expire_time: string;
  revoke_time: string | null;
  create_time: string;
  create_user_name: string | null;
};

const linkOf = (ctx: AppContext, row: LinkRow): CockpitLink => ({
  id: row.id,
  url: `/jsc?link=${signCode(ctx, row.tenant_id, row.id, parseDateTime(row.expire_time))}`,
  expireTime: row.expire_time,
  revoked: row.revoke_time !== null,
  createUserName: row.create_user_name,
  createTime: row.create_time,
});

/** `POST /api/cockpit/link` (cockpit:config): a link valid for `days`, read as its publisher. */
export async function addCockpitLink(ctx: AppContext, user: AuthUser, days: number): Promise<CockpitLink> {
  const now = new Date();
  const row: LinkRow & { create_user_id: number } = {
    id: ctx.newId(),
    tenant_id: user.tenantId,
    // Whole seconds: the code carries the expiry in seconds.
    expire_time: formatDateTime(new Date(Math.floor((now.getTime() + days * DAY_MS) / 1000) * 1000)),
    revoke_time: null,
    create_time: formatDateTime(now),
    create_user_id: user.userId,
    create_user_name: user.realName,
  };
  await ctx.db.insertInto('sys_cockpit_link').values(row).execute();
  return linkOf(ctx, row);
}

/** `GET /api/cockpit/link/list` (cockpit:config): the tenant's links, newest first. */
export async function cockpitLinks(ctx: AppContext, user: AuthUser): Promise<CockpitLink[]> {
  const rows = await ctx.db
    .selectFrom('sys_cockpit_link')
    .selectAll()
    .where('tenant_id', '=', user.tenantId)
    .orderBy('id', 'desc')
    .limit(100)
    .execute();
  return rows.map((row) => linkOf(ctx, row));
}

/** `POST /api/cockpit/link/revoke` (cockpit:config): the link stops working at once (D1002: no such link). */
export async function revokeCockpitLink(ctx: AppContext, user: AuthUser, id: number): Promise<null> {
  const result = await ctx.db
    .updateTable('sys_cockpit_link')
    .set({ revoke_time: formatDateTime() })
    .where('id', '=', id)
    .where('tenant_id', '=', user.tenantId)
    .where('revoke_time', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new AppError('D1002');
  return null;
}

/**
 * The identity a link's data call runs as: its publisher, as a signed-in user without a session, checked in
 * order — the code's signature (B1021), the link row of the same tenant (B1021), not revoked (B1023), not
 * expired (B1022), the publisher's account and tenant enabled and still holding cockpit:view (B1024).
 */
export async function linkViewer(ctx: AppContext, code: string): Promise<AuthUser> {
  const claims = readCode(ctx, code);
  const link = await ctx.db
    .selectFrom('sys_cockpit_link')
    .selectAll()
    .where('id', '=', claims.linkId)
    .executeTakeFirst();
  if (!link || Number(link.tenant_id) !== claims.tenantId) throw new AppError('B1021', undefined, 401);
  if (link.revoke_time !== null) throw new AppError('B1023', undefined, 401);
  const expires = Math.min(claims.expires * 1000, parseDateTime(link.expire_time).getTime());
  if (expires <= Date.now()) throw new AppError('B1022', undefined, 401);
  const user = await actingUser(ctx, Number(link.create_user_id), Number(link.tenant_id));
  if (!user?.permissions.has('cockpit:view')) throw new AppError('B1024', undefined, 403);
  return user;
}
