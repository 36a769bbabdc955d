import { z } from 'zod';
import { idSchema } from './envelope.ts';

/**
 * Urging (催办, issue 19 §3, docs/tasks.md): by hand from the completeness grid, and the task's automatic
 * ladder run by the job scheduler — before the due time (T−3 days, T−1 day …) to the unit's fillers, after it
 * (T+1, then daily up to a limit) to its fillers and leaders. Every reminder is an in-app notice (with the
 * realtime toast) and an SMS to each person reached who has a phone; each is recorded with its outcome.
 */

/** The ladder of a task: days before its due time, and how many days after it (one reminder a day). */
export const taskUrgePlanSchema = z.object({
  enabled: z.boolean().default(true),
  beforeDays: z
    .array(z.number().int().min(1).max(30))
    .max(5)
    .default([3, 1])
    .transform((days) => [...new Set(days)].sort((a, b) => b - a)),
  afterDays: z.number().int().min(0).max(30).default(3),
});
export type TaskUrgePlan = z.output<typeof taskUrgePlanSchema>;
export const DEFAULT_URGE_PLAN: TaskUrgePlan = { enabled: true, beforeDays: [3, 1], afterDays: 3 };

/** `POST /api/diyTask/urge` (diyTask:urge): remind receivers that have not filed, with a message. */
export const taskUrgeInputSchema = z.object({
  taskId: idSchema,
  receiverIds: z.array(idSchema).min(1).max(5000),
  message: z.string().trim().min(1).max(200),
});
export type TaskUrgeInput = z.input<typeof taskUrgeInputSchema>;

/**
 * What `POST /api/diyTask/urge` did: units reminded, notices' readers, texts sent and not sent; beyond a few
 * texts they go out after the answer (`smsPending`, their outcomes in the record).
 */
export const taskUrgeResultSchema = z.object({
  units: z.number(),
  people: z.number(),
  smsSent: z.number(),
  smsFailed: z.number(),
  smsPending: z.number(),
});
export type TaskUrgeResult = z.infer<typeof taskUrgeResultSchema>;

const URGE_CHANNELS = ['notice', 'sms'] as const;
/**
 * sent; pending (an SMS being handed to the gateway); failed (the gateway refused); nobody (no one to tell in
 * the unit); taskClosed / periodClosed (a ladder step that fell due after the task or its period closed: not
 * sent; taskClosed also: a failed text given up because its task closed, finished or was deleted).
 */
const URGE_OUTCOMES = ['sent', 'pending', 'failed', 'nobody', 'taskClosed', 'periodClosed'] as const;
export type UrgeOutcome = (typeof URGE_OUTCOMES)[number];

/** A reminder as recorded (`GET /api/diyTask/urges?id=`): `step` is `manual`, `T-3`, `T+1` … */
export const taskUrgeRecordSchema = z.object({
  id: z.number(),
  receiverId: z.number(),
  orgName: z.string(),
  step: z.string(),
  channel: z.enum(URGE_CHANNELS),
  outcome: z.enum(URGE_OUTCOMES),
  /** The person an SMS went to (null for a notice to a unit). */
  userName: z.string().nullable(),
  /** The phone, masked (138****0001). */
  phone: z.string().nullable(),
  message: z.string().nullable(),
  /** Who urged by hand; null: the automatic ladder. */
  senderName: z.string().nullable(),
  createTime: z.string(),
  /** SMS: times handed to the SMS sender (a failed text is tried up to 3 times in all). */
  attempts: z.number(),
  /** SMS: why the latest failed attempt did not go. */
  lastError: z.string().nullable(),
  /** SMS: when a failed text is tried again (null: not again). */
  retryAt: z.string().nullable(),
});
export type TaskUrgeRecord = z.infer<typeof taskUrgeRecordSchema>;
