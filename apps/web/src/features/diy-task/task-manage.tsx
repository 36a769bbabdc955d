import type { TaskDetail } from '@shuzhi/contracts/diy-task';
import { Alert, App, Button, DatePicker, Drawer, Form, Input, Popconfirm, Space, Switch, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { taskApi } from './diy-task.api.ts';
import { type TaskAttachment, TaskAttachmentsField } from './task-attachments.tsx';
import { futureRule } from './task-create-drawer.tsx';
import { UrgePlanFields, type UrgePlanValues, urgePlanOf, urgePlanValues } from './task-urge-plan.tsx';
import { useTaskSubmit } from './use-task-submit.ts';

const FORMAT = 'YYYY-MM-DD HH:mm';

/** The task's state as a tag: 进行中 / 已关闭. */
export function TaskStateTag({ state }: { state: TaskDetail['state'] }) {
  const { t } = useTranslation();
  return (
    <Tag color={state === 'closed' ? 'default' : 'processing'} data-testid="task-state">
      {t(state === 'closed' ? 'diyTaskLife.closed' : 'diyTaskLife.open')}
    </Tag>
  );
}

/** Warnings on the detail page: the task is closed; forms were taken off while it was open. */
export function TaskWarnings({ task }: { task: TaskDetail }) {
  const { t } = useTranslation();
  const off = task.forms.filter((f) => !f.active);
  return (
    <>
      {task.state === 'closed' ? <Alert type="info" showIcon title={t('diyTaskLife.closedWarning')} /> : null}
      {off.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          data-testid="task-form-off"
          title={t('diyTaskLife.formOffWarning', {
            forms: off.map((f) => f.title).join(t('common.listSeparator')),
          })}
        />
      ) : null}
    </>
  );
}

type EditValues = {
  title: string;
  dueTime: Dayjs;
  instructions?: string;
  levelReview?: boolean;
  urge?: UrgePlanValues;
  attachments?: TaskAttachment[];
};

/** 修改任务: title, due time, 逐级审核, the urging ladder, instructions and attachments. */
function TaskEditDrawer({
  task,
  open,
  onClose,
  onDone,
}: {
  task: TaskDetail;
  open: boolean;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EditValues>();
  const { saving, submit } = useTaskSubmit(
    form,
    ['title', 'dueTime', 'instructions', 'urge'],
    async (values) => {
      await taskApi.edit({
        id: task.id,
        title: values.title.trim(),
        dueTime: values.dueTime.format(FORMAT),
        instructions: values.instructions ?? '',
        attachments: values.attachments ?? [],
        levelReview: values.levelReview === true,
        urge: urgePlanOf(values.urge),
      });
      return t('diyTaskLife.saved');
    },
    onDone,
  );
  return (
    <Drawer
      open={open}
      title={t('diyTaskLife.editTitle')}
      size={560}
      onClose={onClose}
      destroyOnHidden
      extra={
        <Button type="primary" loading={saving} onClick={submit} data-testid="task-edit-save">
          {t('common.save')}
        </Button>
      }
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{
          title: task.title,
          dueTime: dayjs(task.dueTime.slice(0, 16)),
          instructions: task.instructions,
          levelReview: task.levelReview,
          urge: urgePlanValues(task.urge),
          attachments: task.attachments,
        }}
        data-testid="task-edit-form"
      >
        <Form.Item
          name="title"
          label={t('diyTask.name')}
          rules={[{ required: true, whitespace: true, message: t('diyTask.nameRequired') }]}
        >
          <Input maxLength={128} />
        </Form.Item>
        <Form.Item
          name="dueTime"
          label={t('diyTask.dueTime')}
          extra={t('diyTaskLife.dueHint')}
          rules={[{ required: true, message: t('diyTask.dueRequired') }, futureRule(t('diyTask.duePast'))]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={FORMAT}
            disabledDate={(d) => d.isBefore(zoneDayjs(), 'day')}
            data-testid="task-edit-due"
          />
        </Form.Item>
        <Form.Item
          name="levelReview"
          label={t('taskReview.option')}
          valuePropName="checked"
          extra={t('taskReview.optionHint')}
        >
          <Switch data-testid="task-edit-level-review" />
        </Form.Item>
        <UrgePlanFields testId="task-edit" />
        <Form.Item name="instructions" label={t('diyTask.instructions')}>
          <RichTextEditor aria-label={t('diyTask.instructions')} minHeight={120} />
        </Form.Item>
        <Form.Item name="attachments" label={t('diyTask.attachments')}>
          <TaskAttachmentsField />
        </Form.Item>
      </Form>
    </Drawer>
  );
}

/** 修改 / 关闭任务 / 重新打开 / 删除任务 for whoever manages the task, with the permissions. */
export function TaskManageBar({ task, onChanged }: { task: TaskDetail; onChanged(): void }) {
  const { t } = useTranslation();
  const { can } = useCan();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  if (!task.manage) return null;
  const run = async (send: () => Promise<unknown>, done: string, after = onChanged) => {
    try {
      await send();
      message.success(done);
      after();
    } catch (error) {
      message.error((error as Error).message);
    }
  };
  const open = task.state === 'open';
  return (
    <Space size={4} wrap>
      {open && can('diyTask:edit') ? (
        <Button size="small" onClick={() => setEditing(true)} data-testid="task-edit">
          {t('diyTaskLife.edit')}
        </Button>
      ) : null}
      {can('diyTask:close') ? (
        open ? (
          <Popconfirm
            title={t('diyTaskLife.closeConfirm')}
            onConfirm={() => run(() => taskApi.close({ id: task.id }), t('diyTaskLife.closedDone'))}
          >
            <Button size="small" data-testid="task-close">
              {t('diyTaskLife.close')}
            </Button>
          </Popconfirm>
        ) : (
          <Button
            size="small"
            onClick={() => run(() => taskApi.reopen({ id: task.id }), t('diyTaskLife.reopened'))}
            data-testid="task-reopen"
          >
            {t('diyTaskLife.reopen')}
          </Button>
        )
      ) : null}
      {can('diyTask:delete') ? (
        <Popconfirm
          title={t('diyTaskLife.deleteConfirm')}
          onConfirm={() =>
            run(
              () => taskApi.remove({ id: task.id }),
              t('diyTaskLife.deleted'),
              () => void navigate('/diyTask'),
            )
          }
        >
          <Button size="small" danger data-testid="task-delete">
            {t('diyTaskLife.delete')}
          </Button>
        </Popconfirm>
      ) : null}
      <TaskEditDrawer
        task={task}
        open={editing}
        onClose={() => setEditing(false)}
        onDone={() => {
          setEditing(false);
          onChanged();
        }}
      />
    </Space>
  );
}
