import type { PrefillResult } from '@shuzhi/contracts/diy-period';
import type {
  DiyRecord,
  FormDesignForFilling,
  RecordHistory,
  RecordPageInput,
  RecordSaveInput,
} from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { http } from '../../platform/http/http.ts';

export type { DiyRecord, FormDesignForFilling, RecordHistory, RecordPageInput };

const silent = { silent: true } as const;
const base = (tableId: number) => `/api/diyData/${tableId}`;

/** The records of a report form (`/api/diyData/{tableId}/…`); callers show their own errors. */
export const diyRecordApi = {
  /** The form item with myAuth and a version's design (default: the published one). */
  design: (tableId: number, version?: number | null) =>
    http.get<FormDesignForFilling>(`${base(tableId)}/design`, version ? { version } : undefined, silent),
  page: (tableId: number, body: RecordPageInput) =>
    http.post<PageResult<DiyRecord>>(`${base(tableId)}/page`, body, silent),
  detail: (tableId: number, id: number) => http.get<DiyRecord>(`${base(tableId)}/detail`, { id }, silent),
  history: (tableId: number, id: number) =>
    http.get<RecordHistory[]>(`${base(tableId)}/history`, { id }, silent),
  add: (tableId: number, body: RecordSaveInput) => http.post<number>(`${base(tableId)}/add`, body, silent),
  update: (tableId: number, body: RecordSaveInput & { id: number }) =>
    http.put<null>(`${base(tableId)}/update`, body, silent),
  remove: (tableId: number, ids: number[]) => http.delete<null>(`${base(tableId)}/delete`, { ids }, silent),
  /** Periodic forms: the caller's org's latest record of an earlier period, to review before saving. */
  prefill: (tableId: number, periodId: number) =>
    http.get<PrefillResult>(`${base(tableId)}/prefill`, { periodId }, silent),
  /** Periodic forms: "nothing to report" for the caller's org in the period (submitted at once). */
  zeroReport: (tableId: number, body: { periodId: number; comment?: string }) =>
    http.post<number>(`${base(tableId)}/zeroReport`, body, silent),
  /** 移交: the records take the user as their filler, with the user's org. */
  handOver: (body: { tableId: number; ids: number[]; userId: number }) =>
    http.post<null>('/api/diyTable/UpdateCreateUser', body, silent),
};

/** Every key starts with the form's records, so one invalidation refreshes lists, records and histories. */
export const DIY_RECORD_KEYS = {
  form: (tableId: number) => ['diyData', tableId] as const,
  design: (tableId: number, version?: number | null) =>
    ['diyData', tableId, 'design', version ?? 'published'] as const,
  page: (tableId: number, body: object) => ['diyData', tableId, 'page', body] as const,
  detail: (tableId: number, id: number) => ['diyData', tableId, 'detail', id] as const,
  history: (tableId: number, id: number) => ['diyData', tableId, 'history', id] as const,
};
