import { z } from 'zod';
import { DEFAULT_URGE_PLAN, taskUrgePlanSchema } from './diy-task-urge.ts';
import { idSchema, pageInputSchema } from './envelope.ts';
import { isCalendarTime } from './notice.ts';

/**
 * Tasks (任务, issue 19, docs/tasks.md): a unit asks other units to file one or more published report forms
 * for a period by a due time. Receivers are org units kept as a tree: the creator's distribution makes the
 * top receivers; a receiving unit hands the task on (下发) to units below it with a due time of its own, no
 * later than its parent's; a receiver may pass its part to another unit (转办). The completeness grid shows,
 * per receiver and form, where the filing stands, computed from the form's records of the task's period.
 */

/** A due time: `yyyy-MM-dd HH:mm` or `yyyy-MM-dd HH:mm:ss`, in the product's time zone. */
export const dueTimeSchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/)
  .refine(isCalendarTime);

/** Org types a distribution may pick by (values of the `org_type` dictionary). */
export const TASK_ORG_TYPES = ['department', 'street', 'community', 'grid', 'enterprise'] as const;

/** Most receivers one distribution may make (a district's every grid and enterprise fits). */
export const TASK_MAX_RECEIVERS = 20_000;

/**
 * Who receives: the named orgs; with `subtree`, every org below them too; with `orgTypes`, only orgs of those
 * types (with no org named: every org of those types in the caller's data scope). Orgs named one by one must
 * be able to fill a form of the task (themselves or a unit below them, T1004); orgs found through `subtree` or
 * `orgTypes` that cannot are left out.
 */
export const taskReceiversInputSchema = z.object({
  orgIds: z.array(idSchema).max(TASK_MAX_RECEIVERS).default([]),
  subtree: z.boolean().default(false),
  orgTypes: z.array(z.enum(TASK_ORG_TYPES)).max(TASK_ORG_TYPES.length).default([]),
  /** Roles: the units of their enabled users (units that cannot fill are left out). */
  roleIds: z.array(idSchema).max(200).default([]),
  /** Named users: their own units, named as if chosen one by one (T1004 when one cannot fill). */
  userIds: z.array(idSchema).max(1000).default([]),
});

export const attachmentSchema = z.object({ fileId: idSchema, name: z.string().trim().min(1).max(256) });

/** `POST /api/diyTask/add` (diyTask:add): create and distribute in one step. */
export const taskAddInputSchema = z.object({
  title: z.string().trim().min(1).max(128),
  /** Published report forms; a periodic form names the period the task asks for (default: its current one). */
  forms: z
    .array(z.object({ tableId: idSchema, periodId: idSchema.nullish() }))
    .min(1)
    .max(20),
  dueTime: dueTimeSchema,
  /** Rich text (HTML), cleaned on the server. */
  instructions: z.string().max(100_000).default(''),
  attachments: z.array(attachmentSchema).max(20).default([]),
  receivers: taskReceiversInputSchema,
  /** The automatic urging ladder (diy-task-urge.ts); off with `enabled: false`. */
  urge: taskUrgePlanSchema.default(DEFAULT_URGE_PLAN),
  /**
   * 逐级审核 (diy-task-review.ts): each record is passed by every level above its unit before it counts upward;
   * every form of the task must need review.
   */
  levelReview: z.boolean().default(false),
});
export type TaskAddInput = z.input<typeof taskAddInputSchema>;

/** `POST /api/diyTask/handOn` (diyTask:distribute): a receiving unit hands its part on to units below it. */
export const taskHandOnInputSchema = z.object({
  receiverId: idSchema,
  dueTime: dueTimeSchema,
  receivers: taskReceiversInputSchema,
  comment: z.string().trim().max(500).default(''),
});
export type TaskHandOnInput = z.input<typeof taskHandOnInputSchema>;

/** `POST /api/diyTask/transfer` (diyTask:transfer): a receiver passes its part to another unit. */
export const taskTransferInputSchema = z.object({
  receiverId: idSchema,
  orgId: idSchema,
  reason: z.string().trim().min(1).max(500),
});
export type TaskTransferInput = z.input<typeof taskTransferInputSchema>;

/** A receiver's own standing: receiving (files or hands on), handed on (has receivers below), transferred. */
const RECEIVER_STATES = ['received', 'handedOn', 'transferred'] as const;
export type ReceiverState = (typeof RECEIVER_STATES)[number];

/** A cell of the completeness grid (receiver × form). */
const CELL_STATES = [
  'notStarted',
  'filling',
  'submitted',
  'returned',
  'approved',
  'overdue',
  'transferred',
  /** The unit declared it has nothing to report for this form (diy_task_zero); counts as done. */
  'zero',
  /** The form was disabled, unpublished or deleted while the task was open. */
  'formOff',
  /** 逐级审核: filed (or complete below) and waiting for the level above to pass it; not yet counted upward. */
  'reviewing',
] as const;
export type CellState = (typeof CELL_STATES)[number];
export const GRID_CELL_STATES: readonly CellState[] = CELL_STATES;

/** A task is open (receivers act on it) or closed (no more hand-on, transfer or zero reports). */
const TASK_STATES = ['open', 'closed'] as const;

const TASK_LIST_SCOPES = ['created', 'all'] as const;

/** `POST /api/diyTask/page` (diyTask:page): tasks created by the caller, or all in the caller's scope. */
export const taskPageInputSchema = pageInputSchema.extend({
  scope: z.enum(TASK_LIST_SCOPES).default('all'),
  keyword: z.string().trim().max(128).optional(),
});
export type TaskPageInput = z.input<typeof taskPageInputSchema>;

/** `POST /api/diyTask/mine` (signed in): tasks the caller's units received (我的任务). */
export const myTaskPageInputSchema = pageInputSchema.extend({
  keyword: z.string().trim().max(128).optional(),
  /** Only parts still to do (not transferred, not every form submitted). */
  open: z.boolean().default(false),
});
export type MyTaskPageInput = z.input<typeof myTaskPageInputSchema>;

const taskFormRefSchema = z.object({
  tableId: z.number(),
  title: z.string(),
  periodId: z.number().nullable(),
  periodName: z.string().nullable(),
  /** The form is still published, enabled and not deleted (else its cells show formOff). */
  active: z.boolean(),
});
export type TaskFormRef = z.infer<typeof taskFormRefSchema>;

export const taskRowSchema = z.object({
  id: z.number(),
  title: z.string(),
  dueTime: z.string(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
  createOrgName: z.string().nullable(),
  state: z.enum(TASK_STATES),
  forms: z.array(taskFormRefSchema),
  /** Receivers that file (no receivers below, not transferred), and those of them with every form in. */
  receiverCount: z.number(),
  doneCount: z.number(),
});
export type TaskRow = z.infer<typeof taskRowSchema>;

/** A row of 我的任务: the task and the caller's own part. */
export const myTaskRowSchema = taskRowSchema.extend({
  receiverId: z.number(),
  orgId: z.number(),
  orgName: z.string(),
  /** The due time of the caller's part (handed-on parts have their own, earlier one). */
  myDueTime: z.string(),
  state: z.enum(RECEIVER_STATES),
  /** Forms of the task the caller's unit has submitted (or had approved) for the task's period. */
  submittedForms: z.number(),
  overdue: z.boolean(),
});
export type MyTaskRow = z.infer<typeof myTaskRowSchema>;

const taskReceiverSchema = z.object({
  id: z.number(),
  parentId: z.number().nullable(),
  orgId: z.number(),
  orgName: z.string(),
  orgType: z.string(),
  dueTime: z.string(),
  state: z.enum(RECEIVER_STATES),
  /** Transferred from this receiver (its reason beside it). */
  transferFromId: z.number().nullable(),
  transferReason: z.string().nullable(),
  /** The caller may act for this receiver (hand on, transfer). */
  mine: z.boolean(),
});
export type TaskReceiver = z.infer<typeof taskReceiverSchema>;

const TASK_EVENT_ACTIONS = [
  'create',
  'handOn',
  'transfer',
  'edit',
  'close',
  'reopen',
  'delete',
  'restore',
  'zero',
  'zeroWithdraw',
] as const;
const taskEventSchema = z.object({
  id: z.number(),
  action: z.enum(TASK_EVENT_ACTIONS),
  orgName: z.string().nullable(),
  /** The units the step reached (names, at most 20, and how many). */
  targets: z.array(z.string()),
  targetCount: z.number(),
  comment: z.string().nullable(),
  userName: z.string().nullable(),
  createTime: z.string(),
});
export type TaskEvent = z.infer<typeof taskEventSchema>;

export const taskDetailSchema = taskRowSchema.extend({
  instructions: z.string(),
  attachments: z.array(attachmentSchema),
  /** The receivers the caller may see (the whole tree, or the part under their own units), parents first. */
  receivers: z.array(taskReceiverSchema),
  events: z.array(taskEventSchema),
  /** The caller created the task or sees it through their data scope (not only as a receiver). */
  manage: z.boolean(),
  /** 逐级审核: records count upward only once the level above passed them (diy-task-review.ts). */
  levelReview: z.boolean(),
  /** The automatic urging ladder (days before the due time, daily reminders after it); null: off. */
  urge: z.object({ enabled: z.boolean(), beforeDays: z.array(z.number()), afterDays: z.number() }).nullable(),
});
export type TaskDetail = z.infer<typeof taskDetailSchema>;

export const taskIdQuerySchema = z.object({ id: idSchema });

const gridCellSchema = z.object({
  state: z.enum(CELL_STATES),
  /** Overdue: whole days past the receiver's due time. */
  daysLate: z.number().int().default(0),
  /** A receiver that handed on: its receivers below that have filed, of how many (null for a filer). */
  done: z.number().nullable(),
  total: z.number().nullable(),
  /** The newest live record behind the cell (drill-down), null when none. */
  recordId: z.number().nullable(),
  /** A zero report's note. */
  zeroNote: z.string().nullable().optional(),
  /** Reviewing: the unit whose review the newest waiting record awaits (the task's creating unit at the top). */
  awaiting: z.string().nullable().optional(),
});
export type GridCell = z.infer<typeof gridCellSchema>;

/** `GET /api/diyTask/grid?id=`: receivers × forms for the task's periods. */
export const taskGridSchema = z.object({
  forms: z.array(taskFormRefSchema),
  rows: z.array(
    z.object({
      receiverId: z.number(),
      parentId: z.number().nullable(),
      orgId: z.number(),
      orgName: z.string(),
      /** The unit's org type (部门 / 街道 / 社区 / 网格 / 企业) and depth in the task's tree (1 at the top). */
      orgType: z.string(),
      depth: z.number(),
      dueTime: z.string(),
      /** Cells in the order of `forms`. */
      cells: z.array(gridCellSchema),
    }),
  ),
});
export type TaskGrid = z.infer<typeof taskGridSchema>;

/** `GET /api/diyTable/task/{id}`: the open tasks asking for form `id`, with the caller's own part. */
export const formTaskSchema = z.object({
  taskId: z.number(),
  title: z.string(),
  receiverId: z.number(),
  orgId: z.number(),
  orgName: z.string(),
  periodId: z.number().nullable(),
  periodName: z.string().nullable(),
  dueTime: z.string(),
  state: z.enum(RECEIVER_STATES),
  cell: z.enum(CELL_STATES),
});
export type FormTask = z.infer<typeof formTaskSchema>;
