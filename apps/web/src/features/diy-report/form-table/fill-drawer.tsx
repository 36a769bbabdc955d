import { CopyOutlined, SaveOutlined, SendOutlined } from '@ant-design/icons';
import { type FormDesign, RECORD_STATUS, type RecordValues } from '@shuzhi/contracts/diy-form';
import type { Filler } from '@shuzhi/contracts/diy-validate';
import { Alert, App, Button, Drawer, Grid, Space, Tooltip, Typography } from 'antd';
import { type RefObject, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ServerErrors, serverFieldErrors } from '../../../components/diy-form/diy-form.model.ts';
import { FormRenderer, type FormRendererHandle } from '../../../components/diy-form/form-renderer.tsx';
import { type DiyRecord, diyRecordApi } from '../../../components/diy-record/diy-record.api.ts';
import { RecordStatusTag } from '../../../components/diy-record/record-status-tag.tsx';
import { RECORD_DRAWER_SIZE, ReturnedNotice } from '../../../components/diy-record/record-view-drawer.tsx';
import { useReclickGuard } from '../../../components/use-reclick-guard.ts';
import { HttpError, hasErrorCode, UnauthorizedError } from '../../../platform/http/http-client.ts';
import { useSessionStore } from '../../../platform/session/session.store.ts';
import { useCarryForward } from './use-carry-forward.ts';

export type FillTarget = {
  /** The record to change; null files a new one. */
  record: DiyRecord | null;
  /** Field errors to show at once (a submit from the list that the server refused). */
  errors?: ServerErrors;
};

export type FillDrawerProps = {
  tableId: number;
  title: string;
  design: FormDesign;
  target: FillTarget | null;
  /** Values a new record starts with (the route's extra query fields), over the design's defaults. */
  presets?: RecordValues;
  onClose: () => void;
  /** A save went through (the list reloads). */
  onSaved: () => void;
  /** The server asked for the form password (F1007): true once verified, and the save is tried again. */
  askPassword: () => Promise<boolean>;
  /** Periodic forms: the record's period; a new record's is where it is filed (沿用上期数据 copies from before it). */
  period?: { id: number; name: string; startDate?: string | null } | null;
  /** A save failed for a reason that is no field's (the list shows it and reloads the period's state). */
  onFailed?: (error: unknown) => void;
};

/** Who fills: the session's user (the design's defaults — org, region, name — come from here). */
function useFiller(): Filler | undefined {
  const user = useSessionStore((s) => s.userInfo);
  return useMemo(
    () =>
      user
        ? {
            userId: user.id,
            orgId: user.orgId,
            realName: user.realName,
            regionCode: user.regionId ?? user.areaCode ?? null,
          }
        : undefined,
    [user],
  );
}

/**
 * Filling a record (issue 5 §3): the form in edit mode, 保存草稿 and 提交 (each held for 500 ms against a second
 * click, SPEC §9), the contract's check before anything is sent, the server's field errors shown on their
 * fields, the review comment of a returned record on top, approved records read-only, and a warning before
 * unsaved changes are dropped.
 */
export function FillDrawer({
  tableId,
  title,
  design,
  target,
  presets,
  onClose,
  onSaved,
  askPassword,
  period,
  onFailed,
}: FillDrawerProps) {
  const open = target !== null;
  // The drawer's own close (Esc) goes through the body's unsaved-changes check.
  const closeRef = useRef<() => void>(onClose);
  return (
    <Drawer
      open={open}
      onClose={() => closeRef.current()}
      size={RECORD_DRAWER_SIZE}
      destroyOnHidden
      maskClosable={false}
      title={null}
      closable={false}
      styles={{ body: { padding: 0, display: 'flex', flexDirection: 'column' } }}
      data-testid="diy-fill"
    >
      {target ? (
        <FillBody
          key={target.record?.id ?? 'new'}
          tableId={tableId}
          title={title}
          design={design}
          target={target}
          presets={presets}
          onClose={onClose}
          onSaved={onSaved}
          askPassword={askPassword}
          period={period}
          onFailed={onFailed}
          closeRef={closeRef}
        />
      ) : null}
    </Drawer>
  );
}

/** On a phone the bar's buttons share its width, each a large target. */
const PHONE_BAR = { width: '100%', display: 'grid', gridAutoFlow: 'column', gridAutoColumns: '1fr' } as const;

function FillBody({
  tableId,
  title,
  design,
  target,
  presets,
  onClose,
  onSaved,
  askPassword,
  period,
  onFailed,
  closeRef,
}: Omit<FillDrawerProps, 'target'> & { target: FillTarget; closeRef: RefObject<() => void> }) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const screens = Grid.useBreakpoint();
  const filler = useFiller();
  const renderer = useRef<FormRendererHandle>(null);
  const [record, setRecord] = useState<DiyRecord | null>(target.record);
  const [recordId, setRecordId] = useState<number | null>(target.record?.id ?? null);
  const [values, setValues] = useState<RecordValues>(() => target.record?.values ?? { ...presets });
  const [errors, setErrors] = useState<ServerErrors | undefined>(target.errors);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState<'draft' | 'submit' | null>(null);
  const [generation, setGeneration] = useState(0);
  const readOnly = record?.status === RECORD_STATUS.approved;
  const fresh = recordId === null && target.record === null;

  const onChange = useCallback((next: RecordValues, path: string) => {
    setValues(next);
    // The seeding of a new record's defaults is no change of the user's.
    if (path !== '') setDirty(true);
  }, []);

  const close = () => {
    if (!dirty || saving) {
      if (!saving) onClose();
      return;
    }
    modal.confirm({
      title: t('diyFormTable.fill.unsavedTitle'),
      content: t('diyFormTable.fill.unsaved'),
      okText: t('diyFormTable.fill.discard'),
      okButtonProps: { danger: true, 'data-testid': 'diy-fill-discard' },
      cancelText: t('diyFormTable.fill.keepEditing'),
      onOk: onClose,
    });
  };
  closeRef.current = close;

  const { prefilling, prefill, note } = useCarryForward({
    tableId,
    period,
    design,
    fresh,
    dirty,
    values,
    presets,
    load: (next, change) => {
      setValues(next);
      // The renderer starts again on values it did not produce.
      setGeneration((g) => g + 1);
      setErrors(undefined);
      if (change) setDirty(true);
    },
  });

  const send = async (submit: boolean, retried = false): Promise<void> => {
    const check = renderer.current?.check(submit ? 'submit' : 'draft');
    if (!check) return;
    if (!check.ok) {
      message.error(t('diyFormTable.fill.fixErrors', { count: check.messages.length }));
      return;
    }
    setSaving(submit ? 'submit' : 'draft');
    try {
      let id = recordId;
      if (id === null) {
        id = await diyRecordApi.add(tableId, {
          values: check.values,
          submit,
          ...(period ? { periodId: period.id } : {}),
        });
        setRecordId(id);
      } else {
        await diyRecordApi.update(tableId, { id, values: check.values, submit });
      }
      setErrors(undefined);
      setDirty(false);
      onSaved();
      if (submit) {
        message.success(t('diyFormTable.fill.submitted'));
        onClose();
      } else {
        message.success(t('diyFormTable.fill.draftSaved'));
        const saved = await diyRecordApi.detail(tableId, id).catch(() => null);
        if (saved) setRecord(saved);
      }
    } catch (error) {
      if (error instanceof UnauthorizedError) return;
      if (hasErrorCode(error, 'F1007') && !retried) {
        setSaving(null);
        if (await askPassword()) return send(submit, true);
        return;
      }
      const fields = error instanceof HttpError ? serverFieldErrors(error.errors) : null;
      if (fields) {
        setErrors(fields);
        message.error(t('diyFormTable.fill.fixErrors', { count: Object.keys(fields).length }));
      } else if (onFailed) onFailed(error);
      else message.error(error instanceof Error && error.message ? error.message : t('diyFormTable.failed'));
    } finally {
      setSaving(null);
    }
  };

  const saveDraft = useReclickGuard(() => {
    if (!saving) void send(false);
  });
  const submit = useReclickGuard(() => {
    if (!saving) void send(true);
  });

  const barSize = screens.md ? undefined : ('large' as const);
  const heading = record
    ? t('diyFormTable.fill.editTitle', { title, no: record.dataNo ?? record.id })
    : t('diyFormTable.fill.addTitle', { title });

  return (
    <>
      <div
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 12,
          padding: '12px 24px',
          borderBottom: '1px solid rgba(5,5,5,0.06)',
        }}
      >
        <Typography.Title
          level={5}
          style={{ margin: 0, flex: 1, minWidth: 0 }}
          ellipsis={{ tooltip: heading }}
        >
          {heading}
        </Typography.Title>
        {fresh && period && !readOnly ? (
          <Tooltip title={t('diyPeriod.table.prefillTip')}>
            <Button
              size="small"
              icon={<CopyOutlined />}
              loading={prefilling}
              disabled={saving !== null}
              onClick={prefill}
              data-testid="diy-fill-prefill"
            >
              {t('diyPeriod.table.prefill')}
            </Button>
          </Tooltip>
        ) : null}
        {record ? <RecordStatusTag status={record.status} /> : null}
      </div>
      <div style={{ flex: 1, overflow: 'auto', padding: screens.md ? 24 : 12 }} data-testid="diy-fill-body">
        {record ? <ReturnedNotice record={record} /> : null}
        {period && !record ? (
          <Alert
            type={note ? 'success' : 'info'}
            showIcon
            style={{ marginBottom: 16 }}
            title={
              note?.kind === 'all'
                ? t('diyPeriod.table.prefillDone', { name: note.from })
                : t('diyPeriod.table.newIn', { name: period.name })
            }
            description={
              note?.kind === 'fields'
                ? t('diyPeriod.table.carried', { name: note.from, count: note.count })
                : undefined
            }
            data-testid="diy-fill-period"
          />
        ) : null}
        {readOnly ? (
          <Alert
            type="success"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('diyFormTable.fill.approvedReadOnly')}
          />
        ) : null}
        {record?.status === RECORD_STATUS.submitted ? (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={t('diyFormTable.fill.submittedHint')}
          />
        ) : null}
        <FormRenderer
          key={generation}
          ref={renderer}
          design={design}
          values={values}
          onChange={onChange}
          mode={readOnly ? 'view' : 'edit'}
          errors={errors}
          filler={filler}
          isNew={!target.record}
          periodStart={period?.startDate}
          labels={record?.labels}
          recordId={recordId}
          width={screens.md ? 'desktop' : 'phone'}
          disabled={saving !== null}
          idPrefix="diy-fill-"
        />
      </div>
      <div
        style={{
          display: 'flex',
          justifyContent: 'flex-end',
          flexWrap: 'wrap',
          gap: 8,
          padding: screens.md ? '10px 24px' : '8px 12px calc(8px + env(safe-area-inset-bottom))',
          borderTop: '1px solid rgba(5,5,5,0.06)',
        }}
        data-testid="diy-fill-bar"
      >
        {dirty ? (
          <Typography.Text
            type="warning"
            style={{ marginInlineEnd: 'auto', alignSelf: 'center' }}
            data-testid="diy-fill-dirty"
          >
            {t('diyFormTable.fill.dirty')}
          </Typography.Text>
        ) : null}
        <Space wrap style={screens.md ? undefined : PHONE_BAR}>
          <Button
            onClick={close}
            disabled={saving !== null}
            size={barSize}
            block={!screens.md}
            data-testid="diy-fill-close"
          >
            {readOnly ? t('diyFormTable.close') : t('common.cancel')}
          </Button>
          {readOnly || record?.status === RECORD_STATUS.submitted ? null : (
            <Button
              icon={<SaveOutlined />}
              onClick={saveDraft}
              loading={saving === 'draft'}
              disabled={saving === 'submit'}
              size={barSize}
              block={!screens.md}
              data-testid="diy-fill-draft"
            >
              {t('diyFormTable.fill.saveDraft')}
            </Button>
          )}
          {readOnly ? null : (
            <Button
              type="primary"
              icon={<SendOutlined />}
              onClick={submit}
              loading={saving === 'submit'}
              disabled={saving === 'draft'}
              size={barSize}
              block={!screens.md}
              data-testid="diy-fill-submit"
            >
              {record?.status === RECORD_STATUS.submitted
                ? t('diyFormTable.fill.saveSubmitted')
                : t('diyFormTable.fill.submit')}
            </Button>
          )}
        </Space>
      </div>
    </>
  );
}
