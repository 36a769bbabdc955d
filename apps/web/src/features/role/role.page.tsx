import { ApartmentOutlined, SafetyCertificateOutlined } from '@ant-design/icons';
import { STATUS } from '@shuzhi/contracts/envelope';
import { type ROLE_DATA_SCOPE, roleAddInputSchema, TENANT_ADMIN_ROLE_CODE } from '@shuzhi/contracts/role';
import { Button, Input, InputNumber, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudFormField } from '../../components/crud-page/crud-types.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { DataScopeModal } from './data-scope-modal.tsx';
import { GrantMenuDrawer } from './grant-menu-drawer.tsx';
import { type RoleFilters, type RoleRow, roleResource } from './role.api.ts';

const SCOPE_COLORS: Record<number, string> = { 1: 'red', 2: 'orange', 3: 'blue', 4: 'default', 5: 'purple' };
// The row's scope is a plain number on the wire; the server only stores 1–5 (dataScopeSchema).
const scopeKey = (scope: number) =>
  `sysRole.scope.${scope as (typeof ROLE_DATA_SCOPE)[keyof typeof ROLE_DATA_SCOPE]}` as const;
const BY_ORDER = { field: 'orderNo', order: 'ascending' } as const;

function codeRule(message: string) {
  return {
    validator: (_: unknown, value: unknown) =>
      !value || roleAddInputSchema.shape.code.safeParse(value).success
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  };
}

/** 角色管理 (issue 3 §1): roles of the tenant, their menus and buttons, and their data scope. */
export default function RolePage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const [menuRole, setMenuRole] = useState<RoleRow | null>(null);
  const [scopeRole, setScopeRole] = useState<RoleRow | null>(null);

  const columns: CrudColumn<RoleRow>[] = [
    { key: 'name', title: t('sysRole.name'), sort: true },
    { key: 'code', title: t('sysRole.code'), sort: true },
    {
      key: 'dataScope',
      title: t('sysRole.dataScope'),
      sort: true,
      widthText: (row) => t(scopeKey(row.dataScope)),
      render: (_: unknown, row: RoleRow) => (
        <Tag color={SCOPE_COLORS[row.dataScope]} data-testid="role-scope-tag">
          {t(scopeKey(row.dataScope))}
        </Tag>
      ),
    },
    { key: 'orderNo', title: t('sysRole.orderNo'), sort: true, align: 'right', width: 80 },
    {
      key: 'remark',
      title: t('sysRole.remark'),
      width: 200,
      // Long remarks must not push the status switch out of a 1366-pixel screen.
      render: (value: string | null) => (
        <Typography.Text ellipsis={{ tooltip: value }} style={{ maxWidth: 184 }}>
          {value}
        </Typography.Text>
      ),
    },
  ];

  const fields: CrudFormField<RoleRow>[] = [
    {
      name: 'name',
      label: t('sysRole.name'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysRole.name') }) },
      ],
      input: (
        <Input
          allowClear
          maxLength={64}
          placeholder={t('crud.inputPlaceholder', { label: t('sysRole.name') })}
          data-testid="role-field-name"
        />
      ),
    },
    {
      name: 'code',
      label: t('sysRole.code'),
      half: true,
      rules: [
        { required: true, whitespace: true, message: t('crud.required', { label: t('sysRole.code') }) },
        codeRule(t('sysRole.codeRule')),
      ],
      input: ({ mode, record }) => (
        <Input
          allowClear
          maxLength={64}
          disabled={mode === 'edit' && record?.code === TENANT_ADMIN_ROLE_CODE}
          placeholder={t('crud.inputPlaceholder', { label: t('sysRole.code') })}
          data-testid="role-field-code"
        />
      ),
    },
    {
      name: 'orderNo',
      label: t('sysRole.orderNo'),
      half: true,
      initialValue: 100,
      input: <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />,
    },
    {
      name: 'remark',
      label: t('sysRole.remark'),
      input: <Input.TextArea rows={2} maxLength={256} showCount />,
    },
  ];

  const grantMenu = can('sysRole:grantMenu');
  const grantScope = can('sysRole:grantDataScope');

  return (
    <div data-testid="role-page">
      <CrudPage<RoleRow, RoleFilters>
        resource={roleResource}
        entityName={t('sysRole.entity')}
        columns={columns}
        searchFields={[
          { name: 'name', label: t('sysRole.name'), width: 160 },
          { name: 'code', label: t('sysRole.code'), width: 160 },
        ]}
        formFields={fields}
        permissions={{
          add: 'sysRole:add',
          update: 'sysRole:update',
          delete: 'sysRole:delete',
          setStatus: 'sysRole:setStatus',
          export: 'sysRole:export',
        }}
        statusField="status"
        formDefaults={{ status: STATUS.enabled }}
        toPayload={(values, { mode, record }) => {
          // The status has its own switch; the tenant admin role keeps its code.
          const { status: _status, ...rest } = values;
          if (mode === 'edit' && record?.code === TENANT_ADMIN_ROLE_CODE) delete rest.code;
          return mode === 'add' ? { ...rest, status: STATUS.enabled } : rest;
        }}
        canDelete={(row) => row.code !== TENANT_ADMIN_ROLE_CODE}
        deleteBlockedText={t('sysRole.adminBlocked')}
        canSetStatus={(row) => row.code !== TENANT_ADMIN_ROLE_CODE}
        statusBlockedText={t('sysRole.adminStatusBlocked')}
        exportFileName={t('sysRole.title')}
        defaultSort={BY_ORDER}
        extraActionWidth={(grantMenu ? 96 : 0) + (grantScope ? 96 : 0)}
        rowActions={(row) => (
          <>
            <Auth value="sysRole:grantMenu">
              <Button
                type="link"
                size="small"
                icon={<SafetyCertificateOutlined />}
                onClick={() => setMenuRole(row)}
                data-testid="role-action-menu"
              >
                {t('sysRole.grantMenu')}
              </Button>
            </Auth>
            <Auth value="sysRole:grantDataScope">
              <Button
                type="link"
                size="small"
                icon={<ApartmentOutlined />}
                onClick={() => setScopeRole(row)}
                data-testid="role-action-scope"
              >
                {t('sysRole.grantScope')}
              </Button>
            </Auth>
          </>
        )}
        testId="role"
      />
      {/* Keyed by the role: each opening starts from the server's state, not from a cancelled edit. */}
      <GrantMenuDrawer key={`menu-${menuRole?.id ?? 0}`} role={menuRole} onClose={() => setMenuRole(null)} />
      <DataScopeModal
        key={`scope-${scopeRole?.id ?? 0}`}
        role={scopeRole}
        onClose={() => setScopeRole(null)}
      />
    </div>
  );
}
