import { z } from 'zod';
import { queryRunInputSchema } from './diy-query.ts';
import { idSchema } from './envelope.ts';

/**
 * Word documents (issue 21 §3, docs/word-documents.md): .docx templates written in Word with docxtemplater
 * placeholders, uploaded per source — a report form (one document per record, or per unit for a period), a
 * roll-up or a query report (a bulletin) — and generated on the server into files kept in the file store.
 */

/** What a template is filled from: a form's record, a roll-up's figures or a query report's rows. */
const WORD_SOURCE_KINDS = ['form', 'rollup', 'query'] as const;
export type WordSourceKind = (typeof WORD_SOURCE_KINDS)[number];

/** How a document was made. */
const WORD_OUTPUT_KINDS = ['record', 'batch', 'bulletin'] as const;
export type WordOutputKind = (typeof WORD_OUTPUT_KINDS)[number];

/** Upload and unpacking limits of a template (zip bombs): bytes of the .docx, bytes unpacked, entries. */
export const WORD_TEMPLATE_MAX_BYTES = 10 * 1024 * 1024;
export const WORD_TEMPLATE_MAX_UNPACKED = 50 * 1024 * 1024;
export const WORD_TEMPLATE_MAX_ENTRIES = 1000;
/** At most this many documents in one .zip of a period, and rows in a query report's bulletin. */
export const WORD_BATCH_MAX = 500;
export const WORD_BULLETIN_MAX_ROWS = 1000;

export const wordTemplateSchema = z.object({
  id: z.number(),
  name: z.string(),
  tableId: z.number(),
  tableTitle: z.string(),
  sourceKind: z.enum(WORD_SOURCE_KINDS),
  /** The template file's id (download it at `/api/diyWord/{id}/template`). */
  fileId: z.number(),
  fileName: z.string(),
  size: z.number(),
  /** The placeholders the template uses, as written (`{#hazards}` is `#hazards`). */
  placeholders: z.array(z.string()),
  remark: z.string().nullable(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
});
export type WordTemplate = z.infer<typeof wordTemplateSchema>;

export const wordListInputSchema = z.object({
  tableId: idSchema.optional(),
  name: z.string().trim().max(64).optional(),
});

/** Upload fields beside the multipart `file`. */
export const wordUploadFieldsSchema = z.object({
  tableId: idSchema,
  name: z.string().trim().min(1).max(64),
  remark: z.string().trim().max(256).optional(),
});

/** One name a template may use: where (top, or inside a loop) and what it stands for. */
const wordNameSchema = z.object({
  name: z.string(),
  label: z.string(),
  /** `value` a text, `loop` a list to repeat over (`{#name}…{/name}`), its names in `inner`. */
  kind: z.enum(['value', 'loop']),
  inner: z.array(z.object({ name: z.string(), label: z.string() })),
});
export type WordName = z.infer<typeof wordNameSchema>;

/** `GET /api/diyWord/fields?tableId=`: the placeholder help of a source. */
export const wordFieldsSchema = z.object({
  tableId: z.number(),
  tableTitle: z.string(),
  sourceKind: z.enum(WORD_SOURCE_KINDS),
  names: z.array(wordNameSchema),
  /** Periods a generation picks from (started ones, newest first): the form's, or a roll-up's source's. */
  periods: z.array(z.object({ id: z.number(), name: z.string() })),
});
export type WordFields = z.infer<typeof wordFieldsSchema>;

export const wordFieldsInputSchema = z.object({ tableId: idSchema });

export const wordRecordInputSchema = z.object({ recordId: idSchema });
export const wordBatchInputSchema = z.object({ periodId: idSchema });
export const wordBulletinInputSchema = z.object({
  /** Roll-ups: the period (default: the source's latest); query reports: a `period` parameter's value. */
  periodId: idSchema.optional(),
  /** Query reports: parameter values as the report page sends them. */
  params: queryRunInputSchema.shape.params,
});

/** A generated document (or .zip), kept as a file. */
export const wordOutputSchema = z.object({
  id: z.number(),
  templateId: z.number(),
  kind: z.enum(WORD_OUTPUT_KINDS),
  fileId: z.number(),
  fileName: z.string(),
  size: z.number(),
  /** Documents in the file (a .zip of a period holds one per unit). */
  count: z.number(),
  recordId: z.number().nullable(),
  periodId: z.number().nullable(),
  createTime: z.string(),
  createUserName: z.string().nullable(),
});
export type WordOutput = z.infer<typeof wordOutputSchema>;

export const wordDeleteInputSchema = z.object({ ids: z.array(idSchema).min(1).max(100) });

/** `GET /api/diyWord/sources`: items a template may be made for. */
export const wordSourceSchema = z.object({
  id: z.number(),
  title: z.string(),
  sourceKind: z.enum(WORD_SOURCE_KINDS),
});
export type WordSource = z.infer<typeof wordSourceSchema>;
