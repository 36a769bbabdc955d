import { DeleteOutlined, ExclamationCircleOutlined, UndoOutlined } from '@ant-design/icons';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Card,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType, TablePaginationConfig } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { SearchForm, SelectionToolbar } from '../../components/crud-page/search-form.tsx';
import { tablePagination } from '../../components/crud-page/table-paging.ts';
import { useOpPasswordPrompt } from '../../components/op-password/use-op-password-prompt.tsx';
import { selectionTitle } from '../../components/selection-title.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { useCan } from '../../platform/access/access.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import {
  RECYCLE_KEYS,
  type RecycleItem,
  type RecycleKind,
  type RecyclePageInput,
  recycleApi,
  recycleKey,
  toTarget,
} from './diy-recycle.api.ts';

type Filters = { tableId?: number; keyword?: string };

const TIME_WIDTH = 170;

/** How an item is named in the confirmations: a form by its title, a record with its form. */
const itemName = (item: RecycleItem): string =>
  item.kind === 'form' ? item.title : `${item.title} · ${item.summary || `#${item.id}`}`;

/** Row selection kept across pages; the select-all checkbox as selectionTitle draws it. */
const SELECTION = { columnTitle: selectionTitle, preserveSelectedRowKeys: true } as const;

/**
 * 回收站 (issue 5 §6): deleted records and forms. Restoring asks for a confirmation; deleting for good
 * explains that it cannot be undone and then asks for the operation password.
 */
export default function DiyRecyclePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { can } = useCan();
  const client = useQueryClient();
  const [searchForm] = Form.useForm<Filters>();
  const [askOpPassword, opPasswordDialog] = useOpPasswordPrompt();

  const [kind, setKind] = useState<RecycleKind | ''>('');
  const [filters, setFilters] = useState<Filters>({});
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [selected, setSelected] = useState<RecycleItem[]>([]);
  const [busy, setBusy] = useState<'restore' | 'purge' | null>(null);

  const mayRestore = can('diyRecycle:restore');
  const mayPurge = can('diyRecycle:purge');

  const body = useMemo<RecyclePageInput>(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      kind,
      ...filters,
    }),
    [paging, kind, filters],
  );
  const query = useQuery({ queryKey: RECYCLE_KEYS.page(body), queryFn: () => recycleApi.page(body) });
  const forms = useQuery({ queryKey: RECYCLE_KEYS.forms, queryFn: recycleApi.forms, staleTime: 60_000 });
  const rows = query.data?.items ?? [];
  const filtered = kind !== '' || filters.tableId !== undefined || Boolean(filters.keyword);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const restart = () => {
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };
  const search = (values: Filters) => {
    setFilters({
      ...(values.tableId ? { tableId: values.tableId } : {}),
      ...(values.keyword?.trim() ? { keyword: values.keyword.trim() } : {}),
    });
    restart();
  };
  const done = (items: RecycleItem[]) => {
    const keys = new Set(items.map(recycleKey));
    setSelected((current) => current.filter((item) => !keys.has(recycleKey(item))));
    void client.invalidateQueries({ queryKey: RECYCLE_KEYS.all });
  };

  // Confirmed in a pop-up that closes on OK, and held by `busy` while it runs: no time guard, which would
  // silently drop the restore of a second row confirmed within 500 ms of the first.
  const restore = async (items: RecycleItem[]) => {
    if (items.length === 0 || busy) return;
    setBusy('restore');
    try {
      await recycleApi.restore(items.map(toTarget));
      message.success(t('diyRecycle.restored', { count: items.length }));
      done(items);
    } catch (error) {
      showError(error);
      void client.invalidateQueries({ queryKey: RECYCLE_KEYS.all });
    } finally {
      setBusy(null);
    }
  };

  const purgeNow = async (items: RecycleItem[]) => {
    const cipher = await askOpPassword();
    if (!cipher) return;
    setBusy('purge');
    try {
      await recycleApi.purge(items.map(toTarget), cipher);
      message.success(t('diyRecycle.purged', { count: items.length }));
      done(items);
    } catch (error) {
      showError(error);
      void client.invalidateQueries({ queryKey: RECYCLE_KEYS.all });
    } finally {
      setBusy(null);
    }
  };

  /** Explains that it cannot be undone, then (on OK) asks for the operation password. */
  const purge = useReclickGuard((items: RecycleItem[]) => {
    if (items.length === 0 || busy) return;
    const [first] = items;
    const hasForm = items.some((item) => item.kind === 'form');
    modal.confirm({
      title: t('diyRecycle.purgeConfirmTitle'),
      icon: <ExclamationCircleOutlined />,
      content: (
        <div data-testid="recycle-purge-warning">
          <Typography.Paragraph style={{ marginBottom: hasForm ? 8 : 0 }}>
            {items.length === 1 && first
              ? t('diyRecycle.purgeConfirm', { title: itemName(first) })
              : t('diyRecycle.batchPurgeConfirm', { count: items.length })}
          </Typography.Paragraph>
          {hasForm ? <Alert type="warning" showIcon title={t('diyRecycle.purgeFormWarning')} /> : null}
        </div>
      ),
      okText: t('diyRecycle.purgeNext'),
      okButtonProps: { danger: true, 'data-testid': 'recycle-purge-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      onOk: () => {
        void purgeNow(items);
      },
    });
  });

  /** The bin lists newest deletions first; only paging changes the request. */
  const onTableChange = (pagination: TablePaginationConfig) => {
    const pageSize = pagination.pageSize ?? paging.pageSize;
    setPaging({ page: pageSize !== paging.pageSize ? 1 : (pagination.current ?? 1), pageSize });
  };

  const kindLabel = (value: RecycleKind) =>
    value === 'form' ? t('diyRecycle.typeForm') : t('diyRecycle.typeRecord');

  const columns: ColumnsType<RecycleItem> = [
    {
      key: 'kind',
      dataIndex: 'kind',
      title: t('diyRecycle.kind'),
      width: 90,
      render: (value: RecycleKind) => (
        <Tag color={value === 'form' ? 'purple' : 'blue'} data-testid="recycle-kind">
          {kindLabel(value)}
        </Tag>
      ),
    },
    {
      key: 'title',
      dataIndex: 'title',
      title: t('diyRecycle.form'),
      width: 220,
      ellipsis: { showTitle: true },
    },
    {
      key: 'summary',
      dataIndex: 'summary',
      title: t('diyRecycle.summary'),
      ellipsis: { showTitle: true },
      render: (value: string | null) => value || '—',
    },
    {
      key: 'deleteUserName',
      dataIndex: 'deleteUserName',
      title: t('diyRecycle.deleteUser'),
      width: 120,
      ellipsis: true,
      render: (value: string | null) => value ?? '—',
    },
    {
      key: 'deleteTime',
      dataIndex: 'deleteTime',
      title: t('diyRecycle.deleteTime'),
      width: TIME_WIDTH,
    },
  ];
  if (mayRestore || mayPurge) {
    columns.push({
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: (mayRestore ? 90 : 0) + (mayPurge ? 140 : 0) + 16,
      render: (_: unknown, row) => (
        <Space size={0}>
          {mayRestore ? (
            <Popconfirm
              title={t('diyRecycle.restoreConfirmTitle')}
              description={
                <div style={{ maxWidth: 320 }}>
                  {t('diyRecycle.restoreConfirm', { title: itemName(row) })}
                  {row.kind === 'form' ? (
                    <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
                      {t('diyRecycle.restoreFormHint')}
                    </Typography.Paragraph>
                  ) : null}
                </div>
              }
              okText={t('diyRecycle.restore')}
              cancelText={t('common.cancel')}
              okButtonProps={{ 'data-testid': 'recycle-restore-ok' } as ButtonProps}
              onConfirm={() => restore([row])}
            >
              <Button
                type="link"
                size="small"
                icon={<UndoOutlined />}
                disabled={busy !== null}
                data-testid="recycle-restore"
              >
                {t('diyRecycle.restore')}
              </Button>
            </Popconfirm>
          ) : null}
          {mayPurge ? (
            <Button
              type="link"
              size="small"
              danger
              icon={<DeleteOutlined />}
              disabled={busy !== null}
              onClick={() => purge([row])}
              data-testid="recycle-purge"
            >
              {t('diyRecycle.purge')}
            </Button>
          ) : null}
        </Space>
      ),
    });
  }

  const selectedKeys = selected.map(recycleKey);

  return (
    <Card title={t('diyRecycle.title')} data-testid="recycle-page">
      <Tabs
        activeKey={kind || 'all'}
        onChange={(key) => {
          setKind(key === 'all' ? '' : (key as RecycleKind));
          restart();
        }}
        items={[
          { key: 'all', label: t('diyRecycle.kindAll') },
          { key: 'record', label: t('diyRecycle.kindRecord') },
          { key: 'form', label: t('diyRecycle.kindForm') },
        ]}
        data-testid="recycle-kind-tabs"
      />
      <SearchForm form={searchForm} onSearch={search} testId="recycle-search" actionsTestId="recycle">
        <Form.Item name="tableId" label={t('diyRecycle.form')} style={{ marginInlineEnd: 16 }}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('diyRecycle.formPlaceholder')}
            options={forms.data ?? []}
            loading={forms.isLoading}
            style={{ width: 220 }}
            data-testid="recycle-search-form"
          />
        </Form.Item>
        <Form.Item name="keyword" label={t('diyRecycle.keyword')} style={{ marginInlineEnd: 16 }}>
          <Input
            allowClear
            placeholder={t('diyRecycle.keywordPlaceholder')}
            style={{ width: 220 }}
            data-testid="recycle-search-keyword"
          />
        </Form.Item>
      </SearchForm>
      <SelectionToolbar testId="recycle" selected={selected.length} onRefresh={() => void query.refetch()}>
        {mayRestore ? (
          <Popconfirm
            title={t('diyRecycle.restoreConfirmTitle')}
            description={t('diyRecycle.batchRestoreConfirm', { count: selected.length })}
            okText={t('diyRecycle.restore')}
            cancelText={t('common.cancel')}
            okButtonProps={{ 'data-testid': 'recycle-batch-restore-ok' } as ButtonProps}
            onConfirm={() => restore(selected)}
            disabled={selected.length === 0}
          >
            <Button
              icon={<UndoOutlined />}
              disabled={selected.length === 0 || busy !== null}
              loading={busy === 'restore'}
              data-testid="recycle-batch-restore"
            >
              {t('diyRecycle.batchRestore')}
            </Button>
          </Popconfirm>
        ) : null}
        {mayPurge ? (
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={selected.length === 0 || busy !== null}
            loading={busy === 'purge'}
            onClick={() => purge(selected)}
            data-testid="recycle-batch-purge"
          >
            {t('diyRecycle.batchPurge')}
          </Button>
        ) : null}
      </SelectionToolbar>
      {query.isError ? (
        <LoadFailedAlert
          title={t('diyRecycle.loadFailed')}
          error={query.error}
          onRetry={() => void query.refetch()}
          testId="recycle-error"
        />
      ) : null}
      <Table<RecycleItem>
        rowKey={recycleKey}
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        onChange={onTableChange}
        scroll={{ x: 900 }}
        rowSelection={
          mayRestore || mayPurge
            ? {
                ...SELECTION,
                selectedRowKeys: selectedKeys,
                onChange: (_keys, items) => setSelected(items.filter(Boolean)),
              }
            : undefined
        }
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? t('diyRecycle.emptyFiltered') : t('diyRecycle.empty')}
              data-testid="recycle-empty"
            />
          ),
        }}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
        data-testid="recycle-table"
      />
      {opPasswordDialog}
    </Card>
  );
}
