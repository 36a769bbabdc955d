import type { HomeSummary } from '@shuzhi/contracts/dashboard';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Col,
  Empty,
  Progress,
  Row,
  Skeleton,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { HOME_KEYS, homeApi } from './home.api.ts';

type Nav = (path: string) => void;

/** The four counts; each opens the list behind it. */
function Counts({ data, navigate, compact }: { data: HomeSummary; navigate: Nav; compact: boolean }) {
  const { t } = useTranslation();
  const returnedPath =
    data.returned.length === 1 && data.returned[0]
      ? `/diyReport/index/formTable?id=${data.returned[0].tableId}`
      : '/diyReport';
  const cards = [
    {
      key: 'tasks',
      title: t('homeWork.tasks'),
      value: data.tasks.open,
      foot: t('homeWork.tasksFoot', { overdue: data.tasks.overdue, soon: data.tasks.dueSoon }),
      danger: data.tasks.overdue > 0,
      path: '/diyTask/mine',
    },
    {
      key: 'review',
      title: t('homeWork.review'),
      value: data.review ?? '—',
      foot: data.review === null ? t('homeWork.noReview') : '',
      danger: false,
      path: '/diyReport/audit',
    },
    {
      key: 'returned',
      title: t('homeWork.returned'),
      value: data.returned.length,
      foot: data.returned.map((r) => r.title).join('、'),
      danger: data.returned.length > 0,
      path: returnedPath,
    },
    {
      key: 'unread',
      title: t('homeWork.unread'),
      value: data.notices.unread,
      foot: '',
      danger: false,
      path: '/notice/inbox',
    },
  ];
  return (
    <Row gutter={[12, 12]}>
      {cards.map((c) => (
        <Col key={c.key} xs={12} lg={compact ? 12 : 6}>
          <Card
            size="small"
            hoverable
            onClick={() => navigate(c.path)}
            data-testid={`home-count-${c.key}`}
            data-path={c.path}
            style={{ height: '100%' }}
          >
            <Statistic
              title={c.title}
              value={c.value}
              styles={{ content: c.danger ? { color: 'var(--ant-color-error)' } : undefined }}
            />
            {c.foot ? (
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, display: 'block' }}>
                {c.foot}
              </Typography.Text>
            ) : null}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function TaskList({ data, navigate }: { data: HomeSummary; navigate: Nav }) {
  const { t } = useTranslation();
  if (data.tasks.items.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeWork.noTasks')} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={6}>
      {data.tasks.items.map((task) => (
        <div key={task.id} style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
          <Typography.Link ellipsis onClick={() => navigate(`/diyTask/detail?id=${task.id}`)}>
            {task.title}
          </Typography.Link>
          <Tag color={task.overdue ? 'error' : 'processing'} style={{ marginInlineEnd: 0 }}>
            {task.overdue ? t('homeWork.overdue') : t('homeWork.due', { time: task.dueTime.slice(0, 16) })}
          </Tag>
        </div>
      ))}
    </Space>
  );
}

function OwnedProgress({ data, navigate }: { data: HomeSummary; navigate: Nav }) {
  const { t } = useTranslation();
  if (data.owned.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeWork.noOwned')} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={8}>
      {data.owned.map((form) => {
        const reported = form.expected - form.missing;
        return (
          <div key={form.tableId} data-testid="home-owned">
            <Typography.Link onClick={() => navigate(`/dataBoard/form?id=${form.tableId}`)}>
              {form.title}
            </Typography.Link>
            <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
              {form.expected > 0
                ? t('homeWork.progressLine', {
                    period: form.periodName,
                    reported,
                    expected: form.expected,
                    records: form.records,
                  })
                : t('homeWork.progressRecords', { period: form.periodName, records: form.records })}
            </Typography.Text>
            {form.expected > 0 ? (
              <Progress
                percent={Math.round((reported / form.expected) * 100)}
                size="small"
                aria-label={form.title}
              />
            ) : null}
          </div>
        );
      })}
    </Space>
  );
}

function Notices({ data, navigate }: { data: HomeSummary; navigate: Nav }) {
  const { t } = useTranslation();
  if (data.notices.items.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('homeWork.noNotices')} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={6}>
      {data.notices.items.map((n) => (
        <div key={n.id} style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
          <Typography.Link ellipsis strong={!n.read} onClick={() => navigate('/notice/inbox')}>
            {n.title}
          </Typography.Link>
          <Typography.Text type="secondary" style={{ whiteSpace: 'nowrap', fontSize: 12 }}>
            {n.publicTime?.slice(0, 10) ?? ''}
          </Typography.Text>
        </div>
      ))}
    </Space>
  );
}

/**
 * 我的工作 (issue 20 §1, `GET /api/dashboard/home`): my tasks and their due dates, records waiting for my
 * review, returned filings, this period's progress of the forms I administer and the latest notices; each
 * number opens the list behind it. `compact`: the simple console's narrower layout.
 */
export function WorkSummary({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const query = useQuery({ queryKey: HOME_KEYS.summary, queryFn: homeApi.summary, retry: false });
  if (query.isLoading)
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  if (!query.data) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('homeWork.failed')}
        action={
          <Button size="small" onClick={() => query.refetch()}>
            {t('homeWork.retry')}
          </Button>
        }
        data-testid="home-work-failed"
      />
    );
  }
  const data = query.data;
  const span = compact ? 24 : 8;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="home-work">
      <Counts data={data} navigate={navigate} compact={compact} />
      <Row gutter={[12, 12]}>
        <Col xs={24} lg={span}>
          <Card
            size="small"
            title={t('homeWork.taskList')}
            extra={
              <Typography.Link onClick={() => navigate('/diyTask/mine')}>
                {t('homeWork.more')}
              </Typography.Link>
            }
            style={{ height: '100%' }}
          >
            <TaskList data={data} navigate={navigate} />
          </Card>
        </Col>
        <Col xs={24} lg={span}>
          <Card
            size="small"
            title={t('homeWork.progress')}
            style={{ height: '100%' }}
            data-testid="home-progress"
          >
            <OwnedProgress data={data} navigate={navigate} />
          </Card>
        </Col>
        <Col xs={24} lg={span}>
          <Card
            size="small"
            title={t('homeWork.notices')}
            extra={
              <Typography.Link onClick={() => navigate('/notice/inbox')}>
                {t('homeWork.more')}
              </Typography.Link>
            }
            style={{ height: '100%' }}
          >
            <Notices data={data} navigate={navigate} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
