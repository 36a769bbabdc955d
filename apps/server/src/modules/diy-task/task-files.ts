import { DEFAULT_FILE_TYPE } from '@shuzhi/contracts/file';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { loadCaller } from '../../platform/diy/form-access.ts';
import type { BelongFile } from '../../platform/files/belong.ts';
import { visibleTask } from './task-read.ts';

/**
 * A task's attachments as files the task's readers may download (docs/tasks.md "Attachments"): on create and
 * edit the files the caller uploaded as plain attachments that nothing holds yet become the task's (`file_type` `diyTask`,
 * `belong_id` the task); whoever sees the task reads them through the belong reader below. Files an edit takes
 * off are released (plain attachments again: their uploader and file administrators still read them).
 */

export const TASK_FILE_TYPE = 'diyTask';

type Trx = Transaction<Database>;

/** The task's files become exactly `fileIds`: free files of the caller taken in, the task's others released. */
export async function holdTaskFiles(
  trx: Trx,
  user: AuthUser,
  taskId: number,
  fileIds: readonly number[],
): Promise<void> {
  const ids = [...new Set(fileIds)];
  let released = trx
    .updateTable('sys_file')
    .set({ file_type: DEFAULT_FILE_TYPE, belong_id: null })
    .where('tenant_id', '=', user.tenantId)
    .where('file_type', '=', TASK_FILE_TYPE)
    .where('belong_id', '=', taskId);
  if (ids.length > 0) released = released.where('id', 'not in', ids);
  await released.execute();
  if (ids.length === 0) return;
  await trx
    .updateTable('sys_file')
    .set({ file_type: TASK_FILE_TYPE, belong_id: taskId })
    .where('id', 'in', ids)
    .where('tenant_id', '=', user.tenantId)
    .where('create_user_id', '=', user.userId)
    .where('belong_id', 'is', null)
    .where((eb) => eb.or([eb('file_type', 'is', null), eb('file_type', 'in', ['', DEFAULT_FILE_TYPE])]))
    .execute();
}

/** The belong reader of task files: whoever sees the task (T1000 otherwise: not readable). */
export async function taskFileReadable(
  ctx: AppContext,
  caller: AuthUser,
  file: BelongFile,
): Promise<boolean> {
  if (file.file_type !== TASK_FILE_TYPE || file.belong_id === null) return false;
  await visibleTask(ctx, await loadCaller(ctx, caller), Number(file.belong_id));
  return true;
}
