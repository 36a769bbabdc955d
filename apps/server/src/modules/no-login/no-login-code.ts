import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../platform/context.ts';

/**
 * The two signed strings of login-free links (docs/no-login.md), each `base64url(payload ‖ HMAC-SHA256[0..16])`
 * with its own key derived from the server secret (a code is never accepted as a token, nor the reverse):
 * - the link's code (printed in the QR code): version, tenant, link id, expiry — 50 characters;
 * - the scoped token the page exchanges it for: version, tenant, link id, expiry, a random token id (the key
 *   that lets it file once) — 66 characters;
 * - the codes of a public statement and of a custom scene: the link code's layout, each with its own key and
 *   version (the id is the statement's or the scene's).
 */

export type LinkClaims = { tenantId: number; linkId: number /** Epoch seconds. */; expires: number };
export type TokenClaims = LinkClaims & { tokenId: string };

const MAC_BYTES = 16;
const CODE_VERSION = 1;
const TOKEN_VERSION = 2;
/** Version, tenant, link (8 bytes each), expiry (4 bytes). */
const CODE_BYTES = 1 + 8 + 8 + 4;
const TOKEN_ID_BYTES = 12;
const TOKEN_BYTES = CODE_BYTES + TOKEN_ID_BYTES;

/** The pages opened by their own code (docs/no-login.md): a public statement, a custom scene. */
export type PageKind = 'statement' | 'scene';
const PAGE_VERSIONS: Record<PageKind, number> = { statement: 3, scene: 4 };

type Keys = { code: Buffer; token: Buffer } & Record<PageKind, Buffer>;
const keys = new WeakMap<AppContext['config'], Keys>();
function keysOf(ctx: AppContext): Keys {
  let found = keys.get(ctx.config);
  if (!found) {
    const derive = (purpose: string) => createHmac('sha256', ctx.config.jwtSecret).update(purpose).digest();
    found = {
      code: derive('shuzhi:nologin-link:v1'),
      token: derive('shuzhi:nologin-token:v1'),
      statement: derive('shuzhi:nologin-statement:v1'),
      scene: derive('shuzhi:nologin-scene:v1'),
    };
    keys.set(ctx.config, found);
  }
  return found;
}

const macOf = (key: Buffer, payload: Buffer) =>
  createHmac('sha256', key).update(payload).digest().subarray(0, MAC_BYTES);

function payloadOf(version: number, claims: LinkClaims, size: number): Buffer {
  const payload = Buffer.alloc(size);
  payload.writeUInt8(version, 0);
  payload.writeBigUInt64BE(BigInt(claims.tenantId), 1);
  payload.writeBigUInt64BE(BigInt(claims.linkId), 9);
  payload.writeUInt32BE(claims.expires, 17);
  return payload;
}

const seal = (key: Buffer, payload: Buffer) =>
  Buffer.concat([payload, macOf(key, payload)]).toString('base64url');

/** The payload of `text` when its signature holds, its size and version are right; null otherwise. */
function opened(key: Buffer, text: string, size: number, version: number): Buffer | null {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length !== Math.ceil(((size + MAC_BYTES) * 4) / 3)) return null;
  const bytes = Buffer.from(text, 'base64url');
  if (bytes.length !== size + MAC_BYTES) return null;
  const payload = bytes.subarray(0, size);
  if (!timingSafeEqual(bytes.subarray(size), macOf(key, payload))) return null;
  if (payload.readUInt8(0) !== version) return null;
  const ids = [payload.readBigUInt64BE(1), payload.readBigUInt64BE(9)];
  if (ids.some((id) => id < 1n || id > BigInt(Number.MAX_SAFE_INTEGER))) return null;
  return payload;
}

const claimsOf = (payload: Buffer): LinkClaims => ({
  tenantId: Number(payload.readBigUInt64BE(1)),
  linkId: Number(payload.readBigUInt64BE(9)),
  expires: payload.readUInt32BE(17),
});

export function signLinkCode(ctx: AppContext, claims: LinkClaims): string {
  return seal(keysOf(ctx).code, payloadOf(CODE_VERSION, claims, CODE_BYTES));
}

/** The claims of a link code whose signature holds; null for anything else (malformed, tampered). */
export function readLinkCode(ctx: AppContext, code: string): LinkClaims | null {
  const payload = opened(keysOf(ctx).code, code, CODE_BYTES, CODE_VERSION);
  return payload ? claimsOf(payload) : null;
}

export function signToken(ctx: AppContext, claims: LinkClaims): { token: string; tokenId: string } {
  const payload = payloadOf(TOKEN_VERSION, claims, TOKEN_BYTES);
  const id = randomBytes(TOKEN_ID_BYTES);
  id.copy(payload, CODE_BYTES);
  return { token: seal(keysOf(ctx).token, payload), tokenId: id.toString('hex') };
}

export function readToken(ctx: AppContext, token: string): TokenClaims | null {
  const payload = opened(keysOf(ctx).token, token, TOKEN_BYTES, TOKEN_VERSION);
  if (!payload) return null;
  return { ...claimsOf(payload), tokenId: payload.subarray(CODE_BYTES).toString('hex') };
}

/** The code of a statement or a scene (`claims.linkId` is its id). */
export function signPageCode(ctx: AppContext, kind: PageKind, claims: LinkClaims): string {
  return seal(keysOf(ctx)[kind], payloadOf(PAGE_VERSIONS[kind], claims, CODE_BYTES));
}

export function readPageCode(ctx: AppContext, kind: PageKind, code: string): LinkClaims | null {
  const payload = opened(keysOf(ctx)[kind], code, CODE_BYTES, PAGE_VERSIONS[kind]);
  return payload ? claimsOf(payload) : null;
}
