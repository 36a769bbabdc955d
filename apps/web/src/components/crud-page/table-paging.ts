import type { SorterResult, TablePaginationConfig } from 'antd/es/table/interface';
import type { ReactNode } from 'react';
import { useState } from 'react';

type TableSortOrder = 'ascending' | 'descending';
/** The server sort of a paged table (`field` + `order` of the page request), null: the server's default. */
export type TableSort = { field: string; order: TableSortOrder } | null;
export type TablePaging = { page: number; pageSize: number };

type Options<T> = {
  pageSize?: number;
  sort?: TableSort;
  /** The server's sort field of the sorted column (default: the column key); null: not sortable. */
  sortField?: (sorter: SorterResult<T>) => string | null | undefined;
  /** Runs when a new sort sends the table back to page 1 (e.g. to clear a selection). */
  onFirstPage?: () => void;
};

/**
 * Paging and sort of a server-paged antd table: a new sort goes back to page 1, a new page size too, and the
 * table's `onChange` maps antd's sorter to the page request's `field` / `order`.
 */
export function useTablePaging<T>({
  pageSize = 20,
  sort: initialSort = null,
  sortField,
  onFirstPage,
}: Options<T> = {}) {
  const [paging, setPaging] = useState<TablePaging>({ page: 1, pageSize });
  const [sort, setSort] = useState<TableSort>(initialSort);
  const onTableChange = (
    pagination: TablePaginationConfig,
    _filters: unknown,
    sorter: SorterResult<T> | SorterResult<T>[],
    extra: { action: string },
  ) => {
    if (extra.action === 'sort') {
      const first = Array.isArray(sorter) ? sorter[0] : sorter;
      const field = first ? (sortField ? sortField(first) : String(first.columnKey ?? '')) : null;
      setSort(
        field && first?.order
          ? { field, order: first.order === 'descend' ? 'descending' : 'ascending' }
          : null,
      );
      setPaging((p) => ({ ...p, page: 1 }));
      onFirstPage?.();
      return;
    }
    if (extra.action === 'paginate') {
      const size = pagination.pageSize ?? paging.pageSize;
      setPaging({ page: size !== paging.pageSize ? 1 : (pagination.current ?? 1), pageSize: size });
    }
  };
  return { paging, setPaging, sort, setSort, onTableChange };
}

/** antd's pagination of a server-paged table: the page, a changeable page size (10–100) and the total's text. */
export function tablePagination(
  paging: TablePaging,
  total: number,
  showTotal: (total: number) => ReactNode,
): TablePaginationConfig {
  return {
    current: paging.page,
    pageSize: paging.pageSize,
    total,
    showSizeChanger: true,
    pageSizeOptions: [10, 20, 50, 100],
    showTotal,
  };
}
