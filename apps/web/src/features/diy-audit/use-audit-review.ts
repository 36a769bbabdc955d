import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { type Dispatch, type SetStateAction, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DIY_RECORD_KEYS } from '../../components/diy-record/diy-record.api.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { hasErrorCode, UnauthorizedError } from '../../platform/http/http-client.ts';
import { AUDIT_KEYS, type AuditRow, auditApi, auditKey, byForm } from './diy-audit.api.ts';

type ReviewState = {
  setSelected: Dispatch<SetStateAction<AuditRow[]>>;
  viewing: AuditRow | null;
  setViewing: (row: AuditRow | null) => void;
  setReturning: (row: AuditRow | null) => void;
};

/**
 * The reviews: approve records (one, or the pending selection, form by form; `approving` while it runs),
 * and what follows a return or its failure. Each refreshes the list, the counts and the records' caches.
 */
export function useAuditReview({ setSelected, viewing, setViewing, setReturning }: ReviewState) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [approving, setApproving] = useState(false);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };
  /** After a review: the list, the counts and the record's own caches (detail, history). */
  const refresh = (tableIds: Iterable<number>) => {
    void client.invalidateQueries({ queryKey: AUDIT_KEYS.all });
    for (const id of new Set(tableIds)) void client.invalidateQueries({ queryKey: DIY_RECORD_KEYS.form(id) });
  };

  const approve = useReclickGuard(async (targets: AuditRow[]) => {
    if (targets.length === 0 || approving) return;
    setApproving(true);
    let approved = 0;
    const failures: string[] = [];
    try {
      for (const [formId, ids] of byForm(targets)) {
        try {
          await auditApi.audit(formId, { ids, action: 'approve' });
          approved += ids.length;
        } catch (error) {
          if (error instanceof UnauthorizedError) return;
          const form = targets.find((row) => row.tableId === formId)?.tableTitle ?? String(formId);
          failures.push(
            t('diyAudit.partlyFailed', {
              form,
              message: error instanceof Error && error.message ? error.message : t('crud.failed'),
            }),
          );
        }
      }
      if (approved > 0) message.success(t('diyAudit.approved', { count: approved }));
      for (const failure of failures) message.error(failure);
      setSelected([]);
      if (viewing && targets.some((row) => auditKey(row) === auditKey(viewing)) && failures.length === 0)
        setViewing(null);
      refresh(targets.map((row) => row.tableId));
    } finally {
      setApproving(false);
    }
  });

  const onReturned = (row: AuditRow) => {
    message.success(t('diyAudit.returned'));
    setReturning(null);
    setViewing(null);
    setSelected((current) => current.filter((item) => auditKey(item) !== auditKey(row)));
    refresh([row.tableId]);
  };
  const onReturnFailed = (row: AuditRow, error: unknown) => {
    showError(error);
    // F1012: someone else reviewed it meanwhile; the list shows its state now.
    if (hasErrorCode(error, 'F1012')) {
      setReturning(null);
      refresh([row.tableId]);
    }
  };
  /** A change made in the record's drawer: the list and the counts. */
  const onChanged = () => void client.invalidateQueries({ queryKey: AUDIT_KEYS.all });

  return { approving, approve, onReturned, onReturnFailed, onChanged };
}

export type AuditReview = ReturnType<typeof useAuditReview>;
