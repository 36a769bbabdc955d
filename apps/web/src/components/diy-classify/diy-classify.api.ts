import type { ClassifyOption, ClassifyRow } from '@shuzhi/contracts/diy-table';
import { createResource } from '../../platform/data/resource.ts';
import { http } from '../../platform/http/http.ts';

export type { ClassifyOption, ClassifyRow };
export type ClassifyFilters = { name?: string; status?: number };

/** `/api/diyTableClassify/…`: the generic CRUD routes of the form categories (a tree by `pid`). */
export const classifyResource = createResource<ClassifyRow, ClassifyFilters>('diyTableClassify');

const silent = { silent: true } as const;

export const classifyApi = {
  /** Every category of the tenant (enabled or not), for the administration tree. */
  list: () => http.get<ClassifyRow[]>('/api/diyTableClassify/list', undefined, silent),
  /** The enabled categories, open to every signed-in user (form settings, 报表填报). */
  options: () => http.get<ClassifyOption[]>('/api/diyTableClassify/options', undefined, silent),
};

/** Every key starts with the service, so one invalidation of `['diyTableClassify']` refreshes them all. */
export const CLASSIFY_KEYS = {
  all: ['diyTableClassify'] as const,
  list: ['diyTableClassify', 'adminList'] as const,
  options: ['diyTableClassify', 'options'] as const,
};
