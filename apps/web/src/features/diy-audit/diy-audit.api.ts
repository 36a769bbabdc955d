import type { AuditForm, AuditPageInput, AuditRow, RecordAuditInput } from '@shuzhi/contracts/diy-table';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { http } from '../../platform/http/http.ts';

export type { AuditForm, AuditPageInput, AuditRow, RecordAuditInput };

const silent = { silent: true } as const;

/** 报表审核: the records the caller reviews across forms, and the review itself. */
export const auditApi = {
  page: (body: AuditPageInput) => http.post<PageResult<AuditRow>>('/api/diyReport/auditPage', body, silent),
  forms: () => http.get<AuditForm[]>('/api/diyReport/auditForms', undefined, silent),
  audit: (tableId: number, body: RecordAuditInput) =>
    http.post<unknown>(`/api/diyData/${tableId}/audit`, body, silent),
};

export const AUDIT_KEYS = {
  all: ['diyAudit'] as const,
  page: (body: object) => ['diyAudit', 'page', body] as const,
  forms: ['diyAudit', 'forms'] as const,
};

/** A row's key: record ids are per form. */
export const auditKey = (row: Pick<AuditRow, 'tableId' | 'id'>): string => `${row.tableId}:${row.id}`;

/** Rows grouped by form: the review route takes the ids of one form at a time. */
export function byForm(rows: readonly AuditRow[]): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const row of rows) {
    const ids = groups.get(row.tableId) ?? [];
    ids.push(row.id);
    groups.set(row.tableId, ids);
  }
  return groups;
}
