import { decodeJwtPayload, isJwtExpired } from '../http/jwt.ts';
import { tokens } from '../storage/storage.ts';

/**
 * Logged in means a token exists and is unexpired (SPEC §4). An expired access token still counts while a
 * refresh token exists, because the next call renews the pair through X-Authorization.
 */
export function hasValidSession(): boolean {
  const access = tokens.access();
  if (!access) return false;
  return !isJwtExpired(access) || Boolean(tokens.refresh());
}

/** The login type the token was issued for (9 is the enterprise portal). */
export function tokenLoginType(): number | null {
  const value = decodeJwtPayload(tokens.access())?.LoginType;
  return typeof value === 'number' ? value : null;
}
