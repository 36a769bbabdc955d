import { z } from 'zod';
import { ROLLUP_ORG_TYPES } from './diy-rollup.ts';
import { idSchema } from './envelope.ts';

/**
 * Efficiency analysis (issue 20 §3, `/dataBoard/index`, docs/dashboards.md): how promptly and how cleanly the
 * units in the caller's data scope filed what tasks asked of them — per unit, level (org type), form and month.
 * Every figure is the tasks module's timeliness (`taskTimeliness`: the records' own history, the tasks' zero
 * reports and the receivers' due times), summed over the task parts whose due time falls in the months asked.
 */

/** Months one call may span, at most. */
export const EFFICIENCY_MAX_MONTHS = 36;
/** Months shown when no range is given (ending with next month: the parts due soon count too). */
export const EFFICIENCY_DEFAULT_MONTHS = 12;

const monthSchema = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/);

/** `GET /api/dashboard/efficiency` and `/export` (efficiencyBoard:view / efficiencyBoard:export). */
export const efficiencyQuerySchema = z.object({
  /** Only this form's cells (a report form of the tenant, B1011 otherwise). */
  tableId: idSchema.optional(),
  /** First and last month (`YYYY-MM`) of the parts' due times; default the 12 months ending with next month. */
  from: monthSchema.optional(),
  to: monthSchema.optional(),
  /** Only units of this org level (the by-level comparison still shows every level). */
  orgType: z.enum(ROLLUP_ORG_TYPES).optional(),
});
export type EfficiencyQuery = z.input<typeof efficiencyQuerySchema>;

/** The figures of a group of cells (one cell: one filing unit × one form of one task). */
const efficiencyFiguresSchema = z.object({
  /** Cells asked; of them submitted (a zero report counts), on time, and late (submitted after the due time, or not yet submitted once it passed). */
  expected: z.number(),
  submitted: z.number(),
  onTime: z.number(),
  late: z.number(),
  /** onTime / expected, 0..1; null when nothing was asked. */
  onTimeRate: z.number().nullable(),
  /** Average days between the first submission and the due time (negative: late); null with no submission. */
  avgDaysBeforeDue: z.number().nullable(),
  /** `return` steps per submitted record. */
  returnsPerRecord: z.number().nullable(),
  /** Average hours from a submission to the review (approve or return) that followed it. */
  avgReviewHours: z.number().nullable(),
  /** Records submitted, the distinct users who submitted them, and their ratio. */
  records: z.number(),
  fillers: z.number(),
  recordsPerFiller: z.number().nullable(),
});
export type EfficiencyFigures = z.infer<typeof efficiencyFiguresSchema>;

export const efficiencySchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Tasks with a counted part. */
  tasks: z.number(),
  total: efficiencyFiguresSchema,
  /** Every level (org type) of the units in scope, whatever `orgType` asks. */
  levels: z.array(efficiencyFiguresSchema.extend({ orgType: z.string() })),
  forms: z.array(efficiencyFiguresSchema.extend({ tableId: z.number(), title: z.string() })),
  /** Every month of the range, oldest first (a month without parts has expected 0). */
  trend: z.array(efficiencyFiguresSchema.extend({ month: z.string() })),
  /** The ranking: one row per unit, best on-time rate first. */
  units: z.array(
    efficiencyFiguresSchema.extend({
      orgId: z.number(),
      orgName: z.string(),
      orgType: z.string(),
      tasks: z.number(),
    }),
  ),
  /** The forms of the tasks in range (the form filter's choices, whatever `tableId` asks). */
  formOptions: z.array(z.object({ tableId: z.number(), title: z.string() })),
});
export type Efficiency = z.infer<typeof efficiencySchema>;
