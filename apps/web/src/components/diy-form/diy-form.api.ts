import type { PickOption } from '@shuzhi/contracts/diy-table';
import { FILE_UPLOAD_PATH } from '@shuzhi/contracts/file';
import type { UploadedFile } from '@shuzhi/contracts/user-center';
import { http } from '../../platform/http/http.ts';

export type { PickOption };

export type PickerKind = 'user' | 'org' | 'enterprise';

const PICK_URL: Record<PickerKind, string> = {
  user: '/api/diyTable/pickUsers',
  org: '/api/diyTable/pickOrgs',
  enterprise: '/api/diyTable/pickOrgs',
};

/** A file of an attachment or image field, as the form shows it. */
export type FormFile = { id: number; fileName: string; suffix?: string | null; size?: number | null };

export const diyFormApi = {
  /** Users, orgs or enterprises the caller may pick: by keyword, or the labels of chosen ids. */
  pick: (kind: PickerKind, query: { keyword?: string; ids?: readonly number[] }) =>
    http.get<PickOption[]>(
      PICK_URL[kind],
      {
        ...(query.keyword ? { keyword: query.keyword } : {}),
        ...(query.ids && query.ids.length > 0 ? { ids: query.ids.join(',') } : {}),
        ...(kind === 'enterprise' ? { type: 'enterprise' } : {}),
      },
      { silent: true },
    ),
  /** One file into storage (multipart `file`); the record keeps its id. */
  upload: (file: Blob, fileName: string, onProgress?: (percent: number) => void) => {
    const form = new FormData();
    form.append('file', file, fileName);
    return http.request<UploadedFile>(
      {
        method: 'post',
        url: FILE_UPLOAD_PATH,
        data: form,
        headers: { 'Content-Type': 'multipart/form-data' },
        onUploadProgress: (event) => {
          if (onProgress && event.total) onProgress(Math.round((event.loaded / event.total) * 100));
        },
      },
      { silent: true },
    );
  },
  /** Files attached to a saved record (names of the ids a record holds). */
  filesOfRecord: (belongId: number) =>
    http.get<FormFile[]>('/api/sysFile/listByBelong', { belongId }, { silent: true }),
};
