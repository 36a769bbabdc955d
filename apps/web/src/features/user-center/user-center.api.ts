import type {
  BaseInfo,
  CheckOpPasswordInput,
  SetOpPasswordInput,
  UpdateBaseInfoInput,
  UploadedFile,
} from '@shuzhi/contracts/user-center';
import { http } from '../../platform/http/http.ts';

/** One file as multipart field `file`; the browser sets the boundary (axios must not send JSON). */
export function uploadForm(file: Blob, fileName: string): FormData {
  const form = new FormData();
  form.append('file', file, fileName);
  return form;
}

const upload = (url: string, file: Blob, fileName: string) =>
  http.request<UploadedFile>({
    method: 'post',
    url,
    data: uploadForm(file, fileName),
    headers: { 'Content-Type': 'multipart/form-data' },
  });

export const userCenterApi = {
  baseInfo: () => http.get<BaseInfo>('/api/sysUser/baseInfo'),
  saveBaseInfo: (body: UpdateBaseInfoInput) => http.post<true>('/api/sysUser/baseInfo', body),
  uploadAvatar: (file: Blob, fileName: string) => upload('/api/sysFile/uploadAvatar', file, fileName),
  uploadSignature: (file: Blob, fileName: string) => upload('/api/sysFile/uploadSignature', file, fileName),
  setOpPassword: (body: SetOpPasswordInput) => http.post<true>('/api/sysUser/setOpPassword', body),
  checkOpPassword: (body: CheckOpPasswordInput, silent = false) =>
    http.post<true>('/api/sysUser/checkOpPassword', body, { silent }),
};
