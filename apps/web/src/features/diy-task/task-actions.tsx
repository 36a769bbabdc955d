import type { OrgNode } from '@shuzhi/contracts/org';
import { DatePicker, Form, Input, Modal } from 'antd';
import type { Dayjs } from 'dayjs';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { useOrgTree } from '../../components/org-tree/use-org-tree.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { taskApi } from './diy-task.api.ts';
import { futureRule } from './task-create-drawer.tsx';
import { ReceiverFields, type ReceiverValues, receiversOf } from './task-org-fields.tsx';
import { useTaskSubmit } from './use-task-submit.ts';

/** The part of a task a unit acts on (hand on, transfer). */
export type TaskPart = { receiverId: number; orgId: number; orgName: string; dueTime: string };

const FORMAT = 'YYYY-MM-DD HH:mm';

function findOrg(nodes: readonly OrgNode[], id: number): OrgNode | undefined {
  for (const node of nodes) {
    if (node.id === id) return node;
    const found = findOrg(node.children, id);
    if (found) return found;
  }
  return undefined;
}

/** 下发: to units below the part's unit, due no later than the part's own due time. */
export function HandOnDialog({
  part,
  onClose,
  onDone,
}: {
  part: TaskPart | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ dueTime: Dayjs; receivers?: ReceiverValues; comment?: string }>();
  const tree = useOrgTree();
  const below = useMemo(
    () => (part ? (findOrg(tree.data ?? [], part.orgId)?.children ?? []) : []),
    [tree.data, part],
  );
  const due = part?.dueTime.slice(0, 16) ?? '';
  const { saving, submit } = useTaskSubmit(
    form,
    ['dueTime', 'receivers', 'comment'],
    async (values) => {
      if (!part) return null;
      const count = await taskApi.handOn({
        receiverId: part.receiverId,
        dueTime: values.dueTime.format(FORMAT),
        receivers: receiversOf(values.receivers),
        comment: values.comment?.trim() ?? '',
      });
      return t('diyTask.handedOn', { count });
    },
    onDone,
  );
  return (
    <Modal
      open={part !== null}
      title={t('diyTask.handOnTitle', { org: part?.orgName ?? '' })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="task-hand-on-form">
        <p>{t('diyTask.handOnHint', { due })}</p>
        <Form.Item
          name="dueTime"
          label={t('diyTask.dueTime')}
          rules={[{ required: true, message: t('diyTask.dueRequired') }, futureRule(t('diyTask.duePast'))]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={FORMAT}
            disabledDate={(d) => d.isBefore(zoneDayjs(), 'day') || d.format('YYYY-MM-DD') > due.slice(0, 10)}
            data-testid="task-hand-on-due"
          />
        </Form.Item>
        <ReceiverFields nodes={below} />
        <Form.Item name="comment" label={t('diyTask.comment')}>
          <Input.TextArea maxLength={500} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** 转办: to another unit, with a reason. */
export function TransferDialog({
  part,
  onClose,
  onDone,
}: {
  part: TaskPart | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ orgId: number; reason: string }>();
  const { saving, submit } = useTaskSubmit(
    form,
    ['orgId', 'reason'],
    async (values) => {
      if (!part) return null;
      await taskApi.transfer({
        receiverId: part.receiverId,
        orgId: values.orgId,
        reason: values.reason.trim(),
      });
      return t('diyTask.transferred');
    },
    onDone,
  );
  return (
    <Modal
      open={part !== null}
      title={t('diyTask.transferTitle', { org: part?.orgName ?? '' })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="task-transfer-form">
        <Form.Item
          name="orgId"
          label={t('diyTask.transferTo')}
          rules={[{ required: true, message: t('diyTask.transferToRequired') }]}
        >
          <OrgTreeSelect />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('diyTask.reason')}
          rules={[{ required: true, whitespace: true, message: t('diyTask.reasonRequired') }]}
        >
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
