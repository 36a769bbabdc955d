import { AuditOutlined, EyeOutlined } from '@ant-design/icons';
import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { Button, Space, Tag } from 'antd';
import type { ColumnsType, ColumnType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import type { TableSort } from '../../components/crud-page/table-paging.ts';
import { RecordStatusTag } from '../../components/diy-record/record-status-tag.tsx';
import type { AuditRow } from './diy-audit.api.ts';

const TIME_WIDTH = 160;
/** 2026-11-24 23:13:33 in the table's font, with the cell's padding. */
const SUBMIT_WIDTH = 152;

/**
 * Widths: at 1366 × 768 every column up to 状态 fits beside the fixed 操作 column, so that the status tag is
 * never under it; the reviewer, review time and comment (empty while a record waits) scroll in after it.
 *
 * The review list's columns (the form's name only while several forms are listed), sortable where the
 * server sorts, and 审核 / 查看 opening a record.
 */
export function useAuditColumns({
  tableId,
  sort,
  onOpen,
}: {
  tableId: number | null;
  sort: TableSort;
  onOpen: (row: AuditRow) => void;
}): ColumnsType<AuditRow> {
  const { t } = useTranslation();
  const sortable = (field: string): Pick<ColumnType<AuditRow>, 'sorter' | 'sortOrder'> => ({
    sorter: true,
    sortOrder: sort?.field === field ? (sort.order === 'descending' ? 'descend' : 'ascend') : null,
  });
  const dash = (value: string | null) => value || '—';

  // The form's name is needed only while several forms are listed.
  return [
    ...(tableId
      ? []
      : [
          {
            key: 'tableTitle',
            dataIndex: 'tableTitle',
            title: t('diyAudit.form'),
            width: 140,
            ellipsis: { showTitle: true },
          },
        ]),
    {
      key: 'dataNo',
      dataIndex: 'dataNo',
      title: t('diyAudit.dataNo'),
      width: 130,
      ellipsis: { showTitle: true },
      render: dash,
      ...sortable('dataNo'),
    },
    {
      key: 'createUserName',
      dataIndex: 'createUserName',
      title: t('diyAudit.filler'),
      width: 90,
      ellipsis: { showTitle: true },
      render: dash,
      ...sortable('createUserName'),
    },
    {
      key: 'createOrgName',
      dataIndex: 'createOrgName',
      title: t('diyAudit.fillerOrg'),
      width: 120,
      ellipsis: { showTitle: true },
      render: dash,
      ...sortable('createOrgName'),
    },
    {
      key: 'periodName',
      dataIndex: 'periodName',
      title: t('diyAudit.period'),
      width: 140,
      ellipsis: { showTitle: true },
      render: (value: string | null, row) => (
        <Space size={4}>
          {dash(value)}
          {row.periodClosed ? (
            <Tag color="default" data-testid="audit-period-closed">
              {t('diyAudit.periodClosed')}
            </Tag>
          ) : null}
        </Space>
      ),
    },
    {
      key: 'submitTime',
      dataIndex: 'submitTime',
      title: t('diyAudit.submitTime'),
      width: SUBMIT_WIDTH,
      render: dash,
      ...sortable('submitTime'),
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('diyAudit.status'),
      width: 124,
      render: (value: number) => <RecordStatusTag status={value} />,
    },
    {
      key: 'auditUserName',
      dataIndex: 'auditUserName',
      title: t('diyAudit.auditor'),
      width: 100,
      ellipsis: { showTitle: true },
      render: dash,
    },
    {
      key: 'auditTime',
      dataIndex: 'auditTime',
      title: t('diyAudit.auditTime'),
      width: TIME_WIDTH,
      render: dash,
      ...sortable('auditTime'),
    },
    {
      key: 'auditComment',
      dataIndex: 'auditComment',
      title: t('diyAudit.auditComment'),
      width: 180,
      ellipsis: { showTitle: true },
      render: dash,
    },
    {
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: 90,
      render: (_: unknown, row) =>
        row.status === RECORD_STATUS.submitted ? (
          <Button
            type="link"
            size="small"
            icon={<AuditOutlined />}
            onClick={() => onOpen(row)}
            data-testid="audit-review"
          >
            {t('diyAudit.review')}
          </Button>
        ) : (
          <Button
            type="link"
            size="small"
            icon={<EyeOutlined />}
            onClick={() => onOpen(row)}
            data-testid="audit-view"
          >
            {t('diyAudit.view')}
          </Button>
        ),
    },
  ];
}
