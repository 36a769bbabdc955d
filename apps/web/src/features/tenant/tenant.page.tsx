import { KeyOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { tenantAddInputSchema } from '@shuzhi/contracts/tenant';
import { useMutation } from '@tanstack/react-query';
import { App, Button, Card, Input, InputNumber, Modal, Popconfirm, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { TenantGrantMenuDrawer } from './grant-menu-drawer.tsx';
import {
  type TenantFilters,
  type TenantResetPwdResult,
  type TenantRow,
  tenantApi,
  tenantResource,
} from './tenant.api.ts';

const BY_ORDER = { field: 'orderNo', order: 'ascending' } as const;

function schemaRule(schema: { safeParse(value: unknown): { success: boolean } }, message: string) {
  return {
    validator: (_: unknown, value: unknown) =>
      !value || schema.safeParse(value).success ? Promise.resolve() : Promise.reject(new Error(message)),
  };
}

/** 租户管理 (issue 3 §1): the platform operator's list of tenants, their menus and their admins. */
export default function TenantPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can } = useCan();
  // The super admin's own tenant is the default one: it cannot be disabled or deleted.
  const ownTenantId = useSessionStore((s) => s.userInfo?.tenantId ?? 0);
  const [menuTenant, setMenuTenant] = useState<TenantRow | null>(null);
  const [newPassword, setNewPassword] = useState<TenantResetPwdResult | null>(null);

  const reset = useMutation({
    mutationFn: tenantApi.resetPwd,
    onSuccess: (result) => {
      message.success(t('sysTenant.resetPwdDone'));
      setNewPassword(result);
    },
    onError: (error) => {
      if (error instanceof UnauthorizedError) return;
      message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
    },
  });

  const columns: CrudColumn<TenantRow>[] = [
    {
      key: 'name',
      title: t('sysTenant.name'),
      sort: true,
      render: (value: string, row: TenantRow) => (
        <>
          {value}
          {row.id === ownTenantId ? (
            <Tag color="blue" bordered={false} style={{ marginInlineStart: 8 }}>
              {t('sysTenant.defaultTenant')}
            </Tag>
          ) : null}
        </>
      ),
      widthText: (row) => `${row.name}${row.id === ownTenantId ? t('sysTenant.defaultTenant') : ''}`,
    },
    { key: 'code', title: t('sysTenant.code'), sort: true },
    { key: 'host', title: t('sysTenant.host'), render: (value: string | null) => value ?? '' },
    { key: 'orderNo', title: t('sysTenant.orderNo'), sort: true, align: 'right', width: 80 },
    { key: 'remark', title: t('sysTenant.remark'), width: 200, ellipsis: true },
    { key: 'createTime', title: t('sysTenant.createTime'), sort: true, width: 170 },
  ];

  const fields: CrudFormField<TenantRow>[] = [
    {
      name: 'name',
      label: t('sysTenant.name'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysTenant.name') }) },
      ],
      input: (
        <Input
          allowClear
          maxLength={64}
          placeholder={t('crud.inputPlaceholder', { label: t('sysTenant.name') })}
          data-testid="tenant-field-name"
        />
      ),
    },
    {
      name: 'code',
      label: t('sysTenant.code'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysTenant.code') }) },
        schemaRule(tenantAddInputSchema.shape.code, t('sysTenant.codeRule')),
      ],
      // The default tenant keeps its code: the system finds it by it.
      input: ({ mode, record }) => (
        <Input
          allowClear
          maxLength={64}
          disabled={mode === 'edit' && record?.id === ownTenantId}
          placeholder={t('crud.inputPlaceholder', { label: t('sysTenant.code') })}
          data-testid="tenant-field-code"
        />
      ),
    },
    {
      name: 'adminAccount',
      label: t('sysTenant.adminAccount'),
      extra: t('sysTenant.adminAccountHint'),
      hidden: ({ mode }) => mode === 'edit',
      rules: [
        {
          required: true,
          whitespace: true,
          message: t('crud.required', { label: t('sysTenant.adminAccount') }),
        },
        schemaRule(tenantAddInputSchema.shape.adminAccount, t('sysTenant.adminAccountRule')),
      ],
      input: (
        <Input
          allowClear
          maxLength={32}
          autoComplete="off"
          placeholder={t('crud.inputPlaceholder', { label: t('sysTenant.adminAccount') })}
          data-testid="tenant-field-admin-account"
        />
      ),
    },
    {
      name: 'host',
      label: t('sysTenant.host'),
      half: true,
      input: (
        <Input
          allowClear
          maxLength={128}
          placeholder={t('crud.inputPlaceholder', { label: t('sysTenant.host') })}
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('sysTenant.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    {
      name: 'remark',
      label: t('sysTenant.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];

  const grantMenu = can('sysTenant:grantMenu');
  const resetPwd = can('sysTenant:resetPwd');

  return (
    <Card data-testid="tenant-page">
      <CrudPage<TenantRow, TenantFilters>
        resource={tenantResource}
        entityName={t('sysTenant.entity')}
        title={t('sysTenant.title')}
        columns={columns}
        searchFields={[
          { name: 'name', label: t('sysTenant.name'), width: 160 },
          { name: 'code', label: t('sysTenant.code'), width: 160 },
        ]}
        formFields={fields}
        permissions={{
          add: 'sysTenant:add',
          update: 'sysTenant:update',
          delete: 'sysTenant:delete',
          setStatus: 'sysTenant:setStatus',
          export: 'sysTenant:export',
        }}
        statusField="status"
        toPayload={(values, { mode }) => {
          const { status: _status, adminAccount, ...rest } = values;
          const host = typeof rest.host === 'string' && rest.host.trim() === '' ? null : (rest.host ?? null);
          return (mode === 'add' ? { ...rest, host, adminAccount } : { ...rest, host }) as Partial<TenantRow>;
        }}
        canDelete={(row) => row.id !== ownTenantId}
        deleteBlockedText={t('sysTenant.defaultBlocked')}
        exportFileName={t('sysTenant.title')}
        defaultSort={BY_ORDER}
        extraActionWidth={(grantMenu ? 96 : 0) + (resetPwd ? 96 : 0)}
        testId="tenant"
        rowActions={(row) => (
          <>
            <Auth value="sysTenant:grantMenu">
              <Button
                type="link"
                size="small"
                icon={<SafetyCertificateOutlined />}
                onClick={() => setMenuTenant(row)}
                data-testid="tenant-action-menu"
              >
                {t('sysTenant.grantMenu')}
              </Button>
            </Auth>
            <Auth value="sysTenant:resetPwd">
              <Popconfirm
                title={t('sysTenant.resetPwd')}
                description={t('sysTenant.resetPwdConfirm', { name: row.name })}
                okText={t('common.ok')}
                cancelText={t('common.cancel')}
                okButtonProps={{ 'data-testid': 'tenant-reset-pwd-ok' }}
                onConfirm={() => reset.mutate(row.id)}
              >
                <Button
                  type="link"
                  size="small"
                  icon={<KeyOutlined />}
                  loading={reset.isPending && reset.variables === row.id}
                  data-testid="tenant-action-reset-pwd"
                >
                  {t('sysTenant.resetPwd')}
                </Button>
              </Popconfirm>
            </Auth>
          </>
        )}
      />
      <TenantGrantMenuDrawer tenant={menuTenant} onClose={() => setMenuTenant(null)} />
      <Modal
        open={newPassword !== null}
        title={t('sysTenant.resetPwdDone')}
        onCancel={() => setNewPassword(null)}
        footer={
          <Button type="primary" onClick={() => setNewPassword(null)} data-testid="tenant-password-close">
            {t('common.ok')}
          </Button>
        }
        destroyOnHidden
        data-testid="tenant-password-modal"
      >
        {newPassword ? (
          <>
            <Typography.Paragraph>
              {t('sysTenant.resetPwdResult', { account: newPassword.account })}
            </Typography.Paragraph>
            <Typography.Paragraph
              copyable={{
                text: newPassword.password,
                tooltips: [t('sysTenant.copy'), t('sysTenant.copied')],
              }}
              code
              style={{ fontSize: 16 }}
              data-testid="tenant-new-password"
            >
              {newPassword.password}
            </Typography.Paragraph>
          </>
        ) : null}
      </Modal>
    </Card>
  );
}
