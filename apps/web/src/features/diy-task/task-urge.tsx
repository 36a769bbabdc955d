import type { GridCell, TaskReceiver } from '@shuzhi/contracts/diy-task';
import type { TaskUrgeInput, TaskUrgeRecord, TaskUrgeResult } from '@shuzhi/contracts/diy-task-urge';
import { useQuery } from '@tanstack/react-query';
import { type ButtonProps, Card, Form, Input, Modal, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { http } from '../../platform/http/http.ts';
import { useTaskSubmit } from './use-task-submit.ts';

const silent = { silent: true } as const;

/** Urging (`/api/diyTask/urge`, `/urges`; docs/tasks.md "Urging"). */
const urgeApi = {
  urge: (body: TaskUrgeInput) => http.post<TaskUrgeResult>('/api/diyTask/urge', body, silent),
  records: (id: number) => http.get<TaskUrgeRecord[]>('/api/diyTask/urges', { id }, silent),
};

/** Under `diyTask`, so that the task pages' one invalidation refreshes them too. */
const URGE_KEYS = {
  records: (id: number) => ['diyTask', 'urges', id] as const,
};

// A filing under review above the unit is the unit's part done (the server's receiverFiled).
const DONE_STATES: readonly GridCell['state'][] = [
  'submitted',
  'approved',
  'zero',
  'transferred',
  'reviewing',
];

/** A grid row with nothing left to urge: every form filed, or the part passed on. */
export const rowDone = (cells: readonly GridCell[]) => {
  // As the server's receiverDone: the cells of forms taken off count neither way.
  const live = cells.filter((c) => c.state !== 'formOff');
  return live.length > 0 && live.every((c) => DONE_STATES.includes(c.state));
};

/**
 * Which receivers the caller may urge, as the server decides: all of them when they manage the task, else
 * those below a part of their own.
 */
export function urgeableOf(receivers: readonly TaskReceiver[], manage: boolean): (id: number) => boolean {
  const byId = new Map(receivers.map((r) => [r.id, r]));
  return (id) => {
    if (manage) return byId.has(id);
    for (let p = byId.get(id)?.parentId ?? null; p !== null; p = byId.get(p)?.parentId ?? null)
      if (byId.get(p)?.mine) return true;
    return false;
  };
}

export type UrgeTarget = { receiverId: number; orgName: string };

/** 催办: the units chosen in the grid, a message; answers what went out. */
export function UrgeDialog({
  taskId,
  targets,
  onClose,
  onDone,
}: {
  taskId: number;
  targets: readonly UrgeTarget[] | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ message: string }>();
  const { saving, submit } = useTaskSubmit(
    form,
    ['message'],
    async (values) => {
      if (!targets) return null;
      const r = await urgeApi.urge({
        taskId,
        receiverIds: targets.map((x) => x.receiverId),
        message: values.message.trim(),
      });
      return r.smsPending > 0
        ? t('taskUrge.donePending', { units: r.units, people: r.people, pending: r.smsPending })
        : t('taskUrge.done', { units: r.units, people: r.people, sent: r.smsSent, failed: r.smsFailed });
    },
    onDone,
  );
  return (
    <Modal
      open={targets !== null}
      title={t('taskUrge.title', { count: targets?.length ?? 0 })}
      onCancel={onClose}
      // A refused field shows its message; nothing else to report.
      onOk={() => submit().catch(() => undefined)}
      confirmLoading={saving}
      okText={t('taskUrge.urge')}
      okButtonProps={{ 'data-testid': 'task-urge-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ message: t('taskUrge.defaultMessage') }}
        data-testid="task-urge-form"
      >
        <Form.Item label={t('taskUrge.units')}>
          <Typography.Paragraph
            ellipsis={{ rows: 3, expandable: true, symbol: '…' }}
            style={{ marginBottom: 0 }}
            data-testid="task-urge-units"
          >
            {(targets ?? []).map((x) => x.orgName).join(t('common.listSeparator'))}
          </Typography.Paragraph>
        </Form.Item>
        <Form.Item
          name="message"
          label={t('taskUrge.message')}
          rules={[{ required: true, whitespace: true, message: t('taskUrge.messageRequired') }]}
          extra={t('taskUrge.channels')}
        >
          <Input.TextArea
            rows={3}
            maxLength={200}
            showCount
            placeholder={t('taskUrge.messagePlaceholder')}
            data-testid="task-urge-message"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const OUTCOME_COLORS: Record<TaskUrgeRecord['outcome'], string> = {
  sent: 'green',
  pending: 'processing',
  failed: 'red',
  nobody: 'default',
  taskClosed: 'default',
  periodClosed: 'default',
};

/** The reminders sent for a task, newest first: by hand and by the ladder, per channel, with outcomes. */
export function TaskUrgeRecords({ id }: { id: number }) {
  const { t } = useTranslation();
  const records = useQuery({ queryKey: URGE_KEYS.records(id), queryFn: () => urgeApi.records(id) });
  const step = (s: string) => {
    if (s === 'manual') return t('taskUrge.manual');
    const m = /^T([+-])(\d+)$/.exec(s);
    if (!m) return s;
    return t(m[1] === '-' ? 'taskUrge.before' : 'taskUrge.after', { count: Number(m[2]) });
  };
  const columns: ColumnsType<TaskUrgeRecord> = [
    { key: 'time', title: t('taskUrge.time'), width: 140, render: (_, r) => r.createTime.slice(0, 16) },
    { key: 'unit', title: t('taskUrge.unit'), dataIndex: 'orgName', width: 180 },
    { key: 'step', title: t('taskUrge.step'), width: 110, render: (_, r) => step(r.step) },
    {
      key: 'channel',
      title: t('taskUrge.channel'),
      width: 100,
      render: (_, r) => t(`taskUrge.channelNames.${r.channel}`),
    },
    {
      key: 'receiver',
      title: t('taskUrge.receiver'),
      width: 160,
      render: (_, r) => [r.userName, r.phone].filter(Boolean).join(' '),
    },
    {
      key: 'outcome',
      title: t('taskUrge.outcome'),
      width: 200,
      render: (_, r) => (
        <Space size={2} wrap>
          <Tooltip title={r.lastError ? t('taskUrge.lastError', { error: r.lastError }) : undefined}>
            <Tag color={OUTCOME_COLORS[r.outcome]} data-testid="task-urge-outcome">
              {t(`taskUrge.outcomes.${r.outcome}`)}
            </Tag>
          </Tooltip>
          {r.channel === 'sms' && (r.attempts > 1 || r.retryAt) ? (
            <Typography.Text type="secondary" data-testid="task-urge-attempts">
              {[
                t('taskUrge.attempts', { count: r.attempts }),
                r.retryAt ? t('taskUrge.retryAt', { time: r.retryAt.slice(5, 16) }) : null,
              ]
                .filter(Boolean)
                .join(t('common.listSeparator'))}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'sender',
      title: t('taskUrge.sender'),
      width: 110,
      render: (_, r) => r.senderName ?? t('taskUrge.automatic'),
    },
    { key: 'message', title: t('taskUrge.content'), dataIndex: 'message', ellipsis: true },
  ];
  return (
    <Card title={t('taskUrge.records')} size="small">
      <Table<TaskUrgeRecord>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={records.data ?? []}
        loading={records.isFetching}
        locale={{ emptyText: t('taskUrge.empty') }}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 1000 }}
        data-testid="task-urge-records"
      />
    </Card>
  );
}
