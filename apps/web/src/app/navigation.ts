import { LOGIN_TYPE_ENTERPRISE } from '@shuzhi/contracts/sign-in';
import { storageKey } from '../platform/storage/storage.ts';

/** Pages that open without a login (SPEC §2). */
export const NO_LOGIN_PATHS = [
  '/login',
  '/noAuthIndex',
  '/scancode',
  '/statement',
  '/customScene',
  '/rubbish',
  '/rubbish/formTable',
  '/diyReport/rowConfirm',
] as const;

const IFRAME_NO_HEADER = 'iframenoheader';
const OPEN_TYPE_KEY = 'openType';

/**
 * The iframe-no-header mode (SPEC §2 `openType=iframenoheader`, an embedding portal shows only the page): once a
 * URL of this browser tab asked for it, the tab keeps it for its session, whatever the links that follow carry.
 */
export function isNoHeaderMode(search: string): boolean {
  const asked = new URLSearchParams(search).get('openType') === IFRAME_NO_HEADER;
  try {
    const key = storageKey(OPEN_TYPE_KEY);
    if (asked) window.sessionStorage.setItem(key, IFRAME_NO_HEADER);
    return window.sessionStorage.getItem(key) === IFRAME_NO_HEADER;
  } catch {
    return asked;
  }
}

export function isNoLoginPath(pathname: string): boolean {
  return (NO_LOGIN_PATHS as readonly string[]).includes(pathname);
}

/** Where a signed-in user lands: /dashboard, or the enterprise portal for login type 9. */
export function homeTarget(loginType: number | null | undefined, openType?: string | null): string {
  if (loginType === LOGIN_TYPE_ENTERPRISE) {
    return openType === IFRAME_NO_HEADER ? '/enterprise/reportClassify' : '/diyReport';
  }
  return '/dashboard';
}

/** Where an unknown user is sent; the requested page is remembered so login can return to it. */
export function loginTarget(openType: string | null | undefined, from?: string): string {
  if (openType === IFRAME_NO_HEADER) return `/login?type=1&openType=${IFRAME_NO_HEADER}`;
  if (from && from !== '/' && !from.startsWith('/login'))
    return `/login?redirect=${encodeURIComponent(from)}`;
  return '/login';
}

/** A same-origin path worth returning to after login, or null. */
export function safeRedirect(value: string | null | undefined): string | null {
  if (!value?.startsWith('/') || value.startsWith('//') || value.startsWith('/login')) return null;
  return value;
}

/** Old clients and printed QR codes carry hash links (`/#/scancode?…`); they open the same path without the hash. */
export function hashLinkTarget(hash: string): string | null {
  if (!hash.startsWith('#/')) return null;
  return hash.slice(1);
}

export const FORCED_PASSWORD_PATH = '/system/userCenter?isPassword=true';
