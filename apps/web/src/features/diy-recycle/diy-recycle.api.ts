import type { RecycleItem, RecyclePageInput, RecycleTarget } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { http } from '../../platform/http/http.ts';

export type { RecycleItem, RecyclePageInput, RecycleTarget };
export type RecycleKind = RecycleItem['kind'];
export type FormOption = { value: number; label: string };

const silent = { silent: true } as const;

/** The recycle bin of report forms and records (`/api/diyRecycle/…`). */
export const recycleApi = {
  page: (body: RecyclePageInput) => http.post<PageResult<RecycleItem>>('/api/diyRecycle/page', body, silent),
  restore: (items: RecycleTarget[]) => http.post<unknown>('/api/diyRecycle/restore', { items }, silent),
  /** `opPassword`: the SM2 cipher the operation-password prompt answered. */
  purge: (items: RecycleTarget[], opPassword: string) =>
    http.post<unknown>('/api/diyRecycle/purge', { items, opPassword }, silent),
  /** The live forms the caller may see, for the form filter. */
  forms: () => http.get<FormOption[]>('/api/diyTable/select', undefined, silent),
};

export const RECYCLE_KEYS = {
  all: ['diyRecycle'] as const,
  page: (body: object) => ['diyRecycle', 'page', body] as const,
  forms: ['diyRecycle', 'forms'] as const,
};

/** A row's key: ids are per form, so kind and form make it unique. */
export const recycleKey = (item: Pick<RecycleItem, 'kind' | 'tableId' | 'id'>): string =>
  `${item.kind}:${item.tableId}:${item.id}`;

export const toTarget = (item: RecycleItem): RecycleTarget => ({
  kind: item.kind,
  id: item.id,
  tableId: item.tableId,
});
