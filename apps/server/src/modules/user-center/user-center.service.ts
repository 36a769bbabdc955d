import {
  AVATAR_MAX_BYTES,
  type BaseInfo,
  filePreviewUrl,
  IMAGE_KINDS,
  type SetOpPasswordInput,
  SIGNATURE_MAX_BYTES,
  type UpdateBaseInfo,
  type UploadedFile,
} from '@shuzhi/contracts/user-center';
import { checkNewPassword } from '../../platform/auth/password-change.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { AppError, unauthorized } from '../../platform/errors/app-error.ts';
import { removeStoredFile, type StoredFile, storeFile } from '../../platform/files/storage.ts';
import type { Upload } from '../../platform/http/multipart.ts';
import { forgetUserInfo } from '../auth/user-info.service.ts';

const PHONE_LABEL = { 'zh-CN': '手机号码', en: 'Phone', 'zh-TW': '手機號碼' };

export async function baseInfo(ctx: AppContext, caller: AuthUser): Promise<BaseInfo> {
  const user = await ctx.db
    .selectFrom('sys_user')
    .select([
      'id',
      'account',
      'real_name',
      'nick_name',
      'phone',
      'email',
      'sex',
      'address',
      'id_card_num',
      'remark',
      'avatar',
      'signature',
      'op_password',
    ])
    .where('id', '=', caller.userId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!user) throw unauthorized(true);
  return {
    id: user.id,
    account: user.account,
    realName: user.real_name,
    nickName: user.nick_name,
    phone: user.phone,
    email: user.email,
    sex: user.sex,
    address: user.address,
    idCardNum: user.id_card_num,
    remark: user.remark,
    avatar: user.avatar,
    signature: user.signature,
    hasOpPassword: Boolean(user.op_password),
  };
}

/**
 * The caller's own profile. Only these fields: account, org, roles and status are the administrators'.
 * A phone number signs in by SMS code, so it must belong to one live account only.
 */
export async function updateBaseInfo(
  ctx: AppContext,
  caller: AuthUser,
  values: UpdateBaseInfo,
): Promise<true> {
  if (values.phone) {
    const other = await ctx.db
      .selectFrom('sys_user')
      .select('id')
      .where('phone', '=', values.phone)
      .where('is_delete', '=', 0)
      .where('id', '!=', caller.userId)
      .executeTakeFirst();
    if (other) throw new AppError('D1006', { field: PHONE_LABEL, value: values.phone });
  }
  await ctx.db
    .updateTable('sys_user')
    .set({
      real_name: values.realName,
      nick_name: values.nickName,
      phone: values.phone,
      email: values.email,
      sex: values.sex ?? null,
      address: values.address,
      id_card_num: values.idCardNum,
      remark: values.remark,
      update_time: formatDateTime(),
      update_user_id: caller.userId,
      update_user_name: caller.realName,
    })
    .where('id', '=', caller.userId)
    .where('is_delete', '=', 0)
    .execute();
  await forgetUserInfo(ctx, caller.userId);
  return true;
}

type ImageColumn = 'avatar' | 'signature';
const IMAGE_LIMITS: Record<ImageColumn, number> = {
  avatar: AVATAR_MAX_BYTES,
  signature: SIGNATURE_MAX_BYTES,
};

/**
 * Stores an avatar or signature image and points the caller's `sys_user` column at its served URL, in one
 * transaction; the previous image of that kind is retired and its file removed once the change committed.
 */
export async function uploadUserImage(
  ctx: AppContext,
  caller: AuthUser,
  column: ImageColumn,
  upload: Upload,
): Promise<UploadedFile> {
  // Set inside the transaction; read after it (the file goes again if the transaction fails).
  const box: { stored?: StoredFile } = {};
  let retired: string[] = [];
  try {
    retired = await ctx.db.transaction().execute(async (trx) => {
      const previous = await trx
        .selectFrom('sys_file')
        .select(['id', 'file_path'])
        .where('belong_id', '=', caller.userId)
        .where('file_type', '=', column)
        .where('is_delete', '=', 0)
        .execute();
      const stored = await storeFile(
        ctx,
        caller,
        {
          path: upload.path,
          size: upload.size,
          md5: upload.md5,
          fileName: upload.fileName,
          allowed: IMAGE_KINDS,
          maxBytes: IMAGE_LIMITS[column],
          fileType: column,
          belongId: caller.userId,
        },
        trx,
      );
      box.stored = stored;
      const now = formatDateTime();
      if (previous.length > 0) {
        await trx
          .updateTable('sys_file')
          .set({ is_delete: 1, update_time: now, update_user_id: caller.userId })
          .where(
            'id',
            'in',
            previous.map((p) => p.id),
          )
          .execute();
      }
      await trx
        .updateTable('sys_user')
        .set({
          [column]: filePreviewUrl(stored.id),
          update_time: now,
          update_user_id: caller.userId,
          update_user_name: caller.realName,
        })
        .where('id', '=', caller.userId)
        .execute();
      return previous.map((p) => p.file_path);
    });
  } catch (error) {
    if (box.stored) await removeStoredFile(ctx, box.stored.file_path);
    throw error;
  }
  for (const path of retired) await removeStoredFile(ctx, path);
  await forgetUserInfo(ctx, caller.userId);
  const file = box.stored as StoredFile;
  return {
    id: file.id,
    url: filePreviewUrl(file.id),
    fileName: file.file_name,
    suffix: file.suffix ?? '',
    size: file.size,
    contentType: file.content_type ?? '',
  };
}

/**
 * Sets or replaces the caller's operation password. The login password confirms who is at the keyboard;
 * the new one follows the password rules (the strong rule when `sys_password_strong` is on).
 */
export async function setOpPassword(
  ctx: AppContext,
  caller: AuthUser,
  input: SetOpPasswordInput,
): Promise<true> {
  const checked = await checkNewPassword(ctx, caller, { current: input.password, next: input.opPassword });
  const now = formatDateTime();
  await ctx.db
    .updateTable('sys_user')
    .set({
      op_password: checked.hash,
      op_password_time: now,
      update_time: now,
      update_user_id: caller.userId,
      update_user_name: caller.realName,
    })
    .where('id', '=', checked.userId)
    .execute();
  return true;
}
