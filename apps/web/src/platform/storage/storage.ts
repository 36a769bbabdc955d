/** Storage keys of SPEC §9: every localStorage key is prefixed with the page host so two deployments on one
 * browser never share a session. */
const ACCESS_TOKEN_KEY = 'access-token';
const REFRESH_TOKEN_KEY = 'x-access-token';
/** The login type the current session signed in with (9: enterprise portal); the token does not carry it. */
const LOGIN_TYPE_KEY = 'login-type';
export const TAGS_VIEW_KEY = 'tagsViewList';
export const THEME_CONFIG_KEY = 'themeConfig';

export function storageKey(key: string, host: string = window.location.host): string {
  return `${host}:${key}`;
}

export const local = {
  get(key: string): string | null {
    try {
      return window.localStorage.getItem(storageKey(key));
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      window.localStorage.setItem(storageKey(key), value);
    } catch {
      // Private mode or a full quota: the app keeps working for this page view.
    }
  },
  remove(key: string): void {
    try {
      window.localStorage.removeItem(storageKey(key));
    } catch {
      // See set().
    }
  },
  getJson<T>(key: string): T | null {
    const raw = local.get(key);
    if (!raw) return null;
    try {
      return JSON.parse(raw) as T;
    } catch {
      return null;
    }
  },
  setJson(key: string, value: unknown): void {
    local.set(key, JSON.stringify(value));
  },
};

function setCookie(name: string, value: string | null): void {
  const base = `${encodeURIComponent(name)}=`;
  // biome-ignore lint/suspicious/noDocumentCookie: the write must be synchronous (the async Cookie Store API is not in every supported browser).
  document.cookie =
    value === null
      ? `${base}; path=/; max-age=0`
      : `${base}${encodeURIComponent(value)}; path=/; SameSite=Lax`;
}

export const tokens = {
  access(): string | null {
    return local.get(ACCESS_TOKEN_KEY);
  },
  refresh(): string | null {
    return local.get(REFRESH_TOKEN_KEY);
  },
  save(access: string, refresh?: string | null): void {
    local.set(ACCESS_TOKEN_KEY, access);
    // Downloads and embedded pages that cannot set headers authenticate with the cookie.
    setCookie(ACCESS_TOKEN_KEY, access);
    if (refresh) local.set(REFRESH_TOKEN_KEY, refresh);
  },
  /** The login type saved with the session, or null (plain account login, or none saved). */
  loginType(): number | null {
    const value = Number(local.get(LOGIN_TYPE_KEY) ?? Number.NaN);
    return Number.isInteger(value) ? value : null;
  },
  saveLoginType(loginType: number | null): void {
    if (loginType === null) local.remove(LOGIN_TYPE_KEY);
    else local.set(LOGIN_TYPE_KEY, String(loginType));
  },
  clear(): void {
    local.remove(ACCESS_TOKEN_KEY);
    local.remove(REFRESH_TOKEN_KEY);
    local.remove(LOGIN_TYPE_KEY);
    setCookie(ACCESS_TOKEN_KEY, null);
  },
};
