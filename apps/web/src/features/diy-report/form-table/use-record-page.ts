import type { FormField } from '@shuzhi/contracts/diy-form';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import type { TablePaging, TableSort } from '../../../components/crud-page/table-paging.ts';
import { DIY_RECORD_KEYS, diyRecordApi } from '../../../components/diy-record/diy-record.api.ts';
import { HttpError } from '../../../platform/http/http-client.ts';
import { buildFilters } from './record-filters.ts';
import type { RecordSearch } from './use-record-search.ts';
import type { UrlFilters } from './use-url-filters.ts';

type PageOptions = {
  tableId: number;
  fields: FormField[];
  search: RecordSearch;
  url: UrlFilters;
  /** The period listed (undefined: every period, or the form has none). */
  periodId: number | undefined;
  paging: TablePaging;
  sort: TableSort;
  askPassword: () => Promise<boolean>;
};

/**
 * The page of records the list shows, asked with the list's filters (`listFilters`, which the ledger export
 * takes too); a page answered F1007 (the form's password expired) asks for the password and loads again.
 */
export function useRecordPage({
  tableId,
  fields,
  search,
  url,
  periodId,
  paging,
  sort,
  askPassword,
}: PageOptions) {
  const { keyword, status, mine, applied } = search;
  const { urlFilters, urlOrgFilter } = url;
  const filters = useMemo(
    () => [
      ...buildFilters(applied, fields),
      ...urlFilters.map((f) => ({ field: f.field, op: f.op, value: f.value })),
    ],
    [applied, fields, urlFilters],
  );
  const listFilters = useMemo(
    () => ({
      ...(keyword ? { keyword } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(mine ? { mine: true } : {}),
      ...(filters.length ? { filters } : {}),
      ...(periodId !== undefined ? { periodId } : {}),
      ...urlOrgFilter,
    }),
    [keyword, status, mine, filters, periodId, urlOrgFilter],
  );
  const body = useMemo(
    () => ({
      page: paging.page,
      pageSize: paging.pageSize,
      descStr: DESC_STR_DEFAULT,
      ...listFilters,
      ...(sort ? { field: sort.field, order: sort.order } : {}),
    }),
    [paging, listFilters, sort],
  );
  const page = useQuery({
    queryKey: DIY_RECORD_KEYS.page(tableId, body),
    queryFn: () => diyRecordApi.page(tableId, body),
    placeholderData: keepPreviousData,
    retry: false,
  });

  const pageLocked = page.error instanceof HttpError && page.error.code === 'F1007';
  useEffect(() => {
    if (pageLocked) void askPassword().then((ok) => ok && void page.refetch());
  }, [pageLocked, askPassword, page.refetch]);

  const searching =
    keyword !== '' || status !== undefined || mine || filters.length > 0 || url.urlOrg !== undefined;

  return {
    filters,
    listFilters,
    page,
    rows: page.data?.items ?? [],
    total: page.data?.total ?? 0,
    pageLocked,
    searching,
  };
}
