import { type FormDesign, type FormField, valueFields } from '@shuzhi/contracts/diy-form';
import type { PeriodBrief } from '@shuzhi/contracts/diy-period';
import { useMemo, useRef, useState } from 'react';
import { useTablePaging } from '../../../components/crud-page/table-paging.ts';
import type { DiyRecord } from '../../../components/diy-record/diy-record.api.ts';
import { readHideList } from '../../../components/diy-report/open-form-item.ts';
import { ColumnChooser } from './column-chooser.tsx';
import type { FillTarget } from './fill-drawer.tsx';
import { PeriodBanner } from './period-parts.tsx';
import { RecordChips } from './record-chips.tsx';
import { initialHidden } from './record-columns.tsx';
import { RecordDialogs } from './record-dialogs.tsx';
import { FilterPanel, PeriodSelect, RecordSearchBar } from './record-search-bar.tsx';
import { RecordTable } from './record-table.tsx';
import { RecordListHeader, RecordListTools } from './record-toolbar.tsx';
import { useRecordActions } from './use-record-actions.ts';
import { useRecordPage } from './use-record-page.ts';
import { useRecordPeriods } from './use-record-periods.ts';
import { useRecordSearch } from './use-record-search.ts';
import { useRecordTableColumns } from './use-record-table-columns.tsx';
import { useUrlFilters } from './use-url-filters.ts';

export type RecordListProps = {
  tableId: number;
  title: string;
  design: FormDesign;
  canAdd: boolean;
  canExport: boolean;
  defaultHidden: string[];
  askPassword: () => Promise<boolean>;
  /** The form is collected period after period (its records belong to periods). */
  periodic?: boolean;
  /** The period filing goes to now (the list starts on it). */
  currentPeriod?: PeriodBrief | null;
  /** The published version (`design` is its design). */
  version?: number;
};

/**
 * The records of one report form: header, search bar, route filters, the paged table with its row actions,
 * and the view, fill and 零报告 dialogs. State, queries and actions live in the `use-*` hooks beside it.
 */
export function RecordList({
  tableId,
  title,
  design,
  canAdd,
  canExport,
  defaultHidden,
  askPassword,
  periodic = false,
  currentPeriod = null,
  version,
}: RecordListProps) {
  const fields = useMemo(() => valueFields(design) as FormField[], [design]);
  const search = useRecordSearch();
  // The sorted column's server field: the columns are built further down, from the state above them.
  const columnSortRef = useRef<(key: string) => string | undefined>(() => undefined);
  const { paging, setPaging, sort, onTableChange } = useTablePaging<DiyRecord>({
    sortField: (sorter) => columnSortRef.current(String(sorter.columnKey ?? '')),
    onFirstPage: () => setSelected([]),
  });
  const [selected, setSelected] = useState<number[]>([]);
  const firstPage = () => {
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };
  const url = useUrlFilters(fields, firstPage);
  const hiddenByDefault = () => initialHidden(design, defaultHidden, readHideList(url.params));
  const [hidden, setHidden] = useState<string[]>(hiddenByDefault);
  const [viewing, setViewing] = useState<number | null>(null);
  const [filling, setFilling] = useState<FillTarget | null>(null);
  const [zeroOpen, setZeroOpen] = useState(false);

  const periods = useRecordPeriods({ tableId, periodic, currentPeriod, urlPeriod: url.urlPeriod });
  const { periodId, fileTo, filable } = periods;
  const list = useRecordPage({ tableId, fields, search, url, periodId, paging, sort, askPassword });
  const { page, rows } = list;
  const actions = useRecordActions({ tableId, setSelected, setFilling });
  const { refresh, busy, remove } = actions;

  const { allColumns, columns } = useRecordTableColumns({
    design,
    rows,
    periodic,
    hidden,
    sort,
    actions: {
      filable: periods.recordFilable,
      busy,
      onView: (record) => setViewing(record.id),
      onEdit: (record) => setFilling({ record }),
      onSubmit: (record) => void actions.submitRow(record),
      onDelete: (record) => void remove([record.id], record.id),
    },
  });
  columnSortRef.current = (key) => allColumns.find((c) => c.key === key)?.sort ?? undefined;

  const deletable = new Set(rows.filter((r) => r.can.delete && periods.recordFilable(r)).map((r) => r.id));

  return (
    <div data-testid="diy-record-list">
      <RecordListHeader
        title={title}
        canAdd={canAdd}
        periodic={periodic}
        filable={filable}
        hasPeriod={fileTo !== null}
        onZero={() => setZeroOpen(true)}
        onAdd={() => setFilling({ record: null })}
      />

      {periodic ? <PeriodBanner period={fileTo} /> : null}

      <div style={{ display: 'flex', gap: 8, flexWrap: 'wrap', alignItems: 'center', marginBottom: 12 }}>
        {periodic ? (
          <PeriodSelect
            periods={periods}
            currentPeriod={currentPeriod}
            onChange={(value) => {
              periods.setPeriodChoice(value);
              if (url.urlPeriod !== undefined) url.dropParam('periodId');
              else firstPage();
            }}
          />
        ) : null}
        <RecordSearchBar
          search={search}
          filterCount={list.filters.length}
          searching={list.searching}
          firstPage={firstPage}
          onReset={() => {
            search.clear();
            firstPage();
          }}
        />
        <RecordListTools
          tableId={tableId}
          title={title}
          selected={selected}
          anyDeletable={deletable.size > 0 || selected.length > 0}
          busy={busy}
          onBatchDelete={() => void remove(selected, 'batch')}
          importPeriod={fileTo ? { id: fileTo.id, name: fileTo.name } : null}
          filable={filable}
          canExport={canExport}
          exportFilters={list.listFilters}
          refreshing={page.isFetching && !page.isLoading}
          onRefresh={() => void refresh()}
          columnChooser={
            <ColumnChooser
              columns={allColumns}
              hidden={hidden}
              onChange={setHidden}
              defaultHidden={hiddenByDefault}
            />
          }
        />
      </div>

      <RecordChips
        url={url}
        fields={fields}
        periodById={periods.periodById}
        rows={rows}
        onPeriodCleared={() => periods.setPeriodChoice(null)}
      />

      {search.filterOpen ? <FilterPanel search={search} fields={fields} firstPage={firstPage} /> : null}

      <RecordTable
        list={list}
        columns={columns}
        paging={paging}
        onTableChange={onTableChange}
        selected={selected}
        onSelect={setSelected}
        deletable={deletable}
        canAddFirst={canAdd && filable}
        onAdd={() => setFilling({ record: null })}
      />

      <RecordDialogs
        tableId={tableId}
        title={title}
        design={design}
        version={version}
        periodic={periodic}
        periods={periods}
        presets={url.presets}
        askPassword={askPassword}
        actions={actions}
        viewing={viewing}
        onViewClosed={() => setViewing(null)}
        filling={filling}
        onFillClosed={() => setFilling(null)}
        zeroOpen={zeroOpen}
        onZeroClosed={() => setZeroOpen(false)}
      />
    </div>
  );
}
