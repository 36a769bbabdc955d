import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { hasPathParts, kindOfSuffix, suffixOf } from '@shuzhi/contracts/file';
import type { Permission } from '@shuzhi/contracts/permissions';
import type { FastifyReply } from 'fastify';
import type { SelectQueryBuilder } from 'kysely';
import type { Database, SysFileTable } from '../../db/schema.ts';
import { dataScopeOf, orgInScope, rowOrgIds } from '../access/data-scope.ts';
import type { AppContext, AuthUser } from '../context.ts';
import type { Db } from '../db/db.ts';
import { formatDateTime, wallClockAt } from '../db/time.ts';
import { AppError } from '../errors/app-error.ts';
import { belongReadable, readableBelongTypes } from './belong.ts';
import { matchSuffix, type SniffedKind, sniffKind, withFileSource } from './sniff.ts';

export type StoredFile = Pick<
  SysFileTable,
  | 'id'
  | 'tenant_id'
  | 'file_name'
  | 'suffix'
  | 'file_path'
  | 'size'
  | 'content_type'
  | 'file_type'
  | 'belong_id'
  | 'is_public'
  | 'create_user_id'
  | 'create_org_id'
>;

export type StoreFileInput = {
  /** The upload on disk (DATA_DIR/tmp): moved into place when stored, left to the caller when refused. */
  path: string;
  size: number;
  md5: string;
  /** The client's file name: kept for display and downloads only, never used in the path. */
  fileName: string;
  /** Kinds of sniff.ts the content must be. */
  allowed: readonly string[];
  /**
   * 'content' (default): the file is the first kind of `allowed` its bytes show (D8001 when none), stored
   * under that kind's suffix. 'name': the name's suffix must be one of `allowed` (D8001) and the bytes must
   * be that kind (D8005); the name must not carry folders (D8003).
   */
  match?: 'content' | 'name';
  maxBytes: number;
  /** What the file is for: 'avatar', 'signature', … */
  fileType: string;
  /** The record it belongs to (a user id for avatars and signatures). */
  belongId?: number | null;
  isPublic?: boolean;
  remark?: string | null;
};

/** Local files live under DATA_DIR/upload; `file_path` is relative to DATA_DIR. */
const UPLOAD_DIR = 'upload';

/** Kinds any signed-in user of the file's tenant may read (they show beside names and on printed reports). */
const TENANT_READABLE = new Set(['avatar', 'signature']);

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${Number((bytes / 1024 / 1024).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} B`;
}

/** A display name: no directories, no control characters, bounded length. */
function cleanFileName(name: string, suffix: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(-200);
  return base || `file${suffix}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The absolute path of a stored `file_path`, or null when it would leave the upload folder (a tampered row
 * must not serve /etc/passwd).
 */
export function storedPath(ctx: AppContext, filePath: string): string | null {
  const root = resolve(ctx.config.dataDir, UPLOAD_DIR);
  if (isAbsolute(filePath)) return null;
  const full = resolve(ctx.config.dataDir, filePath);
  const inside = relative(root, full);
  if (!inside || inside.startsWith('..') || isAbsolute(inside)) return null;
  return full.startsWith(root + sep) ? full : null;
}

/**
 * The kind an upload is stored as, or the refusal (D8000 empty, D8002 size, D8003 folders, D8001, D8005); the
 * content is read from disk, only as far as its kind needs.
 */
export async function checkUpload(input: StoreFileInput): Promise<SniffedKind> {
  if (input.size === 0) throw new AppError('D8000');
  if (input.size > input.maxBytes) throw new AppError('D8002', { max: formatBytes(input.maxBytes) });
  if (input.match !== 'name') {
    const kind = await withFileSource(input.path, (source) => sniffKind(source, input.allowed));
    if (!kind) throw new AppError('D8001', { types: input.allowed.join(', ') });
    return kind;
  }
  if (hasPathParts(input.fileName)) throw new AppError('D8003');
  const claimed = suffixOf(input.fileName);
  const kind = kindOfSuffix(claimed);
  if (!claimed || !input.allowed.includes(claimed)) {
    throw new AppError('D8001', { types: input.allowed.join(', ') });
  }
  const found = await withFileSource(input.path, (source) => matchSuffix(source, kind, `.${claimed}`));
  if (!found) throw new AppError('D8005', { suffix: `.${claimed}` });
  return found;
}

/** Moves a file to `target` (a rename within DATA_DIR; a copy when DATA_DIR spans file systems). */
export async function moveFile(from: string, target: string): Promise<void> {
  try {
    await rename(from, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    await copyFile(from, target);
    await rm(from, { force: true });
  }
}

/**
 * Checks and stores an upload: size, then the kind by its first bytes; moves it to
 * DATA_DIR/upload/yyyy/MM/dd/<id><suffix> and writes its `sys_file` row (in `db`, which may be the caller's
 * transaction). The file is removed again when the row cannot be written.
 */
export async function storeFile(
  ctx: AppContext,
  caller: AuthUser,
  input: StoreFileInput,
  db: Db = ctx.db,
): Promise<StoredFile> {
  const kind = await checkUpload(input);

  const id = ctx.newId();
  const now = new Date();
  const day = wallClockAt(now);
  const filePath = [UPLOAD_DIR, String(day.year), pad(day.month), pad(day.day), `${id}${kind.suffix}`].join(
    '/',
  );
  const full = join(ctx.config.dataDir, ...filePath.split('/'));
  await mkdir(dirname(full), { recursive: true });
  await moveFile(input.path, full);

  const row: StoredFile = {
    id,
    tenant_id: caller.tenantId,
    file_name: cleanFileName(input.fileName, kind.suffix),
    suffix: kind.suffix,
    file_path: filePath,
    size: input.size,
    content_type: kind.contentType,
    file_type: input.fileType,
    belong_id: input.belongId ?? null,
    is_public: input.isPublic ? 1 : 0,
    create_user_id: caller.userId,
    create_org_id: caller.orgId || null,
  };
  try {
    await db
      .insertInto('sys_file')
      .values({
        ...row,
        provider: 'local',
        create_org_name: caller.orgName || null,
        file_md5: input.md5,
        remark: input.remark ?? null,
        create_time: formatDateTime(now),
        create_user_name: caller.realName,
        is_delete: 0,
      })
      .execute();
  } catch (error) {
    await unlink(full).catch(() => undefined);
    throw error;
  }
  return row;
}

/** Removes a stored file from disk (after its row is gone or replaced); a missing file is fine. */
export async function removeStoredFile(ctx: AppContext, filePath: string): Promise<void> {
  const full = storedPath(ctx, filePath);
  if (full) await unlink(full).catch(() => undefined);
}

/** Holders of these read every file of their tenant inside their data scope (file management). */
const FILE_ADMIN: readonly Permission[] = ['sysFile:page', 'sysFile:download'];

const FILE_COLUMNS = [
  'id',
  'tenant_id',
  'file_name',
  'suffix',
  'file_path',
  'size',
  'content_type',
  'file_type',
  'belong_id',
  'is_public',
  'create_user_id',
  'create_org_id',
] as const;

const isFileAdmin = (caller: AuthUser) => FILE_ADMIN.some((p) => caller.permissions.has(p));

/**
 * A file the caller may read, or D1002: files of another tenant do not exist for the caller (the super
 * admin excepted); within the tenant, avatars, signatures and public files are readable by everyone signed
 * in, other files by whoever uploaded them, and by holders of `sysFile:page` or `sysFile:download` when the
 * uploader's org is inside their data scope; a file that belongs to a record (belong.ts) also by whoever may
 * read that record.
 */
export async function readableFile(ctx: AppContext, caller: AuthUser, id: number): Promise<StoredFile> {
  const row = await ctx.db
    .selectFrom('sys_file')
    .select([...FILE_COLUMNS])
    .where('id', '=', id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  const superAdmin = caller.accountType === ACCOUNT_TYPE.superAdmin;
  if (!superAdmin && Number(row.tenant_id) !== caller.tenantId) throw new AppError('D1002');
  const readable =
    superAdmin ||
    row.is_public === 1 ||
    TENANT_READABLE.has(row.file_type ?? '') ||
    Number(row.create_user_id) === caller.userId ||
    (isFileAdmin(caller) && orgInScope(await dataScopeOf(ctx, caller), row.create_org_id));
  if (!readable && !(await belongReadable(ctx, caller, row))) throw new AppError('D1002');
  return row;
}

/**
 * Narrows a `sys_file` query to the files `readableFile` admits (tenant, then public, avatar or signature,
 * own, or inside the data scope of a file administrator). With `belongId` (the files of one record), also
 * the record's files when the caller may read the record (belong.ts).
 */
export async function whereReadable<O>(
  ctx: AppContext,
  caller: AuthUser,
  query: SelectQueryBuilder<Database, 'sys_file', O>,
  belongId?: number,
): Promise<SelectQueryBuilder<Database, 'sys_file', O>> {
  if (caller.accountType === ACCOUNT_TYPE.superAdmin) return query;
  const view = isFileAdmin(caller) ? await dataScopeOf(ctx, caller) : null;
  const belongTypes = belongId === undefined ? [] : await readableBelongTypes(ctx, caller, belongId);
  return query.where((eb) => {
    const tenant = eb('tenant_id', '=', caller.tenantId);
    if (view?.all) return tenant;
    const either = [
      eb('is_public', '=', 1),
      eb('file_type', 'in', [...TENANT_READABLE]),
      eb('create_user_id', '=', caller.userId),
    ];
    const orgs = view ? rowOrgIds(view) : [];
    if (orgs.length > 0) either.push(eb('create_org_id', 'in', [...orgs]));
    if (belongId !== undefined && belongTypes.length > 0) {
      either.push(eb.and([eb('belong_id', '=', belongId), eb('file_type', 'in', belongTypes)]));
    }
    return eb.and([tenant, eb.or(either)]);
  }) as SelectQueryBuilder<Database, 'sys_file', O>;
}

/** RFC 5987 value: encodeURIComponent leaves ' ( ) * ! unescaped, which `filename*` does not allow. */
const rfc5987 = (text: string) =>
  encodeURIComponent(text).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/**
 * `Content-Disposition` with the original name: `filename*=UTF-8''…` for browsers, and a plain ASCII
 * `filename="…"` for old clients (other characters become `_`; a name of underscores only becomes `file`).
 */
export function contentDisposition(type: 'inline' | 'attachment', fileName: string, suffix = ''): string {
  let ascii = fileName.replace(/[^\x20-\x7e]|["\\%;]/g, '_').replace(/_+/g, '_');
  const dot = ascii.lastIndexOf('.');
  const stem = dot > 0 ? ascii.slice(0, dot) : ascii;
  if (!/[A-Za-z0-9]/.test(stem)) ascii = `file${dot > 0 ? ascii.slice(dot) : suffix}`;
  return `${type}; filename="${ascii}"; filename*=UTF-8''${rfc5987(fileName)}`;
}

/**
 * Streams a stored file with its stored content type (never the client's): inline for previews, as an
 * attachment under its original name for downloads. `nosniff` keeps a browser from running a text file as
 * HTML.
 */
export async function sendStoredFile(
  ctx: AppContext,
  reply: FastifyReply,
  file: StoredFile,
  disposition: 'inline' | 'attachment' = 'inline',
) {
  const full = storedPath(ctx, file.file_path);
  const info = full ? await stat(full).catch(() => null) : null;
  if (!full || !info?.isFile()) throw new AppError('D1002');
  return reply
    .header('content-type', file.content_type ?? 'application/octet-stream')
    .header('content-length', String(info.size))
    .header('content-disposition', contentDisposition(disposition, file.file_name, file.suffix ?? ''))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=86400')
    .send(createReadStream(full));
}
