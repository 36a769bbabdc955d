import type { FilePageInput, FileRow } from '@shuzhi/contracts/file';
import { FILE_UPLOAD_PATH, fileDownloadUrl } from '@shuzhi/contracts/file';
import { filePreviewUrl, type UploadedFile } from '@shuzhi/contracts/user-center';
import type { Dayjs } from 'dayjs';
import { downloadFile } from '../../platform/data/download.ts';
import { createResource, type PageRequest, type Resource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { FileRow };
/** The search form's values: the upload time as picked dates. */
export type FileFilters = Pick<FilePageInput, 'fileName' | 'suffix' | 'fileType' | 'belongId'> & {
  createTime?: [Dayjs | null, Dayjs | null] | null;
};

const DAY = 'YYYY-MM-DD';

/** Picked dates → the `[from, to]` of `yyyy-MM-dd` the server filters on (a date-only `to` takes the whole day). */
export function toServerRange(range: FileFilters['createTime']): [string, string] | undefined {
  if (!range) return undefined;
  const [from, to] = range;
  if (!from && !to) return undefined;
  return [from ? from.format(DAY) : '', to ? to.format(DAY) : ''];
}

const base = createResource<FileRow, FileFilters>('sysFile');

/** `sysFile` through the CRUD factory; the page sends the time range as dates. */
export const fileResource: Resource<FileRow, FileFilters> = {
  ...base,
  page: (body) => {
    const { createTime, ...rest } = body;
    const range = toServerRange(createTime);
    return base.page({ ...rest, ...(range ? { createTime: range } : {}) } as PageRequest<FileFilters>);
  },
};

export type UploadFields = { fileType?: string; belongId?: number; isPublic?: boolean; remark?: string };

export const fileApi = {
  /** `uploadFile` (multipart `file` after the fields); `onProgress` receives 0–100. */
  upload: (file: Blob, fileName: string, fields: UploadFields, onProgress?: (percent: number) => void) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) {
      if (value !== undefined && value !== null && value !== '') form.append(name, String(value));
    }
    form.append('file', file, fileName);
    return http.request<UploadedFile>(
      {
        method: 'post',
        url: FILE_UPLOAD_PATH,
        data: form,
        headers: { 'Content-Type': 'multipart/form-data' },
        onUploadProgress: (event) => {
          if (event.total) onProgress?.(Math.round((event.loaded / event.total) * 100));
        },
      },
      { silent: true },
    );
  },
  /** Saves a file under its original name (the download helper: url + fileName). */
  download: (row: Pick<FileRow, 'id' | 'fileName'>) =>
    downloadFile(fileDownloadUrl(row.id), row.fileName, { method: 'get' }),
  /** The address the preview dialog loads. */
  previewUrl: (id: number) => filePreviewUrl(id),
};
