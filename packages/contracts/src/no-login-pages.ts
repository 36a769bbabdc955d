import { z } from 'zod';
import { formDesignSchema } from './diy-form.ts';
import { recordFilterSchema } from './diy-table.ts';
import { idSchema, pageInputSchema, pageResultSchema } from './envelope.ts';
import { NO_LOGIN_MAX_DAYS } from './no-login.ts';

/**
 * Public statements and custom scenes (issue 22 §2, docs/no-login.md). Staff publish a statement — a form's
 * filed records (optionally filtered) or one record, showing only the fields they choose — whose signed code
 * opens `/statement?loadCodedate=…` without login; and a scene (title, banner, intro, entries) opened by
 * `/customScene?id=…` with its signed code.
 */

export const STATEMENT_PATH = '/statement';
export const SCENE_PATH = '/customScene';

/** What a statement shows: the form's filed records (dataset) or one record. */
const STATEMENT_KINDS = ['dataset', 'record'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];
/** A statement's or scene's state as staff see it. */
const PAGE_STATES = ['active', 'expired', 'withdrawn'] as const;
export type PublicPageState = (typeof PAGE_STATES)[number];
/** Fields a statement shows, at most. */
const STATEMENT_MAX_FIELDS = 50;
/** Records a dataset statement shows, at most (newest first). */
export const STATEMENT_MAX_RECORDS = 500;

const title = z.string().trim().min(1).max(64);
const intro = z.string().trim().max(2000).optional();
const days = z.coerce.number().int().min(1).max(NO_LOGIN_MAX_DAYS);

const statementFiltersSchema = z.object({
  filters: z.array(recordFilterSchema).max(5).optional(),
  /** Filed between these dates (`YYYY-MM-DD`). */
  createTime: z
    .tuple([z.string().regex(/^\d{4}-\d{2}-\d{2}$/), z.string().regex(/^\d{4}-\d{2}-\d{2}$/)])
    .optional(),
});
export type StatementFilters = z.infer<typeof statementFiltersSchema>;

const statementEditable = {
  title,
  intro,
  /** The form's field ids shown, in the form's order. */
  fields: z.array(z.string().min(1).max(64)).min(1).max(STATEMENT_MAX_FIELDS),
  filter: statementFiltersSchema.optional(),
};

export const statementAddInputSchema = z
  .object({
    ...statementEditable,
    kind: z.enum(STATEMENT_KINDS),
    tableId: idSchema,
    /** The record of a `record` statement. */
    recordId: idSchema.optional(),
    days,
  })
  .superRefine((input, ctx) => {
    if (input.kind === 'record' && input.recordId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['recordId'], message: 'required' });
    }
  });
export type StatementAddInput = z.input<typeof statementAddInputSchema>;
export const statementEditInputSchema = z.object({ id: idSchema, ...statementEditable });
export type StatementEditInput = z.input<typeof statementEditInputSchema>;

export const statementSchema = z.object({
  id: z.number(),
  title: z.string(),
  intro: z.string().nullable(),
  kind: z.enum(STATEMENT_KINDS),
  tableId: z.number(),
  tableTitle: z.string().nullable(),
  recordId: z.number().nullable(),
  fields: z.array(z.string()),
  filter: statementFiltersSchema.nullable(),
  expireTime: z.string(),
  state: z.enum(PAGE_STATES),
  viewCount: z.number(),
  /** `/statement?loadCodedate=…`; the browser adds its origin. */
  url: z.string(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
  withdrawTime: z.string().nullable(),
});
export type Statement = z.infer<typeof statementSchema>;
export const statementPageInputSchema = pageInputSchema.extend({
  title: z.string().trim().max(64).optional(),
});
export const statementPageSchema = pageResultSchema(statementSchema);

/** `GET /api/noLogin/statement?loadCodedate=…`: what the public page shows. */
export const statementCodeInputSchema = z.object({ loadCodedate: z.string().min(1).max(256) });
export const publicStatementSchema = z.object({
  title: z.string(),
  intro: z.string().nullable(),
  kind: z.enum(STATEMENT_KINDS),
  tableTitle: z.string(),
  /** The chosen fields only, public view (no rules, formulas or defaults). */
  fields: formDesignSchema.shape.fields,
  records: z.array(
    z.object({
      id: z.number(),
      dataNo: z.string().nullable(),
      values: z.record(z.string(), z.unknown()),
      /** Display labels of coded values, of the chosen fields only. */
      labels: z.record(z.string(), z.string()),
      createTime: z.string(),
    }),
  ),
  /** More records matched than are shown (`STATEMENT_MAX_RECORDS`). */
  truncated: z.boolean(),
  publishTime: z.string(),
  expireTime: z.string(),
});
export type PublicStatement = z.infer<typeof publicStatementSchema>;

/** What a scene's entry opens: a form to fill (a login-free fill link), a statement, an external address. */
const SCENE_ENTRY_TYPES = ['form', 'statement', 'link'] as const;
export type SceneEntryType = (typeof SCENE_ENTRY_TYPES)[number];
export const SCENE_MAX_ENTRIES = 20;

const entryTitle = z.string().trim().min(1).max(64);
const entryNote = z.string().trim().max(200).optional();
const sceneEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('form'), title: entryTitle, note: entryNote, linkId: idSchema }),
  z.object({ type: z.literal('statement'), title: entryTitle, note: entryNote, statementId: idSchema }),
  z.object({
    type: z.literal('link'),
    title: entryTitle,
    note: entryNote,
    /** http or https only. */
    url: z
      .string()
      .trim()
      .max(1000)
      .regex(/^https?:\/\/[^\s]+$/i, 'url'),
  }),
]);
export type SceneEntry = z.infer<typeof sceneEntrySchema>;

const sceneEditable = {
  title,
  intro,
  /** An uploaded image (png, jpg, gif, webp) of the publisher's tenant. */
  bannerFileId: idSchema.nullable().optional(),
  entries: z.array(sceneEntrySchema).min(1).max(SCENE_MAX_ENTRIES),
};
export const sceneAddInputSchema = z.object({ ...sceneEditable, days });
export type SceneAddInput = z.input<typeof sceneAddInputSchema>;
export const sceneEditInputSchema = z.object({ id: idSchema, ...sceneEditable });
export type SceneEditInput = z.input<typeof sceneEditInputSchema>;

export const sceneSchema = z.object({
  id: z.number(),
  title: z.string(),
  intro: z.string().nullable(),
  bannerFileId: z.number().nullable(),
  entries: z.array(sceneEntrySchema),
  expireTime: z.string(),
  state: z.enum(PAGE_STATES),
  viewCount: z.number(),
  /** `/customScene?id=…`; the browser adds its origin. */
  url: z.string(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
  withdrawTime: z.string().nullable(),
});
export type Scene = z.infer<typeof sceneSchema>;
export const scenePageInputSchema = pageInputSchema.extend({
  title: z.string().trim().max(64).optional(),
});
export const scenePageSchema = pageResultSchema(sceneSchema);

/** `GET /api/noLogin/scene?id=…`: the public scene; an entry no longer open has no url. */
export const sceneCodeInputSchema = z.object({ id: z.string().min(1).max(256) });
export const publicSceneSchema = z.object({
  title: z.string(),
  intro: z.string().nullable(),
  /** `/api/noLogin/sceneBanner?id=…`, or null. */
  bannerUrl: z.string().nullable(),
  entries: z.array(
    z.object({
      type: z.enum(SCENE_ENTRY_TYPES),
      title: z.string(),
      note: z.string().nullable(),
      url: z.string().nullable(),
    }),
  ),
  expireTime: z.string(),
});
export type PublicScene = z.infer<typeof publicSceneSchema>;
