import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const LOOK: Record<number, { key: 'draft' | 'submitted' | 'approved' | 'returned'; color: string }> = {
  [RECORD_STATUS.draft]: { key: 'draft', color: 'default' },
  [RECORD_STATUS.submitted]: { key: 'submitted', color: 'processing' },
  [RECORD_STATUS.approved]: { key: 'approved', color: 'success' },
  [RECORD_STATUS.returned]: { key: 'returned', color: 'error' },
};

/** The statuses a record can have, in the order lists offer them. */
export const RECORD_STATUSES = [
  RECORD_STATUS.draft,
  RECORD_STATUS.submitted,
  RECORD_STATUS.approved,
  RECORD_STATUS.returned,
] as const;

/** The name of a record status (草稿 / 待审核 / 已通过 / 已退回). */
export function useRecordStatusText(): (status: number) => string {
  const { t } = useTranslation();
  return (status) => {
    const look = LOOK[status];
    return look ? t(`diyRecord.status.${look.key}`) : String(status);
  };
}

/** A record's review state as a coloured tag. */
export function RecordStatusTag({ status }: { status: number }) {
  const text = useRecordStatusText();
  const look = LOOK[status];
  return (
    <Tag color={look?.color ?? 'default'} data-testid="diy-record-status" data-status={status}>
      {text(status)}
    </Tag>
  );
}

/** 零报告 and 逾期提交 of a record of a periodic form (nothing when neither). */
export function RecordFlags({ record }: { record: { isZero?: boolean; late?: boolean } }) {
  const { t } = useTranslation();
  if (!record.isZero && !record.late) return null;
  return (
    <>
      {record.isZero ? (
        <Tag color="gold" data-testid="diy-record-flag-zero">
          {t('diyRecord.zero')}
        </Tag>
      ) : null}
      {record.late ? (
        <Tag color="orange" data-testid="diy-record-flag-late">
          {t('diyRecord.late')}
        </Tag>
      ) : null}
    </>
  );
}
