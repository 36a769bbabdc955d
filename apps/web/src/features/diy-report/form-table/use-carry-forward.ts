import { carriedField, type FormDesign, type RecordValues } from '@shuzhi/contracts/diy-form';
import { App } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diyRecordApi } from '../../../components/diy-record/diy-record.api.ts';
import { useReclickGuard } from '../../../components/use-reclick-guard.ts';
import { UnauthorizedError } from '../../../platform/http/http-client.ts';

/** What the form shows after values came from an earlier period. */
export type CarryNote =
  /** 沿用上期数据: everything that is carried was filled in. */
  | { kind: 'all'; from: string }
  /** 每期沿用 fields filled in when the new record opened. */
  | { kind: 'fields'; from: string; count: number };

/** Puts values into the form; `change` marks them the user's (unsaved). */
type Load = (values: RecordValues, change: boolean) => void;

const empty = (value: unknown) =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** The fields a new record of the design takes from the period before without being asked (每期沿用). */
function carryFields(design: FormDesign): string[] {
  return design.fields.filter((f) => f.carry && carriedField(f)).map((f) => f.id);
}

/**
 * Values from the unit's record of an earlier period (`GET /prefill`), for a new record of a periodic form:
 * - when it opens, its 每期沿用 fields that are still empty take the earlier values (nothing is saved, the
 *   filler checks them; a failure leaves the form as it was, the button stays);
 * - 沿用上期数据 (`prefill`) fills in everything that is carried, after a confirmation when the form was
 *   changed.
 */
export function useCarryForward({
  tableId,
  period,
  design,
  fresh,
  dirty,
  values,
  presets,
  load,
}: {
  tableId: number;
  period: { id: number } | null | undefined;
  design: FormDesign;
  /** A new record not saved yet. */
  fresh: boolean;
  dirty: boolean;
  /** The form's values now. */
  values: RecordValues;
  presets: RecordValues | undefined;
  load: Load;
}) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [prefilling, setPrefilling] = useState(false);
  const [note, setNote] = useState<CarryNote | null>(null);
  const periodId = period?.id;
  const latest = useRef(values);
  latest.current = values;

  // biome-ignore lint/correctness/useExhaustiveDependencies: once, for the record that opened.
  useEffect(() => {
    const ids = carryFields(design);
    if (!fresh || periodId === undefined || ids.length === 0) return;
    let live = true;
    diyRecordApi
      .prefill(tableId, periodId)
      .then((found) => {
        if (!live || !found) return;
        const current = latest.current;
        const taken = ids.filter((id) => empty(current[id]) && !empty(found.values[id]));
        if (taken.length === 0) return;
        load({ ...current, ...Object.fromEntries(taken.map((id) => [id, found.values[id]])) }, false);
        setNote({ kind: 'fields', from: found.fromPeriodName, count: taken.length });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);

  const loadAll = async () => {
    if (periodId === undefined || prefilling) return;
    setPrefilling(true);
    try {
      const found = await diyRecordApi.prefill(tableId, periodId);
      if (!found) {
        message.info(t('diyPeriod.table.prefillNone'));
        return;
      }
      load({ ...presets, ...found.values }, true);
      setNote({ kind: 'all', from: found.fromPeriodName });
      message.success(t('diyPeriod.table.prefillDone', { name: found.fromPeriodName }));
    } catch (error) {
      if (error instanceof UnauthorizedError) return;
      message.error(
        error instanceof Error && error.message ? error.message : t('diyPeriod.table.prefillFailed'),
      );
    } finally {
      setPrefilling(false);
    }
  };

  const prefill = useReclickGuard(() => {
    if (!dirty) {
      void loadAll();
      return;
    }
    modal.confirm({
      title: t('diyPeriod.table.prefill'),
      content: t('diyPeriod.table.prefillReplace'),
      okButtonProps: { 'data-testid': 'diy-fill-prefill-ok' },
      cancelText: t('common.cancel'),
      onOk: () => void loadAll(),
    });
  });

  return { prefilling, prefill, note };
}
