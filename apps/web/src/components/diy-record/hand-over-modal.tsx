import { App, type ButtonProps, Form, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hasErrorCode, UnauthorizedError } from '../../platform/http/http-client.ts';
import { PickerSelect } from '../diy-form/pickers.tsx';
import { useReclickGuard } from '../use-reclick-guard.ts';
import { type DiyRecord, diyRecordApi } from './diy-record.api.ts';

/** Answers about the chosen user: shown under the picker rather than as a toast. */
const RECEIVER_CODES = ['F1013', 'F1036'] as const;

type Props = {
  tableId: number;
  /** The record to hand over; null keeps the dialog closed. */
  record: Pick<DiyRecord, 'id' | 'createUserName' | 'createOrgName'> | null;
  onClose: () => void;
  /** After the hand-over: the record has its new filer and org. */
  onDone: () => void;
};

/**
 * 移交 (`POST /api/diyTable/UpdateCreateUser`): a form admin or reviewer gives a record to another filler of the
 * form, who then files it as their own; the record takes their name and org, and its history says so.
 */
export function HandOverModal({ tableId, record, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [userId, setUserId] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const reset = () => {
    setUserId(null);
    setError(null);
  };

  const submit = useReclickGuard(async () => {
    if (!record || saving) return;
    if (!userId) {
      setError(t('diyRecord.handOver.receiverRequired'));
      return;
    }
    setSaving(true);
    try {
      await diyRecordApi.handOver({ tableId, ids: [record.id], userId });
      message.success(t('diyRecord.handOver.done'));
      reset();
      onDone();
    } catch (failure) {
      if (failure instanceof UnauthorizedError) return;
      if (hasErrorCode(failure, ...RECEIVER_CODES)) setError(failure.message);
      else
        message.error(
          failure instanceof Error && failure.message ? failure.message : t('diyRecord.handOver.failed'),
        );
    } finally {
      setSaving(false);
    }
  });

  const dash = t('diyRecord.emptyValue');
  return (
    <Modal
      open={record !== null}
      title={t('diyRecord.handOver.title')}
      okText={t('diyRecord.handOver.ok')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: saving, 'data-testid': 'diy-handover-ok' } as ButtonProps}
      onOk={() => submit()}
      onCancel={() => {
        reset();
        onClose();
      }}
      width={520}
      data-testid="diy-handover-dialog"
    >
      <Typography.Paragraph type="secondary">{t('diyRecord.handOver.hint')}</Typography.Paragraph>
      <Typography.Paragraph data-testid="diy-handover-current">
        {t('diyRecord.handOver.current', {
          name: record?.createUserName ?? dash,
          org: record?.createOrgName ?? dash,
        })}
      </Typography.Paragraph>
      <Form layout="vertical" component="div">
        <Form.Item
          label={t('diyRecord.handOver.receiver')}
          required
          htmlFor="diy-handover-user"
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <PickerSelect
            id="diy-handover-user"
            kind="user"
            multiple={false}
            value={userId}
            onChange={(next) => {
              setUserId(typeof next === 'number' ? next : null);
              setError(null);
            }}
            status={error ? 'error' : undefined}
            placeholder={t('diyRecord.handOver.receiverPlaceholder')}
            data-testid="diy-handover-user"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
