import { z } from 'zod';
import { filterNumber, filterText } from './crud.ts';
import { periodBriefSchema } from './diy-period.ts';
import { formItemSchema, recordStatusSchema } from './diy-table.ts';
import { idSchema } from './envelope.ts';

/** Favourites, the enterprise portal and the home page's filings: `/api/diyTableCollect/collect | list | myReports | myFilings | detail` (issue 6 §5, issue 16 §5). */

/** `POST /api/diyTableCollect/collect`: without `collect` the favourite toggles; with it, it is set. */
export const collectInputSchema = z.object({ tableId: idSchema, collect: z.boolean().optional() });
export const collectResultSchema = z.object({ tableId: z.number(), collected: z.boolean() });
export type CollectResult = z.infer<typeof collectResultSchema>;

/**
 * A form of the portal: the form item with its remark, whether the caller favourited it, and the caller's
 * org's records (their own as well): how many, the status of the latest (null: none yet), the last submit.
 */
export const myReportItemSchema = formItemSchema.extend({
  remark: z.string().nullable(),
  collected: z.boolean(),
  myRecordCount: z.number(),
  latestStatus: recordStatusSchema.nullable(),
  lastSubmitTime: z.string().nullable(),
});
export type MyReportItem = z.infer<typeof myReportItemSchema>;
export const myReportsQuerySchema = z.object({ classifyId: filterNumber, keyword: filterText });

/**
 * `GET /api/diyTableCollect/myFilings` (the home page, issue 16 §5): a published periodic form the caller fills,
 * its current period (the one filing goes to now: open, or in grace after the due date), and the caller's own
 * record there — their unit's, for a form with one record per unit: its id and status (null: not filed yet),
 * whether it was submitted late, and when it last changed.
 */
export const myFilingSchema = formItemSchema.extend({
  currentPeriod: periodBriefSchema,
  recordId: z.number().nullable(),
  recordStatus: recordStatusSchema.nullable(),
  late: z.boolean(),
  recordTime: z.string().nullable(),
});
export type MyFiling = z.infer<typeof myFilingSchema>;
export const collectDetailQuerySchema = z.object({ id: idSchema });
