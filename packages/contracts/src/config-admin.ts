import { z } from 'zod';
import { configItemSchema } from './config.ts';
import { auditFieldsSchema, filterText } from './crud.ts';
import { idSchema, pageInputSchema } from './envelope.ts';

/** Administration of system parameters (`/api/sysConfig/…`) and the system-info screen. */

/** A row of `sysConfig/page` and `detail`: the list item plus the audit columns. */
export const configRowSchema = configItemSchema.extend(auditFieldsSchema.shape);
export type ConfigRow = z.infer<typeof configRowSchema>;

const fields = {
  code: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z][\w.:-]*$/),
  name: z.string().trim().min(1).max(128),
  value: z.string().max(100_000).nullable(),
  /** 1 built-in (cannot be deleted, code and flag fixed), 2 ordinary. */
  sysFlag: z.union([z.literal(1), z.literal(2)]),
  groupCode: z.string().trim().max(64).nullable(),
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: z.string().max(256).nullable(),
};

export const configAddInputSchema = z.object({
  code: fields.code,
  name: fields.name,
  value: fields.value.default(''),
  sysFlag: fields.sysFlag.default(2),
  groupCode: fields.groupCode.optional(),
  orderNo: fields.orderNo.default(100),
  remark: fields.remark.optional(),
});

/** Fields left out keep their value. */
export const configUpdateInputSchema = z.object({
  id: idSchema,
  code: fields.code.optional(),
  name: fields.name.optional(),
  value: fields.value.optional(),
  sysFlag: fields.sysFlag.optional(),
  groupCode: fields.groupCode.optional(),
  orderNo: fields.orderNo.optional(),
  remark: fields.remark.optional(),
});

/** `sysConfig/page` (and `export`): name and code contain, groupCode equals. */
export const configPageInputSchema = pageInputSchema.extend({
  name: filterText,
  code: filterText,
  groupCode: filterText,
});
export type ConfigPageInput = z.input<typeof configPageInputSchema>;

/** `POST /api/sysConfig/batchUpdate`: values by code, all or nothing. */
export const configBatchUpdateInputSchema = z
  .array(z.object({ code: fields.code, value: fields.value }))
  .min(1)
  .max(500);
export type ConfigBatchUpdateInput = z.input<typeof configBatchUpdateInputSchema>;

/** `GET /api/sysConfig/sysInfo` (public): what the login page and the footer show. */
export const sysInfoSchema = z.object({
  webTitle: z.string(),
  webLogo: z.string(),
  webCopyright: z.string(),
  webIcp: z.string(),
});
export type SysInfo = z.infer<typeof sysInfoSchema>;

/**
 * What `GET /api/sysConfig/sysInfo` answers: the editable fields above, and the same information resolved
 * (the profile fills what is empty) under the names the family's login page and footer read.
 */
export const sysInfoAnswerSchema = sysInfoSchema.extend({
  logo: z.string(),
  title: z.string(),
  viceTitle: z.string(),
  viceDesc: z.string(),
  copyright: z.string(),
  icp: z.string(),
  icpUrl: z.string(),
  /** The watermark text while `sys_watermark` is on, else empty. */
  watermark: z.string(),
});
export type SysInfoAnswer = z.infer<typeof sysInfoAnswerSchema>;

/** A logo is a site path, an http(s) URL or an inline image (data URI); empty falls back to the profile. */
const LOGO =
  /^(\/(?!\/)|https?:\/\/|data:image\/(png|jpeg|gif|webp|svg\+xml|x-icon|vnd\.microsoft\.icon);base64,)/;
const MAX_LOGO_LENGTH = 300_000;

/** `POST /api/sysConfig/saveSysInfo`: fields left out keep their value; empty clears. */
export const saveSysInfoInputSchema = z.object({
  webTitle: z.string().trim().max(64).optional(),
  webLogo: z
    .string()
    .trim()
    .max(MAX_LOGO_LENGTH)
    .refine((value) => value === '' || LOGO.test(value))
    .optional(),
  webCopyright: z.string().trim().max(256).optional(),
  webIcp: z.string().trim().max(128).optional(),
});
export type SaveSysInfoInput = z.input<typeof saveSysInfoInputSchema>;

/** The config codes behind the system-info fields. */
export const SYS_INFO_CODES = {
  webTitle: 'sys_web_title',
  webLogo: 'sys_web_logo',
  webCopyright: 'sys_web_copyright',
  webIcp: 'sys_web_icp',
} as const satisfies Record<keyof SysInfo, string>;
