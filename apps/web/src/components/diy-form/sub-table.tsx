import { CopyOutlined, DeleteOutlined, PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { FormField, RecordValues, SubField } from '@shuzhi/contracts/diy-form';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cellPath, isShown } from './diy-form.model.ts';
import { FieldInput } from './field-input.tsx';
import { FieldView } from './field-view.tsx';
import type { FileOpener } from './file-field.tsx';

type Row = RecordValues;

const WIDTHS: Partial<Record<string, number>> = {
  textarea: 220,
  richText: 320,
  attachment: 240,
  image: 260,
  checkbox: 220,
  multiSelect: 200,
  region: 220,
  datetime: 190,
  org: 180,
  user: 160,
  enterprise: 200,
  idCard: 190,
};
const columnWidth = (column: SubField) => WIDTHS[column.type] ?? 150;

export type SubTableProps = {
  field: FormField;
  rows: Row[];
  /** The rows as the contract computed them (row formulas). */
  computedRows: Row[];
  /** The record's values (show-when of a column may read the record). */
  record: RecordValues;
  mode: 'edit' | 'view';
  disabled?: boolean;
  onRowsChange: (rows: Row[]) => void;
  /** What an added row starts with (the columns' defaults); empty without it. */
  newRow?: () => Row;
  onCellChange: (row: number, column: string, value: unknown) => void;
  onCellBlur: (path: string) => void;
  errorOf: (path: string, label: string) => string | undefined;
  recordId?: number | null;
  onOpenFile?: FileOpener;
  idPrefix: string;
};

let nextKey = 1;

/**
 * A sub-table: numbered rows of the column widgets, add / copy / remove, row bounds, per-cell errors
 * under the cells; formula columns show what the contract computed for the row.
 */
export function SubTable(props: SubTableProps) {
  const { t } = useTranslation();
  const { field, rows, computedRows, mode, disabled } = props;
  const columns = (field.columns ?? []) as SubField[];
  const editing = mode === 'edit' && !disabled && !field.readOnly;

  // Stable row keys across inserts and removals made here; a list replaced from outside gets new keys.
  const keys = useRef<number[]>([]);
  if (keys.current.length !== rows.length) {
    keys.current = rows.map((_, i) => keys.current[i] ?? nextKey++);
  }

  const maxRows = field.maxRows ?? null;
  const full = maxRows !== null && rows.length >= maxRows;

  const change = (next: Row[], nextKeys: number[]) => {
    keys.current = nextKeys;
    props.onRowsChange(next);
  };
  const add = () => change([...rows, props.newRow?.() ?? {}], [...keys.current, nextKey++]);
  const copy = (i: number) =>
    change(
      [...rows.slice(0, i + 1), { ...(rows[i] ?? {}) }, ...rows.slice(i + 1)],
      [...keys.current.slice(0, i + 1), nextKey++, ...keys.current.slice(i + 1)],
    );
  const remove = (i: number) =>
    change(
      rows.filter((_, j) => j !== i),
      keys.current.filter((_, j) => j !== i),
    );

  type Item = { key: number; index: number; row: Row };
  const data: Item[] = rows.map((row, index) => ({ key: keys.current[index] ?? index, index, row }));

  const tableColumns: TableColumnsType<Item> = [
    {
      title: t('diyFormRenderer.rowNo'),
      key: '__no',
      width: 56,
      align: 'center',
      fixed: 'left',
      render: (_, item) => item.index + 1,
    },
    ...columns.map((column) => ({
      key: column.id,
      width: columnWidth(column),
      title: (
        <span>
          {editing && column.required ? (
            <span style={{ color: 'var(--ant-color-error)', marginInlineEnd: 4 }}>*</span>
          ) : null}
          {column.label}
          {column.help ? (
            <Tooltip title={column.help}>
              <QuestionCircleOutlined
                style={{ marginInlineStart: 4, color: 'var(--ant-color-text-tertiary)' }}
              />
            </Tooltip>
          ) : null}
        </span>
      ),
      render: (_: unknown, item: Item) => {
        if (!isShown(column, props.record, item.row)) return null;
        const path = cellPath(field.id, item.index, column.id);
        const id = `${props.idPrefix}${field.id}-${item.index}-${column.id}`;
        const value =
          column.type === 'formula' ? (computedRows[item.index]?.[column.id] ?? null) : item.row[column.id];
        if (mode === 'view') {
          return (
            <FieldView
              field={column}
              value={value}
              id={id}
              recordId={props.recordId}
              onOpenFile={props.onOpenFile}
            />
          );
        }
        const error = props.errorOf(path, column.label);
        return (
          <div data-field-path={path}>
            <FieldInput
              field={column}
              value={value}
              id={id}
              compact
              invalid={!!error}
              disabled={disabled || field.readOnly === true}
              onChange={(next) => props.onCellChange(item.index, column.id, next)}
              onBlur={() => props.onCellBlur(path)}
              recordId={props.recordId}
              onOpenFile={props.onOpenFile}
            />
            {error ? (
              <div className="ant-form-item-explain-error" role="alert" data-testid={`diy-error-${id}`}>
                {error}
              </div>
            ) : null}
          </div>
        );
      },
    })),
    ...(editing
      ? [
          {
            title: t('diyFormRenderer.actions'),
            key: '__actions',
            width: 96,
            fixed: 'right' as const,
            render: (_: unknown, item: Item) => (
              <Space size={0}>
                <Tooltip title={t('diyFormRenderer.copyRow')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<CopyOutlined />}
                    aria-label={t('diyFormRenderer.copyRow')}
                    disabled={full}
                    onClick={() => copy(item.index)}
                    data-testid={`diy-row-copy-${field.id}-${item.index}`}
                  />
                </Tooltip>
                <Popconfirm
                  title={t('diyFormRenderer.removeRowConfirm', { n: item.index + 1 })}
                  onConfirm={() => remove(item.index)}
                >
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('diyFormRenderer.removeRow')}
                    data-testid={`diy-row-remove-${field.id}-${item.index}`}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  const bounds =
    mode !== 'edit'
      ? null
      : field.minRows && maxRows
        ? t('diyFormRenderer.rowBounds', { min: field.minRows, max: maxRows })
        : field.minRows
          ? t('diyFormRenderer.rowMin', { min: field.minRows })
          : maxRows
            ? t('diyFormRenderer.rowMax', { max: maxRows })
            : null;

  return (
    <div data-testid={`diy-subtable-${field.id}`}>
      <Table<Item>
        size="small"
        bordered
        columns={tableColumns}
        dataSource={data}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('diyFormRenderer.noRows') }}
        tableLayout="fixed"
      />
      {editing || bounds ? (
        <Space style={{ marginTop: 8 }} size={12}>
          {editing ? (
            <Tooltip
              title={full ? t('diyFormRenderer.rowsFull', { label: field.label, max: maxRows }) : undefined}
            >
              <Button
                icon={<PlusOutlined />}
                onClick={add}
                disabled={full}
                data-testid={`diy-row-add-${field.id}`}
              >
                {t('diyFormRenderer.addRow')}
              </Button>
            </Tooltip>
          ) : null}
          {bounds ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {bounds}
            </Typography.Text>
          ) : null}
        </Space>
      ) : null}
    </div>
  );
}
