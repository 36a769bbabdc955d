import { ClusterOutlined, FundOutlined, HistoryOutlined, ScheduleOutlined } from '@ant-design/icons';
import { Button, Card, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useCan } from '../../platform/access/access.tsx';
import { JOB_PERMS } from './job-actions.ts';
import { JobCluster } from './job-cluster.tsx';
import { JobRecords, type RecordFocus } from './job-records.tsx';
import { JobTable } from './job-table.tsx';

/** The hidden menu page that embeds the API's /schedule board (SPEC §2). */
const JOB_DASHBOARD_PATH = '/platform/job/dashboard';

type TabKey = 'jobs' | 'records' | 'cluster';

/** 任务调度 (issue 4 §8): jobs and their triggers, run records, the cluster, and a way to the board. */
export default function JobPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { can } = useCan();
  const [tab, setTab] = useState<TabKey>('jobs');
  const [focus, setFocus] = useState<RecordFocus | null>(null);

  const showRecords = (jobId: string, recordId?: number) => {
    setFocus((previous) => ({ jobId, recordId, nonce: (previous?.nonce ?? 0) + 1 }));
    setTab('records');
  };

  const items = [
    {
      key: 'jobs',
      label: t('sysJob.tabJobs'),
      icon: <ScheduleOutlined />,
      children: (
        <JobTable
          onRan={(jobId, recordId) => showRecords(jobId, recordId)}
          onShowRecords={(jobId) => showRecords(jobId)}
        />
      ),
    },
    ...(can(JOB_PERMS.records)
      ? [
          {
            key: 'records',
            label: t('sysJob.tabRecords'),
            icon: <HistoryOutlined />,
            children: <JobRecords focus={focus} />,
          },
        ]
      : []),
    ...(can(JOB_PERMS.cluster)
      ? [
          {
            key: 'cluster',
            label: t('sysJob.tabCluster'),
            icon: <ClusterOutlined />,
            children: <JobCluster />,
          },
        ]
      : []),
  ];

  return (
    <Card
      title={t('sysJob.title')}
      extra={
        <Button
          icon={<FundOutlined />}
          onClick={() => navigate(JOB_DASHBOARD_PATH)}
          data-testid="job-open-dashboard"
        >
          {t('sysJob.openDashboard')}
        </Button>
      }
      data-testid="job-page"
    >
      <Tabs
        activeKey={tab}
        onChange={(key) => setTab(key as TabKey)}
        items={items}
        destroyOnHidden={false}
        style={{ marginTop: -12 }}
      />
    </Card>
  );
}
