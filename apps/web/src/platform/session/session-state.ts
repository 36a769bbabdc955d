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

/**
 * The login type the current session signed in with (9 is the enterprise portal), saved beside the tokens at
 * sign-in: the access token's claims (REFERENCE) do not include it.
 */
export function sessionLoginType(): number | null {
  return tokens.access() ? tokens.loginType() : null;
}

/**
 * The account type of the signed-in user from the access token's `AccountType` claim (REFERENCE), null when
 * signed out: known before the session's user info loads (a signed-in user opening /login goes home).
 */
export function sessionAccountType(): number | null {
  const value = decodeJwtPayload(tokens.access())?.AccountType;
  return typeof value === 'number' ? value : null;
}
