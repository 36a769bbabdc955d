import { CopyOutlined, DeleteOutlined, PlusOutlined, QuestionCircleOutlined } from '@ant-design/icons';
import type { FormField, RecordValues, SubField } from '@shuzhi/contracts/diy-form';
import { Button, Popconfirm, Space, Table, type TableColumnsType, Tooltip, Typography } from 'antd';
import { type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { cellPath, isShown } from './diy-form.model.ts';
import styles from './diy-form.module.css';
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
  /** Phone width: each row a card of its columns one under another, instead of a wide table. */
  phone?: boolean;
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

  const data: Item[] = rows.map((row, index) => ({ key: keys.current[index] ?? index, index, row }));

  /** One cell's widget (or its value in view mode), with its error under it. */
  const cell = (column: SubField, item: Item) => {
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
          compact={!props.phone}
          phone={props.phone}
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
  };

  const rowActions = (item: Item) => (
    <RowActions
      fieldId={field.id}
      index={item.index}
      full={full}
      phone={props.phone}
      onCopy={copy}
      onRemove={remove}
    />
  );
  const columnTitle = (column: SubField) => <ColumnTitle column={column} editing={editing} />;

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
      title: columnTitle(column),
      render: (_: unknown, item: Item) => cell(column, item),
    })),
    ...(editing
      ? [
          {
            title: t('diyFormRenderer.actions'),
            key: '__actions',
            width: 96,
            fixed: 'right' as const,
            render: (_: unknown, item: Item) => rowActions(item),
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
    <div data-testid={`diy-subtable-${field.id}`} data-layout={props.phone ? 'cards' : 'table'}>
      {props.phone ? (
        <RowCards
          field={field}
          columns={columns}
          data={data}
          idPrefix={props.idPrefix}
          cell={cell}
          title={columnTitle}
          actions={editing ? rowActions : undefined}
        />
      ) : (
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
      )}
      {editing || bounds ? (
        <Space
          style={{ marginTop: 8, ...(props.phone ? { display: 'flex' } : {}) }}
          size={12}
          orientation={props.phone ? 'vertical' : 'horizontal'}
        >
          {editing ? (
            <Tooltip
              title={full ? t('diyFormRenderer.rowsFull', { label: field.label, max: maxRows }) : undefined}
            >
              <Button
                icon={<PlusOutlined />}
                onClick={add}
                disabled={full}
                block={props.phone}
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

type Item = { key: number; index: number; row: Row };

/** Copy and remove of one row (remove asks first); large buttons on a phone. */
function RowActions(props: {
  fieldId: string;
  index: number;
  full: boolean;
  phone?: boolean;
  onCopy: (index: number) => void;
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation();
  const size = props.phone ? 'large' : 'small';
  return (
    <Space size={0}>
      <Tooltip title={t('diyFormRenderer.copyRow')}>
        <Button
          type="text"
          size={size}
          icon={<CopyOutlined />}
          aria-label={t('diyFormRenderer.copyRow')}
          disabled={props.full}
          onClick={() => props.onCopy(props.index)}
          data-testid={`diy-row-copy-${props.fieldId}-${props.index}`}
        />
      </Tooltip>
      <Popconfirm
        title={t('diyFormRenderer.removeRowConfirm', { n: props.index + 1 })}
        onConfirm={() => props.onRemove(props.index)}
      >
        <Button
          type="text"
          size={size}
          danger
          icon={<DeleteOutlined />}
          aria-label={t('diyFormRenderer.removeRow')}
          data-testid={`diy-row-remove-${props.fieldId}-${props.index}`}
        />
      </Popconfirm>
    </Space>
  );
}

/** A column's label: required mark and help. */
function ColumnTitle({ column, editing }: { column: SubField; editing: boolean }) {
  return (
    <span>
      {editing && column.required ? (
        <span style={{ color: 'var(--ant-color-error)', marginInlineEnd: 4 }}>*</span>
      ) : null}
      {column.label}
      {column.help ? (
        <Tooltip title={column.help}>
          <QuestionCircleOutlined style={{ marginInlineStart: 4, color: 'var(--ant-color-text-tertiary)' }} />
        </Tooltip>
      ) : null}
    </span>
  );
}

/** A sub-table at phone width (issue 22 §3): a card per row, its columns one under another with their labels. */
function RowCards(props: {
  field: FormField;
  columns: SubField[];
  data: Item[];
  idPrefix: string;
  cell: (column: SubField, item: Item) => ReactNode;
  title: (column: SubField) => ReactNode;
  actions?: (item: Item) => ReactNode;
}) {
  const { t } = useTranslation();
  const { field } = props;
  if (props.data.length === 0) {
    return (
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('diyFormRenderer.noRows')}
      </Typography.Paragraph>
    );
  }
  return props.data.map((item) => (
    <section
      key={item.key}
      className={styles.rowCard}
      aria-label={`${field.label} ${t('diyFormRenderer.rowCard', { n: item.index + 1 })}`}
      data-testid={`diy-row-card-${field.id}-${item.index}`}
    >
      <div className={styles.rowCardHead}>
        <Typography.Text strong>{t('diyFormRenderer.rowCard', { n: item.index + 1 })}</Typography.Text>
        {props.actions?.(item)}
      </div>
      {props.columns.map((column) => {
        const body = props.cell(column, item);
        if (body === null) return null;
        return (
          <div key={column.id} style={{ marginBottom: 12 }}>
            <label
              htmlFor={`${props.idPrefix}${field.id}-${item.index}-${column.id}`}
              style={{ display: 'block', marginBottom: 4 }}
            >
              {props.title(column)}
            </label>
            {body}
          </div>
        );
      })}
    </section>
  ));
}
