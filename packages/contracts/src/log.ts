import { z } from 'zod';
import { filterNumber, filterText } from './crud.ts';
import { pageInputSchema } from './envelope.ts';

/**
 * The four audit logs (`/api/sysLogVis|sysLogOp|sysLogEx|sysLogDiff/…`): read-only pages, detail, export and
 * clear. Rows are written by the server only.
 */

/** Outcome of a visit or an operation. */
export const LOG_STATUS = { success: 1, failure: 2 } as const;

export const VISIT_ACTIONS = ['login', 'logout', 'loginFail'] as const;
export type VisitAction = (typeof VISIT_ACTIONS)[number];

export const DIFF_OPERATIONS = ['add', 'update', 'delete'] as const;
export type DiffOperation = (typeof DIFF_OPERATIONS)[number];

const common = {
  id: z.number(),
  tenantId: z.number(),
  createTime: z.string(),
  userId: z.number().nullable(),
  account: z.string().nullable(),
  realName: z.string().nullable(),
};

const client = {
  ip: z.string().nullable(),
  browser: z.string().nullable(),
  os: z.string().nullable(),
};

export const visitLogSchema = z.object({
  ...common,
  ...client,
  action: z.string(),
  status: z.number(),
  /** Envelope code of the sign-in (200, D1000…). */
  code: z.string().nullable(),
  message: z.string().nullable(),
  userAgent: z.string().nullable(),
  elapsed: z.number().nullable(),
});
export type VisitLog = z.infer<typeof visitLogSchema>;

export const opLogSchema = z.object({
  ...common,
  ...client,
  httpMethod: z.string(),
  /** The route pattern (`/api/sysConfig/:id`). */
  routeUrl: z.string().nullable(),
  /** The URL as called, with its query. */
  url: z.string(),
  /** `{service}` and `{action}` of `/api/{service}/{action}`. */
  controller: z.string().nullable(),
  action: z.string().nullable(),
  /** Request parameters as JSON, secrets masked, at most about 8 KB. */
  params: z.string().nullable(),
  code: z.string().nullable(),
  status: z.number(),
  message: z.string().nullable(),
  elapsed: z.number(),
  userAgent: z.string().nullable(),
  traceId: z.string().nullable(),
});
export type OpLog = z.infer<typeof opLogSchema>;

export const exLogSchema = z.object({
  ...common,
  ...client,
  traceId: z.string(),
  httpMethod: z.string(),
  routeUrl: z.string().nullable(),
  url: z.string(),
  message: z.string().nullable(),
  stack: z.string().nullable(),
  params: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type ExLog = z.infer<typeof exLogSchema>;

export const diffLogSchema = z.object({
  ...common,
  tableName: z.string(),
  recordId: z.number(),
  operation: z.string(),
  /** The row before the write as JSON (null for an add). */
  beforeData: z.string().nullable(),
  /** The row after the write as JSON (null for a delete). */
  afterData: z.string().nullable(),
  /** Changed fields (camelCase), comma separated. */
  changedFields: z.string().nullable(),
  traceId: z.string().nullable(),
});
export type DiffLog = z.infer<typeof diffLogSchema>;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/;
/** `yyyy-MM-dd` or `yyyy-MM-dd HH:mm[:ss]`; a date-only `endTime` includes that whole day. */
const timeBound = z
  .union([
    z.literal('').transform(() => undefined),
    z.null().transform(() => undefined),
    z.string().trim().regex(DATE_TIME),
  ])
  .optional();

const pageBase = pageInputSchema.extend({
  startTime: timeBound,
  endTime: timeBound,
  account: filterText,
});

export const visitLogPageInputSchema = pageBase.extend({
  ip: filterText,
  action: filterText,
  status: filterNumber,
});
export type VisitLogPageInput = z.input<typeof visitLogPageInputSchema>;

export const opLogPageInputSchema = pageBase.extend({
  ip: filterText,
  status: filterNumber,
  code: filterText,
  /** Contained in the URL, the route, the controller or the action. */
  keyword: filterText,
  httpMethod: filterText,
});
export type OpLogPageInput = z.input<typeof opLogPageInputSchema>;

export const exLogPageInputSchema = pageBase.extend({
  ip: filterText,
  traceId: filterText,
  keyword: filterText,
});
export type ExLogPageInput = z.input<typeof exLogPageInputSchema>;

export const diffLogPageInputSchema = pageBase.extend({
  tableName: filterText,
  operation: filterText,
  recordId: filterNumber,
});
export type DiffLogPageInput = z.input<typeof diffLogPageInputSchema>;

/** `POST /clear` answers how many rows were removed. */
export const clearLogResultSchema = z.number().int();
