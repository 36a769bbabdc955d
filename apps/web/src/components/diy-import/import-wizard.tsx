import {
  CheckCircleFilled,
  CloseCircleFilled,
  DeleteOutlined,
  DownloadOutlined,
  FileExcelOutlined,
  InboxOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import {
  IMPORT_ERROR_SAMPLE,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_ROWS,
  type ImportError,
} from '@shuzhi/contracts/diy-import';
import { BUSINESS_ERRORS, type BusinessErrorCode } from '@shuzhi/contracts/errors';
import { formatFileSize } from '@shuzhi/contracts/file';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Descriptions,
  Modal,
  Popconfirm,
  Progress,
  Radio,
  Result,
  Space,
  Statistic,
  Steps,
  Table,
  Typography,
  Upload,
} from 'antd';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { useReclickGuard } from '../use-reclick-guard.ts';
import { DIY_IMPORT_KEYS, diyImportApi, type ImportJob, type UploadProgress } from './diy-import.api.ts';

/** How often a running job is asked for its progress. */
const IMPORT_POLL_MS = 800;
/** Transport failures of one poll tried again before the wizard shows the failure. */
const IMPORT_POLL_RETRIES = 3;

/** A request that got no answer of the server (network down, timeout): worth trying again. */
const isTransportError = (error: unknown) =>
  error instanceof HttpError && error.code === undefined && !(error instanceof UnauthorizedError);

/** The period rows are filed to (periodic forms): the record list's selected one, shown read-only. */
export type ImportPeriod = { id: number; name: string };

type Props = {
  open: boolean;
  tableId: number;
  title: string;
  period: ImportPeriod | null;
  onClose: () => void;
  /** Called once when rows were written (the record list refreshes). */
  onImported: (inserted: number) => void;
};

/** A catalogue message in the UI language (the server sends the same text for the same code). */
function codeMessage(code: BusinessErrorCode, language: string): string {
  const texts = BUSINESS_ERRORS[code] as Record<string, string>;
  return texts[language] ?? texts['zh-CN'];
}

/** Why a chosen file is refused before it is sent (the server checks the content again). */
export function precheckWorkbook(file: { name: string; size: number }): 'F1030' | 'F1031' | null {
  if (!/\.xlsx$/i.test(file.name) || file.size === 0) return 'F1030';
  if (file.size > IMPORT_MAX_BYTES) return 'F1031';
  return null;
}

const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

const STEP = { upload: 0, check: 1, result: 2, done: 3 } as const;

/**
 * 导入 (issue 6 §4): a modal in four steps — choose an .xlsx (with the template a click away) and upload it,
 * watch the server check it (cancel possible), read the outcome (counts, columns, first errors, the error
 * workbook) and confirm the valid rows as submitted records or drafts, then the inserted count.
 * Nothing is written before the confirmation; closing the modal before it drops the job.
 */
export function ImportWizard({ open, tableId, title, period, onClose, onImported }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [uploading, setUploading] = useState<UploadProgress | null>(null);
  const [jobId, setJobId] = useState<number | null>(null);
  const [submit, setSubmit] = useState(true);
  const [confirming, setConfirming] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [downloading, setDownloading] = useState<'template' | 'errors' | null>(null);
  const reported = useRef<number | null>(null);

  const job = useQuery({
    queryKey: DIY_IMPORT_KEYS.job(jobId ?? 0),
    queryFn: () => diyImportApi.job(jobId as number),
    enabled: jobId !== null,
    // A lost connection is tried again a few times before the wizard gives up; answers of the server
    // (the job expired, no right) end it at once.
    retry: (failures, error) => failures < IMPORT_POLL_RETRIES && isTransportError(error),
    retryDelay: IMPORT_POLL_MS * 2,
    gcTime: 0,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return state === undefined || state === 'checking' || state === 'importing' ? IMPORT_POLL_MS : false;
    },
    refetchIntervalInBackground: true,
  });
  const data = jobId !== null ? job.data : undefined;
  const state = data?.state;

  useEffect(() => {
    if (data?.state === 'done' && reported.current !== data.id) {
      reported.current = data.id;
      onImported(data.inserted);
    }
  }, [data, onImported]);

  const reset = useCallback(() => {
    setFile(null);
    setFileError(null);
    setUploading(null);
    setJobId(null);
    setSubmit(true);
    setConfirming(false);
    setActionError(null);
  }, []);

  /** Drops a job that was not imported (the server also expires it). */
  const dropJob = useCallback(() => {
    if (jobId !== null && (state === undefined || state === 'checking' || state === 'checked')) {
      diyImportApi.cancel(jobId).catch(() => undefined);
    }
  }, [jobId, state]);

  const importing = state === 'importing' || confirming;
  const busy = importing || uploading !== null;

  const close = () => {
    if (busy) {
      message.warning(t('diyImport.busyClose'));
      return;
    }
    dropJob();
    reset();
    onClose();
  };

  const reupload = () => {
    dropJob();
    reset();
  };

  const choose = (chosen: File) => {
    const refused = precheckWorkbook(chosen);
    setFile(refused ? null : chosen);
    setFileError(refused ? codeMessage(refused, i18n.language) : null);
    setActionError(null);
  };

  const start = useReclickGuard(async () => {
    if (!file || uploading) return;
    setActionError(null);
    setUploading({ loaded: 0, total: file.size });
    try {
      const { jobId: id } = await diyImportApi.upload(
        tableId,
        file,
        file.name,
        period?.id ?? null,
        setUploading,
      );
      setJobId(id);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) setActionError(errorText(error, t('diyImport.failed')));
    } finally {
      setUploading(null);
    }
  });

  const cancelCheck = useReclickGuard(async () => {
    if (jobId === null) return;
    try {
      await diyImportApi.cancel(jobId);
      message.info(t('diyImport.cancelled'));
    } catch (error) {
      // A check that ended meanwhile cannot be cancelled: its outcome is shown instead.
      if (!(error instanceof UnauthorizedError)) setActionError(errorText(error, t('diyImport.failed')));
      void job.refetch();
      return;
    }
    setJobId(null);
    setUploading(null);
  });

  const confirm = useReclickGuard(async () => {
    if (jobId === null || confirming) return;
    setConfirming(true);
    setActionError(null);
    try {
      await diyImportApi.confirm(jobId, { submit });
      await job.refetch();
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) setActionError(errorText(error, t('diyImport.failed')));
    } finally {
      setConfirming(false);
    }
  });

  const download = useReclickGuard(async (what: 'template' | 'errors') => {
    if (downloading) return;
    setDownloading(what);
    try {
      if (what === 'template') {
        await diyImportApi.template(tableId, `${title}.xlsx`);
        message.success(t('diyImport.templateDone'));
      } else if (jobId !== null) {
        await diyImportApi.errors(jobId, `${title}_errors.xlsx`);
        message.success(t('diyImport.errorsDone'));
      }
    } catch (error) {
      // Envelope errors are shown by the download helper already.
      if (!(error instanceof HttpError)) {
        message.error(errorText(error, t('diyImport.failed')));
      }
    } finally {
      setDownloading(null);
    }
  });

  let step: number = STEP.upload;
  if (jobId !== null) {
    if (state === 'done') step = STEP.done;
    else if (state === 'checked' || state === 'importing') step = STEP.result;
    else if (state === 'failed')
      step = data && data.total !== null && data.valid > 0 ? STEP.result : STEP.check;
    else step = STEP.check;
  }
  // A job cancelled elsewhere (another tab) or gone (expired: F1033) ends here like a failure.
  const failed = state === 'failed' || state === 'cancelled' || (jobId !== null && job.isError);
  const failure =
    state === 'failed'
      ? (data?.failure ?? t('diyImport.failed'))
      : state === 'cancelled'
        ? t('diyImport.cancelled')
        : errorText(job.error, t('diyImport.failed'));

  let body: ReactNode;
  let footer: ReactNode;
  if (jobId === null) {
    body = (
      <UploadStep
        file={file}
        fileError={fileError}
        uploading={uploading}
        period={period}
        downloading={downloading === 'template'}
        onTemplate={() => void download('template')}
        onChoose={choose}
        onRemove={() => {
          setFile(null);
          setFileError(null);
        }}
      />
    );
    footer = (
      <Space>
        <Button onClick={close} disabled={busy} data-testid="diy-import-close">
          {t('common.cancel')}
        </Button>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          disabled={!file}
          loading={uploading !== null}
          onClick={() => void start()}
          data-testid="diy-import-start"
        >
          {t('diyImport.start')}
        </Button>
      </Space>
    );
  } else if (failed) {
    body = (
      <Result
        status="error"
        title={t('diyImport.failed')}
        subTitle={
          <span data-testid="diy-import-failure">
            {failure} {t('diyImport.nothingWritten')}
          </span>
        }
        data-testid="diy-import-failed"
      />
    );
    footer = (
      <Space>
        <Button onClick={close} data-testid="diy-import-close">
          {t('diyImport.close')}
        </Button>
        <Button type="primary" onClick={reupload} data-testid="diy-import-reupload">
          {t('diyImport.reupload')}
        </Button>
      </Space>
    );
  } else if (step === STEP.check) {
    body = <CheckStep job={data} />;
    footer = (
      <Button onClick={() => void cancelCheck()} data-testid="diy-import-cancel-check">
        {t('diyImport.cancelCheck')}
      </Button>
    );
  } else if (step === STEP.result && data) {
    body = (
      <ResultStep
        job={data}
        submit={submit}
        onSubmitChange={setSubmit}
        importing={importing}
        downloading={downloading === 'errors'}
        onErrors={() => void download('errors')}
      />
    );
    footer = importing ? null : (
      <Space>
        <Button onClick={reupload} data-testid="diy-import-reupload">
          {t('diyImport.reupload')}
        </Button>
        <Popconfirm
          title={t('diyImport.confirmTitle')}
          description={t('diyImport.confirmText', { count: data.valid })}
          okText={t('diyImport.confirm', { count: data.valid })}
          cancelText={t('common.cancel')}
          okButtonProps={{ 'data-testid': 'diy-import-confirm-ok' }}
          disabled={data.valid === 0}
          onConfirm={() => void confirm()}
        >
          <Button type="primary" disabled={data.valid === 0} data-testid="diy-import-confirm">
            {t('diyImport.confirm', { count: data.valid })}
          </Button>
        </Popconfirm>
      </Space>
    );
  } else if (step === STEP.done && data) {
    body = (
      <Result
        status="success"
        title={<span data-testid="diy-import-inserted">{t('diyImport.done', { count: data.inserted })}</span>}
        subTitle={t('diyImport.doneHint')}
        data-testid="diy-import-done"
      />
    );
    footer = (
      <Button type="primary" onClick={close} autoFocus data-testid="diy-import-close">
        {t('diyImport.close')}
      </Button>
    );
  }

  return (
    <Modal
      open={open}
      title={t('diyImport.title', { title })}
      width={760}
      centered
      onCancel={close}
      mask={{ closable: false }}
      keyboard={!busy}
      closable={!busy}
      destroyOnHidden
      styles={{ body: { maxHeight: 'calc(100vh - 200px)', overflowY: 'auto' } }}
      footer={footer}
      data-testid="diy-import-modal"
    >
      <Steps
        size="small"
        current={step}
        status={failed ? 'error' : undefined}
        style={{ margin: '12px 0 20px' }}
        items={[
          { title: t('diyImport.steps.upload') },
          { title: t('diyImport.steps.check') },
          { title: t('diyImport.steps.result') },
          { title: t('diyImport.steps.done') },
        ]}
        data-testid="diy-import-steps"
      />
      {actionError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={actionError}
          closable
          onClose={() => setActionError(null)}
          data-testid="diy-import-error"
        />
      ) : null}
      <div data-testid="diy-import-body" data-step={step} data-state={state ?? ''}>
        {body}
      </div>
    </Modal>
  );
}

function UploadStep({
  file,
  fileError,
  uploading,
  period,
  downloading,
  onTemplate,
  onChoose,
  onRemove,
}: {
  file: File | null;
  fileError: string | null;
  uploading: UploadProgress | null;
  period: ImportPeriod | null;
  downloading: boolean;
  onTemplate: () => void;
  onChoose: (file: File) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const total = uploading?.total ?? null;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 12, flexWrap: 'wrap' }}>
        <Button
          icon={<DownloadOutlined />}
          loading={downloading}
          onClick={onTemplate}
          data-testid="diy-import-template"
        >
          {t('diyImport.template')}
        </Button>
        <Typography.Text type="secondary" style={{ flex: '1 1 300px' }}>
          {t('diyImport.templateHint')}
        </Typography.Text>
      </div>
      {period ? (
        <Descriptions size="small" column={1} bordered data-testid="diy-import-period">
          <Descriptions.Item label={t('diyImport.period')}>{period.name}</Descriptions.Item>
        </Descriptions>
      ) : null}
      <div data-testid="diy-import-drop">
        <Upload.Dragger
          accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          multiple={false}
          showUploadList={false}
          disabled={uploading !== null}
          beforeUpload={(chosen) => {
            onChoose(chosen);
            return Upload.LIST_IGNORE;
          }}
          data-testid="diy-import-dragger"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('diyImport.drop')}</p>
          <p className="ant-upload-hint" data-testid="diy-import-limits">
            {t('diyImport.dropHint', {
              size: formatFileSize(IMPORT_MAX_BYTES),
              rows: IMPORT_MAX_ROWS.toLocaleString(),
            })}
          </p>
        </Upload.Dragger>
      </div>
      {fileError ? (
        <Alert type="error" showIcon title={fileError} data-testid="diy-import-file-error" />
      ) : null}
      {file ? (
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }} data-testid="diy-import-file">
          <FileExcelOutlined style={{ color: '#217346', fontSize: 18 }} />
          <Typography.Text ellipsis style={{ flex: 1, minWidth: 0 }}>
            {t('diyImport.chosen', { name: file.name, size: formatFileSize(file.size) })}
          </Typography.Text>
          {uploading ? null : (
            <Button
              type="text"
              size="small"
              icon={<DeleteOutlined />}
              onClick={onRemove}
              aria-label={t('diyImport.remove')}
              data-testid="diy-import-remove"
            />
          )}
        </div>
      ) : null}
      {uploading ? (
        <div data-testid="diy-import-uploading">
          <Progress percent={total ? Math.floor((uploading.loaded / total) * 100) : 0} size="small" />
          <Typography.Text type="secondary">
            {total
              ? t('diyImport.uploading', {
                  loaded: formatFileSize(uploading.loaded),
                  total: formatFileSize(total),
                })
              : t('diyImport.uploadingUnknown', { loaded: formatFileSize(uploading.loaded) })}
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}

function CheckStep({ job }: { job: ImportJob | undefined }) {
  const { t } = useTranslation();
  const processed = job?.processed ?? 0;
  const total = job?.total ?? null;
  const percent = total ? Math.min(100, Math.floor((processed / total) * 100)) : 0;
  return (
    <div style={{ padding: '16px 0' }} data-testid="diy-import-checking">
      <Typography.Paragraph strong>{t('diyImport.checking')}</Typography.Paragraph>
      <Progress percent={percent} status="active" aria-label={t('diyImport.checking')} />
      <Typography.Paragraph type="secondary" data-testid="diy-import-processed">
        {total !== null
          ? t('diyImport.checkingRows', {
              processed: processed.toLocaleString(),
              total: total.toLocaleString(),
            })
          : t('diyImport.checkingRead', { processed: processed.toLocaleString() })}
      </Typography.Paragraph>
      <Typography.Text type="secondary">{t('diyImport.checkingHint')}</Typography.Text>
    </div>
  );
}

function ResultStep({
  job,
  submit,
  onSubmitChange,
  importing,
  downloading,
  onErrors,
}: {
  job: ImportJob;
  submit: boolean;
  onSubmitChange: (submit: boolean) => void;
  importing: boolean;
  downloading: boolean;
  onErrors: () => void;
}) {
  const { t } = useTranslation();
  const rows = job.errors.slice(0, IMPORT_ERROR_SAMPLE).map((e, index) => ({ ...e, key: index }));
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }}>
      <div style={{ display: 'flex', gap: 32, flexWrap: 'wrap', alignItems: 'flex-end' }}>
        <Statistic
          title={t('diyImport.valid')}
          value={job.valid}
          suffix={t('diyImport.rowsUnit')}
          styles={{ content: { color: '#389e0d' } }}
          data-testid="diy-import-valid"
        />
        <Statistic
          title={t('diyImport.invalid')}
          value={job.invalid}
          suffix={t('diyImport.rowsUnit')}
          styles={{ content: job.invalid > 0 ? { color: '#cf1322' } : {} }}
          data-testid="diy-import-invalid"
        />
        <Statistic
          title={t('diyImport.duplicates')}
          value={job.duplicates}
          suffix={t('diyImport.rowsUnit')}
          data-testid="diy-import-duplicates"
        />
        {job.periodName ? (
          <Statistic
            title={t('diyImport.period')}
            value={job.periodName}
            data-testid="diy-import-job-period"
          />
        ) : null}
        <div style={{ flex: 1 }} />
        {job.invalid > 0 ? (
          <Button
            icon={<DownloadOutlined />}
            loading={downloading}
            onClick={onErrors}
            data-testid="diy-import-errors"
          >
            {t('diyImport.downloadErrors')}
          </Button>
        ) : null}
      </div>
      {job.extraColumns.length > 0 ? (
        <Alert
          type="warning"
          showIcon
          title={t('diyImport.extraColumns', { columns: job.extraColumns.join('、') })}
          data-testid="diy-import-extra"
        />
      ) : null}
      {job.missingColumns.length > 0 ? (
        <Alert
          type="error"
          showIcon
          title={t('diyImport.missingColumns', { columns: job.missingColumns.join('、') })}
          data-testid="diy-import-missing"
        />
      ) : null}
      {rows.length > 0 ? (
        <div>
          <Typography.Text strong>
            <CloseCircleFilled style={{ color: '#cf1322', marginRight: 6 }} />
            {t('diyImport.errorsTitle', { count: rows.length })}
          </Typography.Text>
          <Table<ImportError & { key: number }>
            size="small"
            style={{ marginTop: 8 }}
            rowKey="key"
            dataSource={rows}
            pagination={false}
            scroll={{ y: 180 }}
            columns={[
              { key: 'row', dataIndex: 'row', title: t('diyImport.errorRow'), width: 72 },
              {
                key: 'column',
                dataIndex: 'column',
                title: t('diyImport.errorColumn'),
                width: 180,
                ellipsis: true,
                render: (column: string | null) => column ?? t('diyImport.wholeRow'),
              },
              { key: 'message', dataIndex: 'message', title: t('diyImport.errorReason') },
            ]}
            data-testid="diy-import-error-table"
          />
        </div>
      ) : (
        <Alert
          type="success"
          showIcon
          icon={<CheckCircleFilled />}
          title={t('diyImport.noErrors')}
          data-testid="diy-import-no-errors"
        />
      )}
      {importing ? (
        <div data-testid="diy-import-importing">
          <Progress percent={100} status="active" showInfo={false} />
          <Typography.Text>{t('diyImport.importing', { count: job.valid })}</Typography.Text>{' '}
          <Typography.Text type="secondary">{t('diyImport.importingHint')}</Typography.Text>
        </div>
      ) : (
        <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
          <Typography.Text id="diy-import-after">{t('diyImport.afterImport')}</Typography.Text>
          <Radio.Group
            value={submit ? 'submit' : 'draft'}
            onChange={(e) => onSubmitChange(e.target.value === 'submit')}
            aria-labelledby="diy-import-after"
            disabled={job.valid === 0}
            options={[
              { value: 'submit', label: t('diyImport.submit') },
              { value: 'draft', label: t('diyImport.draft') },
            ]}
            data-testid="diy-import-mode"
          />
        </div>
      )}
    </div>
  );
}
