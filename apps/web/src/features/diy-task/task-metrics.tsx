import type { ReviewLevelTurnaround, Timeliness } from '@shuzhi/contracts/diy-task-lifecycle';
import { useQuery } from '@tanstack/react-query';
import { Card, Table, Tabs } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { TASK_KEYS, taskApi } from './diy-task.api.ts';
import { useOrgTypeName } from './task-tags.tsx';

type Row = Timeliness & { key: string; name: string };

type LevelRow = ReviewLevelTurnaround & { name: string };

const fixed = (n: number | null, digits = 1) => (n === null ? '—' : n.toFixed(digits));
const percent = (n: number | null) => (n === null ? '—' : `${(n * 100).toFixed(1)}%`);

/**
 * 及时性: on-time rate, hours before due, returns per record, review turnaround — per unit and per level; with
 * level-by-level review, also the turnaround of each reviewing level (逐级审核用时).
 */
export function TaskMetricsCard({ id }: { id: number }) {
  const { t } = useTranslation();
  const typeName = useOrgTypeName();
  const metrics = useQuery({
    queryKey: TASK_KEYS.metrics(id),
    queryFn: () => taskApi.metrics(id),
    retry: false,
  });
  const figures: ColumnsType<Row> = [
    { key: 'expected', title: t('diyTaskLife.expected'), dataIndex: 'expected', width: 70 },
    { key: 'submitted', title: t('diyTaskLife.submitted'), dataIndex: 'submitted', width: 70 },
    { key: 'onTime', title: t('diyTaskLife.onTime'), dataIndex: 'onTime', width: 70 },
    {
      key: 'rate',
      title: t('diyTaskLife.onTimeRate'),
      width: 90,
      render: (_, r) => <span data-testid="task-metric-rate">{percent(r.onTimeRate)}</span>,
    },
    {
      key: 'before',
      title: t('diyTaskLife.avgHoursBeforeDue'),
      width: 120,
      render: (_, r) => fixed(r.avgHoursBeforeDue),
    },
    {
      key: 'returns',
      title: t('diyTaskLife.returnsPerRecord'),
      width: 110,
      render: (_, r) => fixed(r.returnsPerRecord, 2),
    },
    {
      key: 'review',
      title: t('diyTaskLife.avgReviewHours'),
      width: 130,
      render: (_, r) => fixed(r.avgReviewHours),
    },
  ];
  const table = (first: string, rows: Row[]) => (
    <Table<Row>
      rowKey="key"
      size="small"
      pagination={rows.length > 20 ? { pageSize: 20 } : false}
      columns={[{ key: 'name', title: first, dataIndex: 'name', width: 200 }, ...figures]}
      dataSource={rows}
      loading={metrics.isFetching}
      scroll={{ x: 860 }}
    />
  );
  const data = metrics.data;
  const total: Row[] = data ? [{ key: 'total', name: t('diyTaskLife.metricsTotal'), ...data.total }] : [];
  const levels: Row[] = (data?.levels ?? []).map((l) => ({
    ...l,
    key: `level-${l.orgType}`,
    name: typeName(l.orgType),
  }));
  const units: Row[] = (data?.units ?? []).map((u) => ({
    ...u,
    key: `unit-${u.receiverId}`,
    name: u.orgName,
  }));
  const reviewLevels: LevelRow[] = (data?.reviewLevels ?? []).map((l) => ({
    ...l,
    name:
      l.level === 0
        ? t('diyTaskLife.reviewLevelCreator')
        : `${t('diyTaskLife.reviewLevelDepth', { level: l.level })}${l.orgType ? ` · ${typeName(l.orgType)}` : ''}`,
  }));
  const byReviewLevel = (
    <Table<LevelRow>
      rowKey="level"
      size="small"
      pagination={false}
      data-testid="task-review-levels"
      columns={[
        { key: 'name', title: t('diyTaskLife.reviewLevel'), dataIndex: 'name', width: 220 },
        { key: 'passes', title: t('diyTaskLife.reviewPasses'), dataIndex: 'passes', width: 80 },
        { key: 'returns', title: t('diyTaskLife.reviewReturns'), dataIndex: 'returns', width: 80 },
        {
          key: 'review',
          title: t('diyTaskLife.avgReviewHours'),
          width: 130,
          render: (_, r) => fixed(r.avgReviewHours),
        },
      ]}
      dataSource={reviewLevels}
      loading={metrics.isFetching}
    />
  );
  return (
    <Card title={t('diyTaskLife.metrics')} size="small" data-testid="task-metrics">
      <Tabs
        items={[
          {
            key: 'level',
            label: t('diyTaskLife.byLevel'),
            children: table(t('diyTaskLife.metricsLevel'), [...levels, ...total]),
          },
          {
            key: 'unit',
            label: t('diyTaskLife.byUnit'),
            children: table(t('diyTaskLife.metricsUnit'), units),
          },
          ...(reviewLevels.length > 0
            ? [{ key: 'review', label: t('diyTaskLife.byReviewLevel'), children: byReviewLevel }]
            : []),
        ]}
      />
    </Card>
  );
}
