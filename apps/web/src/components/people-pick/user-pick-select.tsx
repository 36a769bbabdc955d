import type { PickOption } from '@shuzhi/contracts/diy-table';
import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PEOPLE_KEYS, peoplePickApi } from './people-pick.api.ts';

const label = (o: PickOption) => (o.extra ? `${o.label} · ${o.extra}` : o.label);

export type UserPickSelectProps = Omit<SelectProps<number[]>, 'value' | 'onChange' | 'options' | 'mode'> & {
  value?: number[];
  onChange?(value: number[]): void;
};

/**
 * Several users of the tenant, searched by name or account (`GET /api/diyTable/pickUsers`); users already
 * chosen show their names (asked for by id).
 */
export function UserPickSelect({ value, onChange, ...rest }: UserPickSelectProps) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword.trim());
  const chosen = value ?? [];
  const search = useQuery({
    queryKey: PEOPLE_KEYS.users(deferred),
    queryFn: () => peoplePickApi.users({ keyword: deferred }),
    staleTime: 30_000,
  });
  const [known, setKnown] = useState<ReadonlyMap<number, string>>(new Map());
  const missing = useMemo(() => chosen.filter((id) => !known.has(id)).sort((a, b) => a - b), [chosen, known]);
  const labels = useQuery({
    queryKey: PEOPLE_KEYS.userLabels(missing),
    queryFn: () => peoplePickApi.users({ ids: missing }),
    enabled: missing.length > 0,
    staleTime: 60_000,
  });
  const names = useMemo(() => {
    const map = new Map(known);
    for (const o of [...(labels.data ?? []), ...(search.data ?? [])])
      if (!map.has(o.value)) map.set(o.value, label(o));
    return map;
  }, [known, labels.data, search.data]);
  const options = useMemo(() => {
    const ids = new Set<number>([...chosen, ...(search.data ?? []).map((o) => o.value)]);
    return [...ids].map((id) => ({ value: id, label: names.get(id) ?? String(id) }));
  }, [chosen, search.data, names]);

  return (
    <Select<number[]>
      mode="multiple"
      allowClear
      showSearch={{ filterOption: false, onSearch: setKeyword, searchValue: keyword }}
      loading={search.isFetching || labels.isFetching}
      notFoundContent={t('peoplePick.noUsers')}
      placeholder={t('peoplePick.pickUsers')}
      maxTagCount="responsive"
      {...rest}
      value={chosen}
      options={options}
      onChange={(next) => {
        // Remember the names picked so far: the next search no longer lists them.
        setKnown(names);
        setKeyword('');
        onChange?.(next);
      }}
    />
  );
}
