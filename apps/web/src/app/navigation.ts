import { ACCOUNT_TYPE_MEMBER, LOGIN_TYPE_ENTERPRISE } from '@shuzhi/contracts/sign-in';
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

export const DASHBOARD_PATH = '/dashboard';
const ENTERPRISE_HOME_PATH = '/enterprise';

/** The home page of an account: the enterprise portal for enterprise (666) accounts, /dashboard for staff. */
export function homePath(accountType: number | null | undefined): string {
  return accountType === ACCOUNT_TYPE_MEMBER ? ENTERPRISE_HOME_PATH : DASHBOARD_PATH;
}

/**
 * Where a signed-in user lands (SPEC §2): an enterprise (666) account on its portal whatever way it signed in
 * (its 报表分类 in the no-header mode); anyone else on /dashboard, or 报表填报 for login type 9
 * (/enterprise/reportClassify in the no-header mode).
 */
export function homeTarget(
  loginType: number | null | undefined,
  openType?: string | null,
  accountType?: number | null,
): string {
  const noHeader = openType === IFRAME_NO_HEADER;
  if (accountType === ACCOUNT_TYPE_MEMBER)
    return noHeader ? '/enterprise/reportClassify' : ENTERPRISE_HOME_PATH;
  if (loginType === LOGIN_TYPE_ENTERPRISE) return noHeader ? '/enterprise/reportClassify' : '/diyReport';
  return DASHBOARD_PATH;
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
