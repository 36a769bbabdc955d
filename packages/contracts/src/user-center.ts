import { z } from 'zod';
import { isEmail, isIdCard, isMobile } from './validators.ts';

/** Image kinds an avatar or a signature may be, recognised by their first bytes, not by the name. */
export const IMAGE_KINDS = ['png', 'jpg', 'webp'] as const;

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const SIGNATURE_MAX_BYTES = 1024 * 1024;

/** Where a stored file is served: signed-in users of its tenant read it through this route. */
const FILE_PREVIEW_PATH = '/api/sysFile/preview';
export const filePreviewUrl = (id: number | string) => `${FILE_PREVIEW_PATH}/${id}`;

/** `GET /api/sysUser/baseInfo`: the caller's own profile. */
export const baseInfoSchema = z.object({
  id: z.number(),
  account: z.string(),
  realName: z.string(),
  nickName: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  /** 1 male, 2 female (the `sex` dictionary); null unknown. */
  sex: z.number().nullable(),
  address: z.string().nullable(),
  idCardNum: z.string().nullable(),
  remark: z.string().nullable(),
  avatar: z.string().nullable(),
  signature: z.string().nullable(),
  /** Whether an operation password is set (the hash itself never leaves the server). */
  hasOpPassword: z.boolean(),
});
export type BaseInfo = z.infer<typeof baseInfoSchema>;

/** An optional text: trimmed, '' and null both clear the field; `check` validates a non-empty value. */
const optionalText = (max: number, check?: (value: string) => boolean) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((value) => value === '' || !check || check(value))
    .nullish()
    .transform((value) => (value ? value : null));

/** `POST /api/sysUser/baseInfo`: the fields a user may change about themself (SPEC §5 formats). */
export const updateBaseInfoInputSchema = z.object({
  realName: z.string().trim().min(1).max(32),
  nickName: optionalText(32),
  phone: optionalText(11, isMobile),
  email: optionalText(64, isEmail),
  sex: z.union([z.literal(1), z.literal(2)]).nullish(),
  address: optionalText(256),
  idCardNum: optionalText(18, (value) => isIdCard(value)),
  remark: optionalText(256),
});
export type UpdateBaseInfoInput = z.input<typeof updateBaseInfoInputSchema>;
/** The input after validation: trimmed, empty texts as null. */
export type UpdateBaseInfo = z.output<typeof updateBaseInfoInputSchema>;

/** An uploaded file as the upload routes answer. */
export const uploadedFileSchema = z.object({
  id: z.number(),
  /** The served address, e.g. `/api/sysFile/preview/123`. */
  url: z.string(),
  fileName: z.string(),
  suffix: z.string(),
  size: z.number(),
  contentType: z.string(),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

/** `POST /api/sysUser/setOpPassword`: both SM2-encrypted; the login password confirms the caller. */
export const setOpPasswordInputSchema = z.object({
  password: z.string().min(1).max(4096),
  opPassword: z.string().min(1).max(4096),
});
export type SetOpPasswordInput = z.infer<typeof setOpPasswordInputSchema>;

/** `POST /api/sysUser/checkOpPassword`: SM2-encrypted; answers true or D1011 / D1012. */
export const checkOpPasswordInputSchema = z.object({ opPassword: z.string().min(1).max(4096) });
export type CheckOpPasswordInput = z.infer<typeof checkOpPasswordInputSchema>;
