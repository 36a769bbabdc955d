import type { TaskDetail, TaskReceiver } from '@shuzhi/contracts/diy-task';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Result, Space, Spin, Tree, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RichTextView } from '../../components/rich-text/rich-text-view.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { hasErrorCode } from '../../platform/http/http-client.ts';
import { TASK_KEYS, taskApi } from './diy-task.api.ts';
import { HandOnDialog, type TaskPart, TransferDialog } from './task-actions.tsx';
import { TaskAttachmentList } from './task-attachments.tsx';
import { TaskGridCard, TaskHistory } from './task-grid.tsx';
import { TaskManageBar, TaskStateTag, TaskWarnings } from './task-manage.tsx';
import { TaskMetricsCard } from './task-metrics.tsx';
import { TaskReviewCard } from './task-review.tsx';
import { FormsCell, ReceiverStateTag } from './task-tags.tsx';
import { TaskUrgeRecords, UrgeDialog, type UrgeTarget, urgeableOf } from './task-urge.tsx';
import { urgePlanText } from './task-urge-plan.tsx';

type TreeNode = { key: number; title: ReactNode; children: TreeNode[] };

/** The receivers as a tree: each under the receiver that handed it on (visible ones only). */
export function receiverTree(
  receivers: readonly TaskReceiver[],
  label: (r: TaskReceiver) => ReactNode,
): TreeNode[] {
  const nodes = new Map(
    receivers.map((r) => [r.id, { key: r.id, title: label(r), children: [] as TreeNode[] }]),
  );
  const roots: TreeNode[] = [];
  for (const r of receivers) {
    const node = nodes.get(r.id) as TreeNode;
    const parent = r.parentId === null ? undefined : nodes.get(r.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

const idParam = (raw: string | null) => (raw && /^\d{1,16}$/.test(raw) ? Number(raw) : undefined);

/**
 * 任务详情 (issue 19): what is asked and by when, the distribution tree, the completeness grid (receivers ×
 * forms) and the history; the caller's own parts can be handed on or transferred from the tree.
 */
export default function TaskDetailPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params.get('id'));
  const client = useQueryClient();
  const { can } = useCan();
  const [handOn, setHandOn] = useState<TaskPart | null>(null);
  const [transfer, setTransfer] = useState<TaskPart | null>(null);
  const [urging, setUrging] = useState<UrgeTarget[] | null>(null);
  const [urgeRound, setUrgeRound] = useState(0);
  const detail = useQuery({
    queryKey: TASK_KEYS.detail(id ?? 0),
    queryFn: () => taskApi.detail(id ?? 0),
    enabled: id !== undefined,
    retry: false,
  });
  const done = () => {
    setHandOn(null);
    setTransfer(null);
    setUrging(null);
    setUrgeRound((n) => n + 1);
    void client.invalidateQueries({ queryKey: TASK_KEYS.all });
  };
  if (id === undefined || (detail.isError && hasErrorCode(detail.error, 'T1000')))
    return <Result status="404" title={t('diyTask.notFound')} />;
  if (detail.isError)
    return (
      <Result
        status="error"
        title={t('diyTask.loadFailed')}
        subTitle={detail.error.message}
        extra={<Button onClick={() => void detail.refetch()}>{t('diyTask.retry')}</Button>}
      />
    );
  if (!detail.data) return <Spin />;
  const task: TaskDetail = detail.data;
  const byId = new Map(task.receivers.map((r) => [r.id, r]));
  // Closed, or a form taken off: no hand-on or transfer (the server refuses them: T1010, T1033).
  const live = task.state === 'open' && task.forms.every((f) => f.active);
  const part = (r: TaskReceiver): TaskPart => ({
    receiverId: r.id,
    orgId: r.orgId,
    orgName: r.orgName,
    dueTime: r.dueTime,
  });
  const label = (r: TaskReceiver) => (
    <Space size={4} wrap data-testid="task-tree-node">
      <Typography.Text strong={r.mine}>{r.orgName}</Typography.Text>
      <ReceiverStateTag state={r.state} />
      <Typography.Text type="secondary">{r.dueTime.slice(0, 16)}</Typography.Text>
      {r.transferFromId !== null ? (
        <Typography.Text type="secondary">
          {t('diyTask.transferFrom', {
            org: byId.get(r.transferFromId)?.orgName ?? '',
            reason: r.transferReason ?? '',
          })}
        </Typography.Text>
      ) : null}
      {r.mine && r.state !== 'transferred' && live && can('diyTask:distribute') ? (
        <Button size="small" type="link" onClick={() => setHandOn(part(r))} data-testid="task-node-hand-on">
          {t('diyTask.handOn')}
        </Button>
      ) : null}
      {r.mine && r.state === 'received' && live && can('diyTask:transfer') ? (
        <Button
          size="small"
          type="link"
          onClick={() => setTransfer(part(r))}
          data-testid="task-node-transfer"
        >
          {t('diyTask.transfer')}
        </Button>
      ) : null}
    </Space>
  );

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size={12}>
      <TaskWarnings task={task} />
      <Card
        title={
          <Space size={8}>
            {task.title}
            <TaskStateTag state={task.state} />
          </Space>
        }
        extra={<TaskManageBar task={task} onChanged={done} />}
        data-testid="task-detail"
      >
        <Descriptions column={{ xs: 1, md: 2 }} size="small">
          <Descriptions.Item label={t('diyTask.forms')}>
            <FormsCell forms={task.forms} />
          </Descriptions.Item>
          <Descriptions.Item label={t('diyTask.dueTime')}>{task.dueTime.slice(0, 16)}</Descriptions.Item>
          <Descriptions.Item label={t('diyTask.creator')}>
            {[task.createOrgName, task.createUserName].filter(Boolean).join(' · ')}
          </Descriptions.Item>
          <Descriptions.Item label={t('diyTask.progress')}>
            <span data-testid="task-detail-progress">
              {task.doneCount}/{task.receiverCount}
            </span>
          </Descriptions.Item>
          <Descriptions.Item label={t('taskUrge.plan')}>
            <span data-testid="task-detail-urge">{urgePlanText(t, task.urge)}</span>
          </Descriptions.Item>
        </Descriptions>
        <Typography.Title level={5}>{t('diyTask.instructions')}</Typography.Title>
        {task.instructions && task.instructions !== '<p></p>' ? (
          <RichTextView html={task.instructions} />
        ) : (
          <Typography.Text type="secondary">{t('diyTask.noInstructions')}</Typography.Text>
        )}
        <Typography.Title level={5}>{t('diyTask.attachments')}</Typography.Title>
        <TaskAttachmentList files={task.attachments} />
      </Card>
      <Card title={t('diyTask.tree')} size="small">
        <Tree
          treeData={receiverTree(task.receivers, label)}
          defaultExpandAll
          selectable={false}
          data-testid="task-tree"
        />
      </Card>
      <TaskGridCard
        id={task.id}
        open={task.state === 'open'}
        mine={new Set(task.receivers.filter((r) => r.mine).map((r) => r.id))}
        urge={
          can('diyTask:urge') && task.state === 'open'
            ? { can: urgeableOf(task.receivers, task.manage), onUrge: setUrging, round: urgeRound }
            : undefined
        }
      />
      {task.levelReview ? <TaskReviewCard id={task.id} onReviewed={done} /> : null}
      <TaskMetricsCard id={task.id} />
      <TaskHistory events={task.events} />
      <TaskUrgeRecords id={task.id} />
      <UrgeDialog taskId={task.id} targets={urging} onClose={() => setUrging(null)} onDone={done} />
      <HandOnDialog part={handOn} onClose={() => setHandOn(null)} onDone={done} />
      <TransferDialog part={transfer} onClose={() => setTransfer(null)} onDone={done} />
    </Space>
  );
}
