import type { BoardData, BoardDataInput, BoardExportInput, BoardItem } from '@shuzhi/contracts/dashboard';
import { downloadFile } from '../../platform/data/download.ts';
import { http } from '../../platform/http/http.ts';

export type { BoardData, BoardDataInput, BoardItem };

const silent = { silent: true } as const;

/** The data dashboard's calls (`/api/dashboard/form/*`, docs/dashboards.md); the page shows its own errors. */
export const boardApi = {
  list: () => http.get<BoardItem[]>('/api/dashboard/form/list', undefined, silent),
  data: (body: BoardDataInput) => http.post<BoardData>('/api/dashboard/form/data', body, silent),
  /** One chart's data as .xlsx, saved under the server's file name. */
  exportXlsx: (body: BoardExportInput, fileName: string) =>
    downloadFile('/api/dashboard/form/export', fileName, { body }),
};

/** Under `diyTable` / `diyData`-independent keys: the board refetches when opened again (staleTime 0). */
export const BOARD_KEYS = {
  list: ['dashboardForm', 'list'] as const,
  data: (body: BoardDataInput) => ['dashboardForm', 'data', body] as const,
};
