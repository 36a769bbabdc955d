import type {
  UserAddInput,
  UserExtOrg,
  UserGrantRoleInput,
  UserImportResult,
  UserPageInput,
  UserPageItem,
  UserRow,
  UserUpdateInput,
} from '@shuzhi/contracts/user';
import { downloadFile } from '../../platform/data/download.ts';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { UserExtOrg, UserImportResult, UserPageItem, UserRow };
export type UserFilters = Pick<
  UserPageInput,
  'keyword' | 'account' | 'realName' | 'phone' | 'status' | 'accountType' | 'orgId'
>;

/** An option of the role and position pickers (`/api/sysRole/list`, `/api/sysPos/list`). */
export type CodeOption = { id: number; name: string; code: string };

export const userResource = createResource<UserPageItem, UserFilters>('sysUser');

/** Query keys: they start with the service, so any user write refreshes them too. */
export const USER_KEYS = {
  ownRoles: (id: number) => ['sysUser', 'ownRoleList', id] as const,
  ownExtOrgs: (id: number) => ['sysUser', 'ownExtOrgList', id] as const,
  roles: ['sysRole', 'list'] as const,
  positions: ['sysPos', 'list'] as const,
};

export const userApi = {
  detail: (id: number) => http.get<UserRow>('/api/sysUser/detail', { Id: id }),
  ownRoleList: (id: number) => http.get<number[]>(`/api/sysUser/ownRoleList/${id}`),
  ownExtOrgList: (id: number) => http.get<UserExtOrg[]>(`/api/sysUser/ownExtOrgList/${id}`),
  add: (body: UserAddInput) => http.post<number>('/api/sysUser/add', body, { silent: true }),
  update: (body: UserUpdateInput) => http.post<null>('/api/sysUser/update', body, { silent: true }),
  resetPwd: (id: number) => http.post<string>('/api/sysUser/resetPwd', { id }),
  unlockLogin: (id: number) => http.post<null>('/api/sysUser/unlockLogin', { id }),
  grantRole: (body: UserGrantRoleInput) => http.post<null>('/api/sysUser/grantRole', body),
  roles: () => http.get<CodeOption[]>('/api/sysRole/list'),
  positions: () => http.get<CodeOption[]>('/api/sysPos/list'),
  importFile: (file: Blob, fileName: string) => {
    const form = new FormData();
    form.append('file', file, fileName);
    return http.request<UserImportResult>(
      {
        method: 'post',
        url: '/api/sysUser/import',
        data: form,
        headers: { 'Content-Type': 'multipart/form-data' },
      },
      { silent: true },
    );
  },
  downloadTemplate: (fileName: string) =>
    downloadFile('/api/sysUser/downloadImportTemplate', fileName, { method: 'get' }),
  downloadErrorReport: (id: string, fileName: string) =>
    downloadFile('/api/sysUser/importErrorReport', fileName, { method: 'get', body: { id } }),
};
