import {
  type FileRow,
  fileUploadFieldsSchema,
  hasPathParts,
  kindOfSuffix,
  maxUploadBytes,
  parseAllowedTypes,
  suffixOf,
} from '@shuzhi/contracts/file';
import { filePreviewUrl, type UploadedFile } from '@shuzhi/contracts/user-center';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { configValue } from '../../platform/config/sys-config.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError, ValidationError } from '../../platform/errors/app-error.ts';
import { CHECKABLE_KINDS } from '../../platform/files/sniff.ts';
import { removeStoredFile, storeFile, whereReadable } from '../../platform/files/storage.ts';
import type { Upload } from '../../platform/http/multipart.ts';

/** The upload limits now in force: allowed suffixes (those whose content can be checked) and bytes. */
export async function uploadLimits(ctx: AppContext): Promise<{ allowed: string[]; maxBytes: number }> {
  const allowed = parseAllowedTypes(await configValue(ctx, 'sys_file_allowed_types')).filter((suffix) =>
    CHECKABLE_KINDS.includes(kindOfSuffix(suffix)),
  );
  return { allowed, maxBytes: maxUploadBytes(await configValue(ctx, 'sys_file_max_size_mb')) };
}

/**
 * `uploadFile`: the suffix must be allowed by `sys_file_allowed_types` and the content must be what the
 * suffix says; stored under DATA_DIR by date with its md5 and the uploader's org. Nothing is kept on refusal.
 */
export async function uploadFile(
  ctx: AppContext,
  caller: AuthUser,
  upload: Upload,
  limits: { allowed: string[]; maxBytes: number },
): Promise<UploadedFile> {
  const parsed = fileUploadFieldsSchema.safeParse(upload.fields, { reportInput: true });
  if (!parsed.success) throw new ValidationError(parsed.error.issues, 'body');
  const fields = parsed.data;
  const stored = await storeFile(ctx, caller, {
    path: upload.path,
    size: upload.size,
    md5: upload.md5,
    fileName: upload.fileName,
    allowed: limits.allowed,
    maxBytes: limits.maxBytes,
    match: 'name',
    fileType: fields.fileType,
    belongId: fields.belongId ?? null,
    isPublic: fields.isPublic,
    remark: fields.remark || null,
  });
  return {
    id: stored.id,
    url: filePreviewUrl(stored.id),
    fileName: stored.file_name,
    suffix: stored.suffix ?? '',
    size: stored.size,
    contentType: stored.content_type ?? '',
  };
}

/** Files attached to a record that the caller may read, oldest first. */
export async function filesOfRecord(
  ctx: AppContext,
  caller: AuthUser,
  belongId: number,
  fileType: string | undefined,
): Promise<FileRow[]> {
  let query = ctx.db
    .selectFrom('sys_file')
    .select([
      'id',
      'file_name',
      'suffix',
      'size',
      'content_type',
      'file_md5',
      'file_type',
      'belong_id',
      'is_public',
      'remark',
      'create_org_id',
      'create_time',
      'create_user_id',
      'create_user_name',
      'update_time',
      'update_user_name',
    ])
    .where('belong_id', '=', belongId)
    .where('is_delete', '=', 0);
  if (fileType) query = query.where('file_type', '=', fileType);
  const rows = await (await whereReadable(ctx, caller, query, belongId))
    .orderBy('id', 'asc')
    .limit(1000)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    fileName: r.file_name,
    suffix: r.suffix,
    size: r.size,
    contentType: r.content_type,
    fileMd5: r.file_md5,
    fileType: r.file_type,
    belongId: r.belong_id,
    isPublic: r.is_public,
    remark: r.remark,
    createOrgId: r.create_org_id,
    createTime: String(r.create_time),
    createUserId: r.create_user_id,
    createUserName: r.create_user_name,
    updateTime: r.update_time === null ? null : String(r.update_time),
    updateUserName: r.update_user_name,
  }));
}

/**
 * A new display name keeps the stored suffix (the content was checked against it): `报告` and `报告.txt`
 * for a pdf both become `报告.pdf`. Folders are refused (D8003).
 */
export function renamed(fileName: string, suffix: string | null): string {
  const name = fileName.trim();
  if (hasPathParts(name)) throw new AppError('D8003');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
  const clean = name.replace(/[\u0000-\u001f\u007f]/g, '');
  if (!suffix) return clean;
  const own = suffixOf(clean);
  if (own && `.${own}` === suffix.toLowerCase()) return clean;
  return `${clean}${suffix}`;
}

/**
 * Files still used as a live user's avatar or signature (`sys_user.avatar` holds `/api/sysFile/preview/{id}`)
 * are not deleted: D8004. The user centre replaces them by uploading a new image.
 */
export async function refuseFilesInUse(trx: Transaction<Database>, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const urls = ids.map((id) => filePreviewUrl(id));
  const used = await trx
    .selectFrom('sys_user')
    .select('id')
    .where('is_delete', '=', 0)
    .where((eb) => eb.or([eb('avatar', 'in', urls), eb('signature', 'in', urls)]))
    .executeTakeFirst();
  if (used) throw new AppError('D8004');
}

/** After a delete committed: the stored files of the deleted rows leave the disk. */
export async function removeDeletedFiles(ctx: AppContext, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  const rows = await ctx.db
    .selectFrom('sys_file')
    .select('file_path')
    .where('id', 'in', ids)
    .where('is_delete', '=', 1)
    .execute();
  for (const row of rows) await removeStoredFile(ctx, row.file_path);
}
