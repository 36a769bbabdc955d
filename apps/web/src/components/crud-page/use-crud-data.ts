import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import type { FormInstance } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import type { PageRequest, WithId } from '../../platform/data/resource.ts';
import { useResourcePage } from '../../platform/data/use-resource.ts';
import { type CrudOptions, sortFieldOf } from './crud-options.ts';
import { useTablePaging } from './table-paging.ts';

/** Drops empty filter values so the body carries only what the user typed or picked. */
function cleanFilters(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === ''),
    ),
  );
}

/**
 * The page CrudPage shows: paging, sort, the search form's filters and the fixed ones, the page request and
 * its answer, and the selected rows (cleared whenever the list starts again at page 1).
 */
export function useCrudData<T extends WithId, F extends object>(
  options: CrudOptions<T, F>,
  searchForm: FormInstance,
) {
  const { resource, columns, fixedFilters, onLoaded, enabled, defaultPageSize, defaultSort } = options;
  const { paging, setPaging, sort, onTableChange } = useTablePaging<T>({
    pageSize: defaultPageSize,
    sort: defaultSort ?? null,
    sortField: (sorter) => {
      const column = columns.find((c) => c.key === String(sorter.columnKey ?? sorter.field ?? ''));
      return column ? sortFieldOf(column) : null;
    },
  });
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [selected, setSelected] = useState<number[]>([]);

  const fixedKey = JSON.stringify(fixedFilters ?? {});
  // A new fixed filter (another dictionary type, another org) starts again at page 1.
  // biome-ignore lint/correctness/useExhaustiveDependencies: fixedKey stands for fixedFilters
  useEffect(() => {
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  }, [fixedKey]);

  const body = useMemo(() => {
    const request = {
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      ...filters,
      ...(fixedFilters ?? {}),
      ...(sort ? { field: sort.field, order: sort.order } : {}),
    } as PageRequest<F>;
    return request;
  }, [paging, filters, fixedFilters, sort]);

  const query = useResourcePage(resource, body, enabled, fixedKey);
  const rows = enabled ? (query.data?.items ?? []) : [];
  const loadedItems = query.data?.items;
  useEffect(() => {
    if (loadedItems) onLoaded?.(loadedItems);
  }, [loadedItems, onLoaded]);
  const total = enabled ? (query.data?.total ?? 0) : 0;

  const search = (values: Record<string, unknown>) => {
    setFilters(cleanFilters(values));
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };
  const reset = () => {
    searchForm.resetFields();
    search({});
  };

  return { paging, sort, onTableChange, selected, setSelected, body, query, rows, total, search, reset };
}
