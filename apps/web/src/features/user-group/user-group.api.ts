import type { PageResult } from '@shuzhi/contracts/envelope';
import type { UserGroupMember, UserGroupPageInput, UserGroupRow } from '@shuzhi/contracts/user-group';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { UserGroupMember, UserGroupRow };
export type UserGroupFilters = Pick<UserGroupPageInput, 'name' | 'code' | 'status'>;

export const userGroupResource = createResource<UserGroupRow, UserGroupFilters>('sysUserGroup');

/** A user as the member picker shows it (`POST /api/sysUser/page` items). */
export type PickableUser = { id: number; account: string; realName: string; orgName: string | null };

export const userGroupApi = {
  members: (id: number) => http.get<UserGroupMember[]>('/api/sysUserGroup/members', { id }),
  setMembers: (id: number, userIds: number[]) =>
    http.post<null>('/api/sysUserGroup/setMembers', { id, userIds }, { silent: true }),
  /** Users of the caller's scope matching a keyword (account, name, phone), for the member picker. */
  searchUsers: (keyword: string) =>
    http.post<PageResult<PickableUser>>(
      '/api/sysUser/page',
      { keyword, page: 1, pageSize: 20, descStr: 'descending' },
      { silent: true },
    ),
};

export const USER_GROUP_KEYS = {
  members: (id: number) => ['sysUserGroup', 'members', id] as const,
  pick: (keyword: string) => ['sysUser', 'pick', keyword] as const,
};
