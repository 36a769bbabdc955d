import type { GridCell, TaskDetail, TaskGrid } from '@shuzhi/contracts/diy-task';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Space, Table, Timeline } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RecordViewDrawer } from '../../components/diy-record/record-view-drawer.tsx';
import { useCan } from '../../platform/access/access.tsx';
import { type GridFilters, TASK_KEYS, taskApi } from './diy-task.api.ts';
import { GridCellView, GridFilterBar, ZeroDialog, type ZeroTarget } from './task-grid-tools.tsx';
import { rowDone, type UrgeTarget } from './task-urge.tsx';

type GridRow = TaskGrid['rows'][number] & { children?: GridRow[] };

/** The grid's rows nested like the tree (antd expands them), so a street's row holds its communities. */
export function nestRows(rows: TaskGrid['rows']): GridRow[] {
  const byId = new Map<number, GridRow>(rows.map((r) => [r.receiverId, { ...r }]));
  const roots: GridRow[] = [];
  for (const r of rows) {
    const row = byId.get(r.receiverId) as GridRow;
    const parent = r.parentId === null ? undefined : byId.get(r.parentId);
    if (parent) parent.children = [...(parent.children ?? []), row];
    else roots.push(row);
  }
  return roots;
}

/** Urging from the grid: which rows the caller may urge, and what to do with the ones ticked. */
export type GridUrge = {
  can(receiverId: number): boolean;
  onUrge(targets: UrgeTarget[]): void;
  /** Changes after each urge: the rows ticked before are let go. */
  round: number;
};

/**
 * The completeness grid of a task: receivers (nested like the tree) × forms, with filters, Excel export, the
 * drill-down from a cell, and 零报告 on the caller's own parts (`mine`) while the task is `open`. With `urge`,
 * rows not done that the caller may urge can be ticked and urged (催办).
 */
export function TaskGridCard({
  id,
  mine = new Set<number>(),
  open = true,
  urge,
}: {
  id: number;
  mine?: ReadonlySet<number>;
  open?: boolean;
  urge?: GridUrge;
}) {
  const { t } = useTranslation();
  const { can } = useCan();
  const client = useQueryClient();
  const [filters, setFilters] = useState<GridFilters>({});
  const [viewing, setViewing] = useState<{ tableId: number; recordId: number } | null>(null);
  const [zero, setZero] = useState<ZeroTarget | null>(null);
  // Rows ticked in this round: after an urge none are.
  const [tick, setTick] = useState<{ round: number; rows: GridRow[] }>({ round: 0, rows: [] });
  const ticked = tick.round === urge?.round ? tick.rows : [];
  const grid = useQuery({
    queryKey: TASK_KEYS.grid(id, filters),
    queryFn: () => taskApi.grid(id, filters),
    retry: false,
    placeholderData: keepPreviousData,
  });
  // The filters' choices come from the unfiltered grid (the same query the detail opened with).
  const whole = useQuery({ queryKey: TASK_KEYS.grid(id), queryFn: () => taskApi.grid(id), retry: false });
  const types = [...new Set((whole.data?.rows ?? []).map((r) => r.orgType).filter(Boolean))];
  const depths = [...new Set((whole.data?.rows ?? []).map((r) => r.depth))].sort((a, b) => a - b);
  const changed = () => {
    setZero(null);
    void client.invalidateQueries({ queryKey: TASK_KEYS.all });
  };
  const gridRows = useMemo(() => nestRows(grid.data?.rows ?? []), [grid.data]);
  // Rows start expanded (also once the grid arrives after the first render); the user may fold any.
  const [folded, setFolded] = useState<readonly number[]>([]);
  const parents = useMemo(
    () => (grid.data?.rows ?? []).flatMap((r) => (r.parentId === null ? [] : [r.parentId])),
    [grid.data],
  );
  const columns: ColumnsType<GridRow> = [
    { key: 'org', title: t('diyTask.unit'), dataIndex: 'orgName', width: 220, fixed: 'left' },
    { key: 'due', title: t('diyTask.dueTime'), width: 140, render: (_, row) => row.dueTime.slice(0, 16) },
    ...(grid.data?.forms ?? []).map((form, i) => ({
      key: `form-${form.tableId}`,
      title: form.title,
      width: 160,
      render: (_: unknown, row: GridRow) => (
        <GridCellView
          cell={row.cells[i] as GridCell}
          form={form}
          row={row}
          mine={mine.has(row.receiverId)}
          open={open}
          onView={(tableId, recordId) => setViewing({ tableId, recordId })}
          onZero={(r, f) => setZero({ row: r, form: f })}
          onChanged={changed}
        />
      ),
    })),
  ];
  const onExport = can('diyTask:export')
    ? () => void taskApi.exportGrid(id, filters, t('diyTaskLife.exportName')).catch(() => undefined)
    : null;
  return (
    <Card
      title={t('diyTask.grid')}
      size="small"
      extra={
        <Space size={8} wrap>
          {urge ? (
            <Button
              size="small"
              type="primary"
              disabled={ticked.length === 0}
              title={t('taskUrge.selectHint')}
              onClick={() =>
                urge.onUrge(ticked.map((r) => ({ receiverId: r.receiverId, orgName: r.orgName })))
              }
              data-testid="task-grid-urge"
            >
              {t('taskUrge.urgeSelected', { n: ticked.length })}
            </Button>
          ) : null}
          <GridFilterBar
            filters={filters}
            onChange={setFilters}
            types={types}
            depths={depths}
            onExport={onExport}
          />
        </Space>
      }
    >
      <Table<GridRow>
        rowKey="receiverId"
        size="small"
        columns={columns}
        dataSource={gridRows}
        loading={grid.isFetching}
        pagination={false}
        rowSelection={
          urge
            ? {
                checkStrictly: true,
                selectedRowKeys: ticked.map((r) => r.receiverId),
                onChange: (_, rows) => setTick({ round: urge.round, rows }),
                getCheckboxProps: (row) => ({
                  disabled: rowDone(row.cells) || !urge.can(row.receiverId),
                  'data-testid': 'task-grid-tick',
                }),
              }
            : undefined
        }
        expandable={{
          expandedRowKeys: parents.filter((key) => !folded.includes(key)),
          onExpand: (open, row) =>
            setFolded((keys) =>
              open ? keys.filter((k) => k !== row.receiverId) : [...keys, row.receiverId],
            ),
        }}
        scroll={{ x: 360 + 160 * (grid.data?.forms.length ?? 1) }}
        data-testid="task-grid"
      />
      <RecordViewDrawer
        tableId={viewing?.tableId ?? 0}
        recordId={viewing?.recordId ?? null}
        open={viewing !== null}
        onClose={() => setViewing(null)}
      />
      <ZeroDialog target={zero} onClose={() => setZero(null)} onDone={changed} />
    </Card>
  );
}

/** The task's history: create, hand on, transfer, with the units each step reached. */
export function TaskHistory({ events }: { events: TaskDetail['events'] }) {
  const { t } = useTranslation();
  return (
    <Card title={t('diyTask.history')} size="small">
      {events.length === 0 ? (
        <Empty />
      ) : (
        <Timeline
          items={events.map((e) => ({
            key: e.id,
            content: (
              <span data-testid="task-event">
                {e.createTime.slice(0, 16)} {e.userName ?? ''}（{e.orgName ?? ''}）
                {t(`diyTask.events.${e.action}`)}
                {e.targetCount > 0
                  ? `：${t('diyTask.eventTargets', {
                      names: e.targets.join(t('common.listSeparator')),
                      count: e.targetCount,
                    })}`
                  : ''}
                {e.comment ? ` — ${e.comment}` : ''}
              </span>
            ),
          }))}
        />
      )}
    </Card>
  );
}
