import { z } from 'zod';
import { taskReceiversInputSchema } from './diy-task.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/**
 * Scheduled tasks (计划任务, issue 19 §6, docs/tasks.md): a schedule names periodic report forms (all of one
 * period kind), receivers (as a task's), instructions and a due offset; the job scheduler makes one task per
 * new period of the forms (once per schedule and period), while the schedule is active.
 */

/** `start`: N days after the period's first day; `due`: N days before the period's filing due date. */
export const SCHEDULE_DUE_ANCHORS = ['start', 'due'] as const;
const SCHEDULE_STATES = ['active', 'paused'] as const;
export type ScheduleState = (typeof SCHEDULE_STATES)[number];
/** created: the task was made; skipped: the period was past its due offset when first seen; failed: refused. */
const SCHEDULE_RUN_OUTCOMES = ['created', 'skipped', 'failed'] as const;

const scheduleDueSchema = z.object({
  anchor: z.enum(SCHEDULE_DUE_ANCHORS),
  days: z.coerce.number().int().min(0).max(366),
  /** Time of day, `HH:mm`, in the product's time zone. */
  at: z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/),
});

/** `POST /api/diyTaskSchedule/add` (diyTaskSchedule:add). */
export const scheduleAddInputSchema = z.object({
  title: z.string().trim().min(1).max(128),
  /** Published periodic forms, all of the same period kind. */
  tableIds: z.array(idSchema).min(1).max(20),
  receivers: taskReceiversInputSchema,
  /** Rich text (HTML), cleaned on the server. */
  instructions: z.string().max(100_000).default(''),
  due: scheduleDueSchema,
});
export type ScheduleAddInput = z.input<typeof scheduleAddInputSchema>;

/** `POST /api/diyTaskSchedule/update` (diyTaskSchedule:edit): applies to periods not yet run. */
export const scheduleUpdateInputSchema = scheduleAddInputSchema.extend({ id: idSchema });
export type ScheduleUpdateInput = z.input<typeof scheduleUpdateInputSchema>;

/** `POST /api/diyTaskSchedule/pause|resume|delete` and `GET …/runs?id=`. */
export const scheduleIdInputSchema = z.object({ id: idSchema });

/** `POST /api/diyTaskSchedule/page` (diyTaskSchedule:page): the caller's schedules and those in their scope. */
export const schedulePageInputSchema = pageInputSchema.extend({
  keyword: z.string().trim().max(128).optional(),
  state: z.enum(SCHEDULE_STATES).optional(),
});
export type SchedulePageInput = z.input<typeof schedulePageInputSchema>;

const scheduleRunSchema = z.object({
  id: z.number(),
  periodKey: z.string(),
  periodName: z.string(),
  outcome: z.enum(SCHEDULE_RUN_OUTCOMES),
  taskId: z.number().nullable(),
  dueTime: z.string().nullable(),
  /** Why no task was made (the catalogue message in the caller's language), null when one was. */
  reason: z.string().nullable(),
  code: z.string().nullable(),
  createTime: z.string(),
});
export type ScheduleRun = z.infer<typeof scheduleRunSchema>;

export const scheduleRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  forms: z.array(z.object({ tableId: z.number(), title: z.string() })),
  /** The forms' period kind (month, quarter, …), null when a form is gone. */
  periodKind: z.string().nullable(),
  receivers: z.object({
    orgIds: z.array(z.number()),
    subtree: z.boolean(),
    orgTypes: z.array(z.string()),
    roleIds: z.array(z.number()).default([]),
    userIds: z.array(z.number()).default([]),
  }),
  /** Names of the receiving orgs named one by one. */
  orgNames: z.array(z.string()),
  instructions: z.string(),
  due: scheduleDueSchema,
  state: z.enum(SCHEDULE_STATES),
  createTime: z.string(),
  createUserName: z.string().nullable(),
  createOrgName: z.string().nullable(),
  lastRun: scheduleRunSchema.nullable(),
});
export type ScheduleRow = z.infer<typeof scheduleRowSchema>;

export const scheduleRunsSchema = z.array(scheduleRunSchema);
