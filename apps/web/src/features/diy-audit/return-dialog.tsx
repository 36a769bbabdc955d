import { type ButtonProps, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { type AuditRow, auditApi } from './diy-audit.api.ts';

const COMMENT_MAX = 1000;

type Props = {
  /** The record to return; null keeps the dialog closed. */
  row: AuditRow | null;
  onCancel: () => void;
  onReturned: (row: AuditRow) => void;
  /** Failures that are not about the comment (F1012 and the like). */
  onFailed: (row: AuditRow, error: unknown) => void;
};

/** 退回: the reviewer says why (required); the server's field errors show under the comment. */
export function ReturnDialog({ row, onCancel, onReturned, onFailed }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const [saving, setSaving] = useState(false);

  const submit = useReclickGuard(async ({ comment }: { comment: string }) => {
    if (!row || saving) return;
    setSaving(true);
    try {
      await auditApi.audit(row.tableId, { ids: [row.id], action: 'return', comment: comment.trim() });
      form.resetFields();
      onReturned(row);
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, ['comment']);
      if (fields.length > 0) {
        form.setFields(fields);
        if (rest.length > 0) onFailed(row, new Error(rest.join('; ')));
      } else onFailed(row, error);
    } finally {
      setSaving(false);
    }
  });

  return (
    <Modal
      open={row !== null}
      title={t('diyAudit.returnTitle')}
      okText={t('diyAudit.return')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: saving, 'data-testid': 'audit-return-ok' } as ButtonProps}
      onOk={() => form.submit()}
      onCancel={() => {
        form.resetFields();
        onCancel();
      }}
      forceRender
      width={520}
      data-testid="audit-return-dialog"
    >
      <Typography.Paragraph type="secondary">{t('diyAudit.returnHint')}</Typography.Paragraph>
      {row?.periodName ? (
        <Typography.Paragraph type="secondary" data-testid="audit-return-refile">
          {t('diyAudit.returnRefile')}
        </Typography.Paragraph>
      ) : null}
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off">
        <Form.Item
          name="comment"
          label={t('diyAudit.returnComment')}
          rules={[{ required: true, whitespace: true, message: t('diyAudit.returnCommentRequired') }]}
        >
          <Input.TextArea
            autoFocus
            rows={4}
            maxLength={COMMENT_MAX}
            showCount
            placeholder={t('diyAudit.returnCommentPlaceholder')}
            data-testid="audit-return-comment"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
