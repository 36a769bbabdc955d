import { useQuery } from '@tanstack/react-query';
import { Select, type SelectProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PEOPLE_KEYS, peoplePickApi, type RoleSource } from './people-pick.api.ts';

export type RolePickSelectProps = Omit<SelectProps<number[]>, 'value' | 'onChange' | 'options' | 'mode'> & {
  /** The route the page may read roles from (its own permission). */
  source: RoleSource;
  value?: number[];
  onChange?(value: number[]): void;
};

/** Several enabled roles of the tenant, searched by name. */
export function RolePickSelect({ source, value, onChange, ...rest }: RolePickSelectProps) {
  const { t } = useTranslation();
  const roles = useQuery({
    queryKey: PEOPLE_KEYS.roles(source),
    queryFn: () => peoplePickApi.roles(source),
    staleTime: 60_000,
  });
  const options = useMemo(
    () => (roles.data ?? []).map((r) => ({ value: r.id, label: r.name })),
    [roles.data],
  );
  return (
    <Select<number[]>
      mode="multiple"
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      loading={roles.isPending}
      notFoundContent={roles.isError ? t('peoplePick.rolesFailed') : t('common.empty')}
      placeholder={t('peoplePick.pickRoles')}
      maxTagCount="responsive"
      {...rest}
      value={value ?? []}
      options={options}
      onChange={(ids) => onChange?.(ids ?? [])}
    />
  );
}
