import type { PageResult } from '@shuzhi/contracts/envelope';
import type { OpenAccessItem, OpenAccessPageInput, OpenAccessSecret } from '@shuzhi/contracts/open-access';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { OpenAccessItem, OpenAccessSecret };
export type OpenAccessFilters = Pick<OpenAccessPageInput, 'accessKey' | 'bindUser' | 'status'>;

export const openAccessResource = createResource<OpenAccessItem, OpenAccessFilters>('sysOpenAccess');

/** A user as the bound-user picker shows it (`POST /api/sysUser/page` items). */
export type PickableUser = { id: number; account: string; realName: string; orgName: string | null };

export const openAccessApi = {
  /** A new secret; the answer is the only time it is shown. */
  resetSecret: (id: number) =>
    http.post<OpenAccessSecret>('/api/sysOpenAccess/resetSecret', { id }, { silent: true }),
  /** Users matching a keyword (account, name), for the bound-user picker. */
  searchUsers: (keyword: string) =>
    http.post<PageResult<PickableUser>>(
      '/api/sysUser/page',
      { keyword, page: 1, pageSize: 20, descStr: 'descending' },
      { silent: true },
    ),
};

export const OPEN_ACCESS_KEYS = {
  pick: (keyword: string) => ['sysUser', 'pick', keyword] as const,
};
