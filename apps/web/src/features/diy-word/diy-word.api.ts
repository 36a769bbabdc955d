import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import type { WordFields, WordOutput, WordSource, WordTemplate } from '@shuzhi/contracts/diy-word';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { fileDownloadUrl } from '@shuzhi/contracts/file';
import { filePreviewUrl } from '@shuzhi/contracts/user-center';
import { downloadFile } from '../../platform/data/download.ts';
import { http } from '../../platform/http/http.ts';

export type { WordFields, WordOutput, WordSource, WordTemplate };

const silent = { silent: true } as const;

export type WordUploadFields = { tableId: number; name: string; remark?: string };

/** Word documents (`/api/diyWord/*`, docs/word-documents.md); callers show their own errors. */
export const wordApi = {
  list: (tableId?: number) =>
    http.get<WordTemplate[]>('/api/diyWord/list', tableId ? { tableId } : {}, silent),
  sources: () => http.get<WordSource[]>('/api/diyWord/sources', {}, silent),
  fields: (tableId: number) => http.get<WordFields>('/api/diyWord/fields', { tableId }, silent),
  upload: (file: Blob, fileName: string, fields: WordUploadFields) => {
    const form = new FormData();
    form.append('tableId', String(fields.tableId));
    form.append('name', fields.name);
    if (fields.remark) form.append('remark', fields.remark);
    form.append('file', file, fileName);
    return http.request<number>(
      {
        method: 'post',
        url: '/api/diyWord/upload',
        data: form,
        headers: { 'Content-Type': 'multipart/form-data' },
      },
      silent,
    );
  },
  remove: (ids: number[]) => http.post<null>('/api/diyWord/delete', { ids }, silent),
  record: (id: number, recordId: number) =>
    http.post<WordOutput>(`/api/diyWord/${id}/record`, { recordId }, silent),
  batch: (id: number, periodId: number) =>
    http.post<WordOutput>(`/api/diyWord/${id}/batch`, { periodId }, silent),
  bulletin: (id: number, periodId?: number) =>
    http.post<WordOutput>(`/api/diyWord/${id}/bulletin`, periodId ? { periodId } : {}, silent),
  outputs: (id: number) => http.get<WordOutput[]>(`/api/diyWord/${id}/outputs`, {}, silent),
  /** Records of a form to pick one from (newest first). */
  records: async (tableId: number) =>
    (
      await http.post<PageResult<DiyRecord>>(
        `/api/diyData/${tableId}/page`,
        { page: 1, pageSize: 100 },
        silent,
      )
    ).items,
  downloadTemplate: (template: Pick<WordTemplate, 'id' | 'fileName'>) =>
    downloadFile(`/api/diyWord/${template.id}/template`, template.fileName, { method: 'get' }),
  download: (output: Pick<WordOutput, 'fileId' | 'fileName'>) =>
    downloadFile(fileDownloadUrl(output.fileId), output.fileName, { method: 'get' }),
  previewUrl: (fileId: number) => filePreviewUrl(fileId),
};

export const WORD_KEYS = {
  all: ['diyWord'] as const,
  list: (tableId?: number) => ['diyWord', 'list', tableId ?? 0] as const,
  sources: ['diyWord', 'sources'] as const,
  fields: (tableId: number) => ['diyWord', 'fields', tableId] as const,
  outputs: (id: number) => ['diyWord', 'outputs', id] as const,
  records: (tableId: number) => ['diyWord', 'records', tableId] as const,
};
