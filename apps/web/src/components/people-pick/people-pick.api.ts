import type { PickOption } from '@shuzhi/contracts/diy-table';
import type { RoleChoice } from '@shuzhi/contracts/role';
import { http } from '../../platform/http/http.ts';

const silent = { silent: true } as const;

/** Where a page picks its roles from: each route answers the tenant's enabled roles under its own permission. */
export type RoleSource = '/api/diyTable/pickRoles' | '/api/diyTask/pickRoles';

export const peoplePickApi = {
  /** Users by name or account (`keyword`), or the labels of chosen ids (`ids`); for everyone signed in. */
  users: (query: { keyword?: string; ids?: number[] }) =>
    http.get<PickOption[]>(
      '/api/diyTable/pickUsers',
      query.ids ? { ids: query.ids.join(',') } : { keyword: query.keyword ?? '' },
      silent,
    ),
  roles: (source: RoleSource) => http.get<RoleChoice[]>(source, undefined, silent),
};

export const PEOPLE_KEYS = {
  users: (keyword: string) => ['peoplePick', 'users', keyword] as const,
  userLabels: (ids: readonly number[]) => ['peoplePick', 'users', 'ids', ids.join(',')] as const,
  roles: (source: RoleSource) => ['peoplePick', 'roles', source] as const,
};
