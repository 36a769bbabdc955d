import { PlusOutlined, PrinterOutlined } from '@ant-design/icons';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Input, Popconfirm, Space, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import { useCan } from '../../platform/access/access.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { CreateLinkModal, printSheet, QrModal, UsesDrawer } from './link-dialogs.tsx';
import { NO_LOGIN_KEYS, type NoLoginLink, noLoginLinkApi } from './no-login.api.ts';

const STATE_COLORS = { active: 'green', expired: 'default', revoked: 'red', usedUp: 'orange' } as const;

/** The table's columns; the row actions call back into the page. */
function linkColumns(
  t: TFunction,
  actions: {
    showQr(link: NoLoginLink): void;
    showUses(link: NoLoginLink): void;
    revoke: ((id: number) => void) | null;
  },
): ColumnsType<NoLoginLink> {
  return [
    { key: 'title', title: t('noLogin.colTitle'), width: 180, render: (_, l) => l.title },
    { key: 'form', title: t('noLogin.colForm'), width: 180, render: (_, l) => l.tableTitle ?? l.tableId },
    {
      key: 'kind',
      title: t('noLogin.colKind'),
      width: 140,
      render: (_, l) => t(`noLogin.kind.${l.qrType}${l.mode}` as 'noLogin.kind.formfillMany'),
    },
    {
      key: 'state',
      title: t('noLogin.colState'),
      width: 90,
      render: (_, l) => (
        <Tag color={STATE_COLORS[l.state]} data-testid="nologin-state">
          {t(`noLogin.state.${l.state}`)}
        </Tag>
      ),
    },
    {
      key: 'uses',
      title: t('noLogin.colUses'),
      width: 100,
      render: (_, l) => `${l.useCount} / ${l.maxUses ?? t('noLogin.unlimited')}`,
    },
    { key: 'expire', title: t('noLogin.colExpire'), width: 150, render: (_, l) => l.expireTime.slice(0, 16) },
    { key: 'creator', title: t('noLogin.colCreator'), width: 110, render: (_, l) => l.createUserName ?? '' },
    {
      key: 'actions',
      title: t('noLogin.colActions'),
      width: 220,
      fixed: 'right',
      render: (_, l) => (
        <Space size={4} wrap>
          <Button type="link" size="small" onClick={() => actions.showQr(l)} data-testid="nologin-show-qr">
            {t('noLogin.qr')}
          </Button>
          <Button
            type="link"
            size="small"
            onClick={() => actions.showUses(l)}
            data-testid="nologin-show-uses"
          >
            {t('noLogin.uses')}
          </Button>
          {actions.revoke && l.state !== 'revoked' ? (
            <Popconfirm title={t('noLogin.revokeAsk')} onConfirm={() => actions.revoke?.(l.id)}>
              <Button type="link" size="small" danger data-testid="nologin-revoke">
                {t('noLogin.revoke')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];
}

/**
 * 扫码填报链接 (issue 22 §1, docs/no-login.md): staff publish login-free links and QR codes of forms, print a
 * sheet of many, look at every use, and revoke a link at once.
 */
export default function NoLoginLinksPage() {
  const { t } = useTranslation();
  const { can } = useCan();
  const client = useQueryClient();
  const [title, setTitle] = useState('');
  const [creating, setCreating] = useState(false);
  const [qr, setQr] = useState<NoLoginLink | null>(null);
  const [uses, setUses] = useState<NoLoginLink | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const { paging, setPaging, onTableChange } = useTablePaging<NoLoginLink>();
  const params = useMemo(
    () => ({ page: paging.page, pageSize: paging.pageSize, ...(title ? { title } : {}) }),
    [paging, title],
  );
  const query = useQuery({
    queryKey: NO_LOGIN_KEYS.page(params),
    queryFn: () => noLoginLinkApi.page(params),
    placeholderData: keepPreviousData,
  });
  const refresh = () => client.invalidateQueries({ queryKey: NO_LOGIN_KEYS.all });
  const revoke = useMutation({
    mutationFn: (id: number) => noLoginLinkApi.revoke(id),
    onSuccess: () => {
      feedback.success(t('noLogin.revoked'));
      void refresh();
    },
    onError: (error) => feedback.error(error.message),
  });
  const print = async (ids: number[]) => {
    try {
      const items = await noLoginLinkApi.sheet(ids);
      printSheet(items, t('noLogin.sheetTitle'), (time) => t('noLogin.sheetValid', { time }));
    } catch (error) {
      feedback.error((error as Error).message);
    }
  };

  const columns = linkColumns(t, {
    showQr: setQr,
    showUses: setUses,
    revoke: can('sysNoLoginLink:revoke') ? (id) => revoke.mutate(id) : null,
  });

  return (
    <Card
      title={t('noLogin.title')}
      extra={
        <Space>
          <Button
            icon={<PrinterOutlined />}
            disabled={selected.length === 0}
            onClick={() => void print(selected)}
            data-testid="nologin-print"
          >
            {selected.length ? t('noLogin.printSelected', { count: selected.length }) : t('noLogin.print')}
          </Button>
          {can('sysNoLoginLink:add') ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setCreating(true)}
              data-testid="nologin-create"
            >
              {t('noLogin.create')}
            </Button>
          ) : null}
        </Space>
      }
    >
      <Input.Search
        allowClear
        placeholder={t('noLogin.keyword')}
        enterButton={t('noLogin.search')}
        onSearch={(value) => {
          setTitle(value.trim());
          setPaging((p) => ({ ...p, page: 1 }));
        }}
        style={{ width: 280, marginBottom: 12 }}
      />
      {query.isError ? <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} /> : null}
      <Table<NoLoginLink>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={query.data?.items ?? []}
        loading={query.isFetching}
        scroll={{ x: 1100 }}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        onChange={onTableChange}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
        data-testid="nologin-table"
      />
      <CreateLinkModal
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(link) => {
          setCreating(false);
          void refresh();
          setQr(link);
        }}
      />
      <QrModal link={qr} onClose={() => setQr(null)} />
      <UsesDrawer link={uses} onClose={() => setUses(null)} />
    </Card>
  );
}
