import type { OrgListItem, OrgNode, OrgPageInput, OrgRow } from '@shuzhi/contracts/org';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { OrgListItem, OrgNode, OrgRow };
export type OrgFilters = Pick<OrgPageInput, 'name' | 'code' | 'type' | 'status' | 'pid'>;

export const orgResource = createResource<OrgRow, OrgFilters>('sysOrg');

export const orgApi = {
  /** The caller's visible org tree (ancestors outside the scope flagged `outOfScope`). */
  treeAll: () => http.get<OrgNode[]>('/api/sysOrg/treeAll'),
  /** Admin.NET list: a tree under `Id`, or a flat list when Name/Code/Type filter. */
  list: (params: { Id?: number; Name?: string; Code?: string; Type?: string } = {}) =>
    http.get<OrgListItem[]>('/api/sysOrg/list', params),
};
