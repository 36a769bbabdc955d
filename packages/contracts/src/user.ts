import { z } from 'zod';
import { ACCOUNT_TYPE } from './auth.ts';
import { auditFieldsSchema, filterNumber, filterOrgId, filterText } from './crud.ts';
import { idSchema, pageInputSchema, statusSchema } from './envelope.ts';
import { ACCOUNT_PATTERN, isEmail, isIdCard, isMobile } from './validators.ts';

/**
 * Users administration (`/api/sysUser/…`, Admin.NET naming): page, list, detail, add, update, delete,
 * setStatus, resetPwd, unlockLogin, grantRole, ownRoleList/{userId}, ownExtOrgList/{userId}, export,
 * import, downloadImportTemplate.
 */

/** A user as the API returns it: never the password hashes. */
export const userRowSchema = z
  .object({
    id: z.number(),
    tenantId: z.number(),
    account: z.string(),
    realName: z.string(),
    nickName: z.string().nullable(),
    avatar: z.string().nullable(),
    /** 1 male, 2 female (the `sex` dictionary); null unknown. */
    sex: z.number().nullable(),
    phone: z.string().nullable(),
    email: z.string().nullable(),
    idCardNum: z.string().nullable(),
    address: z.string().nullable(),
    /** 999 super admin, 888 tenant admin, 777 normal, 666 member. */
    accountType: z.number(),
    orgId: z.number().nullable(),
    posId: z.number().nullable(),
    enterprise: z.string().nullable(),
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
    regionId: z.string().nullable(),
    regionName: z.string().nullable(),
    status: z.number(),
    orderNo: z.number(),
    remark: z.string().nullable(),
    /** 1 while the password is the configured default. */
    isDefPwd: z.number(),
    loginFailCount: z.number(),
    /** Sign-in refused until then (too many wrong passwords); null or past: not locked. */
    lockUntil: z.string().nullable(),
    lastLoginTime: z.string().nullable(),
    lastLoginIp: z.string().nullable(),
    passwordUpdateTime: z.string().nullable(),
  })
  .extend(auditFieldsSchema.shape);
export type UserRow = z.infer<typeof userRowSchema>;

/** A page/list row: the user with the names of its org and position (joined, not stored). */
export const userPageItemSchema = userRowSchema.extend({
  orgName: z.string().nullable(),
  posName: z.string().nullable(),
});
export type UserPageItem = z.infer<typeof userPageItemSchema>;

// Forms send '' for an empty optional box: it means "no value".
const blank = z.literal('').transform(() => null);
const text = (max: number) => z.union([blank, z.string().trim().max(max)]).nullable();
const checked = (max: number, test: (value: string) => boolean) =>
  z.union([blank, z.string().trim().max(max).refine(test)]).nullable();

const userFields = {
  account: z.string().trim().regex(ACCOUNT_PATTERN),
  realName: z.string().trim().min(1).max(32),
  nickName: text(32),
  sex: z.union([z.literal(1), z.literal(2)]).nullable(),
  phone: checked(32, isMobile),
  email: checked(128, isEmail),
  idCardNum: checked(32, (v) => isIdCard(v)),
  address: text(256),
  accountType: z.union([z.literal(ACCOUNT_TYPE.normal), z.literal(ACCOUNT_TYPE.member)]),
  orgId: idSchema,
  posId: idSchema.nullable(),
  enterprise: text(128),
  area: text(64),
  areaCode: text(32),
  street: text(64),
  streetCode: text(32),
  community: text(64),
  communityCode: text(32),
  wangge: text(64),
  wanggeCode: text(32),
  weiwangge: text(64),
  weiwanggeCode: text(32),
  regionId: text(32),
  regionName: text(128),
  status: statusSchema,
  orderNo: z.coerce.number().int().min(0).max(1_000_000),
  remark: text(256),
};

/** An extra org of a user (part-time post elsewhere), with the position there. */
const extOrgInputSchema = z.object({ orgId: idSchema, posId: idSchema.nullable().optional() });
const roleIdList = z.array(idSchema).max(100);
const extOrgList = z.array(extOrgInputSchema).max(100);

const userInputBase = z.object({
  account: userFields.account,
  realName: userFields.realName,
  nickName: userFields.nickName.optional(),
  sex: userFields.sex.optional(),
  phone: userFields.phone.optional(),
  email: userFields.email.optional(),
  idCardNum: userFields.idCardNum.optional(),
  address: userFields.address.optional(),
  accountType: userFields.accountType,
  orgId: userFields.orgId,
  posId: userFields.posId.optional(),
  enterprise: userFields.enterprise.optional(),
  area: userFields.area.optional(),
  areaCode: userFields.areaCode.optional(),
  street: userFields.street.optional(),
  streetCode: userFields.streetCode.optional(),
  community: userFields.community.optional(),
  communityCode: userFields.communityCode.optional(),
  wangge: userFields.wangge.optional(),
  wanggeCode: userFields.wanggeCode.optional(),
  weiwangge: userFields.weiwangge.optional(),
  weiwanggeCode: userFields.weiwanggeCode.optional(),
  regionId: userFields.regionId.optional(),
  regionName: userFields.regionName.optional(),
  status: userFields.status,
  orderNo: userFields.orderNo,
  remark: userFields.remark.optional(),
  roleIdList,
  extOrgList,
});

/** New user: gets the default password (`sys_password`) and must change it at first sign-in. */
export const userAddInputSchema = userInputBase.extend({
  accountType: userFields.accountType.default(ACCOUNT_TYPE.normal),
  status: userFields.status.default(1),
  orderNo: userFields.orderNo.default(100),
  roleIdList: roleIdList.default([]),
  extOrgList: extOrgList.default([]),
});
export type UserAddInput = z.input<typeof userAddInputSchema>;

/** Fields left out keep their value; `roleIdList` / `extOrgList` given replace the whole set. */
export const userUpdateInputSchema = userInputBase.partial().extend({ id: idSchema });
export type UserUpdateInput = z.input<typeof userUpdateInputSchema>;

/**
 * `sysUser/page` (and list, export): `keyword` contains over account, real name and phone; account, realName,
 * phone contain; status and accountType equal; `orgId`: that org and all orgs below it.
 */
export const userPageInputSchema = pageInputSchema.extend({
  keyword: filterText,
  account: filterText,
  realName: filterText,
  phone: filterText,
  status: filterNumber,
  accountType: filterNumber,
  orgId: filterOrgId,
});
export type UserPageInput = z.input<typeof userPageInputSchema>;

export const USER_SORTABLE = [
  'account',
  'realName',
  'phone',
  'orderNo',
  'status',
  'accountType',
  'lastLoginTime',
  'createTime',
] as const;

export const userGrantRoleInputSchema = z.object({ userId: idSchema, roleIdList });
export type UserGrantRoleInput = z.input<typeof userGrantRoleInputSchema>;

/** `resetPwd` answers the new password, shown to the admin once. */
export const userResetPwdResultSchema = z.string();

/** `ownExtOrgList/{userId}`. */
export const userExtOrgSchema = z.object({
  orgId: z.number(),
  orgName: z.string().nullable(),
  posId: z.number().nullable(),
  posName: z.string().nullable(),
});
export type UserExtOrg = z.infer<typeof userExtOrgSchema>;

/** Most rows one import file may carry. */
export const USER_IMPORT_MAX_ROWS = 5000;

/**
 * Columns of the import template, in order. Org, position and roles are given by code (roles comma
 * separated); account type 777 or 666 (empty: 777); sex 1/2 or 男/女.
 */
export const USER_IMPORT_COLUMNS = [
  'account',
  'realName',
  'orgCode',
  'posCode',
  'roleCodes',
  'accountType',
  'sex',
  'phone',
  'email',
  'idCardNum',
  'nickName',
  'enterprise',
  'area',
  'areaCode',
  'street',
  'streetCode',
  'community',
  'communityCode',
  'wangge',
  'wanggeCode',
  'weiwangge',
  'weiwanggeCode',
  'address',
  'orderNo',
  'remark',
] as const;
export type UserImportColumn = (typeof USER_IMPORT_COLUMNS)[number];

const userImportErrorSchema = z.object({
  /** Row number in the sheet (the header is row 1). */
  row: z.number(),
  messages: z.array(z.string()),
});
export type UserImportError = z.infer<typeof userImportErrorSchema>;

export const userImportResultSchema = z.object({
  total: z.number(),
  imported: z.number(),
  failed: z.number(),
  errors: z.array(userImportErrorSchema),
  /** Id for `GET importErrorReport?id=` (the uploaded sheet with an error column); null without errors. */
  errorReportId: z.string().nullable(),
});
export type UserImportResult = z.infer<typeof userImportResultSchema>;

export const userImportReportQuerySchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/) });
