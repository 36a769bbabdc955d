import { CheckOutlined, RollbackOutlined } from '@ant-design/icons';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { Button, type ButtonProps, Popconfirm, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DisabledReason } from '../../components/disabled-reason.tsx';
import { RecordViewDrawer } from '../../components/diy-record/record-view-drawer.tsx';
import type { AuditRow } from './diy-audit.api.ts';
import { ReturnDialog } from './return-dialog.tsx';
import type { AuditReview } from './use-audit-review.ts';

/** The opened record; a pending one has 退回 (not in a closed period) and 通过 under it. */
export function ReviewDrawer({
  viewing,
  returning,
  review,
  onClose,
  onReturn,
  onReturnCancel,
}: {
  viewing: AuditRow;
  returning: AuditRow | null;
  review: AuditReview;
  onClose: () => void;
  onReturn: (row: AuditRow) => void;
  onReturnCancel: () => void;
}) {
  const { t } = useTranslation();
  const { approving, approve } = review;
  const viewingPending = viewing.status === RECORD_STATUS.submitted;
  return (
    <RecordViewDrawer
      tableId={viewing.tableId}
      recordId={viewing.id}
      open
      onClose={onClose}
      onChanged={review.onChanged}
      title={
        <Typography.Text strong data-testid="audit-drawer-title">
          {viewing.tableTitle} · {viewing.dataNo ?? `#${viewing.id}`}
        </Typography.Text>
      }
      footer={
        viewingPending ? (
          <Space style={{ width: '100%', justifyContent: 'flex-end' }} data-testid="audit-drawer-actions">
            {viewing.periodClosed ? (
              <DisabledReason reason={t('diyAudit.returnClosed')} testId="audit-return-blocked">
                <Button danger icon={<RollbackOutlined />} disabled data-testid="audit-return">
                  {t('diyAudit.return')}
                </Button>
              </DisabledReason>
            ) : (
              <Button
                danger
                icon={<RollbackOutlined />}
                disabled={approving}
                onClick={() => onReturn(viewing)}
                data-testid="audit-return"
              >
                {t('diyAudit.return')}
              </Button>
            )}
            <Popconfirm
              title={t('diyAudit.approve')}
              description={t('diyAudit.approveConfirm')}
              okText={t('diyAudit.approve')}
              cancelText={t('common.cancel')}
              okButtonProps={{ 'data-testid': 'audit-approve-ok' } as ButtonProps}
              onConfirm={() => approve([viewing])}
            >
              <Button type="primary" icon={<CheckOutlined />} loading={approving} data-testid="audit-approve">
                {t('diyAudit.approve')}
              </Button>
            </Popconfirm>
            {/* Inside the drawer, so that it stacks above it. */}
            <ReturnDialog
              row={returning}
              onCancel={onReturnCancel}
              onReturned={review.onReturned}
              onFailed={review.onReturnFailed}
            />
          </Space>
        ) : undefined
      }
    />
  );
}
