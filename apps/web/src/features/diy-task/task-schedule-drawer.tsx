import { SCHEDULE_DUE_ANCHORS, type ScheduleRow } from '@shuzhi/contracts/diy-task-schedule';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Form, Input, InputNumber, Select, Space } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { RichTextEditor } from '../../components/rich-text/rich-text-editor.tsx';
import { ReceiverFields, type ReceiverValues, receiversOf } from './task-org-fields.tsx';
import { SCHEDULE_KEYS, scheduleApi } from './task-schedule.api.ts';
import { useTaskSubmit } from './use-task-submit.ts';

type Values = {
  title: string;
  tableIds: number[];
  anchor: (typeof SCHEDULE_DUE_ANCHORS)[number];
  days: number;
  at: string;
  instructions?: string;
  receivers?: ReceiverValues;
};

/** Times of day offered for the due time: every half hour. */
const TIMES = Array.from(
  { length: 48 },
  (_, i) => `${String(Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`,
);

const initialOf = (row: ScheduleRow | null): Partial<Values> =>
  row
    ? {
        title: row.title,
        tableIds: row.forms.map((f) => f.tableId),
        anchor: row.due.anchor,
        days: row.due.days,
        at: row.due.at,
        instructions: row.instructions,
        receivers: {
          orgIds: row.receivers.orgIds,
          subtree: row.receivers.subtree,
          orgTypes: row.receivers.orgTypes,
          roleIds: row.receivers.roleIds,
          userIds: row.receivers.userIds,
        },
      }
    : { anchor: 'start', days: 10, at: '18:00' };

/**
 * 新建 / 编辑计划: periodic forms, the due offset, receivers (the task form's fields) and instructions. `editing`
 * null creates a schedule.
 */
export function ScheduleDrawer({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  editing: ScheduleRow | null;
  onClose(): void;
  onSaved(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const forms = useQuery({
    queryKey: SCHEDULE_KEYS.forms,
    queryFn: scheduleApi.forms,
    enabled: open,
    retry: false,
  });
  useEffect(() => {
    if (open) form.setFieldsValue(initialOf(editing));
  }, [open, editing, form]);
  const { saving, submit } = useTaskSubmit(
    form,
    ['title', 'tableIds', 'due', 'instructions', 'receivers'],
    async (values) => {
      const body = {
        title: values.title.trim(),
        tableIds: values.tableIds,
        receivers: receiversOf(values.receivers),
        instructions: values.instructions ?? '',
        due: { anchor: values.anchor, days: values.days, at: values.at },
      };
      if (editing) {
        await scheduleApi.update({ id: editing.id, ...body });
        return t('diyTaskSchedule.saved');
      }
      await scheduleApi.add(body);
      return t('diyTaskSchedule.created');
    },
    onSaved,
  );

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={editing ? t('diyTaskSchedule.edit') : t('diyTaskSchedule.create')}
      size="large"
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={saving}
            onClick={() => void submit().catch(() => undefined)}
            data-testid="schedule-submit"
          >
            {t('common.ok')}
          </Button>
        </Space>
      }
    >
      <Form form={form} layout="vertical" data-testid="schedule-form" initialValues={initialOf(editing)}>
        <Form.Item
          name="title"
          label={t('diyTaskSchedule.name')}
          rules={[{ required: true, message: t('diyTaskSchedule.nameRequired') }]}
        >
          <Input maxLength={128} data-testid="schedule-field-title" />
        </Form.Item>
        <Form.Item
          name="tableIds"
          label={t('diyTaskSchedule.forms')}
          extra={forms.isError ? t('diyTask.formsFailed') : t('diyTaskSchedule.formsHint')}
          rules={[{ required: true, message: t('diyTask.formsRequired') }]}
        >
          <Select
            mode="multiple"
            showSearch
            optionFilterProp="label"
            loading={forms.isPending}
            options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.title }))}
            data-testid="schedule-field-forms"
          />
        </Form.Item>
        <Form.Item label={t('diyTaskSchedule.due')} required>
          <Space wrap>
            <Form.Item name="anchor" noStyle>
              <Select
                style={{ width: 160 }}
                aria-label={t('diyTaskSchedule.dueAnchor')}
                options={SCHEDULE_DUE_ANCHORS.map((a) => ({
                  value: a,
                  label: t(`diyTaskSchedule.anchors.${a}`),
                }))}
                data-testid="schedule-field-anchor"
              />
            </Form.Item>
            <Form.Item name="days" noStyle rules={[{ required: true }]}>
              <InputNumber
                min={0}
                max={366}
                precision={0}
                suffix={t('diyTaskSchedule.days')}
                aria-label={t('diyTaskSchedule.days')}
                data-testid="schedule-field-days"
              />
            </Form.Item>
            <Form.Item
              name="at"
              noStyle
              rules={[{ required: true, message: t('diyTaskSchedule.atRequired') }]}
            >
              <Select
                style={{ width: 110 }}
                showSearch
                aria-label={t('diyTaskSchedule.at')}
                options={TIMES.map((v) => ({ value: v, label: v }))}
                data-testid="schedule-field-at"
              />
            </Form.Item>
          </Space>
        </Form.Item>
        <ReceiverFields />
        <Form.Item name="instructions" label={t('diyTask.instructions')}>
          <RichTextEditor aria-label={t('diyTask.instructions')} minHeight={120} />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
