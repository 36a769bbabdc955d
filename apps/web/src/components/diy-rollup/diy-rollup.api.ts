import type {
  RollupAddInput,
  RollupData,
  RollupDataInput,
  RollupInfo,
  RollupUpdateInput,
} from '@shuzhi/contracts/diy-rollup';
import type { FormRow } from '@shuzhi/contracts/diy-table';
import { http } from '../../platform/http/http.ts';

export type { RollupData, RollupInfo };

/** A published field of a form (`GET /api/diyTable/column/select/{id}`, `columnOptionSchema`). */
export type ColumnOption = { value: string; label: string; type: string; parent: string | null };

const silent = { silent: true } as const;

/** Roll-up reports (`/api/diyLoad/*`, `/api/diyTable/addRollup|updateRollup`, docs/rollups.md). */
export const rollupApi = {
  info: (id: number) => http.get<RollupInfo>(`/api/diyLoad/${id}/config`, undefined, silent),
  data: (id: number, body: RollupDataInput) => http.post<RollupData>(`/api/diyLoad/${id}/data`, body, silent),
  add: (body: RollupAddInput) => http.post<number>('/api/diyTable/addRollup', body, silent),
  update: (body: RollupUpdateInput) => http.post<null>('/api/diyTable/updateRollup', body, silent),
  /** Forms the caller administers (the sources a roll-up may use: published report forms). */
  sources: async (): Promise<Pick<FormRow, 'id' | 'title' | 'version'>[]> => {
    const rows = await http.get<FormRow[]>('/api/diyTable/list', { reportType: 1 }, silent);
    return rows.filter((r) => r.version > 0).map(({ id, title, version }) => ({ id, title, version }));
  },
  /** The published fields of a form. */
  fields: (id: number) => http.get<ColumnOption[]>(`/api/diyTable/column/select/${id}`, undefined, silent),
};

export const ROLLUP_KEYS = {
  all: ['diyLoad'] as const,
  info: (id: number) => ['diyLoad', 'info', id] as const,
  data: (id: number, body: object) => ['diyLoad', 'data', id, body] as const,
  sources: ['diyLoad', 'sources'] as const,
  fields: (id: number) => ['diyLoad', 'fields', id] as const,
};

/** Where a roll-up opens (SPEC §2, report type 2). */
export const rollupPath = (id: number) => `/diyLoad/index/loadTable?id=${id}`;
