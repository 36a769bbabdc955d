import {
  DownOutlined,
  EditOutlined,
  KeyOutlined,
  PlusOutlined,
  SafetyCertificateOutlined,
  UnlockOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { OrgNode } from '@shuzhi/contracts/org';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Col,
  Dropdown,
  Row,
  Select,
  Space,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { OrgTree } from '../../components/org-tree/org-tree.tsx';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { resourceKeys } from '../../platform/data/resource.ts';
import { accountTypeKey } from '../../platform/session/account-type.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { type UserFilters, type UserPageItem, userApi, userResource } from './user.api.ts';
import { GrantRoleModal, NewPasswordModal } from './user-dialogs.tsx';
import { isAdminAccount, isLocked } from './user-form.ts';
import { UserFormDrawer, type UserFormDrawerProps } from './user-form-drawer.tsx';
import { UserImportModal } from './user-import.tsx';

const TYPE_COLORS: Record<number, string> = { 999: 'red', 888: 'volcano', 777: 'blue', 666: 'green' };

/** 账号管理 (issue 3 §1): the org tree on the left filters the users on the right (the org and below). */
export default function UserPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { can } = useCan();
  const queryClient = useQueryClient();
  const me = useSessionStore((state) => state.userInfo);
  const [org, setOrg] = useState<OrgNode | null>(null);
  const [form, setForm] = useState<UserFormDrawerProps['target']>(null);
  const [password, setPassword] = useState<{ name: string; password: string } | null>(null);
  const [granting, setGranting] = useState<UserPageItem | null>(null);
  const [importing, setImporting] = useState(false);

  const superAdmin = me?.accountType === ACCOUNT_TYPE.superAdmin;
  // Admin accounts are the super admin's alone to change (the server answers D1005 otherwise).
  const mayChange = (row: UserPageItem) => superAdmin || !isAdminAccount(row);
  const refresh = () => queryClient.invalidateQueries({ queryKey: resourceKeys.all('sysUser') });

  const resetPwd = async (row: UserPageItem) => {
    try {
      const next = await userApi.resetPwd(row.id);
      setPassword({ name: row.realName, password: next });
      await refresh();
    } catch {
      // Shown by the HTTP client.
    }
  };
  const unlock = async (row: UserPageItem) => {
    try {
      await userApi.unlockLogin(row.id);
      message.success(t('sysUser.unlocked'));
      await refresh();
    } catch {
      // Shown by the HTTP client.
    }
  };

  const columns: CrudColumn<UserPageItem>[] = [
    {
      key: 'account',
      title: t('sysUser.account'),
      sort: true,
      width: 190,
      render: (_: unknown, row: UserPageItem) => (
        <Space size={4}>
          <Typography.Text>{row.account}</Typography.Text>
          {isLocked(row) ? (
            <Tag color="red" data-testid="user-locked">
              {t('sysUser.locked')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    { key: 'realName', title: t('sysUser.realName'), sort: true, width: 110 },
    { key: 'orgName', title: t('sysUser.org'), width: 180 },
    { key: 'posName', title: t('sysUser.pos'), width: 120 },
    {
      key: 'accountType',
      title: t('sysUser.accountType'),
      sort: true,
      width: 110,
      render: (value: number) => <Tag color={TYPE_COLORS[value]}>{t(accountTypeKey(value))}</Tag>,
    },
    { key: 'phone', title: t('sysUser.phone'), sort: true, width: 130 },
    { key: 'lastLoginTime', title: t('sysUser.lastLoginTime'), sort: true, width: 170 },
    { key: 'orderNo', title: t('sysUser.orderNo'), sort: true, align: 'right', width: 80 },
  ];

  const rowActions = (row: UserPageItem) => {
    if (!mayChange(row)) {
      return (
        <Tooltip title={t('sysUser.adminOnly')}>
          <Typography.Text type="secondary" style={{ padding: '0 8px' }}>
            —
          </Typography.Text>
        </Tooltip>
      );
    }
    // Less frequent actions sit in a menu, so the row keeps its columns in view at 1366 px.
    const more = [
      can('sysUser:resetPwd')
        ? {
            key: 'reset',
            icon: <KeyOutlined />,
            label: <span data-testid="user-reset">{t('sysUser.resetPwd')}</span>,
            onClick: () =>
              modal.confirm({
                title: t('sysUser.resetPwd'),
                content: t('sysUser.resetPwdConfirm', { name: row.realName }),
                okText: t('common.ok'),
                cancelText: t('common.cancel'),
                okButtonProps: { 'data-testid': 'user-reset-ok' } as ButtonProps,
                onOk: () => resetPwd(row),
              }),
          }
        : null,
      can('sysUser:grantRole')
        ? {
            key: 'grant',
            icon: <SafetyCertificateOutlined />,
            label: <span data-testid="user-grant">{t('sysUser.grantRole')}</span>,
            onClick: () => setGranting(row),
          }
        : null,
      isLocked(row) && can('sysUser:unlockLogin')
        ? {
            key: 'unlock',
            icon: <UnlockOutlined />,
            label: <span data-testid="user-unlock">{t('sysUser.unlock')}</span>,
            onClick: () =>
              modal.confirm({
                title: t('sysUser.unlock'),
                content: t('sysUser.unlockConfirm', { name: row.realName }),
                okText: t('common.ok'),
                cancelText: t('common.cancel'),
                onOk: () => unlock(row),
              }),
          }
        : null,
    ].filter((item) => item !== null);
    return (
      <>
        <Auth value="sysUser:update">
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            onClick={() => setForm({ mode: 'edit', user: row })}
            data-testid="user-edit"
          >
            {t('crud.edit')}
          </Button>
        </Auth>
        {more.length > 0 ? (
          <Dropdown menu={{ items: more }} trigger={['click']}>
            <Button type="link" size="small" data-testid="user-more">
              {t('sysUser.more')} <DownOutlined />
            </Button>
          </Dropdown>
        ) : null}
      </>
    );
  };

  const hasMore = can('sysUser:resetPwd') || can('sysUser:grantRole') || can('sysUser:unlockLogin');
  const actionWidth = (can('sysUser:update') ? 72 : 0) + (hasMore ? 80 : 0);

  const fixedFilters = useMemo<Partial<UserFilters>>(() => (org ? { orgId: org.id } : {}), [org]);

  return (
    <Row gutter={[16, 16]} wrap={false} data-testid="user-page">
      <Col flex="280px" style={{ minWidth: 0 }}>
        <Card
          title={t('sysUser.orgTree')}
          size="small"
          style={{ height: '100%' }}
          styles={{ body: { padding: 12 } }}
        >
          <OrgTree selectedId={org?.id ?? null} onSelect={setOrg} height={560} />
        </Card>
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <Card size="small" styles={{ body: { padding: 16 } }}>
          <CrudPage<UserPageItem, UserFilters>
            resource={userResource}
            entityName={t('sysUser.entity')}
            title={
              <Space size={8}>
                <span>{t('sysUser.title')}</span>
                <Typography.Text type="secondary" data-testid="user-org">
                  {org ? org.name : t('sysUser.allOrgs')}
                </Typography.Text>
              </Space>
            }
            columns={columns}
            searchFields={[
              {
                name: 'keyword',
                label: t('sysUser.keyword'),
                width: 200,
              },
              {
                name: 'status',
                label: t('crud.status'),
                input: (
                  <Select
                    allowClear
                    style={{ width: 110 }}
                    placeholder={t('crud.selectPlaceholder', { label: t('crud.status') })}
                    options={[
                      { value: 1, label: t('crud.enabled') },
                      { value: 2, label: t('crud.disabled') },
                    ]}
                    data-testid="user-search-status"
                  />
                ),
              },
              {
                name: 'accountType',
                label: t('sysUser.accountType'),
                input: (
                  <Select
                    allowClear
                    style={{ width: 130 }}
                    placeholder={t('crud.selectPlaceholder', { label: t('sysUser.accountType') })}
                    options={[777, 666, 888].map((value) => ({ value, label: t(accountTypeKey(value)) }))}
                  />
                ),
              },
            ]}
            permissions={{
              delete: 'sysUser:delete',
              setStatus: 'sysUser:setStatus',
              export: 'sysUser:export',
            }}
            statusField="status"
            fixedFilters={fixedFilters}
            canDelete={(row) => row.id !== me?.id && mayChange(row)}
            deleteBlockedText={t('sysUser.adminOnly')}
            canSetStatus={(row) => row.id !== me?.id && mayChange(row)}
            statusBlockedText={(row) =>
              t(row.id === me?.id ? 'sysUser.selfStatusBlocked' : 'sysUser.adminOnly')
            }
            exportFileName={t('sysUser.exportName')}
            extraActionWidth={actionWidth}
            rowActions={rowActions}
            toolbarExtra={
              <>
                <Auth value="sysUser:import">
                  <Button
                    icon={<UploadOutlined />}
                    onClick={() => setImporting(true)}
                    data-testid="user-import"
                  >
                    {t('sysUser.import')}
                  </Button>
                </Auth>
                <Auth value="sysUser:add">
                  <Button
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={() => setForm({ mode: 'add', orgId: org?.id ?? null })}
                    data-testid="user-add"
                  >
                    {t('crud.add')}
                  </Button>
                </Auth>
              </>
            }
            testId="user"
          />
        </Card>
      </Col>
      <UserFormDrawer target={form} onClose={() => setForm(null)} />
      <NewPasswordModal shown={password} onClose={() => setPassword(null)} />
      <GrantRoleModal user={granting} onClose={() => setGranting(null)} />
      <UserImportModal open={importing} onClose={() => setImporting(false)} />
    </Row>
  );
}
