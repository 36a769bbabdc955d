import { z } from 'zod';
import { formDesignSchema } from './diy-form.ts';
import { idSchema } from './envelope.ts';

/**
 * Row confirmation (issue 6 §6): `/api/diyConfirm/create | list`, and the no-login
 * `GET /api/diyTable/detailByNoLogin/{tableId}/{code}` and `PUT /api/diyTable/updateDataByNoLogin/{recordId}`.
 */

/** How long a confirmation link stays valid, in days. */
export const ROW_CONFIRM_DAYS = [1, 3, 7, 30] as const;
export const rowConfirmCreateInputSchema = z.object({
  tableId: idSchema,
  recordId: idSchema,
  /** Who the link is for (a name, a phone number); shown on the page and in the list. */
  subject: z.string().trim().max(128).optional(),
  days: z.union(ROW_CONFIRM_DAYS.map((d) => z.literal(d))),
});
export type RowConfirmCreateInput = z.input<typeof rowConfirmCreateInputSchema>;
/** `url` is the page's path with its query (`/diyReport/rowConfirm?t=…&c=…`); the browser prefixes its origin. */
export const rowConfirmCreateResultSchema = z.object({
  id: z.number(),
  url: z.string(),
  code: z.string(),
  expireTime: z.string(),
});
export type RowConfirmCreateResult = z.infer<typeof rowConfirmCreateResultSchema>;
const ROW_CONFIRM_STATES = ['open', 'confirmed', 'disputed', 'expired'] as const;
export type RowConfirmState = (typeof ROW_CONFIRM_STATES)[number];
/** A link of a record (`GET /api/diyConfirm/list?tableId&recordId`, newest first). */
export const rowConfirmItemSchema = z.object({
  id: z.number(),
  subject: z.string().nullable(),
  state: z.enum(ROW_CONFIRM_STATES),
  expireTime: z.string(),
  answerComment: z.string().nullable(),
  answerTime: z.string().nullable(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
});
export type RowConfirmItem = z.infer<typeof rowConfirmItemSchema>;
export const rowConfirmListQuerySchema = z.object({ tableId: idSchema, recordId: idSchema });
/** What the no-login page shows: that one row, with its version's value fields only. */
export const rowConfirmDetailSchema = z.object({
  tableId: z.number(),
  recordId: z.number(),
  title: z.string(),
  dataNo: z.string().nullable(),
  design: formDesignSchema,
  values: z.record(z.string(), z.unknown()),
  labels: z.record(z.string(), z.string()),
  subject: z.string().nullable(),
  expireTime: z.string(),
  answered: z.boolean(),
});
export type RowConfirmDetail = z.infer<typeof rowConfirmDetailSchema>;
/** The subject's answer: once; a dispute needs a comment. */
export const rowConfirmAnswerInputSchema = z.object({
  code: z.string().min(1).max(512),
  answer: z.enum(['confirm', 'dispute']),
  comment: z.string().trim().max(1000).optional(),
});
export type RowConfirmAnswerInput = z.input<typeof rowConfirmAnswerInputSchema>;
