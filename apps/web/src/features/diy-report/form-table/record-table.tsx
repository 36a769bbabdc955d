import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { type TablePaging, tablePagination } from '../../../components/crud-page/table-paging.ts';
import type { DiyRecord } from '../../../components/diy-record/diy-record.api.ts';
import { selectionTitle } from '../../../components/selection-title.tsx';
import type { useRecordPage } from './use-record-page.ts';

type RecordTableProps = {
  list: ReturnType<typeof useRecordPage>;
  columns: ColumnsType<DiyRecord>;
  paging: TablePaging;
  onTableChange: unknown;
  selected: number[];
  onSelect: (ids: number[]) => void;
  /** The rows whose checkbox is enabled. */
  deletable: Set<number>;
  /** 新增第一条 is offered on an empty, unfiltered list. */
  canAddFirst: boolean;
  onAdd: () => void;
};

/** The page of records (and the failure to load it), with selection, sort and paging. */
export function RecordTable({
  list,
  columns,
  paging,
  onTableChange,
  selected,
  onSelect,
  deletable,
  canAddFirst,
  onAdd,
}: RecordTableProps) {
  const { t } = useTranslation();
  const { page, rows, total, searching } = list;
  return (
    <>
      {page.isError && !list.pageLocked ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('diyFormTable.loadFailed')}
          description={page.error.message}
          action={
            <Button size="small" onClick={() => void page.refetch()}>
              {t('common.retry')}
            </Button>
          }
          data-testid="diy-record-error"
        />
      ) : null}

      <Table<DiyRecord>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={page.isFetching}
        onChange={onTableChange as never}
        scroll={{ x: 'max-content' }}
        data-testid="diy-record-table"
        rowSelection={{
          columnTitle: selectionTitle,
          selectedRowKeys: selected,
          onChange: (keys) => onSelect(keys.map(Number)),
          getCheckboxProps: (row) => ({ disabled: !deletable.has(row.id) }),
        }}
        locale={{
          emptyText: (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={searching ? t('diyFormTable.noMatch') : t('diyFormTable.empty')}
              data-testid="diy-record-empty"
            >
              {!searching && canAddFirst ? (
                <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
                  {t('diyFormTable.addFirst')}
                </Button>
              ) : null}
            </Empty>
          ),
        }}
        pagination={tablePagination(paging, total, (count) => (
          <span data-testid="diy-record-total">{t('diyFormTable.total', { total: count })}</span>
        ))}
      />
    </>
  );
}
