import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { type Dispatch, type SetStateAction, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../../components/diy-form/diy-form.model.ts';
import { PERIOD_KEYS } from '../../../components/diy-period/diy-period.api.ts';
import {
  DIY_RECORD_KEYS,
  type DiyRecord,
  diyRecordApi,
} from '../../../components/diy-record/diy-record.api.ts';
import { useReclickGuard } from '../../../components/use-reclick-guard.ts';
import { HttpError, UnauthorizedError } from '../../../platform/http/http-client.ts';
import type { FillTarget } from './fill-drawer.tsx';

/** Codes of the answers that mean the period does not take the change (its state may have moved on). */
const PERIOD_CODES = ['F1021', 'F1022', 'F1023', 'F1024', 'F1025'];

type ActionOptions = {
  tableId: number;
  setSelected: Dispatch<SetStateAction<number[]>>;
  setFilling: (target: FillTarget) => void;
};

/**
 * What the record list does to its records: refresh the list, delete, submit a row (`busy` names the row or
 * the batch at work), and show a failure.
 */
export function useRecordActions({ tableId, setSelected, setFilling }: ActionOptions) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();

  const refresh = useCallback(
    () =>
      queryClient.invalidateQueries({
        queryKey: DIY_RECORD_KEYS.form(tableId),
        predicate: (q) => q.queryKey[2] !== 'design',
      }),
    [queryClient, tableId],
  );

  const refreshPeriods = () => queryClient.invalidateQueries({ queryKey: PERIOD_KEYS.list(tableId) });

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('diyFormTable.failed'));
    // The period was closed or ran out meanwhile: show where it stands now.
    if (error instanceof HttpError && PERIOD_CODES.includes(String(error.code))) {
      void refreshPeriods();
      void refresh();
    }
  };

  const [busy, setBusy] = useState<number | 'batch' | null>(null);
  const remove = useReclickGuard(async (ids: number[], key: number | 'batch') => {
    if (busy !== null) return;
    setBusy(key);
    try {
      await diyRecordApi.remove(tableId, ids);
      message.success(t('diyFormTable.deleted', { count: ids.length }));
      setSelected((s) => s.filter((id) => !ids.includes(id)));
      await refresh();
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  });

  const submitRow = useReclickGuard(async (record: DiyRecord) => {
    if (busy !== null) return;
    setBusy(record.id);
    try {
      await diyRecordApi.update(tableId, { id: record.id, values: record.values, submit: true });
      message.success(t('diyFormTable.fill.submitted'));
      await refresh();
    } catch (error) {
      const fields = error instanceof HttpError ? serverFieldErrors(error.errors) : null;
      if (fields) {
        // What the record lacks is shown on its fields, in the filling drawer.
        message.error(t('diyFormTable.fill.fixErrors', { count: Object.keys(fields).length }));
        setFilling({ record, errors: fields });
      } else showError(error);
    } finally {
      setBusy(null);
    }
  });

  return { refresh, refreshPeriods, showError, busy, remove, submitRow };
}
