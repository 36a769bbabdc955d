import { RECORD_STATUS } from '@shuzhi/contracts/diy-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Drawer, Grid, Skeleton, Space, Tabs, Tag, Typography } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DisabledReason } from '../disabled-reason.tsx';
import { FormRenderer } from '../diy-form/form-renderer.tsx';
import { ConfirmLinkModal } from './confirm-link-modal.tsx';
import { DIY_RECORD_KEYS, type DiyRecord, diyRecordApi } from './diy-record.api.ts';
import { HandOverModal } from './hand-over-modal.tsx';
import { RecordHistory } from './record-history.tsx';
import { RecordFlags, RecordStatusTag } from './record-status-tag.tsx';

export type RecordViewDrawerProps = {
  tableId: number;
  recordId: number | null | undefined;
  open: boolean;
  onClose: () => void;
  /** Actions under the record (the review page's 通过 / 退回). */
  footer?: ReactNode;
  /** Shown as the drawer's title (default: the record's number). */
  title?: ReactNode;
  /** The record was changed here (handed over): lists other than the form's own refresh. */
  onChanged?: () => void;
};

/** The drawer's width: wide on a desktop, the whole screen on a phone. */
export const RECORD_DRAWER_SIZE = 'min(1000px, 100vw)';

/** A record's system facts: number, status, filer, org, times and the review. */
function RecordMeta({ record }: { record: DiyRecord }) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const dash = t('diyRecord.emptyValue');
  return (
    <Descriptions
      size="small"
      bordered
      column={screens.md ? 3 : 1}
      data-testid="diy-record-meta"
      items={[
        { key: 'dataNo', label: t('diyRecord.dataNo'), children: record.dataNo ?? dash },
        {
          key: 'status',
          label: t('diyRecord.statusLabel'),
          children: (
            <>
              <RecordStatusTag status={record.status} />
              <RecordFlags record={record} />
            </>
          ),
        },
        ...(record.periodName
          ? [
              {
                key: 'period',
                label: t('diyRecord.period'),
                children: (
                  <>
                    {record.periodName}
                    {record.periodClosed ? (
                      <Tag style={{ marginInlineStart: 8 }} data-testid="diy-record-period-closed">
                        {t('diyRecord.periodClosed')}
                      </Tag>
                    ) : null}
                  </>
                ),
              },
            ]
          : []),
        { key: 'filer', label: t('diyRecord.filer'), children: record.createUserName ?? dash },
        { key: 'org', label: t('diyRecord.org'), children: record.createOrgName ?? dash },
        { key: 'createTime', label: t('diyRecord.createTime'), children: record.createTime },
        { key: 'submitTime', label: t('diyRecord.submitTime'), children: record.submitTime ?? dash },
        ...(record.auditUserName || record.auditTime
          ? [
              { key: 'auditUser', label: t('diyRecord.auditUser'), children: record.auditUserName ?? dash },
              { key: 'auditTime', label: t('diyRecord.auditTime'), children: record.auditTime ?? dash },
              {
                key: 'auditComment',
                label: t('diyRecord.auditComment'),
                children: record.auditComment ?? dash,
              },
            ]
          : []),
      ]}
    />
  );
}

/** The review's comment of a returned record, where the filer cannot miss it. */
export function ReturnedNotice({ record }: { record: DiyRecord }) {
  const { t } = useTranslation();
  if (record.status !== RECORD_STATUS.returned) return null;
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('diyRecord.returnedTitle', {
        user: record.auditUserName ?? t('diyRecord.unknownUser'),
        time: record.auditTime ?? '',
      })}
      description={
        <span style={{ whiteSpace: 'pre-wrap' }} data-testid="diy-record-return-comment">
          {record.auditComment || t('diyRecord.noComment')}
        </span>
      }
      data-testid="diy-record-returned"
    />
  );
}

/**
 * One record read-only (issue 5 §5): its facts, the form as filed — with the design of the record's own
 * version — and its history. The review page passes its actions as `footer`.
 */
export function RecordViewDrawer({
  tableId,
  recordId,
  open,
  onClose,
  footer,
  title,
  onChanged,
}: RecordViewDrawerProps) {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const enabled = open && !!recordId;
  const record = useQuery({
    queryKey: DIY_RECORD_KEYS.detail(tableId, recordId ?? 0),
    queryFn: () => diyRecordApi.detail(tableId, recordId as number),
    enabled,
  });
  const version = record.data?.version;
  const design = useQuery({
    queryKey: DIY_RECORD_KEYS.design(tableId, version),
    queryFn: () => diyRecordApi.design(tableId, version),
    enabled: enabled && !!version,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const failed = record.error ?? design.error;
  // 发起确认 (issue 6 §6): for whoever may update or review the record, as the server allows.
  const [confirming, setConfirming] = useState(false);
  const canConfirm = !!record.data && (record.data.can.update || !!design.data?.item.myAuth?.audit);
  // 移交: form admins and reviewers, as the server allows.
  const myAuth = design.data?.item.myAuth;
  const canHandOver = !!record.data && (!!myAuth?.design || !!myAuth?.audit);
  const [handingOver, setHandingOver] = useState(false);
  const queryClient = useQueryClient();

  let body: ReactNode;
  if (failed) {
    body = (
      <Alert
        type="error"
        showIcon
        title={t('diyRecord.loadFailed')}
        description={failed.message}
        action={
          <Button
            size="small"
            onClick={() => {
              if (record.isError) void record.refetch();
              if (design.isError) void design.refetch();
            }}
          >
            {t('common.retry')}
          </Button>
        }
        data-testid="diy-record-view-error"
      />
    );
  } else if (!record.data || !design.data) {
    body = <Skeleton active paragraph={{ rows: 8 }} data-testid="diy-record-view-loading" />;
  } else {
    const data = record.data;
    body = (
      <>
        <ReturnedNotice record={data} />
        <RecordMeta record={data} />
        <Tabs
          style={{ marginTop: 12 }}
          items={[
            {
              key: 'form',
              label: t('diyRecord.content'),
              children: (
                <FormRenderer
                  design={design.data.design}
                  values={data.values}
                  labels={data.labels}
                  recordId={data.id}
                  mode="view"
                  width={screens.md ? 'desktop' : 'phone'}
                  idPrefix="diy-view-"
                />
              ),
            },
            {
              key: 'history',
              label: <span data-testid="diy-record-history-tab">{t('diyRecord.history')}</span>,
              children: <RecordHistory tableId={tableId} recordId={data.id} />,
            },
          ]}
        />
      </>
    );
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={RECORD_DRAWER_SIZE}
      destroyOnHidden
      title={
        title ?? (
          <Typography.Text strong>
            {t('diyRecord.viewTitle', { no: record.data?.dataNo ?? t('diyRecord.noNumber') })}
          </Typography.Text>
        )
      }
      footer={footer}
      extra={
        canConfirm || canHandOver ? (
          <Space>
            {canHandOver && record.data?.periodClosed ? (
              <DisabledReason reason={t('diyRecord.handOver.closed')} testId="diy-record-hand-over-blocked">
                <Button disabled data-testid="diy-record-hand-over">
                  {t('diyRecord.handOver.start')}
                </Button>
              </DisabledReason>
            ) : canHandOver ? (
              <Button onClick={() => setHandingOver(true)} data-testid="diy-record-hand-over">
                {t('diyRecord.handOver.start')}
              </Button>
            ) : null}
            {canConfirm ? (
              <Button onClick={() => setConfirming(true)} data-testid="diy-record-start-confirm">
                {t('diyConfirm.start')}
              </Button>
            ) : null}
          </Space>
        ) : null
      }
      data-testid="diy-record-view"
    >
      {body}
      {canConfirm && recordId ? (
        <ConfirmLinkModal
          tableId={tableId}
          recordId={recordId}
          open={confirming}
          onClose={() => setConfirming(false)}
        />
      ) : null}
      {canHandOver ? (
        <HandOverModal
          tableId={tableId}
          record={handingOver ? (record.data ?? null) : null}
          onClose={() => setHandingOver(false)}
          onDone={() => {
            setHandingOver(false);
            void queryClient.invalidateQueries({ queryKey: DIY_RECORD_KEYS.form(tableId) });
            onChanged?.();
          }}
        />
      ) : null}
    </Drawer>
  );
}
