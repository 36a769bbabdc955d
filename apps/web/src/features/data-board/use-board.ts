import type { BoardDataInput } from '@shuzhi/contracts/dashboard';
import type { ROLLUP_ORG_TYPES } from '@shuzhi/contracts/diy-rollup';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { PERIOD_KEYS, periodApi } from '../../components/diy-period/diy-period.api.ts';
import { defaultMeasure } from './board.model.ts';
import { loadShanghaiMap } from './board-chart.tsx';
import { BOARD_KEYS, boardApi } from './data-board.api.ts';

export type OrgLevel = (typeof ROLLUP_ORG_TYPES)[number];

/**
 * The dashboard of one form or roll-up as chosen on the page: period, level and measure; the figures, the
 * district figures for the map (the same call at district level, or region level 3) and the map's areas.
 */
export function useBoard(id: number) {
  const [periodId, setPeriodId] = useState<number | undefined>(undefined);
  const [level, setLevel] = useState<OrgLevel | number | undefined>(undefined);
  const [measure, setMeasure] = useState<string | undefined>(undefined);

  const body = useMemo<BoardDataInput>(
    () => ({
      id,
      ...(periodId === undefined ? {} : { periodId }),
      ...(typeof level === 'string' ? { orgType: level } : {}),
      ...(typeof level === 'number' ? { regionLevel: level } : {}),
    }),
    [id, periodId, level],
  );
  const query = useQuery({
    queryKey: BOARD_KEYS.data(body),
    queryFn: () => boardApi.data(body),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const board = query.data?.id === id ? query.data : undefined;
  const periods = useQuery({
    queryKey: PERIOD_KEYS.list(board?.sourceTableId ?? 0),
    queryFn: () => periodApi.list(board?.sourceTableId ?? 0),
    enabled: !!board?.periodic,
    retry: false,
  });
  const mapBody = useMemo<BoardDataInput | null>(() => {
    if (!board) return null;
    const at = board.data.period ? { periodId: board.data.period.id } : {};
    return board.dimension === 'region' ? { id, ...at, regionLevel: 3 } : { id, ...at, orgType: 'district' };
  }, [board, id]);
  const mapQuery = useQuery({
    queryKey: BOARD_KEYS.data(mapBody ?? { id }),
    queryFn: () => boardApi.data(mapBody ?? { id }),
    enabled: mapBody !== null,
    retry: false,
  });
  const areas = useQuery({
    queryKey: ['dashboardForm', 'shanghaiMap'],
    queryFn: loadShanghaiMap,
    staleTime: Infinity,
  });

  const measures = board?.measures;
  useEffect(() => {
    if (measures && !measures.some((m) => m.id === measure)) setMeasure(defaultMeasure(measures));
  }, [measures, measure]);

  return {
    body,
    query,
    board,
    periods,
    periodId,
    setPeriodId,
    level,
    setLevel,
    measure,
    setMeasure,
    mapQuery,
    areas,
  };
}
