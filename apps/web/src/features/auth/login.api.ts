import type { LoginResult } from '@shuzhi/contracts/auth';
import type { AutoLoginInput, ScanLoginCreateResult, ScanLoginStatus } from '@shuzhi/contracts/login-modes';
import { http } from '../../platform/http/http.ts';

export type Captcha = { id: number; img: string };
export type LoginBody = {
  account: string;
  password: string;
  codeId?: number;
  code?: string;
  loginType?: number;
};

export const loginApi = {
  captcha: () => http.get<Captcha>('/api/sysAuth/captcha', undefined, { silent: true }),
  login: (body: LoginBody) => http.post<LoginResult>('/api/sysAuth/login', body),
  sendSmsCode: (phone: string) => http.post<null>('/api/sysAuth/sendSmsCode', { phone }),
  loginPhone: (phone: string, code: string) =>
    http.post<LoginResult>('/api/sysAuth/loginPhone', { phone, code }),
  /** SPEC §7: errors of the automatic login are not toasted; the guard shows its own warning. */
  autoLogin: (body: AutoLoginInput) =>
    http.post<LoginResult>('/api/autoLogin/autoLogin', body, { silent: true }),
};

/** Scan login: the desktop side creates and polls, the signed-in phone scans and confirms or cancels. */
export const scanLoginApi = {
  create: () => http.post<ScanLoginCreateResult>('/api/sysAuth/scanLogin/create', {}, { silent: true }),
  status: (id: string) =>
    http.get<ScanLoginStatus>('/api/sysAuth/scanLogin/status', { id }, { silent: true }),
  scan: (id: string) => http.post<ScanLoginStatus>('/api/sysAuth/scanLogin/scan', { id }, { silent: true }),
  confirm: (id: string) => http.post<null>('/api/sysAuth/scanLogin/confirm', { id }),
  cancel: (id: string) => http.post<null>('/api/sysAuth/scanLogin/cancel', { id }),
};

const BASE64_SIGNATURES: [string, string][] = [
  ['PHN2Zy', 'image/svg+xml'],
  ['PD94bWwg', 'image/svg+xml'],
  ['iVBORw0KGgo', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lGOD', 'image/gif'],
  ['UklGR', 'image/webp'],
];

/** The captcha image arrives as a data URL or as bare base64; both become a usable `src`. */
export function captchaSrc(img: string): string {
  const value = img.trim();
  if (value.startsWith('data:') || value.startsWith('http')) return value;
  if (value.startsWith('<svg') || value.startsWith('<?xml'))
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(value)}`;
  const mime = BASE64_SIGNATURES.find(([prefix]) => value.startsWith(prefix))?.[1];
  if (mime) return `data:${mime};base64,${value}`;
  if (value.startsWith('/')) return value;
  return `data:image/png;base64,${value}`;
}
