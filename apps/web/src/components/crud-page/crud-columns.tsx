import { EditOutlined } from '@ant-design/icons';
import { estimateColumnsWidth, estimateColumnWidth } from '@shuzhi/contracts/formatters';
import { Space } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { Auth, useCan } from '../../platform/access/access.tsx';
import type { WithId } from '../../platform/data/resource.ts';
import { ActionButton, StatusCell } from './crud-cells.tsx';
import { type CrudOptions, sortFieldOf } from './crud-options.ts';
import type { CrudColumn } from './crud-types.ts';
import { RowDeleteAction } from './row-delete-action.tsx';
import type { TableSort } from './table-paging.ts';
import type { CrudActions } from './use-crud-actions.ts';

const ACTION_BUTTON_WIDTH = 64;
/** Compact tables (side panels) show icon buttons with the name as tooltip. */
const ICON_BUTTON_WIDTH = 32;

function cellValue<T>(row: T, column: CrudColumn<T>): unknown {
  if (column.widthText) return column.widthText(row);
  const index = column.dataIndex ?? column.key;
  if (Array.isArray(index))
    return index.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[String(k)], row);
  return (row as Record<string, unknown>)[String(index)];
}

type RowActionsProps<T extends WithId, F extends object> = {
  row: T;
  options: CrudOptions<T, F>;
  actions: CrudActions<T>;
  hasUpdate: boolean;
  hasDelete: boolean;
};

/** A row's actions: the resource's own, then 编辑 and 删除 as permitted. */
function CrudRowActions<T extends WithId, F extends object>({
  row,
  options,
  actions,
  hasUpdate,
  hasDelete,
}: RowActionsProps<T, F>) {
  const { t } = useTranslation();
  const { permissions, compact, testId, canDelete, deleteBlockedText } = options;
  const { writes } = actions;
  return (
    <Space size={0}>
      {options.rowActions?.(row)}
      {hasUpdate && permissions.update ? (
        <Auth value={permissions.update}>
          <ActionButton
            compact={compact}
            text={t('crud.edit')}
            icon={<EditOutlined />}
            onClick={() => actions.openEdit(row)}
            data-testid={`${testId}-edit`}
          />
        </Auth>
      ) : null}
      {hasDelete && permissions.delete ? (
        <RowDeleteAction
          permission={permissions.delete}
          compact={compact}
          testId={`${testId}-delete`}
          description={t('crud.confirmDelete')}
          busy={writes.remove.isPending && writes.remove.variables === row.id}
          blockedText={canDelete(row) ? undefined : (deleteBlockedText ?? t('crud.deleteBlocked'))}
          onConfirm={() => actions.remove(row.id)}
        />
      ) : null}
    </Space>
  );
}

/**
 * The table's columns: the resource's (width estimated from the rows unless set, sort state from the page),
 * the status switch, and the row actions unless the user may do none of them.
 * Rebuilt on every render: the handlers close over current state, and tens of columns are cheap.
 */
export function useCrudColumns<T extends WithId, F extends object>(
  options: CrudOptions<T, F>,
  { rows, sort, actions }: { rows: T[]; sort: TableSort; actions: CrudActions<T> },
): ColumnsType<T> {
  const { t } = useTranslation();
  const { can } = useCan();
  const { columns, statusField, permissions, canSetStatus, statusBlockedText, compact, extraActionWidth } =
    options;
  const { writes } = actions;

  const built: ColumnsType<T> = columns.map((column) => {
    const field = sortFieldOf(column);
    const { sort: _sort, widthText: _widthText, ...rest } = column;
    const width =
      column.width ??
      Math.max(
        estimateColumnsWidth(rows.map((row) => cellValue(row, column))),
        estimateColumnWidth(column.title) + (field ? 24 : 0),
      );
    return {
      ellipsis: true,
      dataIndex: column.key,
      ...rest,
      width,
      sorter: field ? true : undefined,
      sortOrder: field && sort?.field === field ? (sort.order === 'descending' ? 'descend' : 'ascend') : null,
    };
  });
  if (statusField) {
    const blockedTextOf = (row: T): string =>
      (typeof statusBlockedText === 'function' ? statusBlockedText(row) : statusBlockedText) ??
      t('crud.statusBlocked');
    built.push({
      key: statusField,
      dataIndex: statusField,
      title: t('crud.status'),
      width: estimateColumnWidth(t('crud.status')),
      render: (value: unknown, row: T) => (
        <StatusCell
          enabled={value === 1}
          permission={permissions.setStatus}
          blockedText={canSetStatus(row) ? undefined : blockedTextOf(row)}
          pending={writes.setStatus.isPending && writes.setStatus.variables?.id === row.id}
          onConfirm={() => actions.toggleStatus(row)}
        />
      ),
    });
  }
  // A user holding neither action (nor any extra action) gets no empty actions column.
  const hasUpdate = Boolean(permissions.update && can(permissions.update)) && options.formFields.length > 0;
  const hasDelete = Boolean(permissions.delete && can(permissions.delete));
  if (hasUpdate || hasDelete || (options.rowActions && extraActionWidth > 0)) {
    const count = Number(hasUpdate) + Number(hasDelete);
    built.push({
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: compact
        ? Math.max(80, count * ICON_BUTTON_WIDTH + extraActionWidth + 16)
        : Math.max(100, count * ACTION_BUTTON_WIDTH + extraActionWidth + 16),
      render: (_: unknown, row: T) => (
        <CrudRowActions
          row={row}
          options={options}
          actions={actions}
          hasUpdate={hasUpdate}
          hasDelete={hasDelete}
        />
      ),
    });
  }
  return built;
}
