import type { PeriodPageRow } from '@shuzhi/contracts/diy-period';
import { type ButtonProps, DatePicker, Form, Input, Modal, Select, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { periodApi } from '../../components/diy-period/diy-period.api.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';

const DAY = 'YYYY-MM-DD';
const COMMENT_MAX = 500;
const NAME_MAX = 64;
const day = (value: string | null | undefined) => (value ? dayjs(value, DAY) : null);
const text = (value: Dayjs | null | undefined) => (value ? value.format(DAY) : null);

export type PeriodAction = 'close' | 'reopen' | 'edit';

type ActionValues = {
  comment?: string;
  until?: Dayjs | null;
  name?: string;
  dueDate?: Dayjs;
  graceUntil?: Dayjs | null;
};

type ActionProps = {
  /** The period and what to do with it; null keeps the dialog closed. */
  target: { row: PeriodPageRow; action: PeriodAction } | null;
  onCancel: () => void;
  onDone: (action: PeriodAction) => void;
  /** Failures that are not about a field of the dialog. */
  onFailed: (error: unknown) => void;
};

/**
 * 关闭 (optional comment), 重新开放 (reason required, optional last filing day) and 修改日期 (name, due date, grace
 * window) of one period. The server's field errors show under their fields.
 */
export function PeriodActionDialog({ target, onCancel, onDone, onFailed }: ActionProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<ActionValues>();
  const [saving, setSaving] = useState(false);
  const row = target?.row;
  const action = target?.action;

  useEffect(() => {
    if (!row) return;
    form.resetFields();
    if (action === 'edit') {
      form.setFieldsValue({
        name: row.name,
        dueDate: day(row.dueDate) ?? undefined,
        graceUntil: day(row.graceUntil),
      });
    }
  }, [row, action, form]);

  const submit = useReclickGuard(async (values: ActionValues) => {
    if (!row || !action || saving) return;
    setSaving(true);
    try {
      if (action === 'close') {
        const comment = values.comment?.trim();
        await periodApi.close({ id: row.id, ...(comment ? { comment } : {}) });
      } else if (action === 'reopen') {
        await periodApi.reopen({
          id: row.id,
          comment: (values.comment ?? '').trim(),
          until: text(values.until),
        });
      } else {
        await periodApi.update({
          id: row.id,
          name: values.name?.trim(),
          dueDate: text(values.dueDate) ?? undefined,
          graceUntil: text(values.graceUntil),
        });
      }
      onDone(action);
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, [
        'comment',
        'until',
        'name',
        'dueDate',
        'graceUntil',
      ]);
      if (fields.length > 0) {
        form.setFields(fields as Parameters<typeof form.setFields>[0]);
        if (rest.length > 0) onFailed(new Error(rest.join('; ')));
      } else onFailed(error);
    } finally {
      setSaving(false);
    }
  });

  const title =
    action === 'close'
      ? t('diyPeriod.closeTitle')
      : action === 'reopen'
        ? t('diyPeriod.reopenTitle')
        : t('diyPeriod.editTitle');
  const okText =
    action === 'close'
      ? t('diyPeriod.close')
      : action === 'reopen'
        ? t('diyPeriod.reopen')
        : t('common.save');
  const name = row ? `${row.tableTitle} · ${row.name}` : '';
  const dueDate = Form.useWatch('dueDate', form);

  return (
    <Modal
      open={target !== null}
      title={title}
      okText={okText}
      cancelText={t('common.cancel')}
      okButtonProps={
        { danger: action === 'close', loading: saving, 'data-testid': 'period-dialog-ok' } as ButtonProps
      }
      onOk={() => form.submit()}
      onCancel={saving ? undefined : onCancel}
      forceRender
      destroyOnHidden
      width={520}
      data-testid="period-dialog"
    >
      {action === 'close' ? (
        <Typography.Paragraph type="secondary">{t('diyPeriod.closeHint', { name })}</Typography.Paragraph>
      ) : action === 'reopen' ? (
        <Typography.Paragraph type="secondary">{t('diyPeriod.reopenHint', { name })}</Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off" disabled={saving}>
        {action === 'close' ? (
          <Form.Item name="comment" label={t('diyPeriod.closeComment')}>
            <Input.TextArea
              autoFocus
              rows={3}
              maxLength={COMMENT_MAX}
              showCount
              data-testid="period-comment"
            />
          </Form.Item>
        ) : null}
        {action === 'reopen' ? (
          <>
            <Form.Item
              name="comment"
              label={t('diyPeriod.reopenReason')}
              rules={[{ required: true, whitespace: true, message: t('diyPeriod.reopenReasonRequired') }]}
            >
              <Input.TextArea
                autoFocus
                rows={3}
                maxLength={COMMENT_MAX}
                showCount
                data-testid="period-comment"
              />
            </Form.Item>
            <Form.Item name="until" label={t('diyPeriod.reopenUntil')} extra={t('diyPeriod.reopenUntilHint')}>
              <DatePicker
                style={{ width: 200 }}
                disabledDate={(d) => d.isBefore(zoneDayjs(), 'day')}
                data-testid="period-until"
              />
            </Form.Item>
          </>
        ) : null}
        {action === 'edit' ? (
          <>
            <Form.Item
              name="name"
              label={t('diyPeriod.name')}
              rules={[{ required: true, whitespace: true, message: t('diyPeriod.nameRequired') }]}
            >
              <Input maxLength={NAME_MAX} data-testid="period-name" />
            </Form.Item>
            <Typography.Paragraph type="secondary">
              {t('diyPeriod.dates')}: {row?.startDate} ~ {row?.endDate}
            </Typography.Paragraph>
            <Form.Item
              name="dueDate"
              label={t('diyPeriod.dueDate')}
              rules={[{ required: true, message: t('diyPeriod.dueDateRequired') }]}
            >
              <DatePicker style={{ width: 200 }} allowClear={false} data-testid="period-due" />
            </Form.Item>
            <Form.Item name="graceUntil" label={t('diyPeriod.graceUntil')} extra={t('diyPeriod.graceHint')}>
              <DatePicker
                style={{ width: 200 }}
                disabledDate={(d) => (dueDate ? d.isBefore(dueDate, 'day') : false)}
                data-testid="period-grace"
              />
            </Form.Item>
          </>
        ) : null}
      </Form>
    </Modal>
  );
}

type AddValues = {
  tableId?: number;
  name?: string;
  range?: [Dayjs, Dayjs];
  dueDate?: Dayjs;
  graceUntil?: Dayjs | null;
};

/** 新增自定义周期: a window of a form of kind custom (windows of a form may not overlap: F1026). */
export function AddWindowDialog({
  open,
  forms,
  defaultTableId,
  onCancel,
  onDone,
  onFailed,
}: {
  open: boolean;
  /** Forms of kind custom the caller administers. */
  forms: readonly { id: number; title: string }[];
  defaultTableId?: number;
  onCancel: () => void;
  onDone: () => void;
  onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<AddValues>();
  const [saving, setSaving] = useState(false);
  const range = Form.useWatch('range', form);
  const dueDate = Form.useWatch('dueDate', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const preset = forms.some((f) => f.id === defaultTableId) ? defaultTableId : forms[0]?.id;
    if (preset) form.setFieldsValue({ tableId: preset });
  }, [open, form, forms, defaultTableId]);

  const submit = useReclickGuard(async (values: AddValues) => {
    if (saving || !values.tableId || !values.range || !values.dueDate) return;
    setSaving(true);
    try {
      await periodApi.add({
        tableId: values.tableId,
        name: (values.name ?? '').trim(),
        startDate: values.range[0].format(DAY),
        endDate: values.range[1].format(DAY),
        dueDate: values.dueDate.format(DAY),
        graceUntil: text(values.graceUntil),
      });
      onDone();
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, [
        'tableId',
        'name',
        'startDate',
        'endDate',
        'dueDate',
        'graceUntil',
      ]);
      // The window's first and last day share one picker.
      const named = fields.map((f) =>
        f.name === 'startDate' || f.name === 'endDate' ? { ...f, name: 'range' } : f,
      );
      if (named.length > 0) {
        form.setFields(named as Parameters<typeof form.setFields>[0]);
        if (rest.length > 0) onFailed(new Error(rest.join('; ')));
      } else onFailed(error);
    } finally {
      setSaving(false);
    }
  });

  return (
    <Modal
      open={open}
      title={t('diyPeriod.addTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      okButtonProps={
        { loading: saving, disabled: forms.length === 0, 'data-testid': 'period-add-ok' } as ButtonProps
      }
      onOk={() => form.submit()}
      onCancel={saving ? undefined : onCancel}
      forceRender
      width={560}
      data-testid="period-add-dialog"
    >
      {forms.length === 0 ? (
        <Typography.Paragraph type="warning" data-testid="period-add-none">
          {t('diyPeriod.noCustomForms')}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off" disabled={saving}>
        <Form.Item
          name="tableId"
          label={t('diyPeriod.customForm')}
          rules={[{ required: true, message: t('diyPeriod.customFormRequired') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            options={forms.map((f) => ({ value: f.id, label: f.title }))}
            data-testid="period-add-form"
          />
        </Form.Item>
        <Form.Item
          name="name"
          label={t('diyPeriod.name')}
          rules={[{ required: true, whitespace: true, message: t('diyPeriod.nameRequired') }]}
        >
          <Input maxLength={NAME_MAX} data-testid="period-add-name" />
        </Form.Item>
        <Form.Item
          name="range"
          label={t('diyPeriod.range')}
          rules={[{ required: true, message: t('diyPeriod.rangeRequired') }]}
        >
          <DatePicker.RangePicker style={{ width: 280 }} data-testid="period-add-range" />
        </Form.Item>
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap' }}>
          <Form.Item
            name="dueDate"
            label={t('diyPeriod.dueDate')}
            rules={[{ required: true, message: t('diyPeriod.dueDateRequired') }]}
          >
            <DatePicker
              style={{ width: 200 }}
              disabledDate={(d) => (range?.[0] ? d.isBefore(range[0], 'day') : false)}
              data-testid="period-add-due"
            />
          </Form.Item>
          <Form.Item name="graceUntil" label={t('diyPeriod.graceUntil')} tooltip={t('diyPeriod.graceHint')}>
            <DatePicker
              style={{ width: 200 }}
              disabledDate={(d) => (dueDate ? d.isBefore(dueDate, 'day') : false)}
              data-testid="period-add-grace"
            />
          </Form.Item>
        </div>
      </Form>
    </Modal>
  );
}
