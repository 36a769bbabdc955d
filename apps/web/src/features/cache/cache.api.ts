import type { CacheKeyList, CacheValue } from '@shuzhi/contracts/server';
import { http } from '../../platform/http/http.ts';

export type { CacheKeyList, CacheValue };

export const cacheApi = {
  keyList: (prefix?: string) =>
    http.get<CacheKeyList>('/api/sysCache/keyList', prefix ? { prefix } : undefined),
  value: (key: string) => http.get<CacheValue | null>('/api/sysCache/value', { key }),
  remove: (key: string) => http.post<number>('/api/sysCache/delete', { key }, { silent: true }),
  removeByPrefix: (prefix: string) =>
    http.post<number>('/api/sysCache/deleteByPrefix', { prefix }, { silent: true }),
};
