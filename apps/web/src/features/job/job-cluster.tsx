import { CrownFilled, ReloadOutlined } from '@ant-design/icons';
import type { JobClusterRow } from '@shuzhi/contracts/job';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Result, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { JOB_KEYS, jobApi } from './job.api.ts';

/** Heartbeats come every few seconds; the list follows them while it is open. */
const CLUSTER_REFRESH_MS = 10_000;

/** The server processes that take part in scheduling; one of them, the leader, runs the triggers. */
export function JobCluster() {
  const { t } = useTranslation();
  const query = useQuery<JobClusterRow[]>({
    queryKey: JOB_KEYS.cluster,
    queryFn: () => jobApi.cluster(),
    refetchInterval: CLUSTER_REFRESH_MS,
  });
  const columns: ColumnsType<JobClusterRow> = [
    {
      key: 'nodeId',
      dataIndex: 'nodeId',
      title: t('sysJob.nodeId'),
      width: 260,
      render: (value: string, row) => (
        <Space size={6} wrap>
          <Typography.Text copyable={{ text: value }}>{value}</Typography.Text>
          {row.isLeader ? (
            <Tag color="gold" icon={<CrownFilled />} data-testid="cluster-leader">
              {t('sysJob.leader')}
            </Tag>
          ) : null}
          {row.isSelf ? (
            <Tag color="blue" data-testid="cluster-self">
              {t('sysJob.thisProcess')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'host',
      dataIndex: 'host',
      title: t('sysJob.host'),
      width: 160,
      render: (v: string | null) => v ?? '-',
    },
    {
      key: 'pid',
      dataIndex: 'pid',
      title: 'PID',
      width: 90,
      align: 'right',
      render: (v: number | null) => v ?? '-',
    },
    {
      key: 'version',
      dataIndex: 'version',
      title: t('sysJob.version'),
      width: 100,
      render: (v: string | null) => v ?? '-',
    },
    { key: 'startTime', dataIndex: 'startTime', title: t('sysJob.nodeStart'), width: 170 },
    { key: 'heartbeatTime', dataIndex: 'heartbeatTime', title: t('sysJob.heartbeat'), width: 170 },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('crud.status'),
      width: 100,
      render: (status: number) => (
        <Badge
          status={status === 1 ? 'success' : 'default'}
          text={t(status === 1 ? 'sysJob.online' : 'sysJob.stopped')}
        />
      ),
    },
  ];
  return (
    <div data-testid="job-cluster">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('sysJob.clusterHelp')}</Typography.Text>
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            loading={query.isFetching}
            onClick={() => void query.refetch()}
            aria-label={t('crud.refresh')}
          />
        </Tooltip>
      </Space>
      {query.isError ? (
        <Result
          status="error"
          title={t('crud.loadFailed')}
          subTitle={query.error instanceof Error ? query.error.message : undefined}
          extra={<Button onClick={() => void query.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<JobClusterRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={query.data ?? []}
          loading={query.isPending}
          pagination={false}
          scroll={{ x: 'max-content' }}
          locale={{ emptyText: t('sysJob.noNodes') }}
        />
      )}
    </div>
  );
}
