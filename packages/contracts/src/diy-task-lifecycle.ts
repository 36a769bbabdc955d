import { z } from 'zod';
import { attachmentSchema, dueTimeSchema, GRID_CELL_STATES, taskRowSchema } from './diy-task.ts';
import { taskUrgePlanSchema } from './diy-task-urge.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/**
 * Task lifecycle, zero reports, grid filters and timeliness (issue 19 §5, §7, §8, docs/tasks.md).
 */

/**
 * `POST /api/diyTask/edit` (diyTask:edit): title, instructions, attachments, due time of an open task. A later
 * due time moves the receivers whose own due time was the old one; an earlier one must lie ahead (T1001) and not
 * before any receiver's own due time that stays (T1030).
 */
export const taskEditInputSchema = z.object({
  id: idSchema,
  title: z.string().trim().min(1).max(128),
  dueTime: dueTimeSchema,
  instructions: z.string().max(100_000).default(''),
  attachments: z.array(attachmentSchema).max(20).default([]),
  /** 逐级审核 on or off (unchanged when left out); on needs every form of the task to need review (T1053). */
  levelReview: z.boolean().optional(),
  /** The automatic urging ladder (unchanged when left out); steps already sent stay sent. */
  urge: taskUrgePlanSchema.optional(),
});
export type TaskEditInput = z.input<typeof taskEditInputSchema>;

/** `POST /api/diyTask/close` | `reopen` | `delete`: the task, with an optional comment kept in the history. */
export const taskStepInputSchema = z.object({
  id: idSchema,
  comment: z.string().trim().max(500).default(''),
});
export type TaskStepInput = z.input<typeof taskStepInputSchema>;

/** `POST /api/diyTask/zero` (diyTask:zero): a receiving unit has nothing to report for a form of the task. */
export const taskZeroInputSchema = z.object({
  receiverId: idSchema,
  tableId: idSchema,
  note: z.string().trim().min(1).max(500),
});
export type TaskZeroInput = z.input<typeof taskZeroInputSchema>;

/** `POST /api/diyTask/zeroWithdraw` (diyTask:zero): take a zero report back while the task is open. */
export const taskZeroWithdrawInputSchema = z.object({ receiverId: idSchema, tableId: idSchema });
export type TaskZeroWithdrawInput = z.input<typeof taskZeroWithdrawInputSchema>;

/**
 * `GET /api/diyTask/grid` and `/export`: the task, optionally only receivers of an org type, at a depth of the
 * task's tree (1 = the top receivers), or with at least one cell in a state.
 */
export const taskGridQuerySchema = z.object({
  id: idSchema,
  orgType: z.string().trim().max(32).optional(),
  depth: z.coerce.number().int().min(1).max(50).optional(),
  state: z.enum(GRID_CELL_STATES as [string, ...string[]]).optional(),
});
export type TaskGridQuery = z.output<typeof taskGridQuerySchema>;

/** Timeliness of a group of filings (a unit, a level, or the whole task). */
const timelinessSchema = z.object({
  /** Cells asked of the group (filing receivers × active forms). */
  expected: z.number(),
  /** Cells submitted at least once (a zero report counts). */
  submitted: z.number(),
  /** Of those, first submitted by the receiver's due time. */
  onTime: z.number(),
  /** onTime / expected, 0..1 (null when nothing was asked). */
  onTimeRate: z.number().nullable(),
  /** Average hours between the first submission and the due time (negative: late); null with no submission. */
  avgHoursBeforeDue: z.number().nullable(),
  /** Returns per submitted record. */
  returnsPerRecord: z.number().nullable(),
  /** Average hours from a submission to the review (approve or return) that followed it. */
  avgReviewHours: z.number().nullable(),
});
export type Timeliness = z.infer<typeof timelinessSchema>;

/** `GET /api/diyTask/metrics?id=`: timeliness per filing unit, per level (org type), and for the task. */
export const taskMetricsSchema = z.object({
  total: timelinessSchema,
  levels: z.array(timelinessSchema.extend({ orgType: z.string() })),
  units: z.array(
    timelinessSchema.extend({
      receiverId: z.number(),
      orgId: z.number(),
      orgName: z.string(),
      orgType: z.string(),
      dueTime: z.string(),
    }),
  ),
  /**
   * Level-by-level review (逐级审核): the turnaround of each reviewing level, lowest first — hours from the record
   * reaching the level (its submission, or the level below passing it) to the level's pass or return. `level`:
   * depth of the reviewing unit (0 the task's creating unit, the last level); `orgType`: the reviewing units' org
   * type (null for the creating unit). Empty for a task without level review.
   */
  reviewLevels: z.array(
    z.object({
      level: z.number(),
      orgType: z.string().nullable(),
      passes: z.number(),
      returns: z.number(),
      avgReviewHours: z.number().nullable(),
    }),
  ),
});
export type TaskMetrics = z.infer<typeof taskMetricsSchema>;
export type ReviewLevelTurnaround = TaskMetrics['reviewLevels'][number];

/** `POST /api/diyTask/deletedPage` (diyTask:delete): deleted tasks the caller manages, last deleted first. */
export const deletedTaskPageInputSchema = pageInputSchema.extend({
  keyword: z.string().trim().max(128).optional(),
});
export type DeletedTaskPageInput = z.input<typeof deletedTaskPageInputSchema>;

export const deletedTaskRowSchema = taskRowSchema.extend({
  deleteTime: z.string().nullable(),
  deleteUserName: z.string().nullable(),
});
export type DeletedTaskRow = z.infer<typeof deletedTaskRowSchema>;
