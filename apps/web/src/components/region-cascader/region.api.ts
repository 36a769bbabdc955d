import type {
  RegionNode,
  RegionPageInput,
  RegionRoot,
  RegionRow,
  RegionSearchHit,
  RegionSyncCounts,
  RegionSyncStatus,
} from '@shuzhi/contracts/region';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { RegionNode, RegionRoot, RegionRow, RegionSearchHit, RegionSyncCounts, RegionSyncStatus };
export type RegionFilters = Pick<RegionPageInput, 'name' | 'code' | 'level' | 'pid'>;

export const regionResource = createResource<RegionRow, RegionFilters>('sysRegion');

/** The region calls beyond the generic resource (issue 4 §3). */
export const regionApi = {
  /** Children of a region (pid 0 or none: the provinces), one level of the lazy tree. */
  tree: (pid?: number) =>
    http.get<RegionNode[]>('/api/sysRegion/tree', pid === undefined ? undefined : { pid }),
  root: () => http.get<RegionRoot>('/api/sysRegion/root'),
  path: (code: string) => http.get<RegionNode[]>('/api/sysRegion/path', { code }),
  search: (keyword: string, options: { limit?: number; rootCode?: string | null } = {}) =>
    http.get<RegionSearchHit[]>('/api/sysRegion/search', {
      keyword,
      limit: options.limit ?? 30,
      ...(options.rootCode ? { rootCode: options.rootCode } : {}),
    }),
  sync: () => http.post<RegionSyncCounts>('/api/sysRegion/sync', undefined, { silent: true }),
  syncStatus: () => http.get<RegionSyncStatus>('/api/sysRegion/syncStatus'),
};

export const REGION_KEYS = {
  all: ['sysRegion'] as const,
  tree: (pid: number) => ['sysRegion', 'tree', pid] as const,
  root: ['sysRegion', 'root'] as const,
  status: ['sysRegion', 'syncStatus'] as const,
};
