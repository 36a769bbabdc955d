import { FormOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Empty,
  Skeleton,
  Space,
  Table,
  type TableColumnsType,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RecordStatusTag } from '../../components/diy-record/record-status-tag.tsx';
import { useFormPasswordPrompt } from '../../components/diy-report/form-password.tsx';
import { canOpenFormItem, openFormItem } from '../../components/diy-report/open-form-item.ts';
import { MY_TASK_PATH, useHasMyTasks, useMyTaskCount } from '../../components/diy-task/my-task-count.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { todayInZone } from '../../platform/time/time-zone.ts';
import { HOME_KEYS, homeApi, type MyFiling } from './home.api.ts';
import { daysToDue, isFiled, isLate } from './my-filings.model.ts';

const FILL_LIST_PATH = '/diyReport';

/** 我的任务 with how many parts are still to do (issue 19 §7), for those with the 我的任务 menu. */
function MyTasksLink() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const allowed = useHasMyTasks();
  const count = useMyTaskCount(allowed);
  if (!allowed) return null;
  return (
    <Button type="link" size="small" onClick={() => navigate(MY_TASK_PATH)} data-testid="my-filings-tasks">
      {t('myFilings.myTasks', { n: count })}
    </Button>
  );
}

/** The due date with how far it is from today in the product's zone (剩 3 天 / 今天截止 / 已过 2 天). */
function DueCell({ filing, today }: { filing: MyFiling; today: string }) {
  const { t } = useTranslation();
  const days = daysToDue(filing.currentPeriod.dueDate, today);
  const note =
    days > 0
      ? t('myFilings.daysLeft', { count: days })
      : days === 0
        ? t('myFilings.dueToday')
        : t('myFilings.daysPast', { count: -days });
  const urgent = days <= 0 && !isFiled(filing);
  return (
    <Space size={6} wrap data-testid="my-filing-due">
      <span>{filing.currentPeriod.dueDate}</span>
      <Typography.Text type={urgent ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
        {note}
      </Typography.Text>
    </Space>
  );
}

/** The caller's own record: 未填报 or its status, with 逾期 when it is (or would be) late. */
function StateCell({ filing }: { filing: MyFiling }) {
  const { t } = useTranslation();
  const tag =
    filing.recordStatus === null ? (
      <Tag data-testid="diy-record-status" data-status="none">
        {t('myFilings.notFiled')}
      </Tag>
    ) : (
      <RecordStatusTag status={filing.recordStatus} />
    );
  return (
    <Space size={4} wrap>
      {filing.recordTime ? (
        <Tooltip title={t('myFilings.updated', { time: filing.recordTime })}>{tag}</Tooltip>
      ) : (
        tag
      )}
      {isLate(filing) ? (
        <Tag color="orange" data-testid="my-filing-late">
          {t('myFilings.late')}
        </Tag>
      ) : null}
    </Space>
  );
}

/**
 * 本期填报 on the home page (issue 16 §5): the forms the caller files this period — form, period, due date, the
 * state of their own record — each with a button that opens its fill page (with the form-password prompt).
 */
export function MyFilingsCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const { prompt, contextHolder } = useFormPasswordPrompt();
  const query = useQuery({ queryKey: HOME_KEYS.myFilings, queryFn: homeApi.myFilings });
  const today = todayInZone();

  const openNow = useCallback(
    (filing: MyFiling) => {
      void openFormItem(filing, navigate, {
        prompt,
        onTipCleared: () => void client.invalidateQueries({ queryKey: ['diyTable', 'tableList'] }),
      });
    },
    [navigate, prompt, client],
  );
  const open = useReclickGuard(openNow);

  const columns: TableColumnsType<MyFiling> = [
    {
      key: 'title',
      title: t('myFilings.form'),
      dataIndex: 'title',
      ellipsis: true,
      render: (title: string) => (
        <Typography.Text strong data-testid="my-filing-title">
          {title}
        </Typography.Text>
      ),
    },
    {
      key: 'period',
      title: t('myFilings.period'),
      width: 130,
      render: (_, filing) => <span data-testid="my-filing-period">{filing.currentPeriod.name}</span>,
    },
    {
      key: 'due',
      title: t('myFilings.due'),
      width: 190,
      render: (_, filing) => <DueCell filing={filing} today={today} />,
    },
    {
      key: 'state',
      title: t('myFilings.state'),
      width: 150,
      render: (_, filing) => <StateCell filing={filing} />,
    },
    {
      key: 'action',
      title: t('myFilings.action'),
      width: 110,
      render: (_, filing) => {
        const done = isFiled(filing);
        const label =
          filing.recordStatus === null
            ? t('myFilings.fill')
            : done
              ? t('myFilings.view')
              : t('myFilings.edit');
        return (
          <Button
            size="small"
            type={done ? 'default' : 'primary'}
            disabled={!canOpenFormItem(filing)}
            onClick={() => open(filing)}
            data-testid="my-filing-open"
          >
            {label}
          </Button>
        );
      },
    },
  ];

  return (
    <Card
      title={
        <Space>
          <FormOutlined />
          {t('myFilings.title')}
        </Space>
      }
      extra={
        <Space size={0}>
          <MyTasksLink />
          <Button
            type="link"
            size="small"
            onClick={() => navigate(FILL_LIST_PATH)}
            data-testid="my-filings-all"
          >
            {t('myFilings.all')}
          </Button>
        </Space>
      }
      styles={{ body: { paddingBlock: 12 } }}
      data-testid="my-filings"
    >
      {contextHolder}
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('myFilings.failed')}
          description={query.error.message}
          action={
            <Button size="small" onClick={() => void query.refetch()}>
              {t('common.retry')}
            </Button>
          }
          data-testid="my-filings-error"
        />
      ) : query.isPending ? (
        <div data-testid="my-filings-loading">
          <Skeleton active paragraph={{ rows: 3 }} />
        </div>
      ) : query.data.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('myFilings.empty')}
          data-testid="my-filings-empty"
        />
      ) : (
        <Table<MyFiling>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={query.data}
          pagination={query.data.length > 6 ? { pageSize: 6, size: 'small' } : false}
          scroll={{ x: 720 }}
          onRow={(filing) => ({ 'data-testid': 'my-filing', 'data-id': filing.id }) as object}
        />
      )}
    </Card>
  );
}
