import type { RollupInfo } from '@shuzhi/contracts/diy-rollup';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { PERIOD_KEYS, periodApi } from '../../components/diy-period/diy-period.api.ts';
import { useFormPasswordPrompt } from '../../components/diy-report/form-password.tsx';
import { ROLLUP_KEYS, rollupApi } from '../../components/diy-rollup/diy-rollup.api.ts';
import type { CompareMode } from '../../components/diy-rollup/rollup.model.ts';
import { HttpError } from '../../platform/http/http-client.ts';

export const codeOf = (error: unknown) => (error instanceof HttpError ? error.code : undefined);

/**
 * A roll-up's figures as chosen on the page: the period, the drilled-into parent and the comparison; the
 * source form's periods; and the source form's password, asked for when its sums answer F1007.
 */
export function useRollupData(info: RollupInfo) {
  const [periodId, setPeriodId] = useState<number | undefined>(undefined);
  const [parent, setParent] = useState<string | undefined>(undefined);
  const [mode, setMode] = useState<CompareMode>('current');

  const periods = useQuery({
    queryKey: PERIOD_KEYS.list(info.sourceTableId),
    queryFn: () => periodApi.list(info.sourceTableId),
    enabled: info.periodic,
    retry: false,
  });
  const body = useMemo(
    () => ({
      ...(periodId === undefined ? {} : { periodId }),
      ...(parent === undefined ? {} : { parent }),
      compare: mode !== 'current',
    }),
    [periodId, parent, mode],
  );
  const query = useQuery({
    queryKey: ROLLUP_KEYS.data(info.id, body),
    queryFn: () => rollupApi.data(info.id, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const data = query.data;

  // A source form behind a password: its sums ask for it too (F1007), once per session.
  const password = useFormPasswordPrompt();
  const { prompt } = password;
  const locked = codeOf(query.error) === 'F1007';
  const unlock = useCallback(async () => {
    if (await prompt(info.sourceTableId, info.sourceTitle)) void query.refetch();
  }, [prompt, info.sourceTableId, info.sourceTitle, query.refetch]);
  useEffect(() => {
    if (locked) void unlock();
  }, [locked, unlock]);

  return {
    periodId,
    setPeriodId,
    parent,
    setParent,
    mode,
    setMode,
    periods,
    query,
    data,
    password,
    locked,
    unlock,
  };
}

export type RollupData = ReturnType<typeof useRollupData>;
