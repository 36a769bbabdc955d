import { EditOutlined, EyeOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { RowDeleteAction } from '../../../components/crud-page/row-delete-action.tsx';
import type { DiyRecord } from '../../../components/diy-record/diy-record.api.ts';

export type RecordActionHandlers = {
  /** Whether the record's period still takes changes. */
  filable: (record: DiyRecord) => boolean;
  /** The row (or 'batch') whose action is at work. */
  busy: number | 'batch' | null;
  onView: (record: DiyRecord) => void;
  onEdit: (record: DiyRecord) => void;
  onSubmit: (record: DiyRecord) => void;
  onDelete: (record: DiyRecord) => void;
};

/** The buttons of a record's row: 查看, and 修改 / 提交 / 删除 as the record allows. */
export function RecordActions({
  record,
  filable,
  busy,
  onView,
  onEdit,
  onSubmit,
  onDelete,
}: RecordActionHandlers & { record: DiyRecord }) {
  const { t } = useTranslation();
  const open = filable(record);
  return (
    <Space size={0} data-testid="diy-record-actions">
      <Button
        type="link"
        size="small"
        icon={<EyeOutlined />}
        onClick={() => onView(record)}
        data-testid="diy-record-view-btn"
      >
        {t('diyFormTable.view')}
      </Button>
      {record.can.update ? (
        <Tooltip title={open ? undefined : t('diyPeriod.table.notFilable')}>
          <Button
            type="link"
            size="small"
            icon={<EditOutlined />}
            disabled={!open}
            onClick={() => onEdit(record)}
            data-testid="diy-record-edit"
          >
            {t('diyFormTable.edit')}
          </Button>
        </Tooltip>
      ) : null}
      {record.can.submit ? (
        <Popconfirm
          title={t('diyFormTable.submitConfirmTitle')}
          description={t('diyFormTable.submitConfirm')}
          okText={t('diyFormTable.fill.submit')}
          cancelText={t('common.cancel')}
          okButtonProps={{ 'data-testid': 'diy-record-submit-ok' }}
          onConfirm={() => onSubmit(record)}
          disabled={!open}
        >
          <Button
            type="link"
            size="small"
            icon={<SendOutlined />}
            disabled={!open}
            loading={busy === record.id}
            data-testid="diy-record-submit"
          >
            {t('diyFormTable.fill.submit')}
          </Button>
        </Popconfirm>
      ) : null}
      {record.can.delete ? (
        <RowDeleteAction
          testId="diy-record-delete"
          title={t('diyFormTable.deleteConfirmTitle')}
          description={t('diyFormTable.deleteConfirm', { no: record.dataNo ?? t('diyRecord.noNumber') })}
          text={t('diyFormTable.delete')}
          disabled={!open}
          loading={busy === record.id}
          onConfirm={() => onDelete(record)}
        />
      ) : null}
    </Space>
  );
}
