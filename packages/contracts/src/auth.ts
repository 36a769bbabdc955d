import { z } from 'zod';
import { ACCOUNT_TYPE_MEMBER } from './sign-in.ts';

export const ACCOUNT_TYPE = {
  superAdmin: 999,
  sysAdmin: 888,
  normal: 777,
  member: ACCOUNT_TYPE_MEMBER,
} as const;

/** `id`: a number (a long in the family); `img`: bare base64 of a PNG, without a `data:` prefix. */
export const captchaResultSchema = z.object({ id: z.number(), img: z.string() });

/**
 * A captcha id as clients send it: a JSON number or a numeric string; `0`, empty or absent when the captcha is
 * off. Read as a number, null for none.
 */
export const captchaIdSchema = z
  .union([
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .trim()
      .regex(/^\d{0,16}$/),
  ])
  .nullable()
  .optional()
  .transform((value) =>
    value === null || value === undefined || value === '' ? null : Number(value) || null,
  );

export const loginConfigSchema = z.object({
  secondVerEnabled: z.boolean(),
  captchaEnabled: z.boolean(),
  /** SM2 public key (hex, uncompressed, with the leading 04) used to encrypt passwords in transit. */
  publicKey: z.string(),
});

export const loginInputSchema = z.object({
  account: z.string().trim().min(1).max(64),
  /** SM2 C1C3C2 cipher text, hex, without the leading 04. */
  password: z.string().min(1).max(4096),
  codeId: captchaIdSchema,
  code: z.string().max(16).optional().nullable(),
  /** Login type; 9 is the enterprise portal. */
  loginType: z.number().int().optional(),
});
export type LoginInput = z.infer<typeof loginInputSchema>;

export const loginResultSchema = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  isDefPwd: z.boolean(),
  isUpdatePwd: z.boolean(),
  /** Where the client goes after signing in (the family's `homepage`); null: its own first page. */
  homepage: z.string().nullable().optional(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const refreshTokenQuerySchema = z.object({ accessToken: z.string().min(1).max(4096) });

export const userInfoSchema = z.object({
  id: z.number(),
  account: z.string(),
  realName: z.string(),
  accountType: z.number(),
  avatar: z.string(),
  address: z.string().nullable(),
  signature: z.string().nullable(),
  tenantId: z.number(),
  orgId: z.number().nullable(),
  orgIds: z.array(z.number()),
  extOrgIds: z.array(z.number()),
  orgName: z.string().nullable(),
  posName: z.string().nullable(),
  orgParentDep: z.string().nullable(),
  orgRank: z.number().nullable(),
  superiorDept: z.string().nullable(),
  fullOrgIds: z.string().nullable(),
  fullOrgNames: z.string().nullable(),
  roles: z.array(z.string()),
  roleCodes: z.array(z.string()),
  /** Ids of the user's enabled roles (the family's `roleIds`). */
  roleIds: z.array(z.number()),
  buttons: z.array(z.string()),
  authBtnList: z.array(z.string()),
  isDefPwd: z.boolean(),
  regionId: z.string().nullable(),
  regionName: z.string().nullable(),
  fullRegionName: z.string().nullable(),
  fullRegionId: z.string().nullable(),
  area: z.string().nullable(),
  areaCode: z.string().nullable(),
  street: z.string().nullable(),
  streetCode: z.string().nullable(),
  community: z.string().nullable(),
  communityCode: z.string().nullable(),
  wangge: z.string().nullable(),
  wanggeCode: z.string().nullable(),
  weiwangge: z.string().nullable(),
  weiwanggeCode: z.string().nullable(),
  idCardNum: z.string().nullable(),
  phone: z.string().nullable(),
  email: z.string().nullable(),
  enterprise: z.string().nullable(),
  streetId: z.number().nullable(),
  communityId: z.number().nullable(),
  /** Derived role flags (SPEC §3, §6). */
  isAreaLeader: z.boolean(),
  isDeptTownLeader: z.boolean(),
  isCommunityLeader: z.boolean(),
  isStaff: z.boolean(),
  isCityAdmin: z.boolean(),
  isAdmin: z.boolean(),
  isSuperAdmin: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** Special role names the product reacts to (SPEC §6). */
export const SPECIAL_ROLE_NAMES = {
  areaLeader: '区领导',
  deptTownLeader: '部门和街镇领导',
  communityLeader: '社区领导',
  staff: '工作人员',
} as const;
export const CITY_ADMIN_ROLE_CODE = 'city_admin';

export const watermarkConfigSchema = z.object({
  enabled: z.boolean(),
  /** The same switch under the family's name. */
  watermarkEnabled: z.boolean(),
  /** Lines drawn by the watermark: system title, the user's real name, the current date. */
  content: z.array(z.string()),
  width: z.number(),
  height: z.number(),
  gap: z.tuple([z.number(), z.number()]),
  zIndex: z.number(),
});
export type WatermarkConfig = z.infer<typeof watermarkConfigSchema>;

/** JWT access-token claims (REFERENCE). */
export type AccessClaims = {
  UserId: number;
  TenantId: number;
  Account: string;
  RealName: string;
  AccountType: number;
  OrgId: number;
  OrgName: string;
};
