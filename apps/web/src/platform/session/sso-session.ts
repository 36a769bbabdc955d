import { decodeJwtPayload } from '../http/jwt.ts';
import { local, storageKey, tokens } from '../storage/storage.ts';
import { sessionApi } from './session.api.ts';

/**
 * SingleSignOnExpire (SPEC §4, docs/decisions.md): a session opened by single sign-on (automatic login by
 * URL parameter) is kept like any other when the value is above 0; otherwise it lives only as long as the
 * page: closing the tab or the browser signs the user out. Tokens stay in localStorage (the HTTP client and
 * downloads read them there); the binding is a marker in sessionStorage, which survives reloads of the page
 * (and is copied into tabs it opens) but not its closing. A later visit finding the marker gone ends the
 * session.
 */
const PAGE_SESSION_KEY = 'pageSession';

function currentSessionId(): string | null {
  const id = decodeJwtPayload(tokens.access())?.SessionId;
  return typeof id === 'number' || typeof id === 'string' ? String(id) : null;
}

const pageStore = {
  get: () => {
    try {
      return window.sessionStorage.getItem(storageKey(PAGE_SESSION_KEY));
    } catch {
      return null;
    }
  },
  set: (value: string) => {
    try {
      window.sessionStorage.setItem(storageKey(PAGE_SESSION_KEY), value);
    } catch {
      // Private mode: the session simply is not bound.
    }
  },
};

/** Binds the current session to this page when `singleSignOnExpire` is 0 or less; unbinds it otherwise. */
export function bindSessionToPage(singleSignOnExpire: number): void {
  const id = currentSessionId();
  if (!id) return;
  if (Number.isFinite(singleSignOnExpire) && singleSignOnExpire > 0) {
    local.remove(PAGE_SESSION_KEY);
    return;
  }
  local.set(PAGE_SESSION_KEY, id);
  pageStore.set(id);
}

/** After a successful automatic (single sign-on) login: applies SingleSignOnExpire from the client config. */
export async function applySingleSignOnExpire(): Promise<void> {
  const items = await sessionApi.clientConfig();
  const value = Number(items.find((item) => item.code === 'SingleSignOnExpire')?.value ?? '1');
  bindSessionToPage(Number.isFinite(value) ? value : 1);
}

/** True when the stored session was bound to a page that has been closed since. */
export function pageSessionClosed(): boolean {
  const id = currentSessionId();
  if (!id || local.get(PAGE_SESSION_KEY) !== id) return false;
  return pageStore.get() !== id;
}
