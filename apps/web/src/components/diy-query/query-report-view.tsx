import { DownloadOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import type { QueryData, QueryInfo, QueryParam } from '@shuzhi/contracts/diy-query';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Input,
  Result,
  Segmented,
  Select,
  Space,
  Table,
  type TableColumnsType,
  Typography,
} from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { downloadFile } from '../../platform/data/download.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { setFormPageTitle } from '../diy-report/open-form-item.ts';
import { OrgTreeSelect } from '../org-tree/org-tree-select.tsx';
import { RegionCascader } from '../region-cascader/region-cascader.tsx';
import { useReclickGuard } from '../use-reclick-guard.ts';
import { QUERY_KEYS, queryApi, queryExportUrl } from './diy-query.api.ts';
import { defaultParams, formatCell, type ParamValue, paramsBody } from './query.model.ts';
import { QueryConfigModal, type QueryTarget } from './query-config-modal.tsx';

const QueryChart = lazy(() => import('./query-chart.tsx'));

/** Answers that end on a result page. */
const BLOCKING = ['Q1000', 'Q1001', 'Q1004', 'F1003', 'F1007'] as const;

const codeOf = (error: unknown) => (error instanceof HttpError ? String(error.code) : null);

function Blocked({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useTranslation();
  const code = codeOf(error);
  const blocking = BLOCKING.find((c) => c === code);
  return (
    <Result
      status={blocking ? (blocking === 'Q1000' ? '404' : 'warning') : 'error'}
      title={blocking ? t(`diyQuery.blocked.${blocking}`) : t('diyQuery.loadFailed')}
      subTitle={error instanceof Error ? error.message : undefined}
      extra={
        blocking ? null : (
          <Button type="primary" onClick={retry} data-testid="query-retry">
            {t('diyQuery.retry')}
          </Button>
        )
      }
      data-testid="query-error"
    />
  );
}

/**
 * 查询报表 (report type 3, `/diyLoad/index/loadTable?id=`): the report's parameters, its rows paged by the server
 * (subtotal rows after each first-level group, the grand total fixed at the bottom), 导出 Excel of every row for
 * the parameters, and the report's chart when it has one.
 */
export default function QueryReportView({ id }: { id: number }) {
  const { pathname } = useLocation();
  const client = useQueryClient();
  const info = useQuery({ queryKey: QUERY_KEYS.info(id), queryFn: () => queryApi.info(id), retry: false });
  const title = info.data?.title;
  useEffect(() => {
    if (title) setFormPageTitle(pathname, id, title);
  }, [title, pathname, id]);
  const [editing, setEditing] = useState<QueryTarget>(null);
  if (info.isLoading) return <Card loading data-testid="query-loading" />;
  if (info.error || !info.data) return <Blocked error={info.error} retry={() => void info.refetch()} />;
  const data = info.data;
  return (
    <>
      <Report
        key={JSON.stringify(data.config)}
        info={data}
        onEdit={() =>
          setEditing({
            id: data.id,
            title: data.title,
            categoryId: data.categoryId,
            remark: data.remark,
            config: data.config,
          })
        }
      />
      <QueryConfigModal
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={() => void client.invalidateQueries({ queryKey: QUERY_KEYS.all })}
      />
    </>
  );
}

function ParamInput({
  param,
  info,
  value,
  onChange,
}: {
  param: QueryParam;
  info: QueryInfo;
  value: ParamValue | undefined;
  onChange: (value: ParamValue) => void;
}) {
  const testId = `query-param-${param.id}`;
  switch (param.kind) {
    case 'period':
    case 'option':
      return (
        <Select
          allowClear
          style={{ width: 180 }}
          placeholder={param.label}
          aria-label={param.label}
          options={info.paramOptions[param.id] ?? []}
          value={(value as string | undefined) ?? undefined}
          onChange={(next) => onChange(next ?? null)}
          data-testid={testId}
        />
      );
    case 'org':
      return (
        <OrgTreeSelect
          style={{ width: 220 }}
          aria-label={param.label}
          value={value ? Number(value) : null}
          onChange={(next) => onChange(typeof next === 'number' ? String(next) : null)}
          data-testid={testId}
        />
      );
    case 'region':
      return (
        <RegionCascader
          style={{ width: 240 }}
          placeholder={param.label}
          value={typeof value === 'string' && value ? [value] : []}
          onChange={(codes) => onChange(codes.at(-1) ?? null)}
        />
      );
    case 'dateRange':
      return (
        <DatePicker.RangePicker
          aria-label={param.label}
          onChange={(dates) =>
            onChange(
              dates ? [dates[0]?.format('YYYY-MM-DD') ?? null, dates[1]?.format('YYYY-MM-DD') ?? null] : null,
            )
          }
          data-testid={testId}
        />
      );
    default:
      return (
        <Input.Search
          allowClear
          style={{ width: 200 }}
          placeholder={param.label}
          aria-label={param.label}
          defaultValue={typeof value === 'string' ? value : ''}
          onSearch={(text) => onChange(text.trim() || null)}
          data-testid={testId}
        />
      );
  }
}

/** The rows of a page: subtotal rows in bold, the grand total fixed at the bottom, paging by the server. */
function ResultTable({
  info,
  data,
  fetching,
  page,
  setPage,
}: {
  info: QueryInfo;
  data: QueryData;
  fetching: boolean;
  page: { page: number; pageSize: number };
  setPage: (page: { page: number; pageSize: number }) => void;
}) {
  const { t, i18n } = useTranslation();
  const groupSecond = info.config.groupBy[1];
  const columns: TableColumnsType<QueryData['rows'][number]> = info.columns.map((c) => ({
    key: c.id,
    title: c.label,
    align: c.kind === 'number' ? 'right' : 'left',
    width: c.kind === 'number' ? 120 : 160,
    ellipsis: true,
    render: (_: unknown, row) => {
      if (row.kind === 'subtotal' && c.id === groupSecond) return <strong>{t('diyQuery.subtotal')}</strong>;
      const text = formatCell(row.cells[c.id], c.kind, c.precision, i18n.language);
      return row.kind === 'subtotal' ? <strong>{text}</strong> : text;
    },
  }));
  return (
    <Table
      size="small"
      bordered
      rowKey={(row) => `${row.kind}:${JSON.stringify(row.cells)}`}
      columns={columns}
      dataSource={data.rows}
      loading={fetching}
      scroll={{ x: 'max-content' }}
      rowClassName={(row) => (row.kind === 'subtotal' ? 'query-subtotal' : '')}
      pagination={{
        current: data.page,
        pageSize: data.pageSize,
        total: data.count,
        showSizeChanger: true,
        pageSizeOptions: [20, 50, 100],
        showTotal: (count) => t('diyQuery.rows', { count }),
        onChange: (next, size) => setPage({ page: size === page.pageSize ? next : 1, pageSize: size }),
      }}
      summary={() => (
        <Table.Summary fixed="bottom">
          <Table.Summary.Row data-testid="query-total">
            {info.columns.map((c, i) => (
              <Table.Summary.Cell key={c.id} index={i} align={c.kind === 'number' ? 'right' : 'left'}>
                <strong>
                  {i === 0 && (data.total[c.id] ?? null) === null
                    ? t('diyQuery.total')
                    : data.total[c.id] === undefined || data.total[c.id] === null
                      ? ''
                      : formatCell(data.total[c.id], c.kind, c.precision, i18n.language)}
                </strong>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
      data-testid="query-table"
    />
  );
}

function Report({ info, onEdit }: { info: QueryInfo; onEdit: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [params, setParams] = useState<Record<string, ParamValue>>(() => defaultParams(info));
  const [page, setPage] = useState({ page: 1, pageSize: 20 });
  const [view, setView] = useState<'table' | 'chart'>('table');
  const [exporting, setExporting] = useState(false);
  const body = useMemo(() => ({ params: paramsBody(params), ...page }), [params, page]);
  const query = useQuery({
    queryKey: QUERY_KEYS.data(info.id, body),
    queryFn: () => queryApi.data(info.id, body),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const setParam = (key: string, value: ParamValue) => {
    setParams((old) => ({ ...old, [key]: value }));
    setPage((old) => ({ ...old, page: 1 }));
  };
  const exportAll = useReclickGuard(async () => {
    setExporting(true);
    try {
      const name = await downloadFile(queryExportUrl(info.id), `${info.title}.xlsx`, {
        method: 'post',
        body: { params: paramsBody(params) },
      });
      message.success(t('diyQuery.exportDone', { name }));
    } catch (error) {
      if (!(error instanceof HttpError))
        message.error(error instanceof Error && error.message ? error.message : t('diyQuery.loadFailed'));
    } finally {
      setExporting(false);
    }
  });

  const data = query.data;
  let content: ReactNode;
  if (query.isLoading) content = <Card loading variant="borderless" data-testid="query-data-loading" />;
  else if (query.error && !data) content = <Blocked error={query.error} retry={() => void query.refetch()} />;
  else if (data && data.rows.length === 0)
    content = <Empty description={t('diyQuery.empty')} data-testid="query-empty" />;
  else if (data && view === 'chart' && info.config.chart)
    content = (
      <Suspense fallback={<Card loading variant="borderless" />}>
        <QueryChart chart={info.config.chart} info={info} data={data} />
      </Suspense>
    );
  else if (data)
    content = (
      <ResultTable info={info} data={data} fetching={query.isFetching} page={page} setPage={setPage} />
    );

  return (
    <Card
      title={<span data-testid="query-title">{info.title}</span>}
      extra={
        <Space wrap>
          {info.config.chart ? (
            <Segmented
              value={view}
              onChange={(next) => setView(next as 'table' | 'chart')}
              options={[
                { value: 'table', label: t('diyQuery.view.table') },
                { value: 'chart', label: t('diyQuery.view.chart') },
              ]}
              data-testid="query-view"
            />
          ) : null}
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()} data-testid="query-refresh">
            {t('diyQuery.refresh')}
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting}
            onClick={exportAll}
            data-testid="query-export"
          >
            {t('diyQuery.export')}
          </Button>
          {info.canEdit ? (
            <Button icon={<SettingOutlined />} onClick={onEdit} data-testid="query-edit">
              {t('diyQuery.edit')}
            </Button>
          ) : null}
        </Space>
      }
      data-testid="query-page"
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {info.sources.map((s) => s.title).join(' + ')}
      </Typography.Paragraph>
      {info.config.params.length > 0 ? (
        <Space wrap style={{ marginBottom: 12 }} data-testid="query-params">
          {info.config.params.map((p) => (
            <Space key={p.id} size={4}>
              <span>{p.label}</span>
              <ParamInput param={p} info={info} value={params[p.id]} onChange={(v) => setParam(p.id, v)} />
            </Space>
          ))}
        </Space>
      ) : null}
      {content}
    </Card>
  );
}
