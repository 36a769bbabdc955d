import type { ConfigPageInput, ConfigRow, SysInfo } from '@shuzhi/contracts/config-admin';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { ConfigRow, SysInfo };
export type ConfigFilters = Pick<ConfigPageInput, 'name' | 'code' | 'groupCode'>;

export const configResource = createResource<ConfigRow, ConfigFilters>('sysConfig');

export const configApi = {
  groupList: () => http.get<string[]>('/api/sysConfig/groupList', undefined, { silent: true }),
  batchUpdate: (items: { code: string; value: string }[]) =>
    http.post<void>('/api/sysConfig/batchUpdate', items, { silent: true }),
  sysInfo: () => http.get<SysInfo>('/api/sysConfig/sysInfo'),
  saveSysInfo: (body: SysInfo) => http.post<void>('/api/sysConfig/saveSysInfo', body, { silent: true }),
};

/** Caches a config write can change: the shell's branding, watermark and client settings. */
export const CONFIG_DEPENDENT_KEYS = [
  ['sysProfile', 'current'],
  ['sysAuth', 'watermarkConfig'],
] as const;
