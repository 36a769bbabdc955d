import type { Efficiency, EfficiencyQuery } from '@shuzhi/contracts/efficiency';
import { downloadFile } from '../../platform/data/download.ts';
import { http } from '../../platform/http/http.ts';

export type { Efficiency, EfficiencyQuery };

const silent = { silent: true } as const;

/** Efficiency analysis (`/api/dashboard/efficiency*`, docs/dashboards.md); the page shows its own errors. */
export const efficiencyApi = {
  data: (query: EfficiencyQuery) => http.get<Efficiency>('/api/dashboard/efficiency', query, silent),
  /** The ranking as .xlsx, saved under the server's file name. */
  exportXlsx: (query: EfficiencyQuery, fileName: string) =>
    downloadFile('/api/dashboard/efficiency/export', fileName, { method: 'get', body: query }),
};

export const EFFICIENCY_KEYS = {
  data: (query: EfficiencyQuery) => ['dashboardEfficiency', query] as const,
};
