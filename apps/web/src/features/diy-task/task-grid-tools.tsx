import { DownOutlined } from '@ant-design/icons';
import type { CellState, GridCell, TaskFormRef, TaskGrid } from '@shuzhi/contracts/diy-task';
import { GRID_CELL_STATES } from '@shuzhi/contracts/diy-task';
import { App, Button, Dropdown, Form, Input, Modal, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { type GridFilters, taskApi } from './diy-task.api.ts';
import { CellTag, useOrgTypeName } from './task-tags.tsx';
import { useTaskSubmit } from './use-task-submit.ts';

type GridRow = TaskGrid['rows'][number];

/** The grid's filters (org type, depth, cell state) and its Excel export. */
export function GridFilterBar({
  filters,
  onChange,
  types,
  depths,
  onExport,
}: {
  filters: GridFilters;
  onChange(filters: GridFilters): void;
  types: readonly string[];
  depths: readonly number[];
  onExport: (() => void) | null;
}) {
  const { t } = useTranslation();
  const typeName = useOrgTypeName();
  return (
    <Space wrap size={8} data-testid="task-grid-filters">
      <Select
        allowClear
        style={{ width: 130 }}
        placeholder={t('diyTaskLife.filterType')}
        value={filters.orgType}
        onChange={(orgType?: string) => onChange({ ...filters, orgType })}
        options={types.map((type) => ({ value: type, label: typeName(type) }))}
        data-testid="task-grid-filter-type"
      />
      <Select
        allowClear
        style={{ width: 110 }}
        placeholder={t('diyTaskLife.filterDepth')}
        value={filters.depth}
        onChange={(depth?: number) => onChange({ ...filters, depth })}
        options={depths.map((n) => ({ value: n, label: t('diyTaskLife.depthN', { n }) }))}
        data-testid="task-grid-filter-depth"
      />
      <Select
        allowClear
        style={{ width: 130 }}
        placeholder={t('diyTaskLife.filterState')}
        value={filters.state}
        onChange={(state?: string) => onChange({ ...filters, state })}
        options={GRID_CELL_STATES.map((s) => ({ value: s, label: t(`diyTask.cellStates.${s}`) }))}
        data-testid="task-grid-filter-state"
      />
      {onExport ? (
        <Button size="small" onClick={onExport} data-testid="task-grid-export">
          {t('diyTaskLife.export')}
        </Button>
      ) : null}
    </Space>
  );
}

/** The record list of a form, narrowed to a unit (and the units below it) on the task's period. */
const unitRecordsPath = (form: TaskFormRef, row: GridRow) =>
  `/diyReport/index/formTable?id=${form.tableId}${form.periodId ? `&periodId=${form.periodId}` : ''}` +
  `&orgId=${row.orgId}&orgName=${encodeURIComponent(row.orgName)}`;

const FILED: readonly CellState[] = ['submitted', 'approved', 'returned'];

/**
 * A grid cell with its drill-down: the record behind it (the record view), the unit's records of the form,
 * and for the caller's own filing part of an open task, 零报告 / 撤回零报告.
 */
export function GridCellView({
  cell,
  form,
  row,
  mine,
  open,
  onView,
  onZero,
  onChanged,
}: {
  cell: GridCell;
  form: TaskFormRef;
  row: GridRow;
  mine: boolean;
  open: boolean;
  onView(tableId: number, recordId: number): void;
  onZero(row: GridRow, form: TaskFormRef): void;
  onChanged(): void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const filer = cell.total === null && cell.state !== 'transferred' && cell.state !== 'formOff';
  const canZero = mine && open && filer && !FILED.includes(cell.state) && cell.state !== 'zero';
  const canWithdraw = mine && open && cell.state === 'zero';
  const withdraw = async () => {
    try {
      await taskApi.zeroWithdraw({ receiverId: row.receiverId, tableId: form.tableId });
      message.success(t('diyTaskLife.zeroWithdrawn'));
      onChanged();
    } catch (error) {
      message.error((error as Error).message);
    }
  };
  const items = [
    ...(cell.recordId !== null ? [{ key: 'record', label: t('diyTaskLife.viewRecord') }] : []),
    ...(cell.state !== 'formOff' ? [{ key: 'unit', label: t('diyTaskLife.unitRecords') }] : []),
    ...(canZero ? [{ key: 'zero', label: t('diyTaskLife.zero') }] : []),
    ...(canWithdraw ? [{ key: 'withdraw', label: t('diyTaskLife.zeroWithdraw') }] : []),
  ];
  const act = (key: string) => {
    if (key === 'record' && cell.recordId !== null) onView(form.tableId, cell.recordId);
    else if (key === 'unit') void navigate(unitRecordsPath(form, row));
    else if (key === 'zero') onZero(row, form);
    else if (key === 'withdraw') void withdraw();
  };
  const tag = <CellTag cell={cell} />;
  if (items.length === 0) return tag;
  return (
    <Dropdown menu={{ items, onClick: ({ key }) => act(key) }} trigger={['click']}>
      <Button
        type="text"
        size="small"
        style={{ padding: 0, height: 'auto' }}
        title={cell.zeroNote ?? undefined}
        data-testid="task-cell-menu"
      >
        {tag}
        <DownOutlined style={{ fontSize: 10 }} />
      </Button>
    </Dropdown>
  );
}

export type ZeroTarget = { row: GridRow; form: TaskFormRef };

/** 零报告: the unit has nothing to report for the form, with a note. */
export function ZeroDialog({
  target,
  onClose,
  onDone,
}: {
  target: ZeroTarget | null;
  onClose(): void;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ note: string }>();
  const { saving, submit } = useTaskSubmit(
    form,
    ['note'],
    async (values) => {
      if (!target) return null;
      await taskApi.zero({
        receiverId: target.row.receiverId,
        tableId: target.form.tableId,
        note: values.note.trim(),
      });
      return t('diyTaskLife.zeroDone');
    },
    onDone,
  );
  return (
    <Modal
      open={target !== null}
      title={t('diyTaskLife.zeroTitle', { org: target?.row.orgName ?? '', form: target?.form.title ?? '' })}
      onCancel={onClose}
      onOk={submit}
      confirmLoading={saving}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" data-testid="task-zero-form">
        <Form.Item
          name="note"
          label={t('diyTaskLife.zeroNote')}
          rules={[{ required: true, whitespace: true, message: t('diyTaskLife.zeroNoteRequired') }]}
        >
          <Input.TextArea maxLength={500} rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
