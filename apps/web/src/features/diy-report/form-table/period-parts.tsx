import type { PeriodBrief, PeriodRow } from '@shuzhi/contracts/diy-period';
import { Alert, type ButtonProps, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { diyRecordApi } from '../../../components/diy-record/diy-record.api.ts';
import { useReclickGuard } from '../../../components/use-reclick-guard.ts';

const TYPE = {
  upcoming: 'info',
  open: 'info',
  grace: 'warning',
  overdue: 'error',
  closed: 'warning',
} as const;

/** Where the chosen period stands: closed, overdue, grace, not started or open, with its due date. */
export function PeriodBanner({ period }: { period: (PeriodBrief & Partial<PeriodRow>) | null }) {
  const { t } = useTranslation();
  if (!period) return null;
  return (
    <Alert
      type={TYPE[period.state]}
      showIcon
      style={{ marginBottom: 12 }}
      title={t(`diyPeriod.table.banner.${period.state}`, {
        name: period.name,
        due: period.dueDate,
        start: period.startDate ?? '',
      })}
      description={
        period.state === 'grace' && (period.reopenUntil || period.graceUntil)
          ? t('diyPeriod.graceTo', { date: period.reopenUntil || period.graceUntil })
          : period.state === 'overdue'
            ? t('diyReport.returnedStillOpen')
            : undefined
      }
      data-testid="period-banner"
      data-state={period.state}
    />
  );
}

/** 零报告: the org has nothing to report in the period; an optional comment; submitted at once. */
export function ZeroReportDialog({
  open,
  tableId,
  period,
  onClose,
  onDone,
  onFailed,
}: {
  open: boolean;
  tableId: number;
  period: PeriodBrief;
  onClose: () => void;
  onDone: () => void;
  onFailed: (error: unknown) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ comment?: string }>();
  const [saving, setSaving] = useState(false);

  const submit = useReclickGuard(async ({ comment }: { comment?: string }) => {
    if (saving) return;
    setSaving(true);
    try {
      const text = comment?.trim();
      await diyRecordApi.zeroReport(tableId, { periodId: period.id, ...(text ? { comment: text } : {}) });
      form.resetFields();
      onDone();
    } catch (error) {
      onFailed(error);
    } finally {
      setSaving(false);
    }
  });

  return (
    <Modal
      open={open}
      title={t('diyPeriod.table.zeroTitle')}
      okText={t('diyPeriod.table.zero')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, 'data-testid': 'diy-zero-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={saving ? undefined : onClose}
      forceRender
      width={480}
      data-testid="diy-zero-dialog"
    >
      <Typography.Paragraph>{t('diyPeriod.table.zeroConfirm', { name: period.name })}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off" disabled={saving}>
        <Form.Item name="comment" label={t('diyPeriod.table.zeroComment')}>
          <Input.TextArea rows={3} maxLength={500} showCount data-testid="diy-zero-comment" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
