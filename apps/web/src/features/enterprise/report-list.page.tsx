import { LockOutlined, ReloadOutlined } from '@ant-design/icons';
import type { MyReportItem } from '@shuzhi/contracts/diy-collect';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Input, Select, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { CurrentPeriodLine } from '../../components/diy-period/period-tag.tsx';
import { DIY_REPORT_KEYS, diyReportApi } from '../../components/diy-report/diy-report.api.ts';
import { ENTERPRISE_KEYS, enterpriseApi } from './enterprise.api.ts';
import {
  categoryParam,
  categoryTiles,
  inCategory,
  isReportState,
  matchesKeyword,
  parseCategory,
  REPORT_STATES,
  reportState,
} from './enterprise.model.ts';
import { CollectStar, LoadState, PortalShell, StateTag, usePortalActions } from './portal-parts.tsx';

const byText = (a: string | null, b: string | null) => (a ?? '').localeCompare(b ?? '');

/**
 * 我的报表 `/enterprise/reportList` (issue 6 §5): the forms the enterprise fills with the state of its latest
 * record, how many records it has and when it last submitted; filters by category, state and keyword live in
 * the URL (the category tiles and the home page's counts link here). Periodic forms show the period filing
 * goes to now and its due date; overdue and grace periods stand out.
 */
export default function ReportListPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const actions = usePortalActions();
  const { token } = theme.useToken();
  const [pageSize, setPageSize] = useState(10);
  const [page, setPage] = useState(1);
  const reports = useQuery({ queryKey: ENTERPRISE_KEYS.myReports, queryFn: () => enterpriseApi.myReports() });
  const options = useQuery({
    queryKey: DIY_REPORT_KEYS.classifyOptions,
    queryFn: diyReportApi.classifyOptions,
    retry: false,
  });

  const category = parseCategory(params.get('category'));
  const statusParam = params.get('status');
  const status = isReportState(statusParam) ? statusParam : undefined;
  const keyword = params.get('keyword') ?? '';
  const [typed, setTyped] = useState(keyword);

  const setFilter = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value === undefined || value === '') next.delete(key);
    else next.set(key, value);
    setParams(next, { replace: true });
    setPage(1);
  };

  const items = reports.data ?? [];
  const tiles = useMemo(
    () => categoryTiles(items, options.data, t('enterprise.uncategorized')).filter((tile) => tile.count > 0),
    [items, options.data, t],
  );
  const shown = useMemo(
    () =>
      items.filter(
        (item) =>
          (category === undefined || inCategory(item, category, options.data)) &&
          (status === undefined || reportState(item) === status) &&
          matchesKeyword(item, keyword),
      ),
    [items, category, status, keyword, options.data],
  );

  const columns: ColumnsType<MyReportItem> = [
    {
      key: 'collected',
      title: t('enterprise.columns.favourite'),
      width: 64,
      align: 'center',
      render: (_, item) => (
        <CollectStar
          collected={item.collected}
          pending={actions.pendingId === item.id}
          onToggle={() => actions.toggleCollect(item.id, item.collected)}
        />
      ),
    },
    {
      key: 'title',
      title: t('enterprise.columns.form'),
      dataIndex: 'title',
      ellipsis: true,
      sorter: (a, b) => byText(a.title, b.title),
      render: (_, item) => (
        <Space size={6}>
          <Typography.Link onClick={() => actions.openDetail(item.id)} data-testid="report-title">
            {item.title}
          </Typography.Link>
          {!item.isEnable && <Tag>{t('enterprise.disabled')}</Tag>}
          {item.isShowPwd && (
            <Tooltip title={t('enterprise.locked')}>
              <LockOutlined aria-label={t('enterprise.locked')} />
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      key: 'category',
      title: t('enterprise.columns.category'),
      width: 160,
      ellipsis: true,
      sorter: (a, b) => byText(a.categoryName, b.categoryName),
      render: (_, item) => item.categoryName ?? t('enterprise.uncategorized'),
    },
    {
      key: 'status',
      title: t('enterprise.columns.status'),
      width: 110,
      sorter: (a, b) => REPORT_STATES.indexOf(reportState(a)) - REPORT_STATES.indexOf(reportState(b)),
      render: (_, item) => <StateTag item={item} />,
    },
    {
      key: 'period',
      title: t('enterprise.columns.period'),
      width: 230,
      sorter: (a, b) => byText(a.currentPeriod?.dueDate ?? null, b.currentPeriod?.dueDate ?? null),
      render: (_, item) =>
        (item.periodKind ?? 'none') === 'none' ? (
          <Typography.Text type="secondary">—</Typography.Text>
        ) : (
          <CurrentPeriodLine period={item.currentPeriod ?? null} />
        ),
    },
    {
      key: 'records',
      title: t('enterprise.columns.records'),
      dataIndex: 'myRecordCount',
      width: 100,
      align: 'right',
      sorter: (a, b) => a.myRecordCount - b.myRecordCount,
    },
    {
      key: 'lastSubmit',
      title: t('enterprise.columns.lastSubmit'),
      dataIndex: 'lastSubmitTime',
      width: 180,
      sorter: (a, b) => byText(a.lastSubmitTime, b.lastSubmitTime),
      render: (value: string | null) => value ?? <Typography.Text type="secondary">—</Typography.Text>,
    },
    {
      key: 'actions',
      title: t('enterprise.columns.actions'),
      width: 150,
      fixed: 'right',
      render: (_, item) => (
        <Space size={4}>
          <Button
            type="primary"
            size="small"
            disabled={!actions.canFill(item)}
            title={actions.canFill(item) ? undefined : t('enterprise.cannotFill')}
            onClick={() => actions.fill(item)}
            data-testid="report-fill"
          >
            {t('enterprise.fill')}
          </Button>
          <Button size="small" onClick={() => actions.openDetail(item.id)} data-testid="report-detail">
            {t('enterprise.detail')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <PortalShell active="list">
      {actions.contextHolder}
      <Card
        title={t('enterprise.nav.list')}
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void reports.refetch()}>
            {t('enterprise.refresh')}
          </Button>
        }
      >
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            data-testid="report-list-category"
            style={{ width: 200 }}
            aria-label={t('enterprise.category')}
            value={category === undefined ? '' : categoryParam(category)}
            onChange={(value: string) => setFilter('category', value)}
            options={[
              { value: '', label: t('enterprise.allCategories') },
              ...tiles.map((tile) => ({
                value: categoryParam(tile.id),
                label: `${tile.label} (${tile.count})`,
              })),
            ]}
          />
          <Select
            data-testid="report-list-status"
            style={{ width: 140 }}
            aria-label={t('enterprise.status')}
            value={status ?? ''}
            onChange={(value: string) => setFilter('status', value)}
            options={[
              { value: '', label: `${t('enterprise.status')}: ${t('enterprise.all')}` },
              ...REPORT_STATES.map((s) => ({ value: s, label: t(`enterprise.states.${s}`) })),
            ]}
          />
          <Input.Search
            data-testid="report-list-search"
            allowClear
            style={{ width: 260 }}
            placeholder={t('enterprise.searchPlaceholder')}
            value={typed}
            onChange={(event) => {
              setTyped(event.target.value);
              if (event.target.value === '') setFilter('keyword', undefined);
            }}
            onSearch={(value) => setFilter('keyword', value.trim())}
          />
        </Space>
        <LoadState pending={reports.isPending} error={reports.error} onRetry={() => void reports.refetch()}>
          <Table<MyReportItem>
            data-testid="report-list-table"
            rowKey="id"
            size="middle"
            columns={columns}
            dataSource={shown}
            scroll={{ x: 1130 }}
            onRow={(item) => ({
              style:
                item.currentPeriod?.state === 'overdue'
                  ? { background: token.colorErrorBg }
                  : item.currentPeriod?.state === 'grace'
                    ? { background: token.colorWarningBg }
                    : undefined,
            })}
            locale={{ emptyText: items.length === 0 ? t('enterprise.empty') : t('enterprise.noMatch') }}
            pagination={{
              current: page,
              pageSize,
              total: shown.length,
              showSizeChanger: true,
              showTotal: (total) => t('enterprise.totalForms', { count: total }),
              onChange: (next, size) => {
                setPage(next);
                setPageSize(size);
              },
            }}
          />
        </LoadState>
      </Card>
    </PortalShell>
  );
}
