import {
  ClockCircleOutlined,
  ExclamationCircleOutlined,
  LockOutlined,
  SyncOutlined,
} from '@ant-design/icons';
import type { PeriodBrief, PeriodState } from '@shuzhi/contracts/diy-period';
import { Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const LOOK: Record<PeriodState, { color: string; icon: ReactNode }> = {
  upcoming: { color: 'default', icon: <ClockCircleOutlined /> },
  open: { color: 'processing', icon: <SyncOutlined /> },
  grace: { color: 'warning', icon: <ExclamationCircleOutlined /> },
  overdue: { color: 'error', icon: <ExclamationCircleOutlined /> },
  closed: { color: 'default', icon: <LockOutlined /> },
};

/** A period's state (未开始 / 填报中 / 宽限期 / 已逾期 / 已关闭) as a coloured tag. */
export function PeriodStateTag({ state }: { state: PeriodState }) {
  const { t } = useTranslation();
  const look = LOOK[state];
  return (
    <Tag
      color={look.color}
      icon={look.icon}
      style={{ marginInlineEnd: 0 }}
      data-testid="period-state"
      data-state={state}
    >
      {t(`diyPeriod.states.${state}`)}
    </Tag>
  );
}

/**
 * The period filing goes to now, for cards and the portal: its name and due date, with the state tag when it
 * asks for attention (grace, overdue, closed, not started).
 */
export function CurrentPeriodLine({ period }: { period: PeriodBrief | null }) {
  const { t } = useTranslation();
  if (!period) {
    return (
      <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="current-period-none">
        {t('diyPeriod.card.none')}
      </Typography.Text>
    );
  }
  const urgent = period.state === 'grace' || period.state === 'overdue';
  return (
    <span
      style={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 6, fontSize: 12 }}
      data-testid="current-period"
      data-state={period.state}
    >
      <Typography.Text style={{ fontSize: 12 }}>
        {t('diyPeriod.card.current', { name: period.name })}
      </Typography.Text>
      <Typography.Text type={urgent ? 'danger' : 'secondary'} strong={urgent} style={{ fontSize: 12 }}>
        {t('diyPeriod.card.due', { date: period.dueDate })}
      </Typography.Text>
      {period.state === 'open' ? null : <PeriodStateTag state={period.state} />}
    </span>
  );
}
