import type { ImportConfirmInput, ImportJob } from '@shuzhi/contracts/diy-import';
import { downloadFile } from '../../platform/data/download.ts';
import { http } from '../../platform/http/http.ts';

export type { ImportJob };

const silent = { silent: true } as const;
const base = '/api/diyImport';

/** Bytes sent so far and the request's size (null when the browser does not know it). */
export type UploadProgress = { loaded: number; total: number | null };

/** Excel import of a form's records (`/api/diyImport/…`, issue 6 §4); callers show their own errors. */
export const diyImportApi = {
  /** The template made from the published design, saved through the download helper. */
  template: (tableId: number, fileName: string) =>
    downloadFile(`${base}/${tableId}/template`, fileName, { method: 'get' }),
  /** Starts a check job; the server answers its id at once. */
  upload: (
    tableId: number,
    file: Blob,
    fileName: string,
    periodId: number | null,
    onProgress?: (progress: UploadProgress) => void,
  ) => {
    const form = new FormData();
    // The period comes first: the server reads the multipart stream in order.
    if (periodId !== null) form.append('periodId', String(periodId));
    form.append('file', file, fileName);
    return http.request<{ jobId: number }>(
      {
        method: 'post',
        url: `${base}/${tableId}/upload`,
        data: form,
        headers: { 'Content-Type': 'multipart/form-data' },
        // Large workbooks upload for a while; the request only ends once the job is created.
        timeout: 0,
        onUploadProgress: (event) => onProgress?.({ loaded: event.loaded, total: event.total ?? null }),
      },
      silent,
    );
  },
  job: (jobId: number) => http.get<ImportJob>(`${base}/job/${jobId}`, undefined, silent),
  /** The error workbook (bad rows marked with their reasons). */
  errors: (jobId: number, fileName: string) =>
    downloadFile(`${base}/job/${jobId}/errors`, fileName, { method: 'get' }),
  confirm: (jobId: number, body: ImportConfirmInput) =>
    http.post<ImportJob>(`${base}/job/${jobId}/confirm`, body, silent),
  cancel: (jobId: number) => http.post<null>(`${base}/job/${jobId}/cancel`, undefined, silent),
};

export const DIY_IMPORT_KEYS = {
  job: (jobId: number) => ['diyImport', 'job', jobId] as const,
};
