import { STATUS } from '@shuzhi/contracts/envelope';
import { posAddInputSchema } from '@shuzhi/contracts/pos';
import { Card, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { type PosFilters, type PosRow, posResource } from './pos.api.ts';

const BY_ORDER = { field: 'orderNo', order: 'ascending' } as const;

/** 职位管理 (issue 3 §1): the tenant's positions. */
export default function PosPage() {
  const { t } = useTranslation();
  const columns: CrudColumn<PosRow>[] = [
    { key: 'name', title: t('sysPos.name'), sort: true },
    { key: 'code', title: t('sysPos.code'), sort: true },
    { key: 'orderNo', title: t('sysPos.orderNo'), sort: true, align: 'right', width: 90 },
    { key: 'remark', title: t('sysPos.remark'), width: 220 },
    { key: 'createTime', title: t('sysPos.createTime'), sort: true, widthText: () => '2026-01-01 00:00:00' },
  ];
  const formFields: CrudFormField<PosRow>[] = [
    {
      name: 'name',
      label: t('sysPos.name'),
      half: true,
      rules: [{ required: true, whitespace: true, message: t('crud.required', { label: t('sysPos.name') }) }],
      input: (
        <Input
          allowClear
          maxLength={64}
          placeholder={t('crud.inputPlaceholder', { label: t('sysPos.name') })}
          data-testid="pos-field-name"
        />
      ),
    },
    {
      name: 'code',
      label: t('sysPos.code'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysPos.code') }) },
        {
          validator: (_: unknown, value: unknown) =>
            !value || posAddInputSchema.shape.code.safeParse(value).success
              ? Promise.resolve()
              : Promise.reject(new Error(t('sysPos.codeRule'))),
        },
      ],
      input: (
        <Input
          allowClear
          maxLength={64}
          placeholder={t('crud.inputPlaceholder', { label: t('sysPos.code') })}
          data-testid="pos-field-code"
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('sysPos.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    {
      name: 'remark',
      label: t('sysPos.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];
  return (
    <Card title={t('sysPos.title')} data-testid="pos-page">
      <CrudPage<PosRow, PosFilters>
        resource={posResource}
        entityName={t('sysPos.entity')}
        columns={columns}
        searchFields={[
          { name: 'name', label: t('sysPos.name') },
          { name: 'code', label: t('sysPos.code') },
        ]}
        formFields={formFields}
        permissions={{
          add: 'sysPos:add',
          update: 'sysPos:update',
          delete: 'sysPos:delete',
          setStatus: 'sysPos:setStatus',
          export: 'sysPos:export',
        }}
        statusField="status"
        formDefaults={{ status: STATUS.enabled }}
        toPayload={(values) => ({ ...values, remark: (values.remark as string | undefined) || null })}
        defaultSort={BY_ORDER}
        exportFileName={t('sysPos.exportName')}
        testId="pos"
      />
    </Card>
  );
}
