import { z } from 'zod';
import { filterDateRange, filterText } from './crud.ts';
import { pageInputSchema } from './envelope.ts';

/**
 * Scheduled jobs (`/api/sysJob/…`, the Admin.NET names): job details with their triggers, run records and
 * the cluster of server processes. Jobs belong to the installation (no tenant); only the super admin reaches
 * them. One process — the leader, elected through a lease row in the database — runs scheduled triggers;
 * "run now" runs in the process that receives the request.
 */

/** 1 built in (a handler of the server), 2 an HTTP call. */
export const JOB_CREATE_TYPE = { builtIn: 1, http: 2 } as const;
const jobCreateTypeSchema = z.union([z.literal(1), z.literal(2)]);

/** Built-in handlers (`handler` of a built-in job). Seeded as jobs of the same id. */
export const BUILT_IN_JOBS = [
  'logRetention',
  'onlineUserCleanup',
  'noticePublish',
  'jobRecordRetention',
  'taskSchedule',
  'taskUrge',
] as const;
export type BuiltInJob = (typeof BUILT_IN_JOBS)[number];

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;

/** 1 running (scheduled), 2 paused, 3 ended (past its end time or its maximum number of runs). */
export const TRIGGER_STATUS = { running: 1, paused: 2, ended: 3 } as const;
const TRIGGER_TYPES = ['cron', 'period'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const JOB_RECORD_STATUS = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export type JobRecordStatus = (typeof JOB_RECORD_STATUS)[number];
const JOB_RECORD_SOURCES = ['schedule', 'manual'] as const;

/** A job id or trigger id: letters, digits, `_`, `-`, `.`. */
const code = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_.-]*$/);
const dateTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/);
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const jobTriggerRowSchema = z.object({
  id: z.number(),
  jobId: z.string(),
  triggerId: z.string(),
  triggerType: z.enum(TRIGGER_TYPES),
  /** Six fields with seconds (`0 0 3 * * *`), for `cron`. */
  cron: z.string().nullable(),
  /** Every n seconds, for `period`. */
  periodSeconds: z.number().nullable(),
  description: z.string().nullable(),
  status: z.number(),
  startTime: z.string().nullable(),
  endTime: z.string().nullable(),
  /** 0: no limit. */
  maxNumberOfRuns: z.number(),
  runOnStart: z.boolean(),
  lastRunTime: z.string().nullable(),
  nextRunTime: z.string().nullable(),
  numberOfRuns: z.number(),
  numberOfErrors: z.number(),
  createTime: z.string(),
  updateTime: z.string().nullable(),
});
export type JobTriggerRow = z.infer<typeof jobTriggerRowSchema>;

export const jobDetailRowSchema = z.object({
  id: z.number(),
  jobId: z.string(),
  groupName: z.string().nullable(),
  description: z.string().nullable(),
  createType: z.number(),
  handler: z.string().nullable(),
  httpUrl: z.string().nullable(),
  httpMethod: z.string().nullable(),
  httpHeaders: z.record(z.string(), z.string()).nullable(),
  httpBody: z.string().nullable(),
  timeoutSeconds: z.number(),
  /** Whether a run may start while another run of the same job is still going. */
  concurrent: z.boolean(),
  remark: z.string().nullable(),
  createTime: z.string(),
  updateTime: z.string().nullable(),
  /** Whether a run of the job is going on now (in any process). */
  running: z.boolean(),
  triggers: z.array(jobTriggerRowSchema),
});
export type JobDetailRow = z.infer<typeof jobDetailRowSchema>;

/**
 * `POST /api/sysJob/pageJobDetail` (the family's form of the call): each row also as the family nests it, the
 * job under `jobDetail` and its triggers under `jobTriggers`.
 */
export const familyJobDetailRowSchema = jobDetailRowSchema.extend({
  jobDetail: jobDetailRowSchema.omit({ triggers: true }),
  jobTriggers: z.array(jobTriggerRowSchema),
});

/** `GET /api/sysJob/pageJobDetail`: job id or description contains, group equal. */
export const jobDetailPageInputSchema = pageInputSchema.extend({
  jobId: filterText,
  groupName: filterText,
  description: filterText,
});
export type JobDetailPageInput = z.input<typeof jobDetailPageInputSchema>;

const jobDetailFields = {
  jobId: code,
  groupName: optionalText(64),
  description: optionalText(256),
  createType: jobCreateTypeSchema,
  /** Built-in jobs: one of BUILT_IN_JOBS. */
  handler: z.string().trim().max(64).nullish(),
  httpUrl: z.string().trim().max(1024).nullish(),
  httpMethod: z.enum(HTTP_METHODS).nullish(),
  httpHeaders: z.record(z.string().max(128), z.string().max(2048)).nullish(),
  httpBody: z.string().max(65_536).nullish(),
  timeoutSeconds: z.coerce.number().int().min(1).max(3600).default(60),
  concurrent: z.boolean().default(false),
  remark: optionalText(256),
};

/** `POST /api/sysJob/addJobDetail`: HTTP jobs need `httpUrl` (J1005) and `httpMethod`; built-in a known `handler` (J1004). */
export const jobDetailAddInputSchema = z.object(jobDetailFields);
export type JobDetailAddInput = z.input<typeof jobDetailAddInputSchema>;

/** `POST /api/sysJob/updateJobDetail`: by `id`; `jobId` and `createType` cannot change. */
export const jobDetailUpdateInputSchema = z.object({ id: z.number().int().positive(), ...jobDetailFields });
export type JobDetailUpdateInput = z.input<typeof jobDetailUpdateInputSchema>;

/** `POST deleteJobDetail | startJob | pauseJob | runJob | cancelJob`: `{ jobId }`. */
export const jobIdInputSchema = z.object({ jobId: code });

/** `GET /api/sysJob/jobTriggerList?jobId=`. */
export const jobTriggerListQuerySchema = z.object({ jobId: code });

const triggerFields = {
  jobId: code,
  triggerId: code,
  triggerType: z.enum(TRIGGER_TYPES),
  /** Checked with the cron parser; a bad one is J1000 with the parser's reason. */
  cron: z.string().trim().max(128).nullish(),
  periodSeconds: z.coerce.number().int().min(1).max(31_536_000).nullish(),
  description: optionalText(256),
  startTime: dateTime.nullish(),
  /** After `startTime` (J1006). */
  endTime: dateTime.nullish(),
  maxNumberOfRuns: z.coerce.number().int().min(0).max(1_000_000_000).default(0),
  runOnStart: z.boolean().default(false),
};

/** `POST /api/sysJob/addJobTrigger`. */
export const jobTriggerAddInputSchema = z.object(triggerFields);
export type JobTriggerAddInput = z.input<typeof jobTriggerAddInputSchema>;

/** `POST /api/sysJob/updateJobTrigger`: by `id`; `jobId` and `triggerId` cannot change. */
export const jobTriggerUpdateInputSchema = z.object({ id: z.number().int().positive(), ...triggerFields });
export type JobTriggerUpdateInput = z.input<typeof jobTriggerUpdateInputSchema>;

/** `POST deleteJobTrigger | startTrigger | pauseTrigger`: `{ jobId, triggerId }`. */
export const jobTriggerKeyInputSchema = z.object({ jobId: code, triggerId: code });

/** `POST /api/sysJob/checkCron {cron}`: the next five run times, or the parser's reason. */
export const checkCronInputSchema = z.object({ cron: z.string().trim().min(1).max(128) });
export const checkCronResultSchema = z.object({
  valid: z.boolean(),
  message: z.string().nullable(),
  nextRuns: z.array(z.string()),
});
export type CheckCronResult = z.infer<typeof checkCronResultSchema>;

export const jobRecordRowSchema = z.object({
  id: z.number(),
  jobId: z.string(),
  triggerId: z.string().nullable(),
  source: z.enum(JOB_RECORD_SOURCES),
  status: z.enum(JOB_RECORD_STATUS),
  startTime: z.string(),
  endTime: z.string().nullable(),
  elapsedMs: z.number().nullable(),
  result: z.string().nullable(),
  error: z.string().nullable(),
  nodeId: z.string(),
  createUserName: z.string().nullable(),
});
export type JobRecordRow = z.infer<typeof jobRecordRowSchema>;

/** `GET /api/sysJob/pageJobTriggerRecord`: newest first. */
export const jobRecordPageInputSchema = pageInputSchema.extend({
  jobId: filterText,
  triggerId: filterText,
  status: z.union([z.literal(''), z.enum(JOB_RECORD_STATUS)]).optional(),
  startTime: filterDateRange,
});
export type JobRecordPageInput = z.input<typeof jobRecordPageInputSchema>;

/** `POST /api/sysJob/runJob` answers the run record's id. */
export const runJobResultSchema = z.object({ recordId: z.number() });

export const jobClusterRowSchema = z.object({
  id: z.number(),
  nodeId: z.string(),
  host: z.string().nullable(),
  pid: z.number().nullable(),
  version: z.string().nullable(),
  startTime: z.string(),
  heartbeatTime: z.string(),
  /** 1 online, 0 stopped. */
  status: z.number(),
  /** Holds the scheduler lease now. */
  isLeader: z.boolean(),
  /** This is the process that answered. */
  isSelf: z.boolean(),
});
export type JobClusterRow = z.infer<typeof jobClusterRowSchema>;
