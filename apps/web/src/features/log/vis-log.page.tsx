import { VISIT_ACTIONS } from '@shuzhi/contracts/log';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import {
  CodeTag,
  Elapsed,
  StatusTag,
  VisitActionTag,
  visitActionLabel,
} from '../../components/log-view/log-view.tsx';
import { type VisitLog, type VisitLogFilters, visitLogResource } from './log.api.ts';
import { commonLogColumns, StatusSelect } from './log-columns.tsx';
import { DetailList, LogPage } from './log-page.tsx';

/** 访问日志: sign-ins, failed sign-ins and sign-outs. */
export default function VisitLogPage() {
  const { t } = useTranslation();
  const common = commonLogColumns<VisitLog>(t);
  const columns: CrudColumn<VisitLog>[] = [
    common.time,
    common.who,
    {
      key: 'action',
      title: t('log.action'),
      widthText: (row) => `${visitActionLabel(row.action, t)}xx`,
      render: (action: string) => <VisitActionTag action={action} />,
    },
    {
      key: 'status',
      title: t('log.status'),
      widthText: () => `${t('log.failure')}xx`,
      render: (status: number) => <StatusTag status={status} />,
    },
    { key: 'ip', title: t('log.ip'), sort: true },
    common.client,
    { key: 'message', title: t('log.message'), width: 220 },
    common.elapsed,
  ];

  return (
    <LogPage<VisitLog, VisitLogFilters>
      service="sysLogVis"
      resource={visitLogResource}
      title={t('log.visTitle')}
      entity={t('log.visEntity')}
      columns={columns}
      testId="vislog"
      filters={[
        { name: 'account', label: t('log.account') },
        { name: 'ip', label: t('log.ip'), width: 140 },
        {
          name: 'action',
          label: t('log.action'),
          input: (
            <Select
              allowClear
              placeholder={t('log.all')}
              style={{ width: 130 }}
              options={VISIT_ACTIONS.map((a) => ({ value: a, label: visitActionLabel(a, t) }))}
              data-testid="vislog-filter-action"
            />
          ),
        },
        {
          name: 'status',
          label: t('log.status'),
          input: <StatusSelect testId="vislog-filter-status" />,
        },
      ]}
      renderDetail={(row) => (
        <DetailList
          items={[
            { key: 'id', label: t('log.id'), children: row.id },
            { key: 'createTime', label: t('log.time'), children: row.createTime },
            { key: 'account', label: t('log.account'), children: row.account },
            { key: 'realName', label: t('log.realName'), children: row.realName },
            { key: 'action', label: t('log.action'), children: <VisitActionTag action={row.action} /> },
            { key: 'status', label: t('log.status'), children: <StatusTag status={row.status} /> },
            { key: 'code', label: t('log.code'), children: <CodeTag code={row.code} /> },
            { key: 'message', label: t('log.message'), children: row.message },
            { key: 'ip', label: t('log.ip'), children: row.ip },
            { key: 'browser', label: t('log.browser'), children: row.browser },
            { key: 'os', label: t('log.os'), children: row.os },
            { key: 'userAgent', label: t('log.userAgent'), children: row.userAgent },
            { key: 'elapsed', label: t('log.elapsed'), children: <Elapsed ms={row.elapsed} /> },
          ]}
        />
      )}
    />
  );
}
