import type { FormRow } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import {
  NO_LOGIN_TOKEN_HEADER,
  type NoLoginAddInput,
  type NoLoginDesign,
  type NoLoginLink,
  type NoLoginRecord,
  type NoLoginSheetItem,
  type NoLoginToken,
  type NoLoginUse,
} from '@shuzhi/contracts/no-login';
import { http } from '../../platform/http/http.ts';
import { HttpError, refusalOf } from '../../platform/http/http-client.ts';
import { toLocale } from '../../platform/i18n/language.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import type { CaptchaAnswer, NoLoginCaptcha } from './fill-captcha.tsx';

export type { NoLoginDesign, NoLoginLink, NoLoginRecord, NoLoginSheetItem, NoLoginToken, NoLoginUse };

const silent = { silent: true } as const;

/** Staff side (`/api/sysNoLoginLink/*`, docs/no-login.md); callers show their own errors. */
export const noLoginLinkApi = {
  page: (params: { page: number; pageSize: number; title?: string }) =>
    http.get<PageResult<NoLoginLink>>('/api/sysNoLoginLink/page', params, silent),
  add: (body: NoLoginAddInput) => http.post<NoLoginLink>('/api/sysNoLoginLink/add', body, silent),
  revoke: (id: number) => http.post<null>('/api/sysNoLoginLink/revoke', { id }, silent),
  uses: (linkId: number, page: number) =>
    http.get<PageResult<NoLoginUse>>('/api/sysNoLoginLink/uses', { linkId, page, pageSize: 20 }, silent),
  sheet: (ids: readonly number[]) =>
    http.get<NoLoginSheetItem[]>('/api/sysNoLoginLink/sheet', { ids: ids.join(',') }, silent),
  png: (id: number) =>
    http.request<Blob>(
      { url: '/api/sysNoLoginLink/qrcode', params: { id, format: 'png' }, responseType: 'blob' },
      silent,
    ),
  /** Published, enabled forms the caller manages. */
  forms: async (): Promise<Pick<FormRow, 'id' | 'title'>[]> => {
    const page = await http.post<PageResult<FormRow>>(
      '/api/diyTable/page',
      { page: 1, pageSize: 1000 },
      silent,
    );
    return page.items.filter((f) => f.version > 0 && f.status === 1).map(({ id, title }) => ({ id, title }));
  },
};

export const NO_LOGIN_KEYS = {
  all: ['noLoginLink'] as const,
  page: (params: object) => ['noLoginLink', 'page', params] as const,
  uses: (id: number, page: number) => ['noLoginLink', 'uses', id, page] as const,
  sheet: (ids: readonly number[]) => ['noLoginLink', 'sheet', ids.join(',')] as const,
  forms: ['noLoginLink', 'forms'] as const,
};

/**
 * The public side: plain fetches that carry no session (the page is used signed out) and the scoped token
 * in its header. A refusal becomes an `HttpError` with the envelope's code, whatever the HTTP status.
 */
export async function publicCall<T>(
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  token: string | null,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': toLocale(useThemeStore.getState().globalI18n),
  };
  if (token) headers[NO_LOGIN_TOKEN_HEADER] = token;
  if (body !== undefined) headers['Content-Type'] = 'application/json;charset=utf-8';
  const base = import.meta.env.VITE_API_URL ?? '';
  let response: Response;
  try {
    response = await fetch(`${base}${url}`, {
      method,
      headers,
      credentials: 'omit',
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    throw new HttpError('network');
  }
  const text = await response.text();
  let envelope: { code?: unknown; result?: unknown };
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new HttpError(response.statusText || String(response.status), response.status);
  }
  if (envelope.code !== 200) throw refusalOf(text, response.statusText || String(response.status));
  return envelope.result as T;
}

export const noLoginPublicApi = {
  token: (code: string) => publicCall<NoLoginToken>('POST', '/api/noLogin/token', null, { code }),
  design: (token: string, tableId: number) =>
    publicCall<NoLoginDesign>('GET', `/api/diyData/designByNoLogin?tableId=${tableId}`, token),
  page: (token: string, tableId: number, page: number) =>
    publicCall<PageResult<NoLoginRecord>>('POST', '/api/diyData/pageByNoLogin', token, {
      tableId,
      page,
      pageSize: 20,
    }),
  detail: (token: string, tableId: number, id: number) =>
    publicCall<NoLoginRecord>('GET', `/api/diyData/detailByNoLogin/${tableId}/${id}`, token),
  add: (token: string, tableId: number, values: Record<string, unknown>, captcha?: CaptchaAnswer) =>
    publicCall<{ id: number; dataNo: string | null }>('POST', '/api/diyData/addByNoLogin', token, {
      tableId,
      values,
      ...captcha,
    }),
  update: (
    token: string,
    tableId: number,
    id: number,
    values: Record<string, unknown>,
    captcha?: CaptchaAnswer,
  ) =>
    publicCall<null>('PUT', `/api/diyData/updateDataByNoLogin/${id}`, token, { tableId, values, ...captcha }),
  /** The login page's image captcha, asked for after repeated submissions (N1040). */
  captcha: () => publicCall<NoLoginCaptcha>('GET', '/api/sysAuth/captcha', null),
};
