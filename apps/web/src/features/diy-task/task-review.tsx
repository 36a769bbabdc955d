import type {
  ReviewAction,
  TaskReviewCompare,
  TaskReviewInput,
  TaskReviewRow,
  TaskReviewStep,
} from '@shuzhi/contracts/diy-task-review';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Drawer,
  Empty,
  Form,
  Input,
  Space,
  Switch,
  Table,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { http } from '../../platform/http/http.ts';

const silent = { silent: true } as const;

/** Level-by-level review (`/api/diyTask/reviews | review | reviewSteps | reviewCompare`; docs/tasks.md). */
const reviewApi = {
  list: (id: number, mine: boolean) =>
    http.get<TaskReviewRow[]>('/api/diyTask/reviews', mine ? { id, mine: 'true' } : { id }, silent),
  review: (body: TaskReviewInput) => http.post<null>('/api/diyTask/review', body, silent),
  steps: (id: number, tableId: number, recordId: number) =>
    http.get<TaskReviewStep[]>('/api/diyTask/reviewSteps', { id, tableId, recordId }, silent),
  compare: (id: number, tableId: number, recordId: number) =>
    http.get<TaskReviewCompare>('/api/diyTask/reviewCompare', { id, tableId, recordId }, silent),
};

/** Under `diyTask`, so that the task pages' one invalidation refreshes them too. */
const REVIEW_KEYS = {
  list: (id: number, mine: boolean) => ['diyTask', 'reviews', id, mine] as const,
  steps: (id: number, row: TaskReviewRow) =>
    ['diyTask', 'reviewSteps', id, row.tableId, row.recordId] as const,
  compare: (id: number, row: TaskReviewRow) =>
    ['diyTask', 'reviewCompare', id, row.tableId, row.recordId] as const,
};

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** A change as `+4（+0.1%）`; a change of a fifth or more of the last value is shown in red. */
function ChangeText({ change, ratio }: { change: number | null; ratio: number | null }) {
  if (change === null) return <Typography.Text type="secondary">—</Typography.Text>;
  const percent = ratio === null ? '' : `（${signed(Math.round(ratio * 1000) / 10)}%）`;
  const large = ratio !== null && Math.abs(ratio) >= 0.2;
  return (
    <Typography.Text type={large ? 'danger' : undefined} strong={large} data-testid="task-review-change">
      {signed(change)}
      {percent}
    </Typography.Text>
  );
}

/** 与上期对比: each figure beside the unit's figure of the previous period, with the change. */
function CompareTable({ taskId, row }: { taskId: number; row: TaskReviewRow }) {
  const { t } = useTranslation();
  const compare = useQuery({
    queryKey: REVIEW_KEYS.compare(taskId, row),
    queryFn: () => reviewApi.compare(taskId, row.tableId, row.recordId),
  });
  const data = compare.data;
  const columns: ColumnsType<TaskReviewCompare['fields'][number]> = [
    { key: 'label', title: t('taskReview.field'), dataIndex: 'label' },
    { key: 'value', title: t('taskReview.value'), render: (_, f) => f.value ?? '—' },
    { key: 'last', title: t('taskReview.lastValue'), render: (_, f) => f.lastValue ?? '—' },
    { key: 'change', title: t('taskReview.change'), render: (_, f) => <ChangeText {...f} /> },
  ];
  return (
    <Card size="small" title={t('taskReview.compare')} data-testid="task-review-compare">
      <Typography.Paragraph type="secondary">
        {data?.lastPeriodName ? t('taskReview.lastPeriod', { period: data.lastPeriodName }) : null}
        {data && data.lastRecordId === null ? t('taskReview.noLast') : null}
      </Typography.Paragraph>
      <Table
        rowKey="field"
        size="small"
        pagination={false}
        loading={compare.isFetching}
        columns={columns}
        dataSource={data?.fields ?? []}
        locale={{ emptyText: compare.isError ? compare.error.message : t('taskReview.noFigures') }}
      />
    </Card>
  );
}

/** 审核记录: every step of the record — level, unit, action, comment, who and when. */
function StepList({ taskId, row }: { taskId: number; row: TaskReviewRow }) {
  const { t } = useTranslation();
  const steps = useQuery({
    queryKey: REVIEW_KEYS.steps(taskId, row),
    queryFn: () => reviewApi.steps(taskId, row.tableId, row.recordId),
  });
  const list = steps.data ?? [];
  return (
    <Card size="small" title={t('taskReview.steps')} data-testid="task-review-steps">
      {list.length === 0 ? (
        <Typography.Text type="secondary">{t('taskReview.noSteps')}</Typography.Text>
      ) : (
        <Timeline
          items={list.map((s) => ({
            color: s.action === 'return' ? 'red' : 'green',
            content: (
              <Space orientation="vertical" size={0} data-testid="task-review-step">
                <Space size={6} wrap>
                  <Tag color={s.action === 'return' ? 'orange' : 'green'}>
                    {t(`taskReview.actionNames.${s.action}`)}
                  </Tag>
                  <span>{s.orgName}</span>
                  <Typography.Text type="secondary">
                    {s.level === 0 ? t('taskReview.creatorLevel') : t('taskReview.level', { level: s.level })}
                  </Typography.Text>
                  <Typography.Text type="secondary">
                    {[s.userName, s.createTime.slice(0, 16)].filter(Boolean).join(' · ')}
                  </Typography.Text>
                </Space>
                {s.comment ? <Typography.Text>{s.comment}</Typography.Text> : null}
              </Space>
            ),
          }))}
        />
      )}
    </Card>
  );
}

/** The review drawer: the comparison, the steps, and (when the record waits for the caller) pass / return. */
function ReviewDrawer({
  taskId,
  row,
  onClose,
  onDone,
}: {
  taskId: number;
  row: TaskReviewRow | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ comment?: string }>();
  const [saving, setSaving] = useState<ReviewAction | null>(null);
  const act = async (action: ReviewAction) => {
    if (!row || saving) return;
    const comment = (form.getFieldValue('comment') ?? '').trim();
    if (action === 'return' && !comment) {
      form.setFields([{ name: 'comment', errors: [t('taskReview.commentRequired')] }]);
      return;
    }
    setSaving(action);
    try {
      await reviewApi.review({ taskId, tableId: row.tableId, recordIds: [row.recordId], action, comment });
      message.success(t(action === 'pass' ? 'taskReview.passed' : 'taskReview.returned'));
      form.resetFields();
      onDone();
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, ['comment']);
      if (fields.length > 0) form.setFields(fields as Parameters<typeof form.setFields>[0]);
      if (rest.length > 0 || fields.length === 0) message.error(rest.join(' ') || (error as Error).message);
    } finally {
      setSaving(null);
    }
  };
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size={640}
      destroyOnHidden
      title={row ? t('taskReview.drawerTitle', { unit: row.orgName ?? row.receiverName }) : ''}
      data-testid="task-review-drawer"
    >
      {row ? (
        <Space orientation="vertical" style={{ width: '100%' }} size={12}>
          <Typography.Text type="secondary">
            {[row.tableTitle, row.createUserName, row.submitTime?.slice(0, 16)].filter(Boolean).join(' · ')}
          </Typography.Text>
          <CompareTable taskId={taskId} row={row} />
          <StepList taskId={taskId} row={row} />
          {row.canReview ? (
            <Form form={form} layout="vertical" data-testid="task-review-form">
              <Form.Item name="comment" label={t('taskReview.comment')}>
                <Input.TextArea
                  rows={3}
                  maxLength={500}
                  placeholder={t('taskReview.commentPlaceholder')}
                  data-testid="task-review-comment"
                />
              </Form.Item>
              <Space>
                <Button
                  type="primary"
                  loading={saving === 'pass'}
                  onClick={() => void act('pass')}
                  data-testid="task-review-pass"
                >
                  {t('taskReview.pass')}
                </Button>
                <Button
                  danger
                  loading={saving === 'return'}
                  onClick={() => void act('return')}
                  data-testid="task-review-return"
                >
                  {t('taskReview.return')}
                </Button>
              </Space>
            </Form>
          ) : null}
        </Space>
      ) : null}
    </Drawer>
  );
}

/**
 * 逐级审核 on the task detail: the records in review the caller sees, the level each waits for; 审核 opens the
 * drawer for those waiting for the caller's own level (with `diyTask:review`), 审核记录 for the others.
 */
export function TaskReviewCard({ id, onReviewed }: { id: number; onReviewed(): void }) {
  const { t } = useTranslation();
  const { can } = useCan();
  const [mine, setMine] = useState(false);
  const [open, setOpen] = useState<TaskReviewRow | null>(null);
  const list = useQuery({ queryKey: REVIEW_KEYS.list(id, mine), queryFn: () => reviewApi.list(id, mine) });
  const columns: ColumnsType<TaskReviewRow> = [
    { key: 'form', title: t('taskReview.form'), dataIndex: 'tableTitle', ellipsis: true },
    {
      key: 'unit',
      title: t('taskReview.unit'),
      render: (_, r) =>
        r.orgName && r.orgName !== r.receiverName ? `${r.receiverName} · ${r.orgName}` : r.receiverName,
    },
    { key: 'filler', title: t('taskReview.filler'), width: 100, dataIndex: 'createUserName' },
    {
      key: 'submit',
      title: t('taskReview.submitTime'),
      width: 140,
      render: (_, r) => r.submitTime?.slice(0, 16) ?? '',
    },
    {
      key: 'progress',
      title: t('taskReview.progress'),
      width: 100,
      render: (_, r) => t('taskReview.passedOf', { passed: r.passed, levels: r.levels }),
    },
    {
      key: 'awaiting',
      title: t('taskReview.awaiting'),
      render: (_, r) => (r.awaiting ? <Tag color="geekblue">{r.awaiting}</Tag> : null),
    },
    {
      key: 'actions',
      title: t('taskReview.actions'),
      width: 110,
      render: (_, r) => (
        <Button
          size="small"
          type={r.canReview ? 'primary' : 'link'}
          onClick={() => setOpen(r)}
          data-testid={r.canReview ? 'task-review-open' : 'task-review-steps-open'}
        >
          {r.canReview ? t('taskReview.review') : t('taskReview.steps')}
        </Button>
      ),
    },
  ];
  return (
    <Card
      size="small"
      title={t('taskReview.title')}
      extra={
        can('diyTask:review') ? (
          <Space size={6}>
            <Switch size="small" checked={mine} onChange={setMine} data-testid="task-review-mine" />
            {t('taskReview.mineOnly')}
          </Space>
        ) : null
      }
      data-testid="task-review"
    >
      <Table<TaskReviewRow>
        rowKey={(r) => `${r.tableId}:${r.recordId}`}
        size="small"
        columns={columns}
        dataSource={list.data ?? []}
        loading={list.isFetching}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{
          emptyText: list.isError ? (
            list.error.message
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('taskReview.empty')} />
          ),
        }}
      />
      <ReviewDrawer
        taskId={id}
        row={open}
        onClose={() => setOpen(null)}
        onDone={() => {
          setOpen(null);
          onReviewed();
        }}
      />
    </Card>
  );
}
