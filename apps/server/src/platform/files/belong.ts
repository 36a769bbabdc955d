import type { SysFileTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../context.ts';
import { AppError } from '../errors/app-error.ts';

/**
 * Files that belong to a business record (`belong_id`) whose readers may read them too: a module registers
 * a reader for the `file_type` prefix it gives its files (report-form records: `diy:<formId>`). Deny by
 * default: no reader, a reader that answers false or refuses with a catalogue error, and the file is not
 * readable this way. The tenant is checked before (readableFile, whereReadable).
 */
export type BelongFile = Pick<SysFileTable, 'tenant_id' | 'file_type' | 'belong_id'>;
export type BelongReader = (ctx: AppContext, caller: AuthUser, file: BelongFile) => Promise<boolean>;

const readers = new Map<string, BelongReader>();

/** Registers (or replaces) the reader of files whose `file_type` starts with `prefix`. */
export function registerBelongReader(prefix: string, reader: BelongReader): void {
  if (!prefix) throw new Error('files: a belong reader needs a file type prefix');
  readers.set(prefix, reader);
}

/** Whether the caller may read the record the file belongs to. */
export async function belongReadable(ctx: AppContext, caller: AuthUser, file: BelongFile): Promise<boolean> {
  if (file.belong_id === null || !file.file_type) return false;
  if (Number(file.tenant_id) !== caller.tenantId) return false;
  for (const [prefix, reader] of readers) {
    if (!file.file_type.startsWith(prefix)) continue;
    try {
      return await reader(ctx, caller, file);
    } catch (error) {
      if (error instanceof AppError) return false;
      throw error;
    }
  }
  return false;
}

/** The `file_type`s of a record's files the caller may read through the record (for listing by belong id). */
export async function readableBelongTypes(
  ctx: AppContext,
  caller: AuthUser,
  belongId: number,
): Promise<string[]> {
  if (readers.size === 0) return [];
  const rows = await ctx.db
    .selectFrom('sys_file')
    .select(['file_type'])
    .distinct()
    .where('belong_id', '=', belongId)
    .where('tenant_id', '=', caller.tenantId)
    .where('is_delete', '=', 0)
    .limit(20)
    .execute();
  const types: string[] = [];
  for (const { file_type } of rows) {
    if (
      file_type &&
      (await belongReadable(ctx, caller, { tenant_id: caller.tenantId, file_type, belong_id: belongId }))
    ) {
      types.push(file_type);
    }
  }
  return types;
}
