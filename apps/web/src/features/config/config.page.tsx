import { configAddInputSchema } from '@shuzhi/contracts/config-admin';
import { SYS_FLAG } from '@shuzhi/contracts/envelope';
import { useQuery } from '@tanstack/react-query';
import { Card, Input, InputNumber, Select } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField, CrudSearchField } from '../../components/crud-page/crud-types.ts';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { findDictItem, useDict } from '../../platform/dict/dict.store.ts';
import {
  CONFIG_DEPENDENT_KEYS,
  type ConfigFilters,
  type ConfigRow,
  configApi,
  configResource,
} from './config.api.ts';

const isBuiltIn = (row: ConfigRow) => row.sysFlag === SYS_FLAG.yes;

export default function ConfigPage() {
  const { t } = useTranslation();
  const groups = useQuery({ queryKey: ['sysConfig', 'groupList'], queryFn: configApi.groupList });
  const groupDict = useDict('config_group');
  const groupOptions = useMemo(
    () =>
      (groups.data ?? []).map((code) => ({
        value: code,
        label: findDictItem(groupDict, code)?.label ?? code,
      })),
    [groups.data, groupDict],
  );

  const columns: CrudColumn<ConfigRow>[] = [
    { key: 'name', title: t('config.name'), sort: true },
    { key: 'code', title: t('config.code'), sort: true },
    {
      key: 'value',
      title: t('config.value'),
      render: (value: string | null) => value ?? '',
    },
    {
      key: 'groupCode',
      title: t('config.group'),
      sort: true,
      widthText: (row) => findDictItem(groupDict, row.groupCode)?.label ?? row.groupCode,
      render: (value: string | null) => <DictTag code="config_group" value={value} />,
    },
    {
      key: 'sysFlag',
      title: t('config.sysFlag'),
      sort: true,
      align: 'center',
      render: (value: number) => <DictTag code="sys_flag" value={value} data-testid="config-sys-flag" />,
    },
    { key: 'orderNo', title: t('config.orderNo'), sort: true, align: 'right' },
    { key: 'remark', title: t('config.remark'), width: 260 },
    { key: 'updateTime', title: t('config.updateTime'), sort: true, widthText: () => '2026-01-01 00:00:00' },
  ];

  const searchFields: CrudSearchField[] = [
    { name: 'name', label: t('config.name') },
    { name: 'code', label: t('config.code') },
    {
      name: 'groupCode',
      label: t('config.group'),
      input: (
        <Select
          allowClear
          options={groupOptions}
          loading={groups.isLoading}
          placeholder={t('crud.selectPlaceholder', { label: t('config.group') })}
          style={{ width: 160 }}
          data-testid="config-search-group"
        />
      ),
    },
  ];

  const formFields: CrudFormField<ConfigRow>[] = [
    {
      name: 'name',
      label: t('config.name'),
      half: true,
      rules: [{ required: true, whitespace: true, message: t('crud.required', { label: t('config.name') }) }],
    },
    {
      name: 'code',
      label: t('config.code'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('config.code') }) },
        {
          validator: (_, value: unknown) =>
            !value || configAddInputSchema.shape.code.safeParse(value).success
              ? Promise.resolve()
              : Promise.reject(new Error(t('config.codeRule'))),
        },
      ],
      // A built-in code is read by the system itself; renaming it would orphan the setting.
      input: ({ mode, record }) => (
        <Input
          allowClear
          disabled={mode === 'edit' && record !== undefined && isBuiltIn(record)}
          placeholder={t('crud.inputPlaceholder', { label: t('config.code') })}
          data-testid="config-field-code"
        />
      ),
    },
    {
      name: 'value',
      label: t('config.value'),
      input: (
        <Input
          allowClear
          placeholder={t('crud.inputPlaceholder', { label: t('config.value') })}
          data-testid="config-field-value"
        />
      ),
    },
    {
      name: 'groupCode',
      label: t('config.group'),
      half: true,
      input: (
        <DictSelect
          code="config_group"
          placeholder={t('crud.selectPlaceholder', { label: t('config.group') })}
          data-testid="config-field-group"
        />
      ),
    },
    {
      name: 'sysFlag',
      label: t('config.sysFlag'),
      half: true,
      initialValue: SYS_FLAG.no,
      rules: [{ required: true, message: t('crud.requiredSelect', { label: t('config.sysFlag') }) }],
      input: <DictSelect code="sys_flag" numeric allowClear={false} data-testid="config-field-sys-flag" />,
    },
    {
      name: 'orderNo',
      label: t('config.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={999999} precision={0} style={{ width: '100%' }} />,
    },
    {
      name: 'remark',
      label: t('config.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];

  return (
    <Card data-testid="config-page">
      <CrudPage<ConfigRow, ConfigFilters>
        resource={configResource}
        entityName={t('config.entity')}
        title={t('config.title')}
        columns={columns}
        searchFields={searchFields}
        formFields={formFields}
        permissions={{
          add: 'sysConfig:add',
          update: 'sysConfig:update',
          delete: 'sysConfig:delete',
          batchDelete: 'sysConfig:batchDelete',
          export: 'sysConfig:export',
        }}
        canDelete={(row) => !isBuiltIn(row)}
        deleteBlockedText={t('config.builtInBlocked')}
        toPayload={(values) => ({
          ...values,
          value: (values.value as string | undefined) ?? '',
        })}
        invalidates={CONFIG_DEPENDENT_KEYS}
        exportFileName={t('config.exportName')}
        testId="config"
      />
    </Card>
  );
}
