import type {
  RoleGrantDataScopeInput,
  RoleGrantMenuInput,
  RoleMenuNode,
  RolePageInput,
  RoleRow,
} from '@shuzhi/contracts/role';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { RoleMenuNode, RoleRow };
export type RoleFilters = Pick<RolePageInput, 'name' | 'code' | 'status'>;

export const roleResource = createResource<RoleRow, RoleFilters>('sysRole');

/** Query keys of the grant dialogs; they start with the service so a role write refreshes them too. */
export const ROLE_KEYS = {
  menuTree: ['sysRole', 'menuTree'] as const,
  ownMenus: (id: number) => ['sysRole', 'ownMenuList', id] as const,
  ownOrgs: (id: number) => ['sysRole', 'ownOrgList', id] as const,
};

export const roleApi = {
  menuTree: () => http.get<RoleMenuNode[]>('/api/sysRole/menuTree'),
  ownMenuList: (id: number) => http.get<number[]>('/api/sysRole/ownMenuList', { id }),
  ownOrgList: (id: number) => http.get<number[]>('/api/sysRole/ownOrgList', { id }),
  grantMenu: (body: RoleGrantMenuInput) => http.post<null>('/api/sysRole/grantMenu', body),
  grantDataScope: (body: RoleGrantDataScopeInput) => http.post<null>('/api/sysRole/grantDataScope', body),
};
