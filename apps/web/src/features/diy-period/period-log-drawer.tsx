import type { PeriodLog, PeriodPageRow } from '@shuzhi/contracts/diy-period';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Drawer, Empty, Skeleton, Tag, Timeline, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PERIOD_KEYS, periodApi } from '../../components/diy-period/diy-period.api.ts';
import { serverText } from '../../platform/i18n/text-key.ts';

const ACTION_COLOR: Record<PeriodLog['action'], string> = {
  create: 'blue',
  update: 'gray',
  close: 'red',
  reopen: 'green',
};

/** 日志 of a period: who created, changed, closed or reopened it, when, why, and what changed. */
export function PeriodLogDrawer({ row, onClose }: { row: PeriodPageRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const log = useQuery({
    queryKey: PERIOD_KEYS.log(row?.id ?? 0),
    queryFn: () => periodApi.log(row?.id ?? 0),
    enabled: row !== null,
    staleTime: 0,
  });
  const shown = (value: unknown) =>
    value === null || value === undefined || value === '' ? t('diyPeriod.noValue') : String(value);

  let body: ReactNode;
  if (log.isPending) body = <Skeleton active paragraph={{ rows: 6 }} />;
  else if (log.isError) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('diyPeriod.logFailed')}
        description={log.error instanceof Error ? log.error.message : undefined}
        action={
          <Button size="small" onClick={() => void log.refetch()}>
            {t('diyPeriod.retry')}
          </Button>
        }
      />
    );
  } else if (log.data.length === 0) {
    body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('diyPeriod.logEmpty')} />;
  } else {
    body = (
      <Timeline
        data-testid="period-log-list"
        items={log.data.map((entry) => ({
          key: entry.id,
          color: ACTION_COLOR[entry.action],
          content: (
            <div data-testid="period-log-entry" data-action={entry.action}>
              <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'wrap' }}>
                <Tag color={ACTION_COLOR[entry.action]} style={{ marginInlineEnd: 0 }}>
                  {t(`diyPeriod.logActions.${entry.action}`)}
                </Tag>
                <Typography.Text>{entry.userName ?? t('diyPeriod.system')}</Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {entry.createTime}
                </Typography.Text>
              </div>
              {entry.comment ? (
                <Typography.Paragraph style={{ margin: '6px 0 0', whiteSpace: 'pre-wrap' }}>
                  {entry.comment}
                </Typography.Paragraph>
              ) : null}
              {entry.changes.length > 0 ? (
                <ul style={{ margin: '6px 0 0', paddingInlineStart: 18 }}>
                  {entry.changes.map((change) => (
                    <li key={change.field}>
                      <Typography.Text type="secondary">
                        {serverText(t, `diyPeriod.logFields.${change.field}`, { defaultValue: change.field })}
                        :
                      </Typography.Text>{' '}
                      <Typography.Text delete type="secondary">
                        {shown(change.before)}
                      </Typography.Text>
                      {' → '}
                      <Typography.Text>{shown(change.after)}</Typography.Text>
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ),
        }))}
      />
    );
  }

  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size={480}
      title={row ? t('diyPeriod.logTitle', { name: `${row.tableTitle} · ${row.name}` }) : null}
      destroyOnHidden
      data-testid="period-log"
    >
      {body}
    </Drawer>
  );
}
