import type { ClassifyOption, FormItem } from '@shuzhi/contracts/diy-table';
import { http } from '../../platform/http/http.ts';

export type { ClassifyOption, FormItem };

export type FormItemFilters = { classifyId?: number; keyword?: string; reportType?: number };

const silent = { silent: true } as const;

export const diyReportApi = {
  /** The published forms the caller may open (报表填报), with myAuth and the tip flag. */
  tableList: (filters: FormItemFilters = {}) =>
    http.get<FormItem[]>('/api/diyTable/tableList', filters, silent),
  /** The caller opened a form: its tip flag goes off. */
  clearTip: (id: number) => http.post<null>('/api/diyTable/clearTip', { id }, silent),
  /** `password` is the SM2 cipher; success is code 200 (验证成功), F1005 wrong, F1006 too many tries. */
  checkFormPwd: (tableId: number, password: string) =>
    http.post<null>('/api/diyTable/CheckFormPwd', { tableId, password }, silent),
  /** The tenant's enabled categories with their form counts. */
  classifyOptions: () => http.get<ClassifyOption[]>('/api/diyTableClassify/options', undefined, silent),
};

/** Every key starts with the service, so one invalidation of `['diyTable']` refreshes them all. */
export const DIY_REPORT_KEYS = {
  all: ['diyTable'] as const,
  tableList: (filters: FormItemFilters) => ['diyTable', 'tableList', filters] as const,
  classifyOptions: ['diyTableClassify', 'options'] as const,
};
