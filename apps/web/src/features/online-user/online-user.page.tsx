import { DisconnectOutlined, SyncOutlined } from '@ant-design/icons';
import type { OnlineUser } from '@shuzhi/contracts/online-user';
import { REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Card, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn, CrudSearchField } from '../../components/crud-page/crud-types.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { useCan } from '../../platform/access/access.tsx';
import { resourceKeys } from '../../platform/data/resource.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { useRealtimeEvent } from '../../platform/realtime/realtime.ts';
import { type OnlineUserFilters, onlineUserApi, onlineUserResource } from './online-user.api.ts';

const TIME_TEXT = '2026-01-01 00:00:00';
/** Sign-ins often come in bursts (a team starting work): one refresh per burst. */
const REFRESH_DEBOUNCE_MS = 800;

/** Refreshes the list when the server says sessions of the tenant came, went or (dis)connected. */
function useLiveRefresh() {
  const client = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  useRealtimeEvent(REALTIME_EVENTS.onlineUsersChanged, () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      void client.invalidateQueries({ queryKey: resourceKeys.all(onlineUserResource.service) });
    }, REFRESH_DEBOUNCE_MS);
  });
}

function ForceOfflineButton({ row }: { row: OnlineUser }) {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const client = useQueryClient();
  const name = row.realName || row.account;
  const run = useReclickGuard(async () => {
    try {
      await onlineUserApi.forceOffline(row.id);
      message.success(t('sysOnlineUser.forceOfflineDone', { name }));
    } catch (error) {
      if (!(error instanceof UnauthorizedError))
        message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
    } finally {
      await client.invalidateQueries({ queryKey: resourceKeys.all(onlineUserResource.service) });
    }
  });
  const confirm = () =>
    modal.confirm({
      title: t('sysOnlineUser.forceOfflineTitle'),
      content: t('sysOnlineUser.forceOfflineConfirm', { name, ip: row.ip ?? '-' }),
      okText: t('sysOnlineUser.forceOffline'),
      okType: 'danger',
      okButtonProps: { danger: true, 'data-testid': 'online-user-force-ok' } as never,
      cancelText: t('common.cancel'),
      onOk: () => run(),
    });
  const button = (
    <Button
      type="link"
      size="small"
      danger
      icon={<DisconnectOutlined />}
      disabled={row.current}
      onClick={confirm}
      data-testid={`online-user-force-${row.account}`}
    >
      {t('sysOnlineUser.forceOffline')}
    </Button>
  );
  return row.current ? <Tooltip title={t('sysOnlineUser.current')}>{button}</Tooltip> : button;
}

export default function OnlineUserPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const canForce = can('sysOnlineUser:forceOffline');
  useLiveRefresh();

  const columns = useMemo<CrudColumn<OnlineUser>[]>(
    () => [
      {
        key: 'account',
        dataIndex: 'account',
        title: t('sysOnlineUser.account'),
        sort: true,
        render: (_, row) => (
          <Space size={6}>
            <span>{row.account}</span>
            {row.current ? <Tag color="blue">{t('sysOnlineUser.current')}</Tag> : null}
          </Space>
        ),
        widthText: (row) => `${row.account}${row.current ? t('sysOnlineUser.current') : ''}`,
      },
      { key: 'realName', dataIndex: 'realName', title: t('sysOnlineUser.realName'), sort: true },
      { key: 'orgName', dataIndex: 'orgName', title: t('sysOnlineUser.orgName'), ellipsis: true },
      { key: 'ip', dataIndex: 'ip', title: t('sysOnlineUser.ip'), sort: true },
      {
        key: 'client',
        title: t('sysOnlineUser.client'),
        render: (_, row) => [row.browser, row.os].filter(Boolean).join(' / ') || '-',
        widthText: (row) => [row.browser, row.os].filter(Boolean).join(' / '),
      },
      {
        key: 'online',
        dataIndex: 'online',
        title: t('sysOnlineUser.connection'),
        render: (_, row) => (
          <Badge
            status={row.online ? 'success' : 'default'}
            text={t(row.online ? 'sysOnlineUser.online' : 'sysOnlineUser.offline')}
          />
        ),
        widthText: () => t('sysOnlineUser.offline'),
      },
      {
        key: 'loginTime',
        dataIndex: 'loginTime',
        title: t('sysOnlineUser.loginTime'),
        sort: true,
        widthText: () => TIME_TEXT,
      },
      {
        key: 'lastActiveTime',
        dataIndex: 'lastActiveTime',
        title: t('sysOnlineUser.lastActiveTime'),
        sort: true,
        widthText: () => TIME_TEXT,
      },
    ],
    [t],
  );

  const searchFields: CrudSearchField[] = [
    { name: 'account', label: t('sysOnlineUser.account') },
    { name: 'realName', label: t('sysOnlineUser.realName') },
  ];

  return (
    <Card data-testid="online-user-page">
      <CrudPage<OnlineUser, OnlineUserFilters>
        resource={onlineUserResource}
        entityName={t('sysOnlineUser.entity')}
        title={
          <Space size={8}>
            <span>{t('sysOnlineUser.title')}</span>
            <Tooltip title={t('sysOnlineUser.live')}>
              <Typography.Text type="secondary">
                <SyncOutlined />
              </Typography.Text>
            </Tooltip>
          </Space>
        }
        columns={columns}
        searchFields={searchFields}
        permissions={{ export: 'sysOnlineUser:export' }}
        exportFileName={t('sysOnlineUser.title')}
        rowActions={canForce ? (row) => <ForceOfflineButton row={row} /> : undefined}
        extraActionWidth={canForce ? 96 : 0}
        testId="online-user"
      />
    </Card>
  );
}
