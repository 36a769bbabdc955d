import type { AccessClaims } from '@shuzhi/contracts/auth';
import { errors, jwtVerify, SignJWT } from 'jose';

const ISSUER = 'shuzhi';
const ACCESS_AUDIENCE = 'shuzhi';
const REFRESH_AUDIENCE = 'shuzhi-refresh';

export type AccessPayload = AccessClaims & { SessionId: number };
export type RefreshPayload = { SessionId: number; jti: string };

export type AccessCheck =
  | { status: 'valid'; payload: AccessPayload }
  | { status: 'expired'; payload: AccessPayload }
  | { status: 'invalid' };

/**
 * Verified access tokens, kept briefly so that a hot client does not pay a full JWT verification per call
 * (jose needs ~100 µs, more than the rest of a cached request). Expiry is still checked on every hit.
 */
class VerifiedTokens {
  private readonly map = new Map<string, AccessPayload & { exp?: number }>();
  constructor(private readonly max: number) {}
  get(token: string) {
    // First in, first out: reordering on every hit would cost more than the occasional re-verification.
    return this.map.get(token);
  }
  set(token: string, payload: AccessPayload & { exp?: number }) {
    this.map.set(token, payload);
    if (this.map.size > this.max) {
      const oldest = this.map.keys().next().value;
      if (oldest !== undefined) this.map.delete(oldest);
    }
  }
}

const VERIFIED_CACHE_SIZE = 10_000;

export function createTokenSigner(secret: string) {
  const key = new TextEncoder().encode(secret);
  const verified = new VerifiedTokens(VERIFIED_CACHE_SIZE);

  const isAccess = (p: Record<string, unknown>): p is AccessPayload & Record<string, unknown> =>
    typeof p.UserId === 'number' && typeof p.TenantId === 'number' && typeof p.SessionId === 'number';

  return {
    async signAccess(claims: AccessPayload, minutes: number): Promise<string> {
      return new SignJWT({ ...claims })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(ACCESS_AUDIENCE)
        .setIssuedAt()
        .setNotBefore('0s')
        .setExpirationTime(`${Math.max(1, minutes)}m`)
        .sign(key);
    },

    async signRefresh(payload: RefreshPayload, minutes: number): Promise<string> {
      return new SignJWT({ SessionId: payload.SessionId })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setIssuer(ISSUER)
        .setAudience(REFRESH_AUDIENCE)
        .setJti(payload.jti)
        .setIssuedAt()
        .setExpirationTime(`${Math.max(1, minutes)}m`)
        .sign(key);
    },

    /** The payload of an access token verified before and not expired yet; undefined otherwise. */
    knownAccess(token: string): AccessPayload | undefined {
      const known = verified.get(token);
      return known && (known.exp ?? 0) * 1000 > Date.now() ? known : undefined;
    },

    /** Verifies an access token; an expired one still yields its (signature-checked) payload for the refresh flow. */
    async verifyAccess(token: string): Promise<AccessCheck> {
      const known = verified.get(token);
      if (known && (known.exp ?? 0) * 1000 > Date.now()) return { status: 'valid', payload: known };
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: ACCESS_AUDIENCE,
        });
        if (!isAccess(payload)) return { status: 'invalid' };
        verified.set(token, payload);
        return { status: 'valid', payload };
      } catch (error) {
        if (error instanceof errors.JWTExpired && isAccess(error.payload)) {
          const { payload } = error;
          if (payload.iss === ISSUER && payload.aud === ACCESS_AUDIENCE)
            return { status: 'expired', payload };
        }
        return { status: 'invalid' };
      }
    },

    async verifyRefresh(token: string): Promise<RefreshPayload | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: REFRESH_AUDIENCE,
        });
        if (typeof payload.SessionId !== 'number' || typeof payload.jti !== 'string') return null;
        return { SessionId: payload.SessionId, jti: payload.jti };
      } catch {
        return null;
      }
    },
  };
}

export type TokenSigner = ReturnType<typeof createTokenSigner>;
