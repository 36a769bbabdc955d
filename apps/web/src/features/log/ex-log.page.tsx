import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { CodeBlock, MethodTag, prettyJson, Section } from '../../components/log-view/log-view.tsx';
import { type ExLog, type ExLogFilters, exLogResource } from './log.api.ts';
import { commonLogColumns } from './log-columns.tsx';
import { DetailList, LogPage } from './log-page.tsx';

/** 异常日志: server faults, with the trace id the client was shown and the stack. */
export default function ExLogPage() {
  const { t } = useTranslation();
  const common = commonLogColumns<ExLog>(t);
  const columns: CrudColumn<ExLog>[] = [
    common.time,
    {
      key: 'traceId',
      title: t('log.traceId'),
      render: (id: string) => (
        <Typography.Text copyable={{ text: id }} style={{ fontFamily: 'monospace', fontSize: 12 }}>
          {id}
        </Typography.Text>
      ),
      widthText: (row) => `${row.traceId}xxx`,
    },
    common.who,
    {
      key: 'httpMethod',
      title: t('log.httpMethod'),
      widthText: (row) => `${row.httpMethod}xx`,
      render: (method: string) => <MethodTag method={method} />,
    },
    { key: 'url', title: t('log.url'), width: 240 },
    {
      key: 'message',
      title: t('log.message'),
      width: 280,
      render: (message: string | null) => <Typography.Text type="danger">{message}</Typography.Text>,
    },
    { key: 'ip', title: t('log.ip'), sort: true },
  ];

  return (
    <LogPage<ExLog, ExLogFilters>
      service="sysLogEx"
      resource={exLogResource}
      title={t('log.exTitle')}
      entity={t('log.exEntity')}
      columns={columns}
      testId="exlog"
      filters={[
        { name: 'account', label: t('log.account') },
        { name: 'traceId', label: t('log.traceId'), width: 200 },
        { name: 'keyword', label: t('log.keyword'), width: 180 },
        { name: 'ip', label: t('log.ip'), width: 140 },
      ]}
      renderDetail={(row) => (
        <>
          <DetailList
            items={[
              { key: 'id', label: t('log.id'), children: row.id },
              { key: 'createTime', label: t('log.time'), children: row.createTime },
              {
                key: 'traceId',
                label: t('log.traceId'),
                children: <Typography.Text copyable>{row.traceId}</Typography.Text>,
              },
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
                key: 'message',
                label: t('log.message'),
                children: row.message ? <Typography.Text type="danger">{row.message}</Typography.Text> : null,
              },
              { key: 'ip', label: t('log.ip'), children: row.ip },
              { key: 'browser', label: t('log.browser'), children: row.browser },
              { key: 'os', label: t('log.os'), children: row.os },
              { key: 'userAgent', label: t('log.userAgent'), children: row.userAgent },
            ]}
          />
          <Section title={t('log.params')}>
            <CodeBlock text={prettyJson(row.params)} testId="exlog-params" maxHeight={240} />
          </Section>
          <Section title={t('log.stack')}>
            <CodeBlock text={row.stack} testId="exlog-stack" maxHeight={420} />
          </Section>
        </>
      )}
    />
  );
}
