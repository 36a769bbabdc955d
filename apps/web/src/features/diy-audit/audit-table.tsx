import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import type { PageResult } from '@shuzhi/contracts/envelope';
import type { UseQueryResult } from '@tanstack/react-query';
import { Empty, Table, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { type TablePaging, tablePagination } from '../../components/crud-page/table-paging.ts';
import { selectionTitle } from '../../components/selection-title.tsx';
import { type AuditRow, auditKey } from './diy-audit.api.ts';

/** The selection column's width (antd's default). */
const SELECTION_WIDTH = 32;

/** The table's width: its columns' widths, so that the fixed 操作 column lines up with the last one. */
const scrollWidth = (columns: ColumnsType<AuditRow>) =>
  columns.reduce(
    (sum, column) => sum + (typeof column.width === 'number' ? column.width : 0),
    SELECTION_WIDTH,
  );

/** The page of records to review: pending ones can be selected, a double click opens one. */
export function AuditTable({
  query,
  columns,
  paging,
  onTableChange,
  selected,
  onSelect,
  onOpen,
  emptyText,
}: {
  query: UseQueryResult<PageResult<AuditRow>>;
  columns: ColumnsType<AuditRow>;
  paging: TablePaging;
  onTableChange: TableProps<AuditRow>['onChange'];
  selected: AuditRow[];
  onSelect: (rows: AuditRow[]) => void;
  onOpen: (row: AuditRow) => void;
  emptyText: string;
}) {
  const { t } = useTranslation();
  return (
    <Table<AuditRow>
      rowKey={auditKey}
      size="middle"
      columns={columns}
      dataSource={query.data?.items ?? []}
      loading={query.isFetching}
      onChange={onTableChange}
      scroll={{ x: scrollWidth(columns) }}
      onRow={(row) => ({ onDoubleClick: () => onOpen(row) })}
      rowSelection={{
        columnTitle: selectionTitle,
        selectedRowKeys: selected.map(auditKey),
        preserveSelectedRowKeys: true,
        onChange: (_keys, items) => onSelect(items.filter(Boolean)),
        getCheckboxProps: (row) => ({ disabled: row.status !== RECORD_STATUS.submitted }),
      }}
      locale={{
        emptyText: (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={emptyText} data-testid="audit-empty" />
        ),
      }}
      pagination={tablePagination(paging, query.data?.total ?? 0, (total) => t('crud.total', { total }))}
      data-testid="audit-table"
    />
  );
}
