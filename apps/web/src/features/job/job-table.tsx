import {
  CaretRightOutlined,
  DeleteOutlined,
  DownOutlined,
  EditOutlined,
  HistoryOutlined,
  PauseCircleOutlined,
  PlayCircleOutlined,
  PlusOutlined,
  ReloadOutlined,
  StopOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { PageResult } from '@shuzhi/contracts/envelope';
import { JOB_CREATE_TYPE, type JobDetailRow, type JobTriggerRow } from '@shuzhi/contracts/job';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Dropdown,
  Form,
  Input,
  type MenuProps,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { SearchActions } from '../../components/crud-page/search-actions.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { JOB_KEYS, type JobFilters, jobApi } from './job.api.ts';
import { JOB_PERMS, useJobAction } from './job-actions.ts';
import { JobFormDrawer, type JobFormTarget } from './job-form-drawer.tsx';
import { isBuiltInHandler, isBuiltInJob, type JobState, jobState, nextRunOf } from './job-format.ts';
import { JobTriggers } from './job-triggers.tsx';
import { TriggerModal, type TriggerTarget } from './trigger-modal.tsx';

/** While a run is going the list refreshes itself, so its end shows without a click. */
const RUNNING_REFRESH_MS = 2000;

const STATE_COLOR: Record<JobState, string> = {
  running: 'processing',
  scheduled: 'green',
  paused: 'orange',
  ended: 'default',
  noTrigger: 'default',
};

function JobStateTag({ row }: { row: JobDetailRow }) {
  const { t } = useTranslation();
  const state = jobState(row);
  return (
    <Tag
      color={STATE_COLOR[state]}
      icon={state === 'running' ? <SyncOutlined spin /> : undefined}
      data-testid={`job-state-${row.jobId}`}
      data-state={state}
    >
      {t(`sysJob.jobStates.${state}`)}
    </Tag>
  );
}

function cleanFilters(values: Record<string, unknown>): JobFilters {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values))
    if (typeof value === 'string' && value.trim() !== '') out[key] = value.trim();
  return out;
}

/** The jobs with their triggers, and every action on them. */
export function JobTable({
  onRan,
  onShowRecords,
}: {
  /** A run was started: show its record. */
  onRan: (jobId: string, recordId: number) => void;
  onShowRecords: (jobId: string) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { can } = useCan();
  const act = useJobAction();
  const [form] = Form.useForm();
  const [filters, setFilters] = useState<JobFilters>({});
  const [paging, setPaging] = useState({ page: 1, pageSize: 20 });
  const [expanded, setExpanded] = useState<readonly React.Key[]>([]);
  const [editing, setEditing] = useState<JobFormTarget>(null);
  const [triggerTarget, setTriggerTarget] = useState<TriggerTarget | null>(null);
  const body = { ...paging, ...filters };
  const query = useQuery<PageResult<JobDetailRow>>({
    queryKey: JOB_KEYS.page(body),
    queryFn: () => jobApi.page(body),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((row) => row.running) ? RUNNING_REFRESH_MS : false),
  });
  const rows = query.data?.items ?? [];

  const search = (values: Record<string, unknown>) => {
    setFilters(cleanFilters(values));
    setPaging((p) => ({ ...p, page: 1 }));
  };

  const openTrigger = (job: JobDetailRow, trigger: JobTriggerRow | null) => {
    setExpanded((keys) => (keys.includes(job.jobId) ? keys : [...keys, job.jobId]));
    setTriggerTarget({ job, trigger });
  };

  const runNow = async (row: JobDetailRow) => {
    const result = await act(() => jobApi.run(row.jobId), t('sysJob.runStarted', { jobId: row.jobId }));
    if (result) onRan(row.jobId, result.recordId);
  };
  const confirmCancel = (row: JobDetailRow) =>
    modal.confirm({
      title: t('sysJob.cancelTitle'),
      content: t('sysJob.cancelConfirm', { jobId: row.jobId }),
      okText: t('sysJob.cancelRun'),
      okType: 'danger',
      okButtonProps: { danger: true, 'data-testid': 'job-cancel-ok' } as never,
      cancelText: t('common.cancel'),
      onOk: () => act(() => jobApi.cancel(row.jobId), t('sysJob.cancelled')),
    });
  const confirmDelete = (row: JobDetailRow) =>
    modal.confirm({
      title: t('crud.confirmDeleteTitle'),
      content: t('sysJob.confirmDeleteJob', { jobId: row.jobId }),
      okText: t('crud.delete'),
      okType: 'danger',
      okButtonProps: { danger: true, 'data-testid': 'job-delete-ok' } as never,
      cancelText: t('common.cancel'),
      onOk: () => act(() => jobApi.remove(row.jobId), t('crud.deleted')),
    });

  const moreItems = (row: JobDetailRow): MenuProps['items'] => {
    const builtIn = isBuiltInJob(row);
    const items: MenuProps['items'] = [];
    if (can(JOB_PERMS.start))
      items.push({
        key: 'start',
        icon: <PlayCircleOutlined />,
        label: t('sysJob.startJob'),
        disabled: row.triggers.length === 0,
        onClick: () => act(() => jobApi.start(row.jobId), t('sysJob.started')),
      });
    if (can(JOB_PERMS.pause))
      items.push({
        key: 'pause',
        icon: <PauseCircleOutlined />,
        label: t('sysJob.pauseJob'),
        disabled: row.triggers.length === 0,
        onClick: () => act(() => jobApi.pause(row.jobId), t('sysJob.paused')),
      });
    if (can(JOB_PERMS.triggerAdd))
      items.push({
        key: 'trigger',
        icon: <PlusOutlined />,
        label: t('sysJob.addTrigger'),
        onClick: () => openTrigger(row, null),
      });
    if (can(JOB_PERMS.records))
      items.push({
        key: 'records',
        icon: <HistoryOutlined />,
        label: t('sysJob.records'),
        onClick: () => onShowRecords(row.jobId),
      });
    if (can(JOB_PERMS.delete)) {
      items.push({ type: 'divider' });
      items.push({
        key: 'delete',
        icon: <DeleteOutlined />,
        danger: !builtIn,
        disabled: builtIn,
        label: builtIn ? (
          <Tooltip title={t('sysJob.builtInNoDelete')} placement="left">
            <span data-testid={`job-delete-blocked-${row.jobId}`}>{t('crud.delete')}</span>
          </Tooltip>
        ) : (
          <span data-testid={`job-delete-${row.jobId}`}>{t('crud.delete')}</span>
        ),
        onClick: () => confirmDelete(row),
      });
    }
    return items;
  };

  const columns: ColumnsType<JobDetailRow> = [
    {
      key: 'jobId',
      dataIndex: 'jobId',
      title: t('sysJob.jobId'),
      width: 180,
      ellipsis: true,
      render: (value: string, row) => (
        <Space size={4}>
          <Typography.Text strong>{value}</Typography.Text>
          {row.concurrent ? (
            <Tooltip title={t('sysJob.concurrentHelp')}>
              <Tag bordered={false}>{t('sysJob.concurrentTag')}</Tag>
            </Tooltip>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'description',
      dataIndex: 'description',
      title: t('sysJob.description'),
      render: (value: string | null) =>
        value ? (
          <Typography.Text type="secondary" ellipsis={{ tooltip: value }} style={{ width: '100%' }}>
            {value}
          </Typography.Text>
        ) : (
          '-'
        ),
    },
    {
      key: 'groupName',
      dataIndex: 'groupName',
      title: t('sysJob.groupName'),
      width: 100,
      ellipsis: true,
      render: (value: string | null) => value || '-',
    },
    {
      key: 'type',
      title: t('sysJob.createType'),
      width: 230,
      render: (_, row) =>
        row.createType === JOB_CREATE_TYPE.builtIn ? (
          <Space size={4}>
            <Tag color="blue">{t('sysJob.createTypes.builtIn')}</Tag>
            <span>{isBuiltInHandler(row.handler) ? t(`sysJob.handlers.${row.handler}`) : row.handler}</span>
          </Space>
        ) : (
          <div style={{ display: 'flex', alignItems: 'center', minWidth: 0 }}>
            <Tag color="purple">{row.httpMethod ?? 'HTTP'}</Tag>
            <Typography.Text ellipsis={{ tooltip: row.httpUrl }} style={{ flex: 1, minWidth: 0 }}>
              {row.httpUrl}
            </Typography.Text>
          </div>
        ),
    },
    {
      key: 'state',
      title: t('crud.status'),
      width: 100,
      render: (_, row) => <JobStateTag row={row} />,
    },
    {
      key: 'triggers',
      title: t('sysJob.triggers'),
      width: 76,
      align: 'right',
      render: (_, row) => row.triggers.length,
    },
    {
      key: 'nextRun',
      title: t('sysJob.nextRunTime'),
      width: 170,
      render: (_, row) => nextRunOf(row.triggers) ?? '-',
    },
    {
      key: 'actions',
      title: t('crud.actions'),
      width: 220,
      fixed: 'right',
      render: (_, row) => {
        const items = moreItems(row);
        return (
          <Space size={0}>
            {row.running && can(JOB_PERMS.cancel) ? (
              <Button
                type="link"
                size="small"
                danger
                icon={<StopOutlined />}
                onClick={() => confirmCancel(row)}
                data-testid={`job-cancel-${row.jobId}`}
              >
                {t('sysJob.cancelRun')}
              </Button>
            ) : null}
            {can(JOB_PERMS.runNow) ? (
              <Tooltip title={row.running && !row.concurrent ? t('sysJob.runBlocked') : undefined}>
                <Button
                  type="link"
                  size="small"
                  icon={<CaretRightOutlined />}
                  disabled={row.running && !row.concurrent}
                  onClick={() => void runNow(row)}
                  data-testid={`job-run-${row.jobId}`}
                >
                  {t('sysJob.runNow')}
                </Button>
              </Tooltip>
            ) : null}
            {can(JOB_PERMS.update) ? (
              <Button
                type="link"
                size="small"
                icon={<EditOutlined />}
                onClick={() => setEditing(row)}
                data-testid={`job-edit-${row.jobId}`}
              >
                {t('crud.edit')}
              </Button>
            ) : null}
            {items && items.length > 0 ? (
              <Dropdown menu={{ items }} trigger={['click']}>
                <Button type="link" size="small" data-testid={`job-more-${row.jobId}`}>
                  {t('sysJob.more')} <DownOutlined />
                </Button>
              </Dropdown>
            ) : null}
          </Space>
        );
      },
    },
  ];

  return (
    <div data-testid="job-table">
      <Form
        form={form}
        layout="inline"
        onFinish={search}
        style={{ rowGap: 12, marginBottom: 16 }}
        data-testid="job-filters"
      >
        <Form.Item name="jobId" label={t('sysJob.jobId')}>
          <Input allowClear style={{ width: 160 }} data-testid="job-search-id" />
        </Form.Item>
        <Form.Item name="groupName" label={t('sysJob.groupName')}>
          <Input allowClear style={{ width: 140 }} data-testid="job-search-group" />
        </Form.Item>
        <Form.Item name="description" label={t('sysJob.description')}>
          <Input allowClear style={{ width: 160 }} data-testid="job-search-description" />
        </Form.Item>
        <SearchActions
          submitTestId="job-search"
          onReset={() => {
            form.resetFields();
            search({});
          }}
        />
      </Form>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }} wrap>
        <Space>
          {can(JOB_PERMS.add) ? (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing('new')}
              data-testid="job-add"
            >
              {t('crud.add')}
            </Button>
          ) : null}
          {rows.some((row) => row.running) ? (
            <Tag icon={<SyncOutlined spin />} color="processing" data-testid="job-running-indicator">
              {t('sysJob.runningCount', { count: rows.filter((row) => row.running).length })}
            </Tag>
          ) : null}
        </Space>
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            loading={query.isFetching}
            onClick={() => void query.refetch()}
            aria-label={t('crud.refresh')}
            data-testid="job-refresh"
          />
        </Tooltip>
      </Space>
      {query.isError ? (
        <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} testId="job-load-error" />
      ) : null}
      <Table<JobDetailRow>
        rowKey="jobId"
        columns={columns}
        dataSource={rows}
        loading={query.isPending || (query.isFetching && query.isPlaceholderData)}
        tableLayout="fixed"
        scroll={{ x: 1180 }}
        size="middle"
        expandable={{
          expandedRowKeys: expanded,
          onExpandedRowsChange: setExpanded,
          expandedRowRender: (row) => (
            <JobTriggers job={row} onEdit={(trigger) => openTrigger(row, trigger)} />
          ),
        }}
        locale={{ emptyText: query.isError ? t('crud.loadFailed') : t('sysJob.noJobs') }}
        pagination={{
          current: paging.page,
          pageSize: paging.pageSize,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total) => t('crud.total', { total }),
          onChange: (page, pageSize) =>
            setPaging({ page: pageSize === paging.pageSize ? page : 1, pageSize }),
        }}
        onRow={(row) => ({ 'data-testid': `job-row-${row.jobId}` }) as React.HTMLAttributes<HTMLElement>}
      />
      <JobFormDrawer target={editing} onClose={() => setEditing(null)} />
      <TriggerModal target={triggerTarget} onClose={() => setTriggerTarget(null)} />
    </div>
  );
}
