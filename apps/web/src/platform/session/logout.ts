import { clearSession } from '../http/http.ts';
import { sessionApi } from './session.api.ts';

/** How long signing out waits for the server to revoke the tokens before it forgets them here anyway. */
export const LOGOUT_WAIT_MS = 5_000;

/**
 * Ends the session on the server (tokens are revoked there) and forgets it here. A slow or unreachable
 * server never keeps the user signed in on screen: after LOGOUT_WAIT_MS the request goes on in the
 * background (it already carries the token) and the session is forgotten.
 */
export async function logout(): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      sessionApi.logout(),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, LOGOUT_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    clearSession();
  }
}
