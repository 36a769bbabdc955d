import type { FormDesign } from '@shuzhi/contracts/diy-form';
import { type PeriodBrief, type PeriodRow, recordChangeable } from '@shuzhi/contracts/diy-period';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { isFilable, PERIOD_KEYS, periodApi } from '../../../components/diy-period/diy-period.api.ts';
import {
  DIY_RECORD_KEYS,
  type DiyRecord,
  diyRecordApi,
} from '../../../components/diy-record/diy-record.api.ts';
import type { FillTarget } from './fill-drawer.tsx';

type PeriodOptions = {
  tableId: number;
  /** The form is collected period after period (its records belong to periods). */
  periodic: boolean;
  /** The period filing goes to now (the list starts on it). */
  currentPeriod: PeriodBrief | null;
  /** The period the route names (the roll-up drill-down). */
  urlPeriod: number | undefined;
};

/**
 * The periods of a periodic form as the record list sees them: the one listed (`periodId`, undefined for
 * every period), the one a new record is filed to (`fileTo`), and whether filing is open there.
 */
export function useRecordPeriods({ tableId, periodic, currentPeriod, urlPeriod }: PeriodOptions) {
  const periods = useQuery({
    queryKey: PERIOD_KEYS.list(tableId),
    queryFn: () => periodApi.list(tableId),
    enabled: periodic,
    retry: false,
  });
  /** The chosen period: an id, every period ('all'), or null for the default (the current one). */
  const [periodChoice, setPeriodChoice] = useState<number | 'all' | null>(urlPeriod ?? null);
  const fallbackPeriod = periods.data?.find((p) => p.state !== 'upcoming')?.id;
  const periodId: number | undefined = !periodic
    ? undefined
    : periodChoice === 'all'
      ? undefined
      : (periodChoice ?? currentPeriod?.id ?? fallbackPeriod);
  const periodById = useMemo(() => new Map((periods.data ?? []).map((p) => [p.id, p])), [periods.data]);
  // Where a new record goes: the chosen period, or the current one while every period is listed.
  const fileToId = periodId ?? currentPeriod?.id;
  const fileTo: (PeriodBrief & Partial<PeriodRow>) | null = !periodic
    ? null
    : ((fileToId !== undefined ? periodById.get(fileToId) : undefined) ??
      (fileToId === currentPeriod?.id ? currentPeriod : null));
  const filable = !periodic || (fileTo !== null && isFilable(fileTo.state));

  const recordFilable = (record: DiyRecord) => {
    if (!periodic || record.periodId === null) return true;
    const period = periodById.get(record.periodId);
    return period ? recordChangeable(period.state, record.status) : true;
  };

  return { periods, setPeriodChoice, periodId, periodById, fileTo, filable, recordFilable };
}

export type RecordPeriods = ReturnType<typeof useRecordPeriods>;

type FillOptions = {
  tableId: number;
  periodic: boolean;
  /** The published design and its version. */
  design: FormDesign;
  version: number | undefined;
  filling: FillTarget | null;
  periods: Pick<RecordPeriods, 'fileTo' | 'periodById'>;
};

/** The period and the design the fill drawer works with. */
export function useFillDesign({ tableId, periodic, design, version, filling, periods }: FillOptions) {
  const { fileTo, periodById } = periods;
  // The fill drawer's period: a changed record's own (its 本期 defaults), a new one's where it is filed.
  const fillPeriod =
    filling?.record && filling.record.periodId !== null
      ? (periodById.get(filling.record.periodId) ?? fileTo)
      : fileTo;
  // A period files with the version it keeps (one published mid-period applies from the next period): a new
  // record of the period, or a change to one, is filled with that version's design.
  const fillVersion =
    !periodic || filling === null
      ? undefined
      : filling.record
        ? filling.record.periodId !== null
          ? filling.record.version
          : undefined
        : fileTo?.version;
  const pinnedVersion = fillVersion !== undefined && fillVersion !== version ? fillVersion : undefined;
  const pinnedDesign = useQuery({
    queryKey: DIY_RECORD_KEYS.design(tableId, pinnedVersion),
    queryFn: () => diyRecordApi.design(tableId, pinnedVersion),
    enabled: pinnedVersion !== undefined,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const fillDesign = pinnedVersion === undefined ? design : (pinnedDesign.data?.design ?? design);
  return { fillPeriod, fillDesign };
}
