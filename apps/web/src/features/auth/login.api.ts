import type { LoginResult } from '@shuzhi/contracts/auth';
import { http } from '../../platform/http/http.ts';

export type Captcha = { id: string; img: string };
export type LoginBody = {
  account: string;
  password: string;
  codeId?: string;
  code?: string;
  loginType?: number;
};

export const loginApi = {
  captcha: () => http.get<Captcha>('/api/sysAuth/captcha', undefined, { silent: true }),
  login: (body: LoginBody) => http.post<LoginResult>('/api/sysAuth/login', body),
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
