import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Drawer, Form, Input, Select, Space, Switch } from 'antd';
import type { Dayjs } from 'dayjs';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { TASK_KEYS, taskApi } from './diy-task.api.ts';
import { type TaskAttachment, TaskAttachmentsField } from './task-attachments.tsx';
import { ReceiverFields, type ReceiverValues, receiversOf } from './task-org-fields.tsx';
import { UrgePlanFields, type UrgePlanValues, urgePlanOf, urgePlanValues } from './task-urge-plan.tsx';
import { useTaskSubmit } from './use-task-submit.ts';

type Values = {
  title: string;
  tableIds: number[];
  dueTime: Dayjs;
  instructions?: string;
  receivers?: ReceiverValues;
  /** The automatic urging ladder: on with the default steps unless changed. */
  urge?: UrgePlanValues;
  /** 逐级审核 (every form must require review; the server says T1053 otherwise). */
  levelReview?: boolean;
  attachments?: TaskAttachment[];
};

const FORMAT = 'YYYY-MM-DD HH:mm';

/** A future due time for a form rule (the server says T1001 too). */
export const futureRule = (message: string) => ({
  validator: (_: unknown, value: Dayjs | null | undefined) =>
    !value || value.isAfter(zoneDayjs()) ? Promise.resolve() : Promise.reject(new Error(message)),
});

/** 新建任务: forms, due time, receivers and instructions; created and handed out in one step. */
export function TaskCreateDrawer({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(id: number): void;
}) {
  const { t } = useTranslation();
  const created = useRef(0);
  const [form] = Form.useForm<Values>();
  const forms = useQuery({ queryKey: TASK_KEYS.forms, queryFn: taskApi.forms, enabled: open, retry: false });
  const { saving, submit } = useTaskSubmit(
    form,
    ['title', 'tableIds', 'dueTime', 'instructions', 'receivers', 'urge'],
    async (values) => {
      const id = await taskApi.add({
        title: values.title.trim(),
        forms: values.tableIds.map((tableId) => ({ tableId })),
        dueTime: values.dueTime.format(FORMAT),
        instructions: values.instructions ?? '',
        attachments: values.attachments ?? [],
        receivers: receiversOf(values.receivers),
        urge: urgePlanOf(values.urge),
        levelReview: values.levelReview === true,
      });
      created.current = id;
      return t('diyTask.created');
    },
    () => onCreated(created.current),
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('diyTask.create')}
      size="large"
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="primary" loading={saving} onClick={submit} data-testid="task-create-submit">
            {t('common.ok')}
          </Button>
        </Space>
      }
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ urge: urgePlanValues(undefined) }}
        data-testid="task-create-form"
      >
        <Form.Item
          name="title"
          label={t('diyTask.name')}
          rules={[{ required: true, message: t('diyTask.nameRequired') }]}
        >
          <Input maxLength={128} data-testid="task-field-title" />
        </Form.Item>
        <Form.Item
          name="tableIds"
          label={t('diyTask.forms')}
          extra={forms.isError ? t('diyTask.formsFailed') : t('diyTask.periodHint')}
          rules={[{ required: true, message: t('diyTask.formsRequired') }]}
        >
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            loading={forms.isPending}
            options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.title }))}
            data-testid="task-field-forms"
          />
        </Form.Item>
        <Form.Item
          name="dueTime"
          label={t('diyTask.dueTime')}
          rules={[{ required: true, message: t('diyTask.dueRequired') }, futureRule(t('diyTask.duePast'))]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format={FORMAT}
            disabledDate={(d) => d.isBefore(zoneDayjs(), 'day')}
            data-testid="task-field-due"
          />
        </Form.Item>
        <ReceiverFields />
        <UrgePlanFields testId="task-create" />
        <Form.Item
          name="levelReview"
          label={t('taskReview.option')}
          valuePropName="checked"
          extra={t('taskReview.optionHint')}
        >
          <Switch data-testid="task-create-level-review" />
        </Form.Item>
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
