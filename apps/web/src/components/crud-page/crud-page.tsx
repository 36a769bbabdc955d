import {
  ColumnHeightOutlined,
  DeleteOutlined,
  EditOutlined,
  ExportOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { estimateColumnsWidth, estimateColumnWidth } from '@shuzhi/contracts/formatters';
import {
  App,
  Button,
  type ButtonProps,
  Col,
  Dropdown,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Space,
  Switch,
  Table,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import type { PageRequest, WithId } from '../../platform/data/resource.ts';
import { useResourcePage, useResourceWrites } from '../../platform/data/use-resource.ts';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { DisabledReason } from '../disabled-reason.tsx';
import { useReclickGuard } from '../use-reclick-guard.ts';
import type { CrudColumn, CrudFormContext, CrudPageProps } from './crud-types.ts';
import { LoadFailedAlert } from './load-failed-alert.tsx';
import { SearchActions } from './search-actions.tsx';
import { tablePagination, useTablePaging } from './table-paging.ts';

type Density = 'large' | 'middle' | 'small';

const ACTION_BUTTON_WIDTH = 64;
const INTERACTIVE = 'button, a, input, .ant-switch, .ant-checkbox-wrapper, .ant-popover';
/** Compact tables (side panels) show icon buttons with the name as tooltip. */
const ICON_BUTTON_WIDTH = 32;

function cellValue<T>(row: T, column: CrudColumn<T>): unknown {
  if (column.widthText) return column.widthText(row);
  const index = column.dataIndex ?? column.key;
  if (Array.isArray(index))
    return index.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[String(k)], row);
  return (row as Record<string, unknown>)[String(index)];
}

function sortFieldOf<T>(column: CrudColumn<T>): string | null {
  if (!column.sort) return null;
  return typeof column.sort === 'string' ? column.sort : column.key;
}

/** Drops empty filter values so the body carries only what the user typed or picked. */
function cleanFilters(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(
      ([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === ''),
    ),
  );
}

/**
 * The shared list screen (DESIGN §3.5): search bar, server-paged and sorted table, toolbar, row actions,
 * status switch and the add / edit dialog. A resource supplies its columns, fields and permissions.
 */
export function CrudPage<T extends WithId, F extends object = Record<string, unknown>>(
  props: CrudPageProps<T, F>,
) {
  const {
    resource,
    entityName,
    columns,
    permissions,
    searchFields = [],
    formFields = [],
    fixedFilters,
    formDefaults,
    toFormValues,
    toPayload,
    canDelete = () => true,
    deleteBlockedText,
    statusField,
    canSetStatus = () => true,
    statusBlockedText,
    rowActions,
    toolbarExtra,
    title,
    exportFileName,
    invalidates = [],
    onSaved,
    onRowClick,
    onLoaded,
    selectedRowId,
    enabled = true,
    disabledText,
    defaultPageSize = 20,
    defaultSort,
    modalWidth = 640,
    extraActionWidth = 0,
    testId = 'crud',
    compact = false,
  } = props;
  const { t } = useTranslation();
  const { can } = useCan();
  const { message } = App.useApp();
  const formId = useId();
  const [searchForm] = Form.useForm();
  const [editForm] = Form.useForm();

  const { paging, setPaging, sort, onTableChange } = useTablePaging<T>({
    pageSize: defaultPageSize,
    sort: defaultSort ?? null,
    sortField: (sorter) => {
      const column = columns.find((c) => c.key === String(sorter.columnKey ?? sorter.field ?? ''));
      return column ? sortFieldOf(column) : null;
    },
  });
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [density, setDensity] = useState<Density>(compact ? 'small' : 'middle');
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<{ mode: 'add' | 'edit'; record?: T; key: number } | null>(null);
  const [exportPercent, setExportPercent] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

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
  const writes = useResourceWrites(resource, invalidates);
  const rows = enabled ? (query.data?.items ?? []) : [];
  const loadedItems = query.data?.items;
  useEffect(() => {
    if (loadedItems) onLoaded?.(loadedItems);
  }, [loadedItems, onLoaded]);
  const total = enabled ? (query.data?.total ?? 0) : 0;

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const search = (values: Record<string, unknown>) => {
    setFilters(cleanFilters(values));
    setPaging((p) => ({ ...p, page: 1 }));
    setSelected([]);
  };
  const reset = () => {
    searchForm.resetFields();
    search({});
  };

  const remove = useReclickGuard((id: number) => {
    writes.remove.mutate(id, {
      onSuccess: () => {
        message.success(t('crud.deleted'));
        setSelected((keys) => keys.filter((key) => key !== id));
        onSaved?.();
      },
      onError: showError,
    });
  });

  const batchRemove = useReclickGuard(() => {
    if (selected.length === 0) return;
    writes.batchRemove.mutate(selected, {
      onSuccess: () => {
        message.success(t('crud.deleted'));
        setSelected([]);
        onSaved?.();
      },
      onError: showError,
    });
  });

  const statusBlockedTextOf = (row: T): string =>
    (typeof statusBlockedText === 'function' ? statusBlockedText(row) : statusBlockedText) ??
    t('crud.statusBlocked');

  const toggleStatus = (row: T) => {
    const current = (row as Record<string, unknown>)[statusField as string];
    writes.setStatus.mutate(
      { id: row.id, status: current === 1 ? 2 : 1 },
      {
        onSuccess: () => {
          message.success(t('crud.statusChanged'));
          onSaved?.();
        },
        onError: showError,
      },
    );
  };

  const runExport = useReclickGuard(async () => {
    setExporting(true);
    setExportPercent(null);
    try {
      const { page: _page, pageSize: _size, ...rest } = body;
      const name = `${exportFileName ?? resource.service}.xlsx`;
      await resource.exportFile({ ...rest, page: 1, pageSize: paging.pageSize } as PageRequest<F>, name, {
        onProgress: setExportPercent,
      });
      message.success(t('crud.exported'));
    } catch (error) {
      if (!(error instanceof HttpError)) showError(error);
    } finally {
      setExporting(false);
      setExportPercent(null);
    }
  });

  const openAdd = () => setEditing({ mode: 'add', key: Date.now() });
  const openEdit = (record: T) => setEditing({ mode: 'edit', record, key: Date.now() });
  const closeModal = () => setEditing(null);

  const saving = writes.add.isPending || writes.update.isPending;
  const submit = useReclickGuard((values: Record<string, unknown>) => {
    if (!editing || saving) return;
    const context: CrudFormContext<T> = { mode: editing.mode, record: editing.record };
    const payload = toPayload ? toPayload(values, context) : (values as Partial<T>);
    const onError = (error: unknown) => {
      const names = formFields.map((field) => field.name);
      const { fields, rest } = serverFieldErrors(error, names);
      if (fields.length > 0) {
        editForm.setFields(fields);
        if (rest.length > 0) message.error(rest.join('; '));
        return;
      }
      showError(error);
    };
    const onSuccess = () => {
      message.success(t('crud.saved'));
      setEditing(null);
      onSaved?.();
    };
    if (editing.mode === 'add') {
      writes.add.mutate({ ...(formDefaults ?? {}), ...payload }, { onSuccess, onError });
    } else if (editing.record) {
      writes.update.mutate({ ...payload, id: editing.record.id }, { onSuccess, onError });
    }
  });

  // Rebuilt on every render: the handlers close over current state, and tens of columns are cheap.
  const tableColumns = ((): ColumnsType<T> => {
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
        sortOrder:
          field && sort?.field === field ? (sort.order === 'descending' ? 'descend' : 'ascend') : null,
      };
    });
    if (statusField) {
      built.push({
        key: statusField,
        dataIndex: statusField,
        title: t('crud.status'),
        width: estimateColumnWidth(t('crud.status')),
        render: (value: unknown, row: T) => (
          <StatusCell
            enabled={value === 1}
            permission={permissions.setStatus}
            blockedText={canSetStatus(row) ? undefined : statusBlockedTextOf(row)}
            pending={writes.setStatus.isPending && writes.setStatus.variables?.id === row.id}
            onConfirm={() => toggleStatus(row)}
          />
        ),
      });
    }
    // A user holding neither action (nor any extra action) gets no empty actions column.
    const hasUpdate = Boolean(permissions.update && can(permissions.update)) && formFields.length > 0;
    const hasDelete = Boolean(permissions.delete && can(permissions.delete));
    if (hasUpdate || hasDelete || (rowActions && extraActionWidth > 0)) {
      const count = Number(hasUpdate) + Number(hasDelete);
      built.push({
        key: '__actions',
        title: t('crud.actions'),
        fixed: 'right',
        width: compact
          ? Math.max(80, count * ICON_BUTTON_WIDTH + extraActionWidth + 16)
          : Math.max(100, count * ACTION_BUTTON_WIDTH + extraActionWidth + 16),
        render: (_: unknown, row: T) => (
          <Space size={0}>
            {rowActions?.(row)}
            {hasUpdate && permissions.update ? (
              <Auth value={permissions.update}>
                <ActionButton
                  compact={compact}
                  text={t('crud.edit')}
                  icon={<EditOutlined />}
                  onClick={() => openEdit(row)}
                  data-testid={`${testId}-edit`}
                />
              </Auth>
            ) : null}
            {hasDelete && permissions.delete ? (
              <Auth value={permissions.delete}>
                {canDelete(row) ? (
                  <Popconfirm
                    title={t('crud.confirmDeleteTitle')}
                    description={t('crud.confirmDelete')}
                    okText={t('crud.delete')}
                    okButtonProps={{ danger: true, 'data-testid': `${testId}-delete-ok` }}
                    cancelText={t('common.cancel')}
                    onConfirm={() => remove(row.id)}
                  >
                    <ActionButton
                      compact={compact}
                      text={t('crud.delete')}
                      danger
                      icon={<DeleteOutlined />}
                      disabled={writes.remove.isPending && writes.remove.variables === row.id}
                      data-testid={`${testId}-delete`}
                    />
                  </Popconfirm>
                ) : (
                  <Tooltip title={deleteBlockedText ?? t('crud.deleteBlocked')}>
                    <Button
                      type="link"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      disabled
                      aria-label={t('crud.delete')}
                      data-testid={`${testId}-delete`}
                    >
                      {compact ? null : t('crud.delete')}
                    </Button>
                  </Tooltip>
                )}
              </Auth>
            ) : null}
          </Space>
        ),
      });
    }
    return built;
  })();

  const canBatch = Boolean(permissions.batchDelete);
  const batchPermission = permissions.batchDelete ?? '';
  const deletableIds = new Set(rows.filter((row) => canDelete(row)).map((row) => row.id));

  const searchBar =
    searchFields.length > 0 ? (
      <Form
        form={searchForm}
        layout="inline"
        onFinish={search}
        data-testid={`${testId}-search`}
        style={{ rowGap: 12, marginBottom: 16 }}
      >
        {searchFields.map((field) => (
          <Form.Item key={field.name} name={field.name} label={field.label} style={{ marginInlineEnd: 16 }}>
            {field.input ?? (
              <Input
                allowClear
                placeholder={t('crud.inputPlaceholder', { label: field.label })}
                style={{ width: field.width ?? 180 }}
                data-testid={`${testId}-search-${field.name}`}
              />
            )}
          </Form.Item>
        ))}
        <SearchActions testId={testId} onReset={reset} />
      </Form>
    ) : null;

  const densityItems: { key: Density; label: string }[] = [
    { key: 'large', label: t('crud.densityLarge') },
    { key: 'middle', label: t('crud.densityMiddle') },
    { key: 'small', label: t('crud.densitySmall') },
  ];

  const toolbar = (
    <div
      style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}
      data-testid={`${testId}-toolbar`}
    >
      <div style={{ flex: '1 1 auto', minWidth: 0 }}>
        {title ? (
          <Typography.Text strong style={{ fontSize: 15 }}>
            {title}
          </Typography.Text>
        ) : null}
      </div>
      <Space wrap size={8}>
        {selected.length > 0 ? (
          <Typography.Text type="secondary" data-testid={`${testId}-selected`}>
            {t('crud.selected', { count: selected.length })}
          </Typography.Text>
        ) : null}
        {toolbarExtra}
        {permissions.add && formFields.length > 0 ? (
          <Auth value={permissions.add}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={openAdd}
              disabled={!enabled}
              data-testid={`${testId}-add`}
            >
              {t('crud.add')}
            </Button>
          </Auth>
        ) : null}
        {canBatch ? (
          <Auth value={batchPermission}>
            <Popconfirm
              title={t('crud.confirmDeleteTitle')}
              description={t('crud.confirmBatchDelete', { count: selected.length })}
              okText={t('crud.delete')}
              okButtonProps={{ danger: true, 'data-testid': `${testId}-batch-delete-ok` }}
              cancelText={t('common.cancel')}
              onConfirm={batchRemove}
              disabled={selected.length === 0}
            >
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selected.length === 0 || writes.batchRemove.isPending}
                loading={writes.batchRemove.isPending}
                data-testid={`${testId}-batch-delete`}
              >
                {t('crud.batchDelete')}
              </Button>
            </Popconfirm>
          </Auth>
        ) : null}
        {permissions.export ? (
          <Auth value={permissions.export}>
            <Button
              icon={<ExportOutlined />}
              onClick={() => void runExport()}
              loading={exporting}
              disabled={!enabled}
              data-testid={`${testId}-export`}
            >
              {exporting && exportPercent !== null
                ? t('crud.exportProgress', { percent: exportPercent })
                : t(exporting ? 'crud.exporting' : 'crud.export')}
            </Button>
          </Auth>
        ) : null}
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void query.refetch()}
            disabled={!enabled}
            loading={enabled && query.isFetching && !query.isLoading}
            aria-label={t('crud.refresh')}
            data-testid={`${testId}-refresh`}
          />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            items: densityItems,
            selectable: true,
            selectedKeys: [density],
            onClick: ({ key }) => setDensity(key as Density),
          }}
        >
          <Tooltip title={t('crud.density')}>
            <Button
              icon={<ColumnHeightOutlined />}
              aria-label={t('crud.density')}
              data-testid={`${testId}-density`}
            />
          </Tooltip>
        </Dropdown>
      </Space>
    </div>
  );

  const emptyText = enabled ? (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} />
  ) : (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={disabledText ?? t('common.empty')} />
  );

  const context: CrudFormContext<T> | null = editing ? { mode: editing.mode, record: editing.record } : null;
  const initialValues = editing
    ? editing.record
      ? toFormValues
        ? toFormValues(editing.record)
        : (editing.record as Record<string, unknown>)
      : {
          ...Object.fromEntries(
            formFields.filter((f) => f.initialValue !== undefined).map((f) => [f.name, f.initialValue]),
          ),
          ...(formDefaults ?? {}),
        }
    : undefined;

  return (
    <div data-testid={testId}>
      {searchBar}
      {toolbar}
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
        columns={tableColumns}
        dataSource={rows}
        loading={enabled && query.isFetching}
        onChange={onTableChange as never}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText }}
        data-testid={`${testId}-table`}
        rowSelection={
          canBatch
            ? {
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
          ...tablePagination(paging, total, (count) => (
            <span data-testid={`${testId}-total`}>{t('crud.total', { total: count })}</span>
          )),
          size: compact ? 'small' : undefined,
        }}
      />
      <Modal
        open={editing !== null}
        title={
          editing?.mode === 'edit'
            ? t('crud.editTitle', { name: entityName })
            : t('crud.addTitle', { name: entityName })
        }
        width={modalWidth}
        onCancel={closeModal}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={saving}
        okButtonProps={{ htmlType: 'submit', form: formId, 'data-testid': `${testId}-form-submit` }}
        cancelButtonProps={{ disabled: saving }}
        destroyOnHidden
        mask={{ closable: !saving }}
        keyboard
        data-testid={`${testId}-modal`}
      >
        {editing && context ? (
          <Form
            key={editing.key}
            id={formId}
            form={editForm}
            layout="vertical"
            initialValues={initialValues}
            onFinish={submit}
            disabled={saving}
            data-testid={`${testId}-form`}
            style={{ marginTop: 16 }}
          >
            <Row gutter={16}>
              {formFields
                .filter((field) => !field.hidden?.(context))
                .map((field) => (
                  <Col span={field.half ? 12 : 24} key={field.name}>
                    <Form.Item
                      name={field.name}
                      label={field.label}
                      rules={field.rules}
                      valuePropName={field.valuePropName}
                      tooltip={field.tooltip}
                      extra={field.extra}
                    >
                      {renderInput(field.input, context, field.label, `${testId}-field-${field.name}`, t)}
                    </Form.Item>
                  </Col>
                ))}
            </Row>
          </Form>
        ) : null}
      </Modal>
    </div>
  );
}

/** A row action: link button with text, or only the icon (name as tooltip and label) in compact tables. */
function ActionButton({
  compact,
  text,
  ...props
}: { compact: boolean; text: string } & Omit<ButtonProps, 'type' | 'size' | 'children'>) {
  const button = (
    <Button type="link" size="small" aria-label={text} {...props}>
      {compact ? null : text}
    </Button>
  );
  return compact ? <Tooltip title={text}>{button}</Tooltip> : button;
}

function renderInput<T>(
  input: ReactNode | ((context: CrudFormContext<T>) => ReactNode),
  context: CrudFormContext<T>,
  label: string,
  testId: string,
  t: TFunction,
): ReactNode {
  if (typeof input === 'function') return input(context);
  if (input !== undefined) return input;
  return <Input allowClear placeholder={t('crud.inputPlaceholder', { label })} data-testid={testId} />;
}

function StatusCell({
  enabled,
  permission,
  blockedText,
  pending,
  onConfirm,
}: {
  enabled: boolean;
  permission?: string;
  /** Set when this record's status may not be changed: the switch is disabled and this explains why. */
  blockedText?: string;
  pending: boolean;
  onConfirm: () => void;
}) {
  const { t } = useTranslation();
  const { can } = useCan();
  const readOnly = (
    <Switch
      size="small"
      checked={enabled}
      disabled
      checkedChildren={t('crud.enabled')}
      unCheckedChildren={t('crud.disabled')}
    />
  );
  // Without the permission the switch stays, read-only: the status is information too.
  if (!permission || !can(permission)) return readOnly;
  if (blockedText)
    return (
      <DisabledReason reason={blockedText} testId="crud-status-blocked">
        <Switch
          size="small"
          checked={enabled}
          disabled
          checkedChildren={t('crud.enabled')}
          unCheckedChildren={t('crud.disabled')}
          data-testid="crud-status-switch"
        />
      </DisabledReason>
    );
  return (
    <Popconfirm
      title={t(enabled ? 'crud.confirmDisable' : 'crud.confirmEnable')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onConfirm={onConfirm}
      okButtonProps={{ 'data-testid': 'crud-status-ok' }}
    >
      <Switch
        size="small"
        checked={enabled}
        loading={pending}
        checkedChildren={t('crud.enabled')}
        unCheckedChildren={t('crud.disabled')}
        data-testid="crud-status-switch"
      />
    </Popconfirm>
  );
}
