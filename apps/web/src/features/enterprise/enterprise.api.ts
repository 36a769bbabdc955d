import type { CollectResult, MyReportItem } from '@shuzhi/contracts/diy-collect';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import { http } from '../../platform/http/http.ts';

export type { CollectResult, FormItem, MyReportItem };

export type MyReportFilters = { classifyId?: number; keyword?: string };

const silent = { silent: true } as const;

/** The enterprise portal's calls (`/api/diyTableCollect/…`, issue 6 §5). */
export const enterpriseApi = {
  /** The forms the caller fills, with their org's record count, latest status, last submit, favourite. */
  myReports: (filters: MyReportFilters = {}) =>
    http.get<MyReportItem[]>('/api/diyTableCollect/myReports', filters, silent),
  /** The caller's favourite forms (tableList items), latest favourite first. */
  collectList: () => http.get<FormItem[]>('/api/diyTableCollect/list', undefined, silent),
  /** Sets (or, without `collect`, toggles) a favourite. */
  collect: (tableId: number, collect?: boolean) =>
    http.post<CollectResult>(
      '/api/diyTableCollect/collect',
      collect === undefined ? { tableId } : { tableId, collect },
      silent,
    ),
  /** One form the caller may open, with their records summary. */
  detail: (id: number) => http.get<MyReportItem>('/api/diyTableCollect/detail', { id }, silent),
};

/** Every key starts with the service, so one invalidation of `['diyTableCollect']` refreshes them all. */
export const ENTERPRISE_KEYS = {
  all: ['diyTableCollect'] as const,
  myReports: ['diyTableCollect', 'myReports'] as const,
  collectList: ['diyTableCollect', 'list'] as const,
  detail: (id: number) => ['diyTableCollect', 'detail', id] as const,
};
