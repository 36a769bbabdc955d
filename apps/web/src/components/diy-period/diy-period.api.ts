import type {
  PeriodAddInput,
  PeriodLog,
  PeriodPageInput,
  PeriodPageRow,
  PeriodReopenInput,
  PeriodRow,
  PeriodState,
  PeriodUpdateInput,
} from '@shuzhi/contracts/diy-period';
import type { FormRow } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { http } from '../../platform/http/http.ts';

export type { PeriodLog, PeriodPageInput, PeriodPageRow, PeriodRow, PeriodState };

const silent = { silent: true } as const;

/** Reporting periods (`/api/diyPeriod/*`, docs/periods.md); callers show their own errors. */
export const periodApi = {
  /** 填报周期: periods across the periodic forms the caller administers. */
  page: (body: PeriodPageInput) => http.post<PageResult<PeriodPageRow>>('/api/diyPeriod/page', body, silent),
  /** One form's periods, newest first (the current one is made by the server when due). */
  list: (tableId: number) => http.get<PeriodRow[]>('/api/diyPeriod/list', { tableId }, silent),
  log: (id: number) => http.get<PeriodLog[]>('/api/diyPeriod/log', { id }, silent),
  add: (body: PeriodAddInput) => http.post<number>('/api/diyPeriod/add', body, silent),
  update: (body: PeriodUpdateInput) => http.post<null>('/api/diyPeriod/update', body, silent),
  close: (body: { id: number; comment?: string }) => http.post<null>('/api/diyPeriod/close', body, silent),
  reopen: (body: PeriodReopenInput) => http.post<null>('/api/diyPeriod/reopen', body, silent),
  /**
   * The periodic forms the caller administers, for the form pickers (表单管理's list: the same audience as
   * 填报周期, form admins).
   */
  forms: async (): Promise<Pick<FormRow, 'id' | 'title' | 'period'>[]> => {
    const page = await http.post<PageResult<FormRow>>(
      '/api/diyTable/page',
      { page: 1, pageSize: 1000, reportType: 1 },
      silent,
    );
    return page.items
      .filter((form) => form.period && form.period.kind !== 'none')
      .map(({ id, title, period }) => ({ id, title, period }));
  },
};

/** Every key starts with `diyPeriod`: one invalidation refreshes the page, lists and logs. */
export const PERIOD_KEYS = {
  all: ['diyPeriod'] as const,
  page: (body: object) => ['diyPeriod', 'page', body] as const,
  list: (tableId: number) => ['diyPeriod', 'list', tableId] as const,
  log: (id: number) => ['diyPeriod', 'log', id] as const,
  forms: ['diyPeriod', 'forms'] as const,
};

/** States in which records may be added, changed, deleted or submitted (the server says F1021–F1023 else). */
const FILABLE_STATES: readonly PeriodState[] = ['open', 'grace'];
export const isFilable = (state: PeriodState): boolean => FILABLE_STATES.includes(state);
