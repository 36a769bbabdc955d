import { PlusOutlined } from '@ant-design/icons';
import { type JobDetailRow, type JobTriggerRow, TRIGGER_STATUS } from '@shuzhi/contracts/job';
import { App, Button, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { jobApi } from './job.api.ts';
import { JOB_PERMS, useJobAction } from './job-actions.ts';

const STATUS_COLOR: Record<number, string> = {
  [TRIGGER_STATUS.running]: 'green',
  [TRIGGER_STATUS.paused]: 'orange',
  [TRIGGER_STATUS.ended]: 'default',
};
const STATUS_KEY: Record<number, 'running' | 'paused' | 'ended'> = {
  [TRIGGER_STATUS.running]: 'running',
  [TRIGGER_STATUS.paused]: 'paused',
  [TRIGGER_STATUS.ended]: 'ended',
};

function TriggerStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATUS_COLOR[status] ?? 'default'} data-testid="trigger-status">
      {t(`sysJob.triggerStatus.${STATUS_KEY[status] ?? 'ended'}`)}
    </Tag>
  );
}

/** The triggers of one job, shown when its row is expanded. */
export function JobTriggers({
  job,
  onEdit,
}: {
  job: JobDetailRow;
  /** `null` adds a trigger. */
  onEdit: (trigger: JobTriggerRow | null) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const { can } = useCan();
  const act = useJobAction();
  const canStart = can(JOB_PERMS.start);
  const canPause = can(JOB_PERMS.pause);
  const canAdd = can(JOB_PERMS.triggerAdd);
  const canEdit = can(JOB_PERMS.triggerUpdate);
  const canDelete = can(JOB_PERMS.triggerDelete);

  const confirmDelete = (trigger: JobTriggerRow) =>
    modal.confirm({
      title: t('crud.confirmDeleteTitle'),
      content: t('sysJob.confirmDeleteTrigger', { triggerId: trigger.triggerId, jobId: job.jobId }),
      okText: t('crud.delete'),
      okType: 'danger',
      okButtonProps: { danger: true, 'data-testid': 'trigger-delete-ok' } as never,
      cancelText: t('common.cancel'),
      onOk: () => act(() => jobApi.removeTrigger(job.jobId, trigger.triggerId), t('crud.deleted')),
    });

  const columns: ColumnsType<JobTriggerRow> = [
    {
      key: 'triggerId',
      dataIndex: 'triggerId',
      title: t('sysJob.triggerId'),
      width: 130,
      render: (value: string, row) => (
        <Space orientation="vertical" size={0}>
          <span>{value}</span>
          {row.description ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {row.description}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'schedule',
      title: t('sysJob.schedule'),
      width: 190,
      render: (_, row) =>
        row.triggerType === 'cron' ? (
          <Space size={4}>
            <Tag>{t('sysJob.triggerTypes.cron')}</Tag>
            <Typography.Text code>{row.cron}</Typography.Text>
          </Space>
        ) : (
          <Space size={4}>
            <Tag>{t('sysJob.triggerTypes.period')}</Tag>
            <span>{t('sysJob.everySeconds', { count: row.periodSeconds ?? 0 })}</span>
          </Space>
        ),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('crud.status'),
      width: 80,
      render: (status: number) => <TriggerStatusTag status={status} />,
    },
    {
      key: 'nextRunTime',
      dataIndex: 'nextRunTime',
      title: t('sysJob.nextRunTime'),
      width: 160,
      render: (value: string | null) => value ?? '-',
    },
    {
      key: 'lastRunTime',
      dataIndex: 'lastRunTime',
      title: t('sysJob.lastRunTime'),
      width: 160,
      render: (value: string | null) => value ?? '-',
    },
    {
      key: 'runs',
      title: t('sysJob.runsErrors'),
      width: 100,
      align: 'right',
      render: (_, row) => (
        <span>
          {row.numberOfRuns}
          {row.maxNumberOfRuns > 0 ? ` / ${row.maxNumberOfRuns}` : ''}
          {' · '}
          <Typography.Text type={row.numberOfErrors > 0 ? 'danger' : 'secondary'}>
            {row.numberOfErrors}
          </Typography.Text>
        </span>
      ),
    },
    {
      key: 'window',
      title: t('sysJob.window'),
      width: 170,
      render: (_, row) =>
        row.startTime || row.endTime ? (
          <Space orientation="vertical" size={0} style={{ fontSize: 12 }}>
            <span>{t('sysJob.from', { time: row.startTime ?? t('sysJob.now') })}</span>
            <span>{t('sysJob.until', { time: row.endTime ?? t('sysJob.noEnd') })}</span>
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('sysJob.always')}</Typography.Text>
        ),
    },
  ];
  const actionWidth = (canStart || canPause ? 56 : 0) + (canEdit ? 56 : 0) + (canDelete ? 56 : 0);
  if (actionWidth > 0) {
    columns.push({
      key: 'actions',
      title: t('crud.actions'),
      width: actionWidth,
      render: (_, row) => (
        <Space size={0}>
          {row.status === TRIGGER_STATUS.running && canPause ? (
            <Button
              type="link"
              size="small"
              onClick={() => act(() => jobApi.pauseTrigger(job.jobId, row.triggerId), t('sysJob.paused'))}
              data-testid={`trigger-pause-${job.jobId}-${row.triggerId}`}
            >
              {t('sysJob.pause')}
            </Button>
          ) : null}
          {row.status !== TRIGGER_STATUS.running && canStart ? (
            <Button
              type="link"
              size="small"
              onClick={() => act(() => jobApi.startTrigger(job.jobId, row.triggerId), t('sysJob.started'))}
              data-testid={`trigger-start-${job.jobId}-${row.triggerId}`}
            >
              {t('sysJob.start')}
            </Button>
          ) : null}
          {canEdit ? (
            <Button
              type="link"
              size="small"
              onClick={() => onEdit(row)}
              data-testid={`trigger-edit-${job.jobId}-${row.triggerId}`}
            >
              {t('crud.edit')}
            </Button>
          ) : null}
          {canDelete ? (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => confirmDelete(row)}
              data-testid={`trigger-delete-${job.jobId}-${row.triggerId}`}
            >
              {t('crud.delete')}
            </Button>
          ) : null}
        </Space>
      ),
    });
  }

  return (
    <div data-testid={`job-triggers-${job.jobId}`} style={{ padding: '4px 0' }}>
      <Table<JobTriggerRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={job.triggers}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('sysJob.noTriggers') }}
        title={() => (
          <Space style={{ width: '100%', justifyContent: 'space-between' }}>
            <Typography.Text strong>{t('sysJob.triggersOf', { jobId: job.jobId })}</Typography.Text>
            {canAdd ? (
              <Button
                size="small"
                icon={<PlusOutlined />}
                onClick={() => onEdit(null)}
                data-testid={`trigger-add-${job.jobId}`}
              >
                {t('sysJob.addTrigger')}
              </Button>
            ) : null}
          </Space>
        )}
      />
    </div>
  );
}
