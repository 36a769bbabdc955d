import {
  type CellState,
  type GridCell,
  type ReceiverState,
  TASK_ORG_TYPES,
  type TaskFormRef,
} from '@shuzhi/contracts/diy-task';
import { Space, Tag } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

const CELL_COLORS: Record<CellState, string> = {
  notStarted: 'default',
  filling: 'processing',
  submitted: 'blue',
  returned: 'orange',
  approved: 'green',
  overdue: 'red',
  transferred: 'purple',
  zero: 'cyan',
  formOff: 'default',
  reviewing: 'geekblue',
};

/** A cell of the completeness grid: its state, days late, and for a unit that handed on, how many filed. */
export function CellTag({ cell }: { cell: GridCell }) {
  const { t } = useTranslation();
  const text =
    cell.state === 'overdue'
      ? t('diyTask.daysLate', { days: cell.daysLate })
      : t(`diyTask.cellStates.${cell.state}`);
  return (
    <span data-testid="task-cell" data-state={cell.state}>
      <Tag
        color={CELL_COLORS[cell.state]}
        title={cell.awaiting ? t('taskReview.awaitingOrg', { org: cell.awaiting }) : undefined}
      >
        {text}
      </Tag>
      {cell.total !== null ? (
        <span style={{ fontSize: 12 }}>
          {t('diyTask.doneOf', { done: cell.done ?? 0, total: cell.total })}
        </span>
      ) : null}
    </span>
  );
}

const RECEIVER_COLORS: Record<ReceiverState, string> = {
  received: 'processing',
  handedOn: 'cyan',
  transferred: 'purple',
};

export function ReceiverStateTag({ state }: { state: ReceiverState }) {
  const { t } = useTranslation();
  return <Tag color={RECEIVER_COLORS[state]}>{t(`diyTask.receiverStates.${state}`)}</Tag>;
}

/** An org type's name (the task's unit types), else the value as stored. */
export function useOrgTypeName(): (type: string) => string {
  const { t } = useTranslation();
  // One function per language: callers memoize on it (a chart's option is rebuilt when it changes).
  return useCallback(
    (type: string) =>
      (TASK_ORG_TYPES as readonly string[]).includes(type)
        ? t(`diyTask.orgTypeNames.${type as (typeof TASK_ORG_TYPES)[number]}`)
        : type,
    [t],
  );
}

/** The forms of a task with their periods. */
export function FormsCell({ forms }: { forms: readonly TaskFormRef[] }) {
  const { t } = useTranslation();
  return (
    <Space orientation="vertical" size={0}>
      {forms.map((f) => (
        <span key={f.tableId}>
          {f.title}
          <span style={{ color: '#888' }}> · {f.periodName ?? t('diyTask.noPeriod')}</span>
        </span>
      ))}
    </Space>
  );
}
