import { CloudServerOutlined, DatabaseOutlined, HddOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ServerInfo } from '@shuzhi/contracts/server';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Progress,
  Row,
  Skeleton,
  Space,
  Switch,
  Tag,
  Typography,
  theme,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatDuration, usageStatus } from '../../platform/format/format.ts';
import { serverApi } from './server.api.ts';

const REFRESH_MS = 5000;
const INFO_KEY = ['sysServer', 'info'] as const;

/**
 * 服务监控 (issue 4 §7): CPU, memory and disk gauges, runtime and storage facts. Refreshes every 5 s while the
 * page is shown (React Query stops polling in a hidden tab), unless paused.
 */
export default function ServerPage() {
  const { t } = useTranslation();
  const [live, setLive] = useState(true);
  const info = useQuery({
    queryKey: INFO_KEY,
    queryFn: serverApi.info,
    refetchInterval: live ? REFRESH_MS : false,
    refetchIntervalInBackground: false,
  });
  const data = info.data;

  const toolbar = (
    <Space wrap size={12}>
      {data ? (
        <Typography.Text type="secondary" data-testid="server-updated">
          {t('monitor.updatedAt', { time: data.time })}
        </Typography.Text>
      ) : null}
      <Space size={6}>
        <Switch size="small" checked={live} onChange={setLive} data-testid="server-live" />
        <Typography.Text>{live ? t('monitor.autoRefresh') : t('monitor.paused')}</Typography.Text>
      </Space>
      <Button
        size="small"
        icon={<ReloadOutlined spin={info.isFetching} />}
        onClick={() => void info.refetch()}
        data-testid="server-refresh"
      >
        {t('monitor.refresh')}
      </Button>
    </Space>
  );

  if (info.isError && !data) {
    return (
      <Card title={t('monitor.title')} extra={toolbar}>
        <Alert
          type="error"
          showIcon
          title={t('monitor.loadFailed')}
          description={info.error.message}
          action={
            <Button size="small" onClick={() => void info.refetch()}>
              {t('common.retry')}
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="server-page">
      <Card size="small" styles={{ body: { padding: '10px 16px' } }}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 12, alignItems: 'center' }}>
          <Space size={8}>
            <CloudServerOutlined />
            <Typography.Text strong>{t('monitor.title')}</Typography.Text>
            {data ? <Tag data-testid="server-hostname">{data.runtime.hostname}</Tag> : null}
          </Space>
          <div style={{ marginLeft: 'auto' }}>{toolbar}</div>
        </div>
      </Card>
      {!data ? (
        <Card>
          <Skeleton active paragraph={{ rows: 10 }} />
        </Card>
      ) : (
        <ServerFigures info={data} />
      )}
    </Space>
  );
}

function Gauge({
  title,
  icon,
  percent,
  testId,
  children,
}: {
  title: string;
  icon: ReactNode;
  percent: number | null;
  testId: string;
  children: ReactNode;
}) {
  const { token } = theme.useToken();
  const status = percent === null ? 'normal' : usageStatus(percent);
  const color = { normal: token.colorPrimary, warning: token.colorWarning, danger: token.colorError }[status];
  return (
    <Card
      title={
        <Space size={8}>
          {icon}
          {title}
        </Space>
      }
      style={{ height: '100%' }}
      data-testid={testId}
    >
      <div style={{ display: 'flex', alignItems: 'center', gap: 20, flexWrap: 'wrap' }}>
        <Progress
          type="dashboard"
          percent={percent ?? 0}
          size={120}
          strokeColor={color}
          format={(p) => (percent === null ? '-' : `${(p ?? 0).toFixed(1)}%`)}
          data-testid={`${testId}-percent`}
        />
        <div style={{ flex: '1 1 160px', minWidth: 0 }}>{children}</div>
      </div>
    </Card>
  );
}

/** A label/value line inside a gauge card. */
function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8, lineHeight: '26px' }}>
      <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap' }}>
        {label}
      </Typography.Text>
      <Typography.Text ellipsis style={{ textAlign: 'right', minWidth: 0 }}>
        {children}
      </Typography.Text>
    </div>
  );
}

function ServerFigures({ info }: { info: ServerInfo }) {
  const { t } = useTranslation();
  const { cpu, memory, disk, runtime, database, cache } = info;
  const dbName = database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={12} xl={8}>
        <Gauge
          title={t('monitor.cpu')}
          icon={<CloudServerOutlined />}
          percent={cpu.usage}
          testId="server-cpu"
        >
          <Fact label={t('monitor.cores')}>{cpu.cores}</Fact>
          <Fact label={t('monitor.loadAverage')}>{cpu.loadAverage.map((n) => n.toFixed(2)).join(' ')}</Fact>
          <Typography.Text
            type="secondary"
            ellipsis
            style={{ fontSize: 12, display: 'block' }}
            title={cpu.model}
          >
            {cpu.model}
          </Typography.Text>
        </Gauge>
      </Col>
      <Col xs={24} md={12} xl={8}>
        <Gauge
          title={t('monitor.memory')}
          icon={<DatabaseOutlined />}
          percent={memory.usage}
          testId="server-memory"
        >
          <Fact label={t('monitor.used')}>{formatBytes(memory.used)}</Fact>
          <Fact label={t('monitor.free')}>{formatBytes(memory.free)}</Fact>
          <Fact label={t('monitor.total')}>{formatBytes(memory.total)}</Fact>
        </Gauge>
      </Col>
      <Col xs={24} md={24} xl={8}>
        <Gauge
          title={t('monitor.disk')}
          icon={<HddOutlined />}
          percent={disk?.usage ?? null}
          testId="server-disk"
        >
          {disk ? (
            <>
              <Fact label={t('monitor.used')}>{formatBytes(disk.used)}</Fact>
              <Fact label={t('monitor.free')}>{formatBytes(disk.free)}</Fact>
              <Fact label={t('monitor.total')}>{formatBytes(disk.total)}</Fact>
              <Typography.Text
                type="secondary"
                ellipsis
                style={{ fontSize: 12, display: 'block' }}
                title={disk.path}
              >
                {t('monitor.diskPath')}: {disk.path}
              </Typography.Text>
            </>
          ) : (
            <Typography.Text type="secondary">{t('monitor.diskUnavailable')}</Typography.Text>
          )}
        </Gauge>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('monitor.runtime')} style={{ height: '100%' }} data-testid="server-runtime">
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 2, xl: 1, xxl: 2 }}
            items={[
              { key: 'os', label: t('monitor.os'), children: `${runtime.os} · ${runtime.osRelease}` },
              { key: 'arch', label: t('monitor.arch'), children: runtime.arch },
              {
                key: 'node',
                label: t('monitor.node'),
                children: <span data-testid="server-node">{runtime.nodeVersion}</span>,
              },
              { key: 'app', label: t('monitor.appVersion'), children: runtime.appVersion },
              {
                key: 'systemUptime',
                label: t('monitor.systemUptime'),
                children: formatDuration(t, runtime.systemUptime),
              },
              {
                key: 'processUptime',
                label: t('monitor.processUptime'),
                children: <span data-testid="server-uptime">{formatDuration(t, runtime.processUptime)}</span>,
              },
              { key: 'start', label: t('monitor.startTime'), children: runtime.startTime },
              { key: 'pid', label: t('monitor.pid'), children: runtime.pid },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} xl={12}>
        <Card title={t('monitor.storage')} style={{ height: '100%' }} data-testid="server-storage">
          <Descriptions
            size="small"
            bordered
            column={{ xs: 1, sm: 2, xl: 1, xxl: 2 }}
            items={[
              {
                key: 'db',
                label: t('monitor.database'),
                children: <span data-testid="server-db-kind">{dbName}</span>,
              },
              {
                key: 'dbVersion',
                label: t('monitor.dbVersion'),
                children: database.version ?? t('monitor.unknown'),
              },
              {
                key: 'dbSize',
                label: t('monitor.dbSize'),
                children: (
                  <span data-testid="server-db-size">
                    {database.size === null ? t('monitor.unknown') : formatBytes(database.size)}
                  </span>
                ),
              },
              {
                key: 'cache',
                label: t('monitor.cache'),
                children: t(cache.kind === 'redis' ? 'monitor.redis' : 'monitor.memoryCache'),
              },
              {
                key: 'cacheKeys',
                label: t('monitor.cacheKeys'),
                children: cache.keys ?? t('monitor.unknown'),
              },
              { key: 'rss', label: t('monitor.rss'), children: formatBytes(memory.processRss) },
              {
                key: 'heap',
                label: t('monitor.heap'),
                children: `${formatBytes(memory.heapUsed)} / ${formatBytes(memory.heapTotal)}`,
              },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
