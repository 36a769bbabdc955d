import {
  EditOutlined,
  HistoryOutlined,
  LockOutlined,
  PlusOutlined,
  ReloadOutlined,
  UnlockOutlined,
} from '@ant-design/icons';
import { PERIOD_STATES, type PeriodState } from '@shuzhi/contracts/diy-period';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Form, Input, Select, Space, Table, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { SearchActions } from '../../components/crud-page/search-actions.tsx';
import { tablePagination, useTablePaging } from '../../components/crud-page/table-paging.ts';
import {
  PERIOD_KEYS,
  type PeriodPageInput,
  type PeriodPageRow,
  periodApi,
} from '../../components/diy-period/diy-period.api.ts';
import { PeriodStateTag } from '../../components/diy-period/period-tag.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { AddWindowDialog, type PeriodAction, PeriodActionDialog } from './period-dialogs.tsx';
import { PeriodLogDrawer } from './period-log-drawer.tsx';

type SearchValues = { tableId?: number | null; keyword?: string; state?: PeriodState | '' };

const idParam = (raw: string | null) => (raw && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined);

/**
 * 填报周期 (issue 6 §1, docs/periods.md): the periods of the periodic forms the caller administers, with their
 * state, due date and filing counts; staff close, reopen (with a reason), change dates, add custom windows and
 * read each period's log. `?tableId=` preselects one form (表单管理 links here).
 */
export default function DiyPeriodPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const { can } = useCan();
  const [params] = useSearchParams();
  const [searchForm] = Form.useForm<SearchValues>();
  const initialTable = idParam(params.get('tableId'));

  const [filters, setFilters] = useState<SearchValues>(() => (initialTable ? { tableId: initialTable } : {}));
  const { paging, setPaging, sort, onTableChange } = useTablePaging<PeriodPageRow>();
  const [acting, setActing] = useState<{ row: PeriodPageRow; action: PeriodAction } | null>(null);
  const [logOf, setLogOf] = useState<PeriodPageRow | null>(null);
  const [adding, setAdding] = useState(false);

  const forms = useQuery({ queryKey: PERIOD_KEYS.forms, queryFn: periodApi.forms, retry: false });
  const customForms = useMemo(
    () => (forms.data ?? []).filter((form) => form.period.kind === 'custom'),
    [forms.data],
  );

  const body = useMemo<PeriodPageInput>(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      ...(filters.tableId ? { tableId: filters.tableId } : {}),
      ...(filters.keyword ? { keyword: filters.keyword } : {}),
      ...(filters.state ? { state: filters.state } : {}),
      ...(sort ?? {}),
    }),
    [paging, filters, sort],
  );
  const query = useQuery({
    queryKey: PERIOD_KEYS.page(body),
    queryFn: () => periodApi.page(body),
    placeholderData: keepPreviousData,
  });
  const rows = query.data?.items ?? [];
  const filtered = Boolean(filters.tableId || filters.keyword || filters.state);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };
  // A period's state shows in 报表填报, the portal and the record lists too.
  const refresh = () => {
    void client.invalidateQueries({ queryKey: PERIOD_KEYS.all });
    void client.invalidateQueries({ queryKey: ['diyTable'] });
    void client.invalidateQueries({ queryKey: ['diyData'] });
  };

  const search = (values: SearchValues) => {
    setFilters({
      ...(values.tableId ? { tableId: values.tableId } : {}),
      ...(values.keyword?.trim() ? { keyword: values.keyword.trim() } : {}),
      ...(values.state ? { state: values.state } : {}),
    });
    setPaging((p) => ({ ...p, page: 1 }));
  };
  const reset = () => {
    searchForm.setFieldsValue({ tableId: null, keyword: '', state: '' });
    search({});
  };

  const sortOrder = (field: string) =>
    sort?.field === field ? (sort.order === 'descending' ? 'descend' : 'ascend') : null;

  const canClose = can('diyPeriod:close');
  const canReopen = can('diyPeriod:reopen');
  const canUpdate = can('diyPeriod:update');

  const columns: ColumnsType<PeriodPageRow> = [
    {
      key: 'tableId',
      dataIndex: 'tableTitle',
      title: t('diyPeriod.form'),
      width: 150,
      ellipsis: { showTitle: true },
      sorter: true,
      sortOrder: sortOrder('tableId'),
    },
    {
      key: 'name',
      dataIndex: 'name',
      title: t('diyPeriod.period'),
      width: 120,
      ellipsis: { showTitle: true },
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (name: string) => <span data-testid="period-name-cell">{name}</span>,
    },
    {
      key: 'startDate',
      title: t('diyPeriod.dates'),
      width: 190,
      sorter: true,
      sortOrder: sortOrder('startDate'),
      render: (_, row) => `${row.startDate} ~ ${row.endDate}`,
    },
    {
      key: 'dueDate',
      title: t('diyPeriod.dueDate'),
      width: 140,
      sorter: true,
      sortOrder: sortOrder('dueDate'),
      render: (_, row) => (
        <div style={{ lineHeight: 1.4 }}>
          <div>{row.dueDate}</div>
          {row.graceUntil ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('diyPeriod.graceTo', { date: row.graceUntil })}
            </Typography.Text>
          ) : null}
          {row.reopenUntil ? (
            <div>
              <Typography.Text type="warning" style={{ fontSize: 12 }}>
                {t('diyPeriod.reopenUntil')} {row.reopenUntil}
              </Typography.Text>
            </div>
          ) : null}
        </div>
      ),
    },
    {
      key: 'state',
      title: t('diyPeriod.state'),
      width: 110,
      render: (_, row) =>
        row.state === 'closed' && row.closeTime ? (
          <Tooltip title={t('diyPeriod.closeInfo', { time: row.closeTime, user: row.closeUserName ?? '—' })}>
            <span>
              <PeriodStateTag state={row.state} />
            </span>
          </Tooltip>
        ) : (
          <PeriodStateTag state={row.state} />
        ),
    },
    {
      key: 'counts',
      title: t('diyPeriod.counts'),
      width: 120,
      align: 'right',
      render: (_, row) => (
        <Tooltip
          title={t('diyPeriod.countsTip', { submitted: row.submittedCount, records: row.recordCount })}
        >
          <span data-testid="period-counts">
            <Typography.Text strong>{row.submittedCount}</Typography.Text>
            <Typography.Text type="secondary"> / {row.recordCount}</Typography.Text>
          </span>
        </Tooltip>
      ),
    },
    {
      key: 'version',
      dataIndex: 'version',
      title: t('diyPeriod.version'),
      width: 90,
      align: 'center',
      render: (version: number) => `v${version}`,
    },
    {
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: 360,
      render: (_, row) => (
        <Space size={0} wrap={false} data-testid="period-actions">
          {canClose && row.state !== 'closed' ? (
            <Button
              type="link"
              size="small"
              danger
              icon={<LockOutlined />}
              onClick={() => setActing({ row, action: 'close' })}
              data-testid="period-close"
            >
              {t('diyPeriod.close')}
            </Button>
          ) : null}
          {canReopen && (row.state === 'closed' || row.state === 'overdue') ? (
            <Button
              type="link"
              size="small"
              icon={<UnlockOutlined />}
              onClick={() => setActing({ row, action: 'reopen' })}
              data-testid="period-reopen"
            >
              {t('diyPeriod.reopen')}
            </Button>
          ) : null}
          {canUpdate ? (
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => setActing({ row, action: 'edit' })}
              data-testid="period-edit"
            >
              {t('diyPeriod.edit')}
            </Button>
          ) : null}
          <Button
            type="link"
            size="small"
            icon={<HistoryOutlined />}
            onClick={() => setLogOf(row)}
            data-testid="period-log-btn"
          >
            {t('diyPeriod.log')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <Card title={t('diyPeriod.title')} data-testid="period-page">
      <Form
        form={searchForm}
        layout="inline"
        initialValues={{ tableId: initialTable ?? null, keyword: '', state: '' }}
        onFinish={search}
        style={{ rowGap: 12, marginBottom: 16 }}
        data-testid="period-search"
      >
        <Form.Item name="tableId" label={t('diyPeriod.form')} style={{ marginInlineEnd: 16 }}>
          <Select
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('diyPeriod.allForms')}
            loading={forms.isLoading}
            style={{ width: 220 }}
            options={(forms.data ?? []).map((form) => ({
              value: form.id,
              label: `${form.title}（${t(`diyPeriod.kinds.${form.period.kind}`)}）`,
            }))}
            notFoundContent={forms.isError ? t('diyPeriod.formsFailed') : undefined}
            data-testid="period-search-form"
          />
        </Form.Item>
        <Form.Item name="keyword" label={t('diyPeriod.keyword')} style={{ marginInlineEnd: 16 }}>
          <Input
            allowClear
            placeholder={t('diyPeriod.keywordPlaceholder')}
            style={{ width: 180 }}
            data-testid="period-search-keyword"
          />
        </Form.Item>
        <Form.Item name="state" label={t('diyPeriod.state')} style={{ marginInlineEnd: 16 }}>
          <Select
            style={{ width: 130 }}
            options={[
              { value: '', label: t('diyPeriod.allStates') },
              ...PERIOD_STATES.map((state) => ({ value: state, label: t(`diyPeriod.states.${state}`) })),
            ]}
            data-testid="period-search-state"
          />
        </Form.Item>
        <SearchActions testId="period" onReset={reset} />
      </Form>
      <div
        style={{ display: 'flex', gap: 8, marginBottom: 12, justifyContent: 'flex-end', flexWrap: 'wrap' }}
      >
        {can('diyPeriod:add') ? (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setAdding(true)}
            data-testid="period-add"
          >
            {t('diyPeriod.addWindow')}
          </Button>
        ) : null}
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('crud.refresh')}
            onClick={() => void query.refetch()}
            loading={query.isFetching && !query.isLoading}
            data-testid="period-refresh"
          />
        </Tooltip>
      </div>
      {query.isError ? (
        <LoadFailedAlert
          title={t('diyPeriod.loadFailed')}
          error={query.error}
          onRetry={() => void query.refetch()}
          testId="period-error"
        />
      ) : null}
      <Table<PeriodPageRow>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={query.isFetching}
        onChange={onTableChange}
        scroll={{ x: 1280 }}
        data-testid="period-table"
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={filtered ? t('diyPeriod.emptyFiltered') : t('diyPeriod.empty')}
              data-testid="period-empty"
            />
          ),
        }}
        pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
      />
      <PeriodActionDialog
        target={acting}
        onCancel={() => setActing(null)}
        onDone={(action) => {
          message.success(
            t(
              action === 'close'
                ? 'diyPeriod.closed'
                : action === 'reopen'
                  ? 'diyPeriod.reopened'
                  : 'diyPeriod.updated',
            ),
          );
          setActing(null);
          refresh();
        }}
        onFailed={showError}
      />
      <AddWindowDialog
        open={adding}
        forms={customForms}
        defaultTableId={filters.tableId ?? undefined}
        onCancel={() => setAdding(false)}
        onDone={() => {
          message.success(t('diyPeriod.added'));
          setAdding(false);
          refresh();
        }}
        onFailed={showError}
      />
      <PeriodLogDrawer row={logOf} onClose={() => setLogOf(null)} />
    </Card>
  );
}
