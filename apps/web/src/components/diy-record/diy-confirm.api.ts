import type {
  RowConfirmAnswerInput,
  RowConfirmCreateInput,
  RowConfirmCreateResult,
  RowConfirmDetail,
  RowConfirmItem,
} from '@shuzhi/contracts/diy-confirm';
import { http } from '../../platform/http/http.ts';

export type { RowConfirmCreateResult, RowConfirmDetail, RowConfirmItem };

const silent = { silent: true } as const;

/** Row confirmation (issue 6 §6): staff send links; the subject answers without signing in. */
export const diyConfirmApi = {
  create: (body: RowConfirmCreateInput) =>
    http.post<RowConfirmCreateResult>('/api/diyConfirm/create', body, silent),
  list: (tableId: number, recordId: number) =>
    http.get<RowConfirmItem[]>('/api/diyConfirm/list', { tableId, recordId }, silent),
  /** No login: the one row the code is for. */
  detail: (tableId: number, code: string) =>
    http.get<RowConfirmDetail>(
      `/api/diyTable/detailByNoLogin/${tableId}/${encodeURIComponent(code)}`,
      undefined,
      silent,
    ),
  /** No login: confirm, or dispute with a comment; once. */
  answer: (recordId: number, body: RowConfirmAnswerInput) =>
    http.put<null>(`/api/diyTable/updateDataByNoLogin/${recordId}`, body, silent),
};

export const DIY_CONFIRM_KEYS = {
  list: (tableId: number, recordId: number) => ['diyConfirm', tableId, recordId] as const,
};

/** The link as the subject opens it: this site's origin and the page's path. */
export const absoluteUrl = (path: string) => new URL(path, window.location.origin).toString();
