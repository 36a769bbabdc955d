import type {
  QueryAddInput,
  QueryData,
  QueryInfo,
  QueryRunInput,
  QueryUpdateInput,
} from '@shuzhi/contracts/diy-query';
import { http } from '../../platform/http/http.ts';

export type { QueryData, QueryInfo };

const silent = { silent: true } as const;

/** Query reports (`/api/diyQuery/*`, docs/query-reports.md). */
export const queryApi = {
  info: (id: number) => http.get<QueryInfo>(`/api/diyQuery/${id}/config`, undefined, silent),
  data: (id: number, body: QueryRunInput) => http.post<QueryData>(`/api/diyQuery/${id}/data`, body, silent),
  add: (body: QueryAddInput) => http.post<number>('/api/diyQuery/add', body, silent),
  update: (body: QueryUpdateInput) => http.post<null>('/api/diyQuery/update', body, silent),
  /** The report type of an item shown at `/diyLoad/index/loadTable` (2 roll-up, 3 query report). */
  kind: (id: number) => http.get<{ reportType: number }>(`/api/diyLoad/${id}/kind`, undefined, silent),
};

export const queryExportUrl = (id: number) => `/api/diyQuery/${id}/export`;

export const QUERY_KEYS = {
  all: ['diyQuery'] as const,
  info: (id: number) => ['diyQuery', 'info', id] as const,
  data: (id: number, body: object) => ['diyQuery', 'data', id, body] as const,
  kind: (id: number) => ['diyQuery', 'kind', id] as const,
};

/** Where a query report opens (SPEC §2, report type 3). */
export const queryPath = (id: number) => `/diyLoad/index/loadTable?id=${id}`;
