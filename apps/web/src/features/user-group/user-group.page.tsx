import { TeamOutlined } from '@ant-design/icons';
import { STATUS } from '@shuzhi/contracts/envelope';
import { userGroupAddInputSchema } from '@shuzhi/contracts/user-group';
import { Button, Card, Input, InputNumber } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { Auth } from '../../platform/access/access.tsx';
import { MembersModal } from './members-modal.tsx';
import { type UserGroupFilters, type UserGroupRow, userGroupResource } from './user-group.api.ts';

const BY_ORDER = { field: 'orderNo', order: 'ascending' } as const;

/** 用户组管理 (issue 3 §1): named sets of users, with their members. */
export default function UserGroupPage() {
  const { t } = useTranslation();
  const [membersOf, setMembersOf] = useState<UserGroupRow | null>(null);
  const columns: CrudColumn<UserGroupRow>[] = [
    { key: 'name', title: t('sysUserGroup.name'), sort: true },
    { key: 'code', title: t('sysUserGroup.code'), sort: true },
    { key: 'orderNo', title: t('sysUserGroup.orderNo'), sort: true, align: 'right', width: 90 },
    { key: 'remark', title: t('sysUserGroup.remark'), width: 220 },
    {
      key: 'createTime',
      title: t('sysUserGroup.createTime'),
      sort: true,
      widthText: () => '2026-01-01 00:00:00',
    },
  ];
  const text = (name: 'name' | 'code', extra: object = {}) => ({
    name,
    label: t(`sysUserGroup.${name}`),
    half: true,
    ...extra,
  });
  const formFields: CrudFormField<UserGroupRow>[] = [
    {
      ...text('name'),
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysUserGroup.name') }) },
      ],
      input: (
        <Input
          allowClear
          maxLength={64}
          placeholder={t('crud.inputPlaceholder', { label: t('sysUserGroup.name') })}
          data-testid="group-field-name"
        />
      ),
    },
    {
      ...text('code'),
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysUserGroup.code') }) },
        {
          validator: (_: unknown, value: unknown) =>
            !value || userGroupAddInputSchema.shape.code.safeParse(value).success
              ? Promise.resolve()
              : Promise.reject(new Error(t('sysUserGroup.codeRule'))),
        },
      ],
      input: (
        <Input
          allowClear
          maxLength={64}
          placeholder={t('crud.inputPlaceholder', { label: t('sysUserGroup.code') })}
          data-testid="group-field-code"
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('sysUserGroup.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    {
      name: 'remark',
      label: t('sysUserGroup.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];
  return (
    <Card title={t('sysUserGroup.title')} data-testid="user-group-page">
      <CrudPage<UserGroupRow, UserGroupFilters>
        resource={userGroupResource}
        entityName={t('sysUserGroup.entity')}
        columns={columns}
        searchFields={[
          { name: 'name', label: t('sysUserGroup.name') },
          { name: 'code', label: t('sysUserGroup.code') },
        ]}
        formFields={formFields}
        permissions={{
          add: 'sysUserGroup:add',
          update: 'sysUserGroup:update',
          delete: 'sysUserGroup:delete',
          setStatus: 'sysUserGroup:setStatus',
          export: 'sysUserGroup:export',
        }}
        statusField="status"
        formDefaults={{ status: STATUS.enabled }}
        toPayload={(values) => ({ ...values, remark: (values.remark as string | undefined) || null })}
        rowActions={(row) => (
          <Auth value="sysUserGroup:detail">
            <Button
              type="link"
              size="small"
              icon={<TeamOutlined />}
              onClick={() => setMembersOf(row)}
              data-testid="group-members"
            >
              {t('sysUserGroup.members')}
            </Button>
          </Auth>
        )}
        extraActionWidth={80}
        defaultSort={BY_ORDER}
        exportFileName={t('sysUserGroup.exportName')}
        testId="user-group"
      />
      <MembersModal group={membersOf} onClose={() => setMembersOf(null)} />
    </Card>
  );
}
