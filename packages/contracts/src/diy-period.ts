import { z } from 'zod';
import { filterNumber, filterText } from './crud.ts';
import { RECORD_STATUS } from './diy-form.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/**
 * Reporting periods of a form (issue 6 §1, docs/periods.md). A periodic form is collected period after
 * period: calendar periods (month, quarter, half-year, year) are made by the server as time reaches them;
 * custom windows are added by staff. Each period has a due date and an optional grace window, and can be
 * closed (locked) and reopened; every such step is logged. A period keeps the form version that was
 * published when it was made: a version published mid-period applies from the next period.
 */

export const PERIOD_KINDS = ['none', 'month', 'quarter', 'halfYear', 'year', 'custom'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

/** A form's period settings (`diy_table.period`, JSON). */
export const periodSettingsSchema = z.object({
  kind: z.enum(PERIOD_KINDS).default('none'),
  /** Days after a calendar period's last day when filing is due (0: the last day itself). */
  dueDays: z.coerce.number().int().min(0).max(365).default(0),
  /** Days after the due date a late filing is still accepted (0: no grace window). */
  graceDays: z.coerce.number().int().min(0).max(365).default(0),
  /** Each filing org files one record per period (later changes edit it). */
  onePerOrg: z.boolean().default(true),
});
export type PeriodSettings = z.infer<typeof periodSettingsSchema>;
export const NO_PERIOD: PeriodSettings = { kind: 'none', dueDays: 0, graceDays: 0, onePerOrg: true };

/**
 * Where a period stands today: `upcoming` (not started: no filing yet), `open` (until the due date), `grace`
 * (after the due date, within the grace window or a reopening's end: filings are accepted and marked late),
 * `overdue` (past all of it: no filing until reopened), `closed` (locked by staff: no record changes).
 */
export const PERIOD_STATES = ['upcoming', 'open', 'grace', 'overdue', 'closed'] as const;
export type PeriodState = (typeof PERIOD_STATES)[number];

/**
 * Whether a record in a period in `state` may still be changed, submitted or deleted by its filler: while the
 * period is open or in grace; a returned record also after the due date, until the period is closed — a return
 * never leaves its filler unable to act (docs/periods.md). The server refuses the rest with F1021–F1023.
 */
export function recordChangeable(state: PeriodState, status: number): boolean {
  if (state === 'open' || state === 'grace') return true;
  return state === 'overdue' && status === RECORD_STATUS.returned;
}

/** A submission in a period in `state` is late: after the due date (the grace window, or a returned record re-filed). */
export const submittedLate = (state: PeriodState): boolean => state === 'grace' || state === 'overdue';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** A period as lists show it. Dates are `YYYY-MM-DD` in the server's time zone. */
export const periodRowSchema = z.object({
  id: z.number(),
  tableId: z.number(),
  /** `2026-11`, `2026-Q4`, `2026-H2`, `2026`; custom windows: `C<start>` (e.g. `C2026-11-01`). */
  key: z.string(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  dueDate: z.string(),
  /** The last day of the grace window (null: none). */
  graceUntil: z.string().nullable(),
  /** The last day a reopening allows filing (null: not reopened, or reopened without an end). */
  reopenUntil: z.string().nullable(),
  /** The form version records of this period are filed with. */
  version: z.number(),
  state: z.enum(PERIOD_STATES),
  closeTime: z.string().nullable(),
  closeUserName: z.string().nullable(),
  /** Live records of the period, and those submitted or approved. */
  recordCount: z.number(),
  submittedCount: z.number(),
  createTime: z.string(),
});
export type PeriodRow = z.infer<typeof periodRowSchema>;

/** A period in a few words (form items, records, the portal). */
export const periodBriefSchema = z.object({
  id: z.number(),
  name: z.string(),
  dueDate: z.string(),
  state: z.enum(PERIOD_STATES),
});
export type PeriodBrief = z.infer<typeof periodBriefSchema>;

/** `GET /api/diyPeriod/list?tableId=`: the form's periods, newest first (the current one is made if due). */
export const periodListQuerySchema = z.object({ tableId: idSchema });

/** `POST /api/diyPeriod/page` (填报周期): periods across the periodic forms the caller administers. */
export const periodPageInputSchema = pageInputSchema.extend({
  tableId: filterNumber,
  state: z.union([z.literal(''), z.enum(PERIOD_STATES)]).optional(),
  keyword: filterText,
});
export type PeriodPageInput = z.input<typeof periodPageInputSchema>;
/** A row of 填报周期: the period with its form's title. */
export const periodPageRowSchema = periodRowSchema.extend({ tableTitle: z.string() });
export type PeriodPageRow = z.infer<typeof periodPageRowSchema>;

/** `POST /api/diyPeriod/add`: a custom window (forms of kind `custom`). Windows of a form may not overlap. */
export const periodAddInputSchema = z
  .object({
    tableId: idSchema,
    name: z.string().trim().min(1).max(64),
    startDate: date,
    endDate: date,
    dueDate: date,
    graceUntil: date.nullish(),
  })
  .refine((p) => p.startDate <= p.endDate, { path: ['endDate'], message: 'endBeforeStart' })
  .refine((p) => p.startDate <= p.dueDate, { path: ['dueDate'], message: 'dueBeforeStart' })
  .refine((p) => !p.graceUntil || p.graceUntil >= p.dueDate, {
    path: ['graceUntil'],
    message: 'graceBeforeDue',
  });
export type PeriodAddInput = z.input<typeof periodAddInputSchema>;

/** `POST /api/diyPeriod/update`: name and dates of one period (logged with before and after). */
export const periodUpdateInputSchema = z.object({
  id: idSchema,
  name: z.string().trim().min(1).max(64).optional(),
  dueDate: date.optional(),
  graceUntil: date.nullish(),
});
export type PeriodUpdateInput = z.input<typeof periodUpdateInputSchema>;

/** `POST /api/diyPeriod/close`: locks the period (no record changes until reopened). */
export const periodCloseInputSchema = z.object({
  id: idSchema,
  comment: z.string().trim().max(500).optional(),
});
/**
 * `POST /api/diyPeriod/reopen`: the reason is required and logged. `until` (optional) lets filing run to that
 * day even when the due date and grace window have passed.
 */
export const periodReopenInputSchema = z.object({
  id: idSchema,
  comment: z.string().trim().min(1).max(500),
  until: date.nullish(),
});
export type PeriodReopenInput = z.input<typeof periodReopenInputSchema>;

/** `GET /api/diyPeriod/log?id=`: the period's steps, newest first. */
export const periodLogQuerySchema = z.object({ id: idSchema });
export const periodLogSchema = z.object({
  id: z.number(),
  action: z.enum(['create', 'update', 'close', 'reopen']),
  comment: z.string().nullable(),
  /** For `update`: what changed (field, before, after). */
  changes: z.array(z.object({ field: z.string(), before: z.unknown(), after: z.unknown() })),
  userName: z.string().nullable(),
  createTime: z.string(),
});
export type PeriodLog = z.infer<typeof periodLogSchema>;

/** `GET /api/diyData/{tableId}/prefill?periodId=`: the filer's org's latest record of an earlier period. */
export const prefillQuerySchema = z.object({ periodId: idSchema });
export const prefillResultSchema = z
  .object({
    fromRecordId: z.number(),
    fromPeriodName: z.string(),
    /** Values to review before saving (serial numbers, files and formulas left out). */
    values: z.record(z.string(), z.unknown()),
  })
  .nullable();
export type PrefillResult = z.infer<typeof prefillResultSchema>;

/** `POST /api/diyData/{tableId}/zeroReport`: files "nothing to report" for the caller's org in a period. */
export const zeroReportInputSchema = z.object({
  periodId: idSchema,
  comment: z.string().trim().max(500).optional(),
});
