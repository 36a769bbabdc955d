import { z } from 'zod';
import { filterDateRange, filterNumber, filterText } from './crud.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/**
 * Files (`/api/sysFile/…`, issue 4 §5): `uploadFile` (multipart, any signed-in user), `download/{id}` and
 * `downloadFile {id}` (the original name), `listByBelong` (files attached to a record), and the admin page,
 * update (display name, remark, public flag), delete and batchDelete. `preview/{id}` serves a file inline.
 */

export const FILE_UPLOAD_PATH = '/api/sysFile/uploadFile';
const FILE_DOWNLOAD_PATH = '/api/sysFile/download';
export const fileDownloadUrl = (id: number | string) => `${FILE_DOWNLOAD_PATH}/${id}`;

/** File types the user centre sets; `uploadFile` does not accept them (they are readable tenant-wide). */
const RESERVED_FILE_TYPES = ['avatar', 'signature'] as const;
/** The type of an upload that names none. */
export const DEFAULT_FILE_TYPE = 'attachment';

/** `jpeg` is stored and checked as `jpg`. */
const SUFFIX_ALIASES: Record<string, string> = { jpeg: 'jpg' };

/** A suffix without dot, lower case: `.PDF` → `pdf`; '' when the name has none. */
export function suffixOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** The kind a suffix is checked as (`jpeg` → `jpg`). */
export const kindOfSuffix = (suffix: string) => {
  const plain = suffix.replace(/^\./, '').toLowerCase();
  return SUFFIX_ALIASES[plain] ?? plain;
};

/** `sys_file_allowed_types` ("pdf, .DOCX,xlsx") → ['pdf', 'docx', 'xlsx']. */
export function parseAllowedTypes(value: string): string[] {
  const list = value
    .split(/[,，;\s]+/)
    .map((part) => part.trim().replace(/^\./, '').toLowerCase())
    .filter((part) => /^[a-z0-9]{1,16}$/.test(part));
  return [...new Set(list)];
}

/** `sys_file_max_size_mb` → bytes (at least 1 MB, so a typo cannot block every upload). */
export function maxUploadBytes(value: string | number): number {
  const mb = Number.parseInt(String(value), 10);
  return (Number.isFinite(mb) && mb > 0 ? mb : 1) * 1024 * 1024;
}

/** Whether a client file name carries folders (`../x.pdf`, `a/b.pdf`, `C:\x.pdf`) or is a relative dot name. */
export function hasPathParts(fileName: string): boolean {
  return /[\\/]/.test(fileName) || /^[a-z]:/i.test(fileName) || fileName === '.' || fileName === '..';
}

/** How the preview dialog shows a file. */
export type PreviewKind = 'pdf' | 'sheet' | 'document' | 'none';
export function previewKindOf(fileName: string): PreviewKind {
  const suffix = suffixOf(fileName);
  if (suffix === 'pdf') return 'pdf';
  if (suffix === 'xlsx' || suffix === 'xls') return 'sheet';
  if (suffix === 'docx') return 'document';
  return 'none';
}

const flag = z
  .union([z.boolean(), z.literal(0), z.literal(1), z.enum(['true', 'false', '1', '0', ''])])
  .transform((value) => (value === true || value === 1 || value === 'true' || value === '1' ? 1 : 0));

const fileTypeText = z
  .string()
  .trim()
  .max(32)
  .regex(/^[A-Za-z0-9_-]*$/)
  .refine((value) => !(RESERVED_FILE_TYPES as readonly string[]).includes(value.toLowerCase()), {
    message: 'reserved',
  });

/** The plain fields of an `uploadFile` form (sent before or after the file). */
export const fileUploadFieldsSchema = z.object({
  fileType: fileTypeText.optional().transform((value) => value || DEFAULT_FILE_TYPE),
  belongId: z
    .union([
      z.literal('').transform(() => undefined),
      z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER),
    ])
    .optional(),
  isPublic: flag.optional().transform((value) => value === 1),
  remark: z.string().trim().max(256).optional(),
});

/** A stored file as the page, detail and `listByBelong` answer. */
export const fileRowSchema = z.object({
  id: z.number(),
  fileName: z.string(),
  /** With its dot: `.pdf`. */
  suffix: z.string().nullable(),
  size: z.number(),
  contentType: z.string().nullable(),
  fileMd5: z.string().nullable(),
  fileType: z.string().nullable(),
  belongId: z.number().nullable(),
  /** 1: every signed-in user of the tenant may read it. */
  isPublic: z.number(),
  remark: z.string().nullable(),
  createOrgId: z.number().nullable(),
  createTime: z.string(),
  createUserId: z.number().nullable(),
  createUserName: z.string().nullable(),
  updateTime: z.string().nullable(),
  updateUserName: z.string().nullable(),
});
export type FileRow = z.infer<typeof fileRowSchema>;

/** `pdf` or `.PDF` → `.pdf`. */
const suffixFilter = filterText.transform((value) =>
  value ? `.${value.replace(/^\./, '').toLowerCase()}` : undefined,
);

/** `sysFile/page` (and `list`): name contains, suffix, type, upload time range, owning record. */
export const filePageInputSchema = pageInputSchema.extend({
  fileName: filterText,
  suffix: suffixFilter,
  fileType: filterText,
  createTime: filterDateRange,
  belongId: filterNumber,
});
export type FilePageInput = z.input<typeof filePageInputSchema>;

/** `sysFile/update`: the display name (its suffix is kept), remark, public flag; fields left out stay. */
export const fileUpdateInputSchema = z.object({
  id: idSchema,
  fileName: z.string().trim().min(1).max(200).optional(),
  remark: z.string().trim().max(256).nullish(),
  isPublic: flag.optional(),
});

/** `GET /sysFile/listByBelong?belongId=&fileType=`: the files of a record the caller may read. */
export const fileListByBelongQuerySchema = z.object({
  belongId: idSchema,
  fileType: z.string().trim().max(32).optional(),
});

/** `POST /sysFile/downloadFile {id}` (Admin.NET), answered with the file. */
export const fileDownloadInputSchema = z.object({ id: idSchema });
export const fileIdParamsSchema = z.object({ id: idSchema });

/** 1536 → `1.5 KB`: file sizes as the file page and upload messages show them. */
export function formatFileSize(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${Number((bytes / 1024 / 1024 / 1024).toFixed(2))} GB`;
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} B`;
}
