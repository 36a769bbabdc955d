import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import {
  CodeBlock,
  CodeTag,
  Elapsed,
  MethodTag,
  prettyJson,
  Section,
  StatusTag,
} from '../../components/log-view/log-view.tsx';
import { type OpLog, type OpLogFilters, opLogResource } from './log.api.ts';
import { commonLogColumns, StatusSelect } from './log-columns.tsx';
import { DetailList, LogPage } from './log-page.tsx';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'];

/** 操作日志: every write, with its masked parameters, result and duration. */
export default function OpLogPage() {
  const { t } = useTranslation();
  const common = commonLogColumns<OpLog>(t);
  const columns: CrudColumn<OpLog>[] = [
    common.time,
    common.who,
    {
      key: 'httpMethod',
      title: t('log.httpMethod'),
      widthText: (row) => `${row.httpMethod}xx`,
      render: (method: string) => <MethodTag method={method} />,
    },
    { key: 'url', title: t('log.url'), width: 260 },
    {
      key: 'code',
      title: t('log.code'),
      widthText: (row) => `${row.code ?? ''}xxx`,
      render: (code: string | null) => <CodeTag code={code} />,
    },
    {
      key: 'status',
      title: t('log.status'),
      widthText: () => `${t('log.failure')}xx`,
      render: (status: number) => <StatusTag status={status} />,
    },
    common.elapsed,
    { key: 'ip', title: t('log.ip'), sort: true },
    common.client,
  ];

  return (
    <LogPage<OpLog, OpLogFilters>
      service="sysLogOp"
      resource={opLogResource}
      title={t('log.opTitle')}
      entity={t('log.opEntity')}
      columns={columns}
      testId="oplog"
      filters={[
        { name: 'account', label: t('log.account') },
        { name: 'keyword', label: t('log.keyword'), width: 180 },
        { name: 'ip', label: t('log.ip'), width: 140 },
        {
          name: 'httpMethod',
          label: t('log.httpMethod'),
          input: (
            <Select
              allowClear
              placeholder={t('log.all')}
              style={{ width: 120 }}
              options={METHODS.map((m) => ({ value: m, label: m }))}
              data-testid="oplog-filter-httpMethod"
            />
          ),
        },
        { name: 'code', label: t('log.code'), width: 120 },
        { name: 'status', label: t('log.status'), input: <StatusSelect testId="oplog-filter-status" /> },
      ]}
      renderDetail={(row) => (
        <>
          <DetailList
            items={[
              { key: 'id', label: t('log.id'), children: row.id },
              { key: 'createTime', label: t('log.time'), children: row.createTime },
              { key: 'account', label: t('log.account'), children: row.account },
              { key: 'realName', label: t('log.realName'), children: row.realName },
              {
                key: 'httpMethod',
                label: t('log.httpMethod'),
                children: <MethodTag method={row.httpMethod} />,
              },
              { key: 'url', label: t('log.url'), children: row.url },
              { key: 'routeUrl', label: t('log.routeUrl'), children: row.routeUrl },
              {
                key: 'controller',
                label: t('log.module'),
                children: [row.controller, row.action].filter(Boolean).join(' / ') || null,
              },
              { key: 'status', label: t('log.status'), children: <StatusTag status={row.status} /> },
              { key: 'code', label: t('log.code'), children: <CodeTag code={row.code} /> },
              { key: 'message', label: t('log.message'), children: row.message },
              { key: 'elapsed', label: t('log.elapsed'), children: <Elapsed ms={row.elapsed} /> },
              { key: 'ip', label: t('log.ip'), children: row.ip },
              { key: 'browser', label: t('log.browser'), children: row.browser },
              { key: 'os', label: t('log.os'), children: row.os },
              { key: 'userAgent', label: t('log.userAgent'), children: row.userAgent },
              { key: 'traceId', label: t('log.traceId'), children: row.traceId },
            ]}
          />
          <Section title={t('log.params')}>
            <CodeBlock text={prettyJson(row.params)} testId="oplog-params" />
          </Section>
        </>
      )}
    />
  );
}
