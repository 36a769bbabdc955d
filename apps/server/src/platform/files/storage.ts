import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { FastifyReply } from 'fastify';
import type { SysFileTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../context.ts';
import type { Db } from '../db/db.ts';
import { formatDateTime } from '../db/time.ts';
import { AppError } from '../errors/app-error.ts';
import { sniffKind } from './sniff.ts';

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
>;

export type StoreFileInput = {
  data: Buffer;
  /** The client's file name: kept for display and downloads only, never used in the path. */
  fileName: string;
  /** Kinds of sniff.ts the content must be. */
  allowed: readonly string[];
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
 * Checks and stores an upload: size, then the kind by its first bytes; writes
 * DATA_DIR/upload/yyyy/MM/dd/<id><suffix> and its `sys_file` row (in `db`, which may be the caller's
 * transaction). The file is removed again when the row cannot be written.
 */
export async function storeFile(
  ctx: AppContext,
  caller: AuthUser,
  input: StoreFileInput,
  db: Db = ctx.db,
): Promise<StoredFile> {
  if (input.data.length === 0) throw new AppError('D8000');
  if (input.data.length > input.maxBytes) throw new AppError('D8002', { max: formatBytes(input.maxBytes) });
  const kind = sniffKind(input.data, input.allowed);
  if (!kind) throw new AppError('D8001', { types: input.allowed.join(', ') });

  const id = ctx.newId();
  const now = new Date();
  const filePath = [
    UPLOAD_DIR,
    String(now.getFullYear()),
    pad(now.getMonth() + 1),
    pad(now.getDate()),
    `${id}${kind.suffix}`,
  ].join('/');
  const full = join(ctx.config.dataDir, ...filePath.split('/'));
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, input.data, { flag: 'wx' });

  const row: StoredFile = {
    id,
    tenant_id: caller.tenantId,
    file_name: cleanFileName(input.fileName, kind.suffix),
    suffix: kind.suffix,
    file_path: filePath,
    size: input.data.length,
    content_type: kind.contentType,
    file_type: input.fileType,
    belong_id: input.belongId ?? null,
    is_public: input.isPublic ? 1 : 0,
    create_user_id: caller.userId,
  };
  try {
    await db
      .insertInto('sys_file')
      .values({
        ...row,
        provider: 'local',
        file_md5: createHash('md5').update(input.data).digest('hex'),
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

/**
 * A file the caller may read, or D1002: files of another tenant do not exist for the caller (the super
 * admin excepted); within the tenant, avatars, signatures and public files are readable by everyone signed
 * in, other files by whoever uploaded them.
 */
export async function readableFile(ctx: AppContext, caller: AuthUser, id: number): Promise<StoredFile> {
  const row = await ctx.db
    .selectFrom('sys_file')
    .select([
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
    ])
    .where('id', '=', id)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!row) throw new AppError('D1002');
  const superAdmin = caller.accountType === 999;
  if (!superAdmin && Number(row.tenant_id) !== caller.tenantId) throw new AppError('D1002');
  const readable =
    superAdmin ||
    row.is_public === 1 ||
    TENANT_READABLE.has(row.file_type ?? '') ||
    Number(row.create_user_id) === caller.userId;
  if (!readable) throw new AppError('D1002');
  return row;
}

/** Streams a stored file inline with its stored content type (never the client's). */
export async function sendStoredFile(ctx: AppContext, reply: FastifyReply, file: StoredFile) {
  const full = storedPath(ctx, file.file_path);
  const info = full ? await stat(full).catch(() => null) : null;
  if (!full || !info?.isFile()) throw new AppError('D1002');
  return reply
    .header('content-type', file.content_type ?? 'application/octet-stream')
    .header('content-length', String(info.size))
    .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(file.file_name)}`)
    .header('cache-control', 'private, max-age=86400')
    .send(createReadStream(full));
}
