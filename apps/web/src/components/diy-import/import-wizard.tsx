import { UploadOutlined } from '@ant-design/icons';
import { IMPORT_MAX_BYTES } from '@shuzhi/contracts/diy-import';
import { BUSINESS_ERRORS, type BusinessErrorCode } from '@shuzhi/contracts/errors';
import { Alert, App, Button, Modal, Popconfirm, Result, Space, Steps } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckStep, ResultStep, UploadStep } from './import-steps.tsx';
import { type ImportJobState, STEP, useImportJob } from './use-import-job.ts';

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

/**
 * 导入 (issue 6 §4): a modal in four steps — choose an .xlsx (with the template a click away) and upload it,
 * watch the server check it (cancel possible), read the outcome (counts, columns, first errors, the error
 * workbook) and confirm the valid rows as submitted records or drafts, then the inserted count.
 * Nothing is written before the confirmation; closing the modal before it drops the job.
 * The job and its steps are `useImportJob`; the steps' contents are in `import-steps.tsx`.
 */
export function ImportWizard({ open, tableId, title, period, onClose, onImported }: Props) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const job = useImportJob({ tableId, title, periodId: period?.id ?? null, onImported });
  const { busy, step, failed, state } = job;

  const close = () => {
    if (busy) {
      message.warning(t('diyImport.busyClose'));
      return;
    }
    job.dropJob();
    job.reset();
    onClose();
  };

  const reupload = () => {
    job.dropJob();
    job.reset();
  };

  const choose = (chosen: File) => {
    const refused = precheckWorkbook(chosen);
    job.setFile(refused ? null : chosen);
    job.setFileError(refused ? codeMessage(refused, i18n.language) : null);
    job.setActionError(null);
  };

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
      footer={wizardFooter(job, t, close, reupload)}
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
      {job.actionError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={job.actionError}
          closable
          onClose={() => job.setActionError(null)}
          data-testid="diy-import-error"
        />
      ) : null}
      <div data-testid="diy-import-body" data-step={step} data-state={state ?? ''}>
        <WizardBody job={job} period={period} onChoose={choose} />
      </div>
    </Modal>
  );
}

/** The content of the wizard's current step (or its failure). */
function WizardBody({
  job,
  period,
  onChoose,
}: {
  job: ImportJobState;
  period: ImportPeriod | null;
  onChoose: (file: File) => void;
}) {
  const { t } = useTranslation();
  const { data, step } = job;
  if (job.jobId === null) {
    return (
      <UploadStep
        file={job.file}
        fileError={job.fileError}
        uploading={job.uploading}
        period={period}
        downloading={job.downloading === 'template'}
        onTemplate={() => void job.download('template')}
        onChoose={onChoose}
        onRemove={() => {
          job.setFile(null);
          job.setFileError(null);
        }}
      />
    );
  }
  if (job.failed) {
    return (
      <Result
        status="error"
        title={t('diyImport.failed')}
        subTitle={
          <span data-testid="diy-import-failure">
            {job.failure} {t('diyImport.nothingWritten')}
          </span>
        }
        data-testid="diy-import-failed"
      />
    );
  }
  if (step === STEP.check) return <CheckStep job={data} />;
  if (step === STEP.result && data) {
    return (
      <ResultStep
        job={data}
        submit={job.submit}
        onSubmitChange={job.setSubmit}
        importing={job.importing}
        downloading={job.downloading === 'errors'}
        onErrors={() => void job.download('errors')}
      />
    );
  }
  if (step === STEP.done && data) {
    return (
      <Result
        status="success"
        title={<span data-testid="diy-import-inserted">{t('diyImport.done', { count: data.inserted })}</span>}
        subTitle={t('diyImport.doneHint')}
        data-testid="diy-import-done"
      />
    );
  }
  return null;
}

/** The buttons of the current step; none while rows are imported (the modal then shows no footer). */
function wizardFooter(job: ImportJobState, t: TFunction, close: () => void, reupload: () => void): ReactNode {
  const { data, step } = job;
  if (job.jobId === null) {
    return (
      <Space>
        <Button onClick={close} disabled={job.busy} data-testid="diy-import-close">
          {t('common.cancel')}
        </Button>
        <Button
          type="primary"
          icon={<UploadOutlined />}
          disabled={!job.file}
          loading={job.uploading !== null}
          onClick={() => void job.start()}
          data-testid="diy-import-start"
        >
          {t('diyImport.start')}
        </Button>
      </Space>
    );
  }
  if (job.failed) {
    return (
      <Space>
        <Button onClick={close} data-testid="diy-import-close">
          {t('diyImport.close')}
        </Button>
        <Button type="primary" onClick={reupload} data-testid="diy-import-reupload">
          {t('diyImport.reupload')}
        </Button>
      </Space>
    );
  }
  if (step === STEP.check) {
    return (
      <Button onClick={() => void job.cancelCheck()} data-testid="diy-import-cancel-check">
        {t('diyImport.cancelCheck')}
      </Button>
    );
  }
  if (step === STEP.result && data) {
    return job.importing ? null : (
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
          onConfirm={() => void job.confirm()}
        >
          <Button type="primary" disabled={data.valid === 0} data-testid="diy-import-confirm">
            {t('diyImport.confirm', { count: data.valid })}
          </Button>
        </Popconfirm>
      </Space>
    );
  }
  if (step === STEP.done && data) {
    return (
      <Button type="primary" onClick={close} autoFocus data-testid="diy-import-close">
        {t('diyImport.close')}
      </Button>
    );
  }
  return undefined;
}
