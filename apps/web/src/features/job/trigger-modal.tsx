import type { JobDetailRow, JobTriggerRow } from '@shuzhi/contracts/job';
import { useQueryClient } from '@tanstack/react-query';
import { App, Form, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { JOB_KEYS, jobApi } from './job.api.ts';
import {
  cronErrorOf,
  NEW_TRIGGER,
  TriggerFields,
  type TriggerFormValues,
  toTriggerPayload,
  triggerFormValues,
} from './trigger-fields.tsx';

const FIELDS = [
  'triggerId',
  'triggerType',
  'cron',
  'periodSeconds',
  'description',
  'startTime',
  'endTime',
  'maxNumberOfRuns',
  'runOnStart',
];

export type TriggerTarget = { job: JobDetailRow; trigger: JobTriggerRow | null };

/** A free trigger id for a job: trigger1, trigger2, … */
function nextTriggerId(job: Pick<JobDetailRow, 'triggers'>): string {
  const taken = new Set(job.triggers.map((trigger) => trigger.triggerId));
  let n = job.triggers.length + 1;
  while (taken.has(`trigger${n}`)) n += 1;
  return `trigger${n}`;
}

/** Adds a trigger to a job or edits one. A bad cron is refused before anything is written. */
export function TriggerModal({ target, onClose }: { target: TriggerTarget | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);
  const editing = target?.trigger ?? null;

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(
      target.trigger
        ? triggerFormValues(target.trigger)
        : { ...NEW_TRIGGER, triggerId: nextTriggerId(target.job) },
    );
  }, [target, form]);

  const save = async () => {
    if (!target) return;
    let values: TriggerFormValues;
    try {
      values = (await form.validateFields()) as TriggerFormValues;
    } catch {
      return;
    }
    setSaving(true);
    try {
      const payload = toTriggerPayload(values, target.job.jobId);
      if (editing) await jobApi.updateTrigger({ ...payload, id: editing.id });
      else await jobApi.addTrigger(payload);
      message.success(t('crud.saved'));
      await client.invalidateQueries({ queryKey: JOB_KEYS.all });
      onClose();
    } catch (error) {
      if (error instanceof UnauthorizedError) return;
      const cron = cronErrorOf(error);
      if (cron) {
        form.setFields([{ name: 'cron', errors: [cron] }]);
        return;
      }
      const { fields, rest } = serverFieldErrors(error, FIELDS);
      if (fields.length > 0) form.setFields(fields);
      if (fields.length === 0 || rest.length > 0)
        message.error(
          rest[0] ?? (error instanceof Error && error.message ? error.message : t('crud.failed')),
        );
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={target !== null}
      title={
        target
          ? t(editing ? 'sysJob.editTriggerTitle' : 'sysJob.addTriggerTitle', { jobId: target.job.jobId })
          : null
      }
      width={680}
      onCancel={saving ? undefined : onClose}
      onOk={() => void save()}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      mask={{ closable: false }}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'trigger-save' } as never}
      data-testid="trigger-modal"
    >
      <Form form={form} layout="vertical" initialValues={NEW_TRIGGER} data-testid="trigger-form">
        <TriggerFields form={form} editing={editing !== null} />
      </Form>
    </Modal>
  );
}
