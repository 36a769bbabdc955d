import { useQuery } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
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

const errorText = (error: unknown, fallback: string) =>
  error instanceof Error && error.message ? error.message : fallback;

export const STEP = { upload: 0, check: 1, result: 2, done: 3 } as const;

/** The wizard's step for the job as it stands, and whether (and why) it ended in a failure. */
function jobOutcome(
  jobId: number | null,
  data: ImportJob | undefined,
  poll: { isError: boolean; error: unknown },
  failedText: string,
  cancelledText: string,
) {
  const state = data?.state;
  let step: number = STEP.upload;
  if (jobId !== null) {
    if (state === 'done') step = STEP.done;
    else if (state === 'checked' || state === 'importing') step = STEP.result;
    else if (state === 'failed')
      step = data && data.total !== null && data.valid > 0 ? STEP.result : STEP.check;
    else step = STEP.check;
  }
  // A job cancelled elsewhere (another tab) or gone (expired: F1033) ends here like a failure.
  const failed = state === 'failed' || state === 'cancelled' || (jobId !== null && poll.isError);
  const failure =
    state === 'failed'
      ? (data?.failure ?? failedText)
      : state === 'cancelled'
        ? cancelledText
        : errorText(poll.error, failedText);
  return { step, failed, failure };
}

type JobOptions = {
  tableId: number;
  title: string;
  /** The period rows are filed to (periodic forms). */
  periodId: number | null;
  /** Called once when rows were written. */
  onImported: (inserted: number) => void;
};

/**
 * The import wizard's state: the chosen file, its upload, the server's job (polled while it checks or
 * imports), the wizard's step, and what the user does (start, cancel the check, confirm, download, drop).
 */
export function useImportJob({ tableId, title, periodId, onImported }: JobOptions) {
  const { t } = useTranslation();
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

  const start = useReclickGuard(async () => {
    if (!file || uploading) return;
    setActionError(null);
    setUploading({ loaded: 0, total: file.size });
    try {
      const { jobId: id } = await diyImportApi.upload(tableId, file, file.name, periodId, setUploading);
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

  const { step, failed, failure } = jobOutcome(
    jobId,
    data,
    job,
    t('diyImport.failed'),
    t('diyImport.cancelled'),
  );

  return {
    file,
    setFile,
    fileError,
    setFileError,
    uploading,
    jobId,
    data,
    state,
    submit,
    setSubmit,
    actionError,
    setActionError,
    downloading,
    importing,
    busy,
    step,
    failed,
    failure,
    reset,
    dropJob,
    start,
    cancelCheck,
    confirm,
    download,
  };
}

export type ImportJobState = ReturnType<typeof useImportJob>;
