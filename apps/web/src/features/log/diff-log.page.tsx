import { DIFF_OPERATIONS } from '@shuzhi/contracts/log';
import { InputNumber, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { DiffView, OperationTag, operationLabel, Section } from '../../components/log-view/log-view.tsx';
import { type DiffLog, type DiffLogFilters, diffLogResource } from './log.api.ts';
import { commonLogColumns } from './log-columns.tsx';
import { DetailList, LogPage } from './log-page.tsx';

/** 差异日志: field-level before / after of writes to sensitive tables. */
export default function DiffLogPage() {
  const { t } = useTranslation();
  const common = commonLogColumns<DiffLog>(t);
  const columns: CrudColumn<DiffLog>[] = [
    common.time,
    common.who,
    { key: 'tableName', title: t('log.tableName'), sort: true },
    { key: 'recordId', title: t('log.recordId') },
    {
      key: 'operation',
      title: t('log.operation'),
      widthText: (row) => `${operationLabel(row.operation, t)}xx`,
      render: (operation: string) => <OperationTag operation={operation} />,
    },
    {
      key: 'changedFields',
      title: t('log.changedFields'),
      width: 320,
      render: (fields: string | null) =>
        (fields ?? '')
          .split(',')
          .filter(Boolean)
          .map((f) => (
            <Tag key={f} style={{ marginInlineEnd: 4 }}>
              {f}
            </Tag>
          )),
    },
  ];

  return (
    <LogPage<DiffLog, DiffLogFilters>
      service="sysLogDiff"
      resource={diffLogResource}
      title={t('log.diffTitle')}
      entity={t('log.diffEntity')}
      columns={columns}
      testId="difflog"
      filters={[
        { name: 'account', label: t('log.account') },
        { name: 'tableName', label: t('log.tableName'), width: 150 },
        {
          name: 'operation',
          label: t('log.operation'),
          input: (
            <Select
              allowClear
              placeholder={t('log.all')}
              style={{ width: 120 }}
              options={DIFF_OPERATIONS.map((o) => ({ value: o, label: operationLabel(o, t) }))}
              data-testid="difflog-filter-operation"
            />
          ),
        },
        {
          name: 'recordId',
          label: t('log.recordId'),
          input: (
            <InputNumber
              min={1}
              controls={false}
              placeholder={t('crud.inputPlaceholder', { label: t('log.recordId') })}
              style={{ width: 170 }}
              data-testid="difflog-filter-recordId"
            />
          ),
        },
      ]}
      renderDetail={(row) => (
        <>
          <DetailList
            items={[
              { key: 'id', label: t('log.id'), children: row.id },
              { key: 'createTime', label: t('log.time'), children: row.createTime },
              { key: 'account', label: t('log.account'), children: row.account },
              { key: 'realName', label: t('log.realName'), children: row.realName },
              { key: 'tableName', label: t('log.tableName'), children: row.tableName },
              { key: 'recordId', label: t('log.recordId'), children: row.recordId },
              {
                key: 'operation',
                label: t('log.operation'),
                children: <OperationTag operation={row.operation} />,
              },
              { key: 'changedFields', label: t('log.changedFields'), children: row.changedFields },
              { key: 'traceId', label: t('log.traceId'), children: row.traceId },
            ]}
          />
          <Section title={t('log.beforeAfter')}>
            <DiffView
              beforeData={row.beforeData}
              afterData={row.afterData}
              changedFields={row.changedFields}
            />
          </Section>
        </>
      )}
    />
  );
}
