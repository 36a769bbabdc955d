import type { FormDesign } from '@shuzhi/contracts/diy-form';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Skeleton, Table, Tag, Timeline, Typography } from 'antd';
import { type ReactNode, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { findDictItem, useAllDicts } from '../../platform/dict/dict.store.ts';
import { FieldView } from '../diy-form/field-view.tsx';
import { DIY_RECORD_KEYS, diyRecordApi, type RecordHistory as HistoryStep } from './diy-record.api.ts';
import { fieldOfChange, type SummaryWords, valueText } from './record-format.ts';
import { RecordStatusTag } from './record-status-tag.tsx';

const ACTION_COLOR: Record<HistoryStep['action'], string> = {
  create: 'blue',
  update: 'cyan',
  submit: 'geekblue',
  approve: 'green',
  return: 'red',
  delete: 'volcano',
  restore: 'purple',
  handover: 'orange',
  registerSubmit: 'geekblue',
  confirm: 'green',
  dispute: 'magenta',
  zero: 'gold',
  import: 'lime',
  levelPass: 'cyan',
};

/** Words for the summaries of sub-tables and files. */
export function useSummaryWords(): SummaryWords {
  const { t } = useTranslation();
  return useMemo(
    () => ({
      rows: (count: number) => t('diyRecord.rowsSummary', { count }),
      files: (count: number) => t('diyRecord.filesSummary', { count }),
      separator: t('common.listSeparator'),
    }),
    [t],
  );
}

type Change = HistoryStep['changes'][number];

const PICKED_TYPES = new Set(['org', 'user', 'enterprise', 'region']);

/** Before → after of one change, formatted with the design the step was saved under. */
function ChangeValue({
  change,
  side,
  design,
  words,
}: {
  change: Change;
  side: 'before' | 'after';
  design: FormDesign | undefined;
  words: SummaryWords;
}): ReactNode {
  const { t } = useTranslation();
  const dicts = useAllDicts().data;
  const value = change[side];
  if (change.field === 'status' && typeof value === 'number') return <RecordStatusTag status={value} />;
  const field = design ? fieldOfChange(design.fields, change.field) : undefined;
  const options = field?.options;
  const dictItems = options?.source === 'dict' ? (dicts?.[options.dictCode] ?? []) : [];
  // Dictionary codes as their labels in the reader's language (history carries no server labels).
  const dictLabel =
    dictItems.length > 0 && value !== null && value !== undefined && value !== ''
      ? (Array.isArray(value) ? value : [value])
          .map((v) => findDictItem(dictItems, v)?.label ?? String(v))
          .join(words.separator)
      : undefined;
  // Pickers and regions keep ids: their names come from the same lookups the form's view uses.
  if (field && PICKED_TYPES.has(field.type) && value !== null && value !== undefined && value !== '') {
    return <FieldView field={field} value={value} id={`history-${change.field}-${side}`} />;
  }
  const text = valueText(field, value, dictLabel, words);
  return text ? (
    <span style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{text}</span>
  ) : (
    <Typography.Text type="secondary">{t('diyRecord.emptyValue')}</Typography.Text>
  );
}

/**
 * The steps of a record, oldest first (issue 5 §5): who did what and when, the comment of a review, and the
 * field-level changes as a before → after table with the fields' labels.
 */
export function RecordHistory({ tableId, recordId }: { tableId: number; recordId: number }) {
  const { t } = useTranslation();
  const words = useSummaryWords();
  const history = useQuery({
    queryKey: DIY_RECORD_KEYS.history(tableId, recordId),
    queryFn: () => diyRecordApi.history(tableId, recordId),
  });
  const versions = useMemo(
    () => [...new Set((history.data ?? []).map((step) => step.version).filter((v) => v > 0))],
    [history.data],
  );
  const designs = useQueries({
    queries: versions.map((version) => ({
      queryKey: DIY_RECORD_KEYS.design(tableId, version),
      queryFn: () => diyRecordApi.design(tableId, version),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  const designOf = (version: number): FormDesign | undefined =>
    designs[versions.indexOf(version)]?.data?.design;

  if (history.isLoading) return <Skeleton active data-testid="diy-history-loading" />;
  if (history.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={t('diyRecord.historyFailed')}
        description={history.error.message}
        action={
          <Button size="small" onClick={() => void history.refetch()}>
            {t('common.retry')}
          </Button>
        }
        data-testid="diy-history-error"
      />
    );
  }
  const steps = history.data ?? [];
  if (steps.length === 0) {
    return (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={t('diyRecord.noHistory')}
        data-testid="diy-history-empty"
      />
    );
  }

  return (
    <Timeline
      data-testid="diy-history"
      items={steps.map((step) => ({
        key: step.id,
        color: ACTION_COLOR[step.action] ?? 'gray',
        content: (
          <div data-testid="diy-history-step" data-action={step.action}>
            <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
              <Tag color={ACTION_COLOR[step.action]} style={{ marginInlineEnd: 0 }}>
                {t(`diyRecord.action.${step.action}`)}
              </Tag>
              <Typography.Text strong>{step.userName ?? t('diyRecord.unknownUser')}</Typography.Text>
              {step.orgName ? (
                <Typography.Text data-testid="diy-history-org">{step.orgName}</Typography.Text>
              ) : null}
              <Typography.Text type="secondary">{step.createTime}</Typography.Text>
            </div>
            {step.comment ? (
              <Typography.Paragraph
                style={{ margin: '6px 0 0', whiteSpace: 'pre-wrap' }}
                data-testid="diy-history-comment"
              >
                {t('diyRecord.comment')}
                {t('common.colon')}
                {step.comment}
              </Typography.Paragraph>
            ) : null}
            {step.changes.length > 0 ? (
              <Table<Change>
                size="small"
                style={{ marginTop: 8 }}
                pagination={false}
                rowKey={(change) => change.field}
                dataSource={step.changes}
                data-testid="diy-history-changes"
                columns={[
                  {
                    key: 'label',
                    title: t('diyRecord.field'),
                    width: '30%',
                    render: (_, change) =>
                      change.field === 'status' ? t('diyRecord.statusLabel') : change.label || change.field,
                  },
                  {
                    key: 'before',
                    title: t('diyRecord.before'),
                    width: '35%',
                    render: (_, change) => (
                      <ChangeValue
                        change={change}
                        side="before"
                        design={designOf(step.version)}
                        words={words}
                      />
                    ),
                  },
                  {
                    key: 'after',
                    title: t('diyRecord.after'),
                    width: '35%',
                    render: (_, change) => (
                      <ChangeValue
                        change={change}
                        side="after"
                        design={designOf(step.version)}
                        words={words}
                      />
                    ),
                  },
                ]}
              />
            ) : null}
          </div>
        ),
      }))}
    />
  );
}
