import type { FormDesign } from '@shuzhi/contracts/diy-form';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import type { TableSort } from '../../../components/crud-page/table-paging.ts';
import type { DiyRecord } from '../../../components/diy-record/diy-record.api.ts';
import { useSummaryWords } from '../../../components/diy-record/record-history.tsx';
import { useRecordStatusText } from '../../../components/diy-record/record-status-tag.tsx';
import { type RecordActionHandlers, RecordActions } from './record-actions.tsx';
import { buildRecordColumns, type SystemColumn } from './record-columns.tsx';

const ACTION_WIDTH = 58;

type ColumnOptions = {
  design: FormDesign;
  rows: DiyRecord[];
  periodic: boolean;
  hidden: string[];
  sort: TableSort;
  actions: RecordActionHandlers;
};

/**
 * The record table's columns: every column the form has (`allColumns`, for the chooser), and the table's own
 * (`columns`: the shown ones with their sort state, then the row actions).
 */
export function useRecordTableColumns({ design, rows, periodic, hidden, sort, actions }: ColumnOptions) {
  const { t } = useTranslation();
  const statusText = useRecordStatusText();
  const words = useSummaryWords();

  const systemTitles: Record<SystemColumn, string> = {
    dataNo: t('diyRecord.dataNo'),
    status: t('diyRecord.statusLabel'),
    createUserName: t('diyRecord.filer'),
    createOrgName: t('diyRecord.org'),
    submitTime: t('diyRecord.submitTime'),
  };
  const allColumns = buildRecordColumns(design, rows, {
    system: systemTitles,
    statusText,
    words,
    flags: { zero: t('diyRecord.zero'), late: t('diyRecord.late') },
    ...(periodic ? { period: t('diyRecord.period') } : {}),
  });
  const shown = allColumns.filter((c) => !hidden.includes(c.key));
  const actionCount = Math.max(
    1,
    ...rows.map((r) => 1 + Number(r.can.update) + Number(r.can.submit) + Number(r.can.delete)),
  );

  const columns: ColumnsType<DiyRecord> = [
    ...shown.map((column) => ({
      key: column.key,
      dataIndex: column.key,
      title: column.title,
      width: column.width,
      ellipsis: true,
      sorter: column.sort !== null,
      sortOrder:
        column.sort !== null && sort?.field === column.sort
          ? ((sort.order === 'descending' ? 'descend' : 'ascend') as 'descend' | 'ascend')
          : null,
      render: (_: unknown, record: DiyRecord) => column.render(record),
    })),
    {
      key: '__actions',
      title: t('diyFormTable.actions'),
      fixed: 'right',
      width: Math.max(100, actionCount * ACTION_WIDTH + 16),
      render: (_: unknown, record: DiyRecord) => <RecordActions record={record} {...actions} />,
    },
  ];

  return { allColumns, columns };
}
