import { clearSession } from '../http/http.ts';
import { sessionApi } from './session.api.ts';

/** Ends the session on the server (tokens are revoked there) and forgets it here. */
export async function logout(): Promise<void> {
  try {
    await sessionApi.logout();
  } finally {
    clearSession();
  }
}
