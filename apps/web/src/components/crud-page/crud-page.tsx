import { Empty, Form, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WithId } from '../../platform/data/resource.ts';
import { selectionTitle } from '../selection-title.tsx';
import { useCrudColumns } from './crud-columns.tsx';
import { CrudFormModal } from './crud-form-modal.tsx';
import { resolveCrudProps } from './crud-options.ts';
import { CrudSearchBar, CrudToolbar, type Density } from './crud-toolbar.tsx';
import type { CrudPageProps } from './crud-types.ts';
import { LoadFailedAlert } from './load-failed-alert.tsx';
import { tablePagination } from './table-paging.ts';
import { useCrudActions } from './use-crud-actions.ts';
import { useCrudData } from './use-crud-data.ts';

const INTERACTIVE = 'button, a, input, .ant-switch, .ant-checkbox-wrapper, .ant-popover';

/**
 * The shared list screen (DESIGN §3.5): search bar, server-paged and sorted table, toolbar, row actions,
 * status switch and the add / edit dialog. A resource supplies its columns, fields and permissions.
 * The page is `useCrudData` (paging, filters, the query), `useCrudActions` (writes, export, the dialog's
 * subject) and `useCrudColumns`, shown by `CrudSearchBar`, `CrudToolbar`, the table and `CrudFormModal`.
 */
export function CrudPage<T extends WithId, F extends object = Record<string, unknown>>(
  props: CrudPageProps<T, F>,
) {
  const options = resolveCrudProps(props);
  const { enabled, testId, compact, onRowClick, selectedRowId } = options;
  const { t } = useTranslation();
  const [searchForm] = Form.useForm();
  const [editForm] = Form.useForm();
  const [density, setDensity] = useState<Density>(compact ? 'small' : 'middle');

  const data = useCrudData(options, searchForm);
  const { query, rows, selected, setSelected } = data;
  const actions = useCrudActions(options, { selected, setSelected, body: data.body, editForm });
  const columns = useCrudColumns(options, { rows, sort: data.sort, actions });

  const canBatch = Boolean(options.permissions.batchDelete);
  const deletableIds = new Set(rows.filter((row) => options.canDelete(row)).map((row) => row.id));
  const emptyText = (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={enabled ? t('common.empty') : (options.disabledText ?? t('common.empty'))}
    />
  );

  return (
    <div data-testid={testId}>
      <CrudSearchBar
        fields={options.searchFields}
        form={searchForm}
        onSearch={data.search}
        onReset={data.reset}
        testId={testId}
      />
      <CrudToolbar
        options={options}
        actions={actions}
        selected={selected}
        refreshing={enabled && query.isFetching && !query.isLoading}
        onRefresh={() => void query.refetch()}
        density={density}
        onDensity={setDensity}
      />
      {enabled && query.isError ? (
        <LoadFailedAlert
          error={query.error}
          onRetry={() => void query.refetch()}
          testId={`${testId}-error`}
          retryTestId={`${testId}-retry`}
        />
      ) : null}
      <Table<T>
        rowKey="id"
        size={density}
        columns={columns}
        dataSource={rows}
        loading={enabled && query.isFetching}
        onChange={data.onTableChange as never}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText }}
        data-testid={`${testId}-table`}
        rowSelection={
          canBatch
            ? {
                columnTitle: selectionTitle,
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys.map(Number)),
                getCheckboxProps: (row) => ({ disabled: !deletableIds.has(row.id) }),
              }
            : undefined
        }
        onRow={(row) => ({
          // Buttons, switches and checkboxes in the row do their own thing; the rest of the row selects it.
          onClick: onRowClick
            ? (event) => {
                if ((event.target as HTMLElement).closest(INTERACTIVE)) return;
                onRowClick(row);
              }
            : undefined,
          style: onRowClick ? { cursor: 'pointer' } : undefined,
          'data-row-id': row.id,
          'data-selected': selectedRowId === row.id ? 'true' : undefined,
          className: selectedRowId === row.id ? 'ant-table-row-selected' : undefined,
        })}
        pagination={{
          ...tablePagination(data.paging, data.total, (count) => (
            <span data-testid={`${testId}-total`}>{t('crud.total', { total: count })}</span>
          )),
          size: compact ? 'small' : undefined,
        }}
      />
      <CrudFormModal options={options} actions={actions} form={editForm} />
    </div>
  );
}
