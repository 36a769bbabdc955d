import type { MenuNode } from '@shuzhi/contracts/menu';
import type {
  TenantGrantMenuInput,
  TenantPageInput,
  TenantResetPwdResult,
  TenantRow,
} from '@shuzhi/contracts/tenant';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { TenantResetPwdResult, TenantRow };
export type TenantFilters = Pick<TenantPageInput, 'name' | 'code' | 'status'>;

export const tenantResource = createResource<TenantRow, TenantFilters>('sysTenant');

/** Query keys of the grant drawer; they start with the service so a tenant write refreshes them too. */
export const TENANT_KEYS = {
  menuTree: ['sysTenant', 'menuTree'] as const,
  ownMenus: (id: number) => ['sysTenant', 'ownMenuList', id] as const,
};

export const tenantApi = {
  /** Every menu (the super admin's administration tree); the drawer leaves out the platform-only pages. */
  menuTree: () => http.get<MenuNode[]>('/api/sysMenu/list'),
  ownMenuList: (id: number) => http.get<number[]>('/api/sysTenant/ownMenuList', { id }),
  grantMenu: (body: TenantGrantMenuInput) => http.post<null>('/api/sysTenant/grantMenu', body),
  resetPwd: (id: number) =>
    http.post<TenantResetPwdResult>('/api/sysTenant/resetPwd', { id }, { silent: true }),
};
