import type { DESC_STR_DEFAULT, PageResult } from '@shuzhi/contracts/envelope';
import { http } from '../http/http.ts';
import { type DownloadOptions, downloadFile } from './download.ts';

type SortOrder = 'ascending' | 'descending';

/** Paged search body of REFERENCE "Paging": sorting applies only when both field and order are set. */
export type PageRequest<F extends object = Record<string, unknown>> = {
  page: number;
  pageSize: number;
  field?: string;
  order?: SortOrder;
  descStr: typeof DESC_STR_DEFAULT;
} & Partial<F>;

type StatusValue = 1 | 2;

export type WithId = { id: number };

/** Typed calls of one generic resource (`/api/{service}/…`, SPEC §7 "Generic CRUD"). */
export type Resource<T extends WithId, F extends object = Record<string, unknown>> = {
  service: string;
  page(body: PageRequest<F>): Promise<PageResult<T>>;
  list(params?: Record<string, unknown>): Promise<T[]>;
  detail(id: number): Promise<T>;
  add(body: Partial<T>): Promise<unknown>;
  update(body: Partial<T> & WithId): Promise<unknown>;
  remove(id: number): Promise<unknown>;
  batchRemove(ids: number[]): Promise<unknown>;
  setStatus(id: number, status: StatusValue): Promise<unknown>;
  exportFile(
    body: PageRequest<F>,
    fileName: string,
    options?: Pick<DownloadOptions, 'onProgress'>,
  ): Promise<string>;
};

/**
 * Writes are sent silently: the caller decides how to show a failure (field errors go to the form,
 * anything else to a toast).
 */
export function createResource<T extends WithId, F extends object = Record<string, unknown>>(
  service: string,
): Resource<T, F> {
  const url = (action: string) => `/api/${service}/${action}`;
  const write = { silent: true } as const;
  return {
    service,
    page: (body) => http.post<PageResult<T>>(url('page'), body, { silent: true }),
    list: (params) => http.get<T[]>(url('list'), params),
    detail: (id) => http.get<T>(url('detail'), { Id: id }),
    add: (body) => http.post(url('add'), body, write),
    update: (body) => http.post(url('update'), body, write),
    remove: (id) => http.post(url('delete'), { id }, write),
    batchRemove: (ids) => http.post(url('batchDelete'), { ids }, write),
    setStatus: (id, status) => http.post(url('setStatus'), { id, status }, write),
    exportFile: (body, fileName, options) =>
      downloadFile(url('export'), fileName, { method: 'post', body, ...options }),
  };
}

/** Query keys: everything of a service starts with its name, so one invalidation refreshes it all. */
export const resourceKeys = {
  all: (service: string) => [service] as const,
  page: (service: string, body: object) => [service, 'page', body] as const,
  list: (service: string, params?: object) => [service, 'list', params ?? {}] as const,
  detail: (service: string, id: number) => [service, 'detail', id] as const,
};
