import { EyeOutlined, ReloadOutlined, SyncOutlined } from '@ant-design/icons';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { JOB_RECORD_STATUS, type JobRecordRow, type JobRecordStatus } from '@shuzhi/contracts/job';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  DatePicker,
  Descriptions,
  Drawer,
  Form,
  Input,
  Result,
  Select,
  Skeleton,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchActions } from '../../components/crud-page/search-actions.tsx';
import { JOB_KEYS, jobApi, type RecordFilters } from './job.api.ts';
import { DATE_TIME_FORMAT, durationParts, prettyJson } from './job-format.ts';

/** A run that is still going is looked at again this often. */
const RUNNING_REFRESH_MS = 1500;
/** How far back the drawer looks for a record (newest first, so a fresh run is on top). */
const DETAIL_WINDOW = 50;

const STATUS_COLOR: Record<JobRecordStatus, string> = {
  running: 'processing',
  succeeded: 'success',
  failed: 'error',
  cancelled: 'default',
};

function RecordStatusTag({ status }: { status: JobRecordStatus }) {
  const { t } = useTranslation();
  return (
    <Tag
      color={STATUS_COLOR[status]}
      icon={status === 'running' ? <SyncOutlined spin /> : undefined}
      data-testid="record-status"
      data-status={status}
    >
      {t(`sysJob.recordStatus.${status}`)}
    </Tag>
  );
}

function useDurationText() {
  const { t } = useTranslation();
  return (row: Pick<JobRecordRow, 'elapsedMs' | 'status'>): string => {
    if (row.elapsedMs === null) return row.status === 'running' ? t('sysJob.stillRunning') : '-';
    const parts = durationParts(row.elapsedMs);
    if (parts.unit === 'ms') return t('sysJob.durationMs', { ms: parts.ms });
    if (parts.unit === 's') return t('sysJob.durationS', { s: parts.s });
    return t('sysJob.durationMin', { min: parts.min, s: parts.s });
  };
}

/** Focus on a job's records, optionally opening one of them (a run just started). */
export type RecordFocus = { jobId: string; recordId?: number; nonce: number };

type FilterValues = {
  jobId?: string;
  status?: JobRecordStatus | '';
  range?: [Dayjs | null, Dayjs | null] | null;
};

function toFilters(values: FilterValues): RecordFilters {
  const out: RecordFilters = {};
  if (values.jobId?.trim()) out.jobId = values.jobId.trim();
  if (values.status) out.status = values.status;
  const [from, to] = values.range ?? [];
  if (from && to) out.startTime = [from.format(DATE_TIME_FORMAT), to.format(DATE_TIME_FORMAT)];
  return out;
}

/** One run: status, times, duration, and the full result and error texts. */
function RecordDetail({
  target,
  onClose,
}: {
  target: { id: number; jobId: string } | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const query = useQuery({
    queryKey: JOB_KEYS.records({ detail: target?.id, jobId: target?.jobId }),
    queryFn: async () => {
      const page = await jobApi.records({ page: 1, pageSize: DETAIL_WINDOW, jobId: target?.jobId });
      return page.items.find((row) => row.id === target?.id) ?? null;
    },
    enabled: target !== null,
    refetchInterval: (q) =>
      q.state.data === null || q.state.data?.status === 'running' ? RUNNING_REFRESH_MS : false,
  });
  const row = query.data;
  let body: React.ReactNode;
  if (query.isPending) body = <Skeleton active />;
  else if (query.isError)
    body = (
      <Alert
        type="error"
        showIcon
        title={t('crud.loadFailed')}
        description={query.error instanceof Error ? query.error.message : undefined}
      />
    );
  else if (!row) body = <Skeleton active data-testid="record-detail-waiting" />;
  else
    body = (
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Descriptions
          column={2}
          size="small"
          bordered
          items={[
            { key: 'jobId', label: t('sysJob.jobId'), children: row.jobId },
            {
              key: 'trigger',
              label: t('sysJob.triggerId'),
              children: row.triggerId ?? t(`sysJob.recordSources.${row.source}`),
            },
            { key: 'status', label: t('crud.status'), children: <RecordStatusTag status={row.status} /> },
            {
              key: 'elapsed',
              label: t('sysJob.elapsed'),
              children: <span data-testid="record-detail-elapsed">{duration(row)}</span>,
            },
            { key: 'start', label: t('sysJob.runStart'), children: row.startTime },
            { key: 'end', label: t('sysJob.runEnd'), children: row.endTime ?? '-' },
            { key: 'node', label: t('sysJob.nodeId'), children: row.nodeId },
            { key: 'user', label: t('sysJob.operator'), children: row.createUserName ?? '-' },
          ]}
        />
        <div>
          <Typography.Text strong>{t('sysJob.result')}</Typography.Text>
          <pre data-testid="record-detail-result" style={preStyle}>
            {row.result ? prettyJson(row.result) : t('sysJob.noResult')}
          </pre>
        </div>
        {row.error ? (
          <div>
            <Typography.Text strong type="danger">
              {t('sysJob.error')}
            </Typography.Text>
            <pre
              data-testid="record-detail-error"
              style={{ ...preStyle, color: 'var(--ant-color-error, #cf1322)' }}
            >
              {row.error}
            </pre>
          </div>
        ) : null}
      </Space>
    );
  return (
    <Drawer
      open={target !== null}
      title={target ? t('sysJob.recordTitle', { id: target.id }) : null}
      size={640}
      onClose={onClose}
      destroyOnHidden
      data-testid="record-detail"
    >
      {body}
    </Drawer>
  );
}

const preStyle: React.CSSProperties = {
  margin: '6px 0 0',
  padding: 12,
  maxHeight: 320,
  overflow: 'auto',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-all',
  background: 'rgba(0,0,0,0.03)',
  borderRadius: 6,
  fontSize: 12,
};

/** The run records: filters, a table that refreshes while a run goes on, and the detail drawer. */
export function JobRecords({ focus }: { focus: RecordFocus | null }) {
  const { t } = useTranslation();
  const duration = useDurationText();
  const [form] = Form.useForm<FilterValues>();
  const [filters, setFilters] = useState<RecordFilters>({});
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [detail, setDetail] = useState<{ id: number; jobId: string } | null>(null);

  useEffect(() => {
    if (!focus) return;
    form.setFieldsValue({ jobId: focus.jobId, status: '', range: null });
    setFilters({ jobId: focus.jobId });
    setPaging((p) => ({ ...p, page: 1 }));
    if (focus.recordId !== undefined) setDetail({ id: focus.recordId, jobId: focus.jobId });
  }, [focus, form]);

  const body = { ...paging, ...filters };
  const query = useQuery<PageResult<JobRecordRow>>({
    queryKey: JOB_KEYS.records(body),
    queryFn: () => jobApi.records(body),
    placeholderData: keepPreviousData,
    refetchInterval: (q) =>
      q.state.data?.items.some((row) => row.status === 'running') ? RUNNING_REFRESH_MS : false,
  });

  const search = (values: FilterValues) => {
    setFilters(toFilters(values));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const columns: ColumnsType<JobRecordRow> = [
    { key: 'jobId', dataIndex: 'jobId', title: t('sysJob.jobId'), width: 160 },
    {
      key: 'trigger',
      title: t('sysJob.triggerId'),
      width: 120,
      render: (_, row) =>
        row.source === 'manual' ? <Tag>{t('sysJob.recordSources.manual')}</Tag> : (row.triggerId ?? '-'),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('crud.status'),
      width: 100,
      render: (status: JobRecordStatus) => <RecordStatusTag status={status} />,
    },
    { key: 'startTime', dataIndex: 'startTime', title: t('sysJob.runStart'), width: 170 },
    {
      key: 'elapsed',
      title: t('sysJob.elapsed'),
      width: 110,
      align: 'right',
      render: (_, row) => <span data-testid="record-elapsed">{duration(row)}</span>,
    },
    {
      key: 'outcome',
      title: t('sysJob.outcome'),
      ellipsis: true,
      width: 260,
      render: (_, row) =>
        row.error ? (
          <Typography.Text type="danger" ellipsis>
            {row.error}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" ellipsis>
            {row.result ?? '-'}
          </Typography.Text>
        ),
    },
    { key: 'nodeId', dataIndex: 'nodeId', title: t('sysJob.nodeId'), width: 150, ellipsis: true },
    {
      key: 'actions',
      title: t('crud.actions'),
      width: 80,
      fixed: 'right',
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          icon={<EyeOutlined />}
          onClick={() => setDetail({ id: row.id, jobId: row.jobId })}
          data-testid={`record-view-${row.id}`}
        >
          {t('sysJob.view')}
        </Button>
      ),
    },
  ];

  return (
    <div data-testid="job-records">
      <Form
        form={form}
        layout="inline"
        initialValues={{ status: '' }}
        onFinish={search}
        style={{ rowGap: 12, marginBottom: 16 }}
        data-testid="record-filters"
      >
        <Form.Item name="jobId" label={t('sysJob.jobId')}>
          <Input allowClear style={{ width: 160 }} data-testid="record-search-job" />
        </Form.Item>
        <Form.Item name="status" label={t('crud.status')}>
          <Select
            style={{ width: 120 }}
            options={[
              { value: '', label: t('sysJob.allStatus') },
              ...JOB_RECORD_STATUS.map((status) => ({
                value: status,
                label: t(`sysJob.recordStatus.${status}`),
              })),
            ]}
            data-testid="record-search-status"
          />
        </Form.Item>
        <Form.Item name="range" label={t('sysJob.runStart')}>
          <DatePicker.RangePicker showTime format={DATE_TIME_FORMAT} allowClear style={{ width: 360 }} />
        </Form.Item>
        <SearchActions
          submitTestId="record-search"
          onReset={() => {
            form.resetFields();
            search({});
          }}
        >
          <Tooltip title={t('crud.refresh')}>
            <Button
              icon={<ReloadOutlined />}
              loading={query.isFetching}
              onClick={() => void query.refetch()}
              aria-label={t('crud.refresh')}
            />
          </Tooltip>
        </SearchActions>
      </Form>
      {query.isError ? (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={query.error instanceof Error ? query.error.message : undefined}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<JobRecordRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={query.data?.items ?? []}
          loading={query.isPending}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('sysJob.noRecords') }}
          onRow={(row) =>
            ({
              'data-testid': `record-row-${row.id}`,
              onDoubleClick: () => setDetail({ id: row.id, jobId: row.jobId }),
            }) as React.HTMLAttributes<HTMLElement>
          }
          pagination={{
            current: paging.page,
            pageSize: paging.pageSize,
            total: query.data?.total ?? 0,
            showSizeChanger: true,
            showTotal: (total) => t('crud.total', { total }),
            onChange: (page, pageSize) =>
              setPaging({ page: pageSize === paging.pageSize ? page : 1, pageSize }),
          }}
        />
      )}
      <RecordDetail target={detail} onClose={() => setDetail(null)} />
    </div>
  );
}
