import { z } from 'zod';
import { ROLLUP_AGGS, ROLLUP_ORG_TYPES, rollupDataSchema } from './diy-rollup.ts';
import { idSchema } from './envelope.ts';

/**
 * The data dashboard (issue 20 §2, `/dataBoard/form?id=`, docs/dashboards.md): the figures of a report form
 * (type 1: a record count and the sums of its number fields) or of a roll-up (type 2: its measures) for one
 * period against the last one and the same period last year, the trend over the last 12 periods and the
 * breakdown by org level or region. Every figure comes from the roll-up code (`modules/diy-rollup`), over the
 * records the caller may see: a figure here equals the roll-up's for the same filter.
 */

/** Periods on the trend, at most. */
export const BOARD_TREND_LENGTH = 12;

/** `POST /api/dashboard/form/data` and `/export` (formBoard:view / formBoard:export). */
export const boardDataInputSchema = z.object({
  /** A published report form or a roll-up. */
  id: idSchema,
  /** A period of the form (of the roll-up's source); default the latest started. */
  periodId: idSchema.optional(),
  /** Breakdown by org level (org dimension; a form's default: street, a roll-up's: its own). */
  orgType: z.enum(ROLLUP_ORG_TYPES).optional(),
  /** Breakdown by region level (a roll-up by region; default its own). */
  regionLevel: z.coerce.number().int().min(1).max(5).optional(),
  /** Drill into this row (an org id, or a region code). */
  parent: z
    .string()
    .max(32)
    .regex(/^[0-9]*$/)
    .optional(),
});
export type BoardDataInput = z.input<typeof boardDataInputSchema>;

const boardMeasureSchema = z.object({ id: z.string(), label: z.string(), agg: z.enum(ROLLUP_AGGS) });
export type BoardMeasure = z.infer<typeof boardMeasureSchema>;

export const boardDataSchema = z.object({
  id: z.number(),
  title: z.string(),
  /** 1: a report form, 2: a roll-up. */
  reportType: z.number(),
  /** The form whose records are behind the figures (the form itself, or the roll-up's source). */
  sourceTableId: z.number(),
  periodic: z.boolean(),
  dimension: z.enum(['org', 'region']),
  orgType: z.enum(ROLLUP_ORG_TYPES),
  regionLevel: z.number(),
  /** A region roll-up's field (the record list's prefix filter). */
  regionField: z.string().nullable(),
  measures: z.array(boardMeasureSchema),
  /** The roll-up's answer for the filter: key figures (`total` with last / lastYear), breakdown rows. */
  data: rollupDataSchema,
  /** The rows' totals per period, oldest first, ending with the current period (periodic forms only). */
  trend: z.array(
    z.object({
      periodId: z.number(),
      name: z.string(),
      figures: z.record(z.string(), z.number().nullable()),
      records: z.number(),
    }),
  ),
});
export type BoardData = z.infer<typeof boardDataSchema>;

/** `GET /api/dashboard/form/list`: the forms and roll-ups the caller may open a dashboard of. */
export const boardItemSchema = z.object({ id: z.number(), title: z.string(), reportType: z.number() });
export type BoardItem = z.infer<typeof boardItemSchema>;

/** `POST /api/dashboard/form/export`: which chart's data goes into the workbook. */
export const boardExportInputSchema = boardDataInputSchema.extend({
  chart: z.enum(['breakdown', 'trend']),
});
export type BoardExportInput = z.input<typeof boardExportInputSchema>;

/** Items each list of the home summary holds, at most. */
export const HOME_LIST_SIZE = 5;

/**
 * `GET /api/dashboard/home` (dashboard:view; issue 20 §1): what the signed-in person must do and what is
 * happening in their scope. Each count is the total of the list behind it (我的任务 open parts, 报表审核
 * waiting records, the caller's returned filings, the inbox) — the home page opens that list.
 */
export const homeSummarySchema = z.object({
  tasks: z.object({
    /** Open parts of tasks the caller's units received; of them overdue, and due within 3 days. */
    open: z.number(),
    overdue: z.number(),
    dueSoon: z.number(),
    items: z.array(
      z.object({ id: z.number(), title: z.string(), dueTime: z.string(), overdue: z.boolean() }),
    ),
  }),
  /** Records waiting for the caller's review (status submitted), null when the caller reviews no form. */
  review: z.number().nullable(),
  /** This period's filings of the caller's unit that were returned to it. */
  returned: z.array(z.object({ tableId: z.number(), title: z.string(), periodName: z.string() })),
  /** This period's progress of the periodic forms the caller administers (at most 8). */
  owned: z.array(
    z.object({
      tableId: z.number(),
      title: z.string(),
      periodId: z.number(),
      periodName: z.string(),
      dueDate: z.string(),
      /** Counted records (submitted and approved) and records not yet submitted. */
      records: z.number(),
      pending: z.number(),
      /** Units the fill scope names (in the caller's reach) and those that have not reported. */
      expected: z.number(),
      missing: z.number(),
    }),
  ),
  notices: z.object({
    unread: z.number(),
    items: z.array(
      z.object({ id: z.number(), title: z.string(), publicTime: z.string().nullable(), read: z.boolean() }),
    ),
  }),
});
export type HomeSummary = z.infer<typeof homeSummarySchema>;
