import { z } from 'zod';
import { idSchema } from './envelope.ts';

/**
 * Excel import of a form's records (issue 6 §4, docs/import.md):
 * 1. `GET /api/diyImport/{tableId}/template` — an .xlsx made from the published design: one column per value
 *    field (sub-table columns as `子表/列`), dictionary and option drop-downs, a note on each header with the
 *    field's rules.
 * 2. `POST /api/diyImport/{tableId}/upload` (multipart: `file`, optional `periodId`) — starts a check job and
 *    answers its id at once. The workbook is read as a stream; every row is checked with the form's rules
 *    (`validateRecord`) and the database's (dictionaries, pickers, unique values, one record per unit and
 *    period), and against the other rows of the file. Nothing is written.
 * 3. `GET /api/diyImport/job/{jobId}` — progress and, once checked, the counts and the first errors.
 * 4. `GET /api/diyImport/job/{jobId}/errors` — the error workbook: the bad rows as uploaded, each bad cell
 *    marked red with the reason in a note, and a 错误原因 column.
 * 5. `POST /api/diyImport/job/{jobId}/confirm` — answers the job at once (state `importing`) and writes all
 *    valid rows in one transaction (all or nothing); poll the job until `done` (or `failed`: nothing written).
 * 6. `POST /api/diyImport/job/{jobId}/cancel` — drops the job and its staged rows.
 * Jobs belong to the user who started them; they expire after `IMPORT_JOB_TTL_MINUTES`.
 */

export const IMPORT_MAX_BYTES = 50 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 200_000;
export const IMPORT_JOB_TTL_MINUTES = 60;
/** Zip-bomb guards, checked on the zip's directory before anything is unpacked (F1031). */
export const IMPORT_MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
/** Largest uncompressed/compressed ratio of one entry over 1 MB (sheet XML packs ~10–30×, bombs ~1000×). */
export const IMPORT_MAX_RATIO = 200;
/** How many errors the job status lists (the error workbook has all of them). */
export const IMPORT_ERROR_SAMPLE = 100;

const IMPORT_STATES = ['checking', 'checked', 'importing', 'done', 'failed', 'cancelled'] as const;

const importErrorSchema = z.object({
  /** The row number in the workbook (1-based, as Excel shows it). */
  row: z.number(),
  /** The header of the column (null: a problem of the whole row, such as a duplicate). */
  column: z.string().nullable(),
  message: z.string(),
});
export type ImportError = z.infer<typeof importErrorSchema>;

export const importJobSchema = z.object({
  id: z.number(),
  tableId: z.number(),
  fileName: z.string(),
  state: z.enum(IMPORT_STATES),
  /** Rows read so far and rows in the file (total known once the file has been read). */
  processed: z.number(),
  total: z.number().nullable(),
  valid: z.number(),
  invalid: z.number(),
  /** Rows that repeat an existing record or an earlier row of the file (counted among `invalid`). */
  duplicates: z.number(),
  /** Columns of the file that match no field (ignored), and required fields with no column. */
  extraColumns: z.array(z.string()),
  missingColumns: z.array(z.string()),
  errors: z.array(importErrorSchema),
  /** Rows written by the confirmation. */
  inserted: z.number(),
  /** Periodic forms: the period the rows are filed to. */
  periodId: z.number().nullable(),
  periodName: z.string().nullable(),
  /** Why the job failed (not a workbook, too large, …): an error code's message. */
  failure: z.string().nullable(),
  createTime: z.string(),
});
export type ImportJob = z.infer<typeof importJobSchema>;

export const importUploadResultSchema = z.object({ jobId: z.number() });
export const importJobParamsSchema = z.object({ jobId: idSchema });
export const importTableParamsSchema = z.object({ tableId: idSchema });
/** `submit`: the imported records are submitted (reviewed as usual) rather than kept as drafts. */
export const importConfirmInputSchema = z.object({ submit: z.boolean().default(true) });
export type ImportConfirmInput = z.input<typeof importConfirmInputSchema>;
