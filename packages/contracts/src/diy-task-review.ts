import { z } from 'zod';
import { idSchema } from './envelope.ts';

/**
 * Level-by-level review of a task (逐级审核, issue 19 §4, docs/tasks.md "Level-by-level review"): in a task with
 * `levelReview`, a record filed by a receiving unit is passed by each receiver above it in the task's tree in
 * turn (the community's record by its street, then by the district's receivers above, last by the task's
 * creating unit, whose pass approves the record). A record counts upward (grid, progress) at a level only once
 * the level above has passed it. A return at any level is the record's ordinary return (back to the filler with
 * the comment). Every step is kept (`diy_task_review`).
 */

const REVIEW_ACTIONS = ['pass', 'return'] as const;
export type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** `POST /api/diyTask/review` (diyTask:review): pass or return records of one form of the task. */
export const taskReviewInputSchema = z.object({
  taskId: idSchema,
  tableId: idSchema,
  recordIds: z.array(idSchema).min(1).max(200),
  action: z.enum(REVIEW_ACTIONS),
  /** Required to return (a field error on `comment`). */
  comment: z.string().trim().max(500).default(''),
});
export type TaskReviewInput = z.input<typeof taskReviewInputSchema>;

/** `GET /api/diyTask/reviews?id=&mine=`: the task's records under review that the caller sees. */
export const taskReviewQuerySchema = z.object({
  id: idSchema,
  /** Only the records waiting for one of the caller's own levels. */
  mine: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type TaskReviewQuery = z.output<typeof taskReviewQuerySchema>;

export const taskReviewRowSchema = z.object({
  tableId: z.number(),
  tableTitle: z.string(),
  recordId: z.number(),
  /** The record's status (1 submitted, 2 approved, 3 returned). */
  status: z.number(),
  submitTime: z.string().nullable(),
  createUserName: z.string().nullable(),
  /** The filing receiver (the unit whose part the record is) and the record's own unit. */
  receiverId: z.number(),
  receiverName: z.string(),
  orgName: z.string().nullable(),
  /** Levels passed so far of how many (the receivers above the filing unit, then the task's creating unit). */
  passed: z.number(),
  levels: z.number(),
  /** The unit whose review the record waits for; null when approved or returned. */
  awaiting: z.string().nullable(),
  /** The caller may pass or return it now (it waits for a level the caller acts for). */
  canReview: z.boolean(),
});
export type TaskReviewRow = z.infer<typeof taskReviewRowSchema>;

/** `GET /api/diyTask/reviewSteps?id=&tableId=&recordId=`: every review step of a record in the task. */
export const taskReviewStepQuerySchema = z.object({ id: idSchema, tableId: idSchema, recordId: idSchema });
export type TaskReviewStepQuery = z.output<typeof taskReviewStepQuerySchema>;

export const taskReviewStepSchema = z.object({
  id: z.number(),
  action: z.enum(REVIEW_ACTIONS),
  /** The reviewing level: its unit, and its depth (0: the task's creating unit, 1: the top receivers …). */
  orgName: z.string().nullable(),
  level: z.number(),
  comment: z.string().nullable(),
  userName: z.string().nullable(),
  createTime: z.string(),
  /** The submission the step judged (its step in the record's history; a resubmission starts the levels again). */
  submissionId: z.number(),
});
export type TaskReviewStep = z.infer<typeof taskReviewStepSchema>;

/** `GET /api/diyTask/reviewCompare?id=&tableId=&recordId=`: each figure against the unit's last period. */
export const taskReviewCompareSchema = z.object({
  periodName: z.string().nullable(),
  /** The same unit's newest live record of the form's previous period; null when there is none. */
  lastRecordId: z.number().nullable(),
  lastPeriodName: z.string().nullable(),
  fields: z.array(
    z.object({
      field: z.string(),
      label: z.string(),
      value: z.number().nullable(),
      lastValue: z.number().nullable(),
      /** value − lastValue, null when either is missing; `ratio` the change over lastValue (null for 0). */
      change: z.number().nullable(),
      ratio: z.number().nullable(),
    }),
  ),
});
export type TaskReviewCompare = z.infer<typeof taskReviewCompareSchema>;
