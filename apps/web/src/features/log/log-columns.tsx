import { Select } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { Elapsed, Who } from '../../components/log-view/log-view.tsx';
import { TIME_WIDTH_TEXT } from './log-page.tsx';

/** What every log row carries: who, when, from which client, and (for requests) how long it took. */
type LogRow = {
  account: string | null;
  realName: string | null;
  browser?: string | null;
  os?: string | null;
  elapsed?: number | null;
};

/** The columns the four log screens share, built once so their labels and widths stay alike. */
export function commonLogColumns<T extends LogRow>(t: TFunction) {
  const time: CrudColumn<T> = {
    key: 'createTime',
    title: t('log.time'),
    sort: true,
    widthText: () => TIME_WIDTH_TEXT,
  };
  const who: CrudColumn<T> = {
    key: 'account',
    title: t('log.account'),
    sort: true,
    widthText: (row) => `${row.account ?? ''} ${row.realName ?? ''}`,
    render: (_: unknown, row) => <Who account={row.account} realName={row.realName} />,
  };
  const client: CrudColumn<T> = {
    key: 'browser',
    title: t('log.client'),
    widthText: (row) => `${row.browser ?? ''} / ${row.os ?? ''}`,
    render: (_: unknown, row) => [row.browser, row.os].filter(Boolean).join(' / '),
  };
  const elapsed: CrudColumn<T> = {
    key: 'elapsed',
    title: t('log.elapsed'),
    sort: true,
    align: 'right',
    widthText: (row) => `${row.elapsed ?? ''} ms`,
    render: (ms: number | null) => <Elapsed ms={ms} />,
  };
  return { time, who, client, elapsed };
}

/** Success / failure filter of the visit and operation logs. */
export function StatusSelect({ testId }: { testId: string }) {
  const { t } = useTranslation();
  return (
    <Select
      allowClear
      placeholder={t('log.all')}
      style={{ width: 110 }}
      options={[
        { value: 1, label: t('log.success') },
        { value: 2, label: t('log.failure') },
      ]}
      data-testid={testId}
    />
  );
}
