import type { PageResult } from '@shuzhi/contracts/envelope';
import type {
  CheckCronResult,
  JobClusterRow,
  JobDetailAddInput,
  JobDetailPageInput,
  JobDetailRow,
  JobDetailUpdateInput,
  JobRecordPageInput,
  JobRecordRow,
  JobTriggerAddInput,
  JobTriggerUpdateInput,
} from '@shuzhi/contracts/job';
import { http } from '../../platform/http/http.ts';

export type { CheckCronResult, JobClusterRow, JobDetailRow, JobRecordRow };

const url = (action: string) => `/api/sysJob/${action}`;
/** Writes are silent: the caller shows field errors in its form and anything else as a toast. */
const write = { silent: true } as const;

type Paging = { page: number; pageSize: number };
export type JobFilters = Pick<JobDetailPageInput, 'jobId' | 'groupName' | 'description'>;
export type RecordFilters = {
  jobId?: string;
  triggerId?: string;
  status?: JobRecordPageInput['status'];
  /** `[from, to]` as `yyyy-MM-dd HH:mm:ss`. */
  startTime?: [string, string];
};

/** The calls of 任务调度 (`/api/sysJob/…`, packages/contracts/src/job.ts). */
export const jobApi = {
  page: (body: Paging & JobFilters) =>
    http.get<PageResult<JobDetailRow>>(url('pageJobDetail'), { ...body }, { silent: true }),
  add: (body: JobDetailAddInput) => http.post<unknown>(url('addJobDetail'), body, write),
  update: (body: JobDetailUpdateInput) => http.post<unknown>(url('updateJobDetail'), body, write),
  remove: (jobId: string) => http.post<unknown>(url('deleteJobDetail'), { jobId }, write),
  start: (jobId: string) => http.post<unknown>(url('startJob'), { jobId }, write),
  pause: (jobId: string) => http.post<unknown>(url('pauseJob'), { jobId }, write),
  run: (jobId: string) => http.post<{ recordId: number }>(url('runJob'), { jobId }, write),
  cancel: (jobId: string) => http.post<unknown>(url('cancelJob'), { jobId }, write),
  addTrigger: (body: JobTriggerAddInput) => http.post<unknown>(url('addJobTrigger'), body, write),
  updateTrigger: (body: JobTriggerUpdateInput) => http.post<unknown>(url('updateJobTrigger'), body, write),
  removeTrigger: (jobId: string, triggerId: string) =>
    http.post<unknown>(url('deleteJobTrigger'), { jobId, triggerId }, write),
  startTrigger: (jobId: string, triggerId: string) =>
    http.post<unknown>(url('startTrigger'), { jobId, triggerId }, write),
  pauseTrigger: (jobId: string, triggerId: string) =>
    http.post<unknown>(url('pauseTrigger'), { jobId, triggerId }, write),
  checkCron: (cron: string) => http.post<CheckCronResult>(url('checkCron'), { cron }, { silent: true }),
  records: (body: Paging & RecordFilters) =>
    http.get<PageResult<JobRecordRow>>(url('pageJobTriggerRecord'), { ...body }, { silent: true }),
  cluster: () => http.get<JobClusterRow[]>(url('clusterList'), undefined, { silent: true }),
};

/** Query keys: everything starts with `sysJob`, so one invalidation refreshes the whole screen. */
export const JOB_KEYS = {
  all: ['sysJob'] as const,
  page: (body: object) => ['sysJob', 'page', body] as const,
  records: (body: object) => ['sysJob', 'records', body] as const,
  cluster: ['sysJob', 'cluster'] as const,
  cron: (cron: string) => ['sysJob', 'cron', cron] as const,
};
