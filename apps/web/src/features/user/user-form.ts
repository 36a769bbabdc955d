import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { UserAddInput, UserExtOrg, UserRow, UserUpdateInput } from '@shuzhi/contracts/user';
import { isAccount, isEmail, isIdCard, isMobile, parseIdCard } from '@shuzhi/contracts/validators';
import { nowInZone } from '../../platform/time/time-zone.ts';

/** Text fields of the form (besides account and realName), in the order of its sections. */
export const AREA_FIELDS = [
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
  'regionId',
  'regionName',
] as const;
const TEXT_FIELDS = [
  'nickName',
  'phone',
  'email',
  'idCardNum',
  'address',
  'enterprise',
  'remark',
  ...AREA_FIELDS,
] as const;

type ExtOrgValue = { orgId?: number | null; posId?: number | null };

/** What the add / edit form holds. */
export type UserFormValues = {
  account?: string;
  realName?: string;
  accountType?: number;
  sex?: number | null;
  orgId?: number | null;
  posId?: number | null;
  roleIdList?: number[];
  extOrgList?: ExtOrgValue[];
  orderNo?: number | null;
  status?: number;
} & Partial<Record<(typeof TEXT_FIELDS)[number], string | null>>;

export const NEW_USER_VALUES: UserFormValues = {
  accountType: ACCOUNT_TYPE.normal,
  status: STATUS.enabled,
  orderNo: 100,
  roleIdList: [],
  extOrgList: [],
};

/** The form's values for a stored user, with their roles and extra orgs. */
export function toFormValues(user: UserRow, roleIds: number[], extOrgs: UserExtOrg[]): UserFormValues {
  const values: UserFormValues = {
    account: user.account,
    realName: user.realName,
    accountType: user.accountType,
    sex: user.sex,
    orgId: user.orgId,
    posId: user.posId,
    orderNo: user.orderNo,
    status: user.status,
    roleIdList: roleIds,
    extOrgList: extOrgs.map((e) => ({ orgId: e.orgId, posId: e.posId })),
  };
  for (const field of TEXT_FIELDS) values[field] = user[field] ?? null;
  return values;
}

const trimmed = (value: unknown): string | null => {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  return text === '' ? null : text;
};

/**
 * The add / update body: blank boxes become null, half-filled extra-org rows are dropped and an org listed
 * twice keeps its last position; admin accounts (888, 999) keep their type (the server would ignore it).
 */
export function toPayload(values: UserFormValues): UserAddInput;
export function toPayload(values: UserFormValues, editing: UserRow): UserUpdateInput;
export function toPayload(values: UserFormValues, editing?: UserRow): UserAddInput | UserUpdateInput {
  const extOrgs = new Map<number, number | null>();
  for (const row of values.extOrgList ?? []) {
    if (row?.orgId) extOrgs.set(row.orgId, row.posId ?? null);
  }
  const body: Record<string, unknown> = {
    account: trimmed(values.account) ?? '',
    realName: trimmed(values.realName) ?? '',
    sex: values.sex ?? null,
    orgId: values.orgId ?? undefined,
    posId: values.posId ?? null,
    orderNo: values.orderNo ?? 100,
    roleIdList: [...new Set(values.roleIdList ?? [])],
    extOrgList: [...extOrgs].map(([orgId, posId]) => ({ orgId, posId })),
  };
  for (const field of TEXT_FIELDS) body[field] = trimmed(values[field]);
  const isAdmin =
    editing !== undefined &&
    (editing.accountType === ACCOUNT_TYPE.superAdmin || editing.accountType === ACCOUNT_TYPE.sysAdmin);
  if (!isAdmin) body.accountType = values.accountType ?? ACCOUNT_TYPE.normal;
  if (editing) return { ...body, id: editing.id } as UserUpdateInput;
  return { ...body, status: values.status ?? STATUS.enabled } as UserAddInput;
}

/** Format checks of the form, the same the server applies (SPEC §5); empty optional values pass. */
export const checks = {
  account: (value: unknown) => isAccount(typeof value === 'string' ? value.trim() : value),
  phone: (value: unknown) => !trimmed(value) || isMobile(trimmed(value)),
  email: (value: unknown) => !trimmed(value) || isEmail(trimmed(value)),
  idCardNum: (value: unknown) => !trimmed(value) || isIdCard(trimmed(value)),
};

/** The sex an ID number implies (1 male, 2 female), to fill an empty sex box; null for invalid numbers. */
export function sexFromIdCard(value: unknown): 1 | 2 | null {
  return parseIdCard(trimmed(value))?.sex ?? null;
}

/**
 * Whether sign-in is locked right now (too many wrong passwords); `lockUntil` is a wall-clock time of the
 * product's zone, compared with the zone's clock now (not the browser's).
 */
export function isLocked(user: Pick<UserRow, 'lockUntil'>, now: Date = new Date()): boolean {
  if (!user.lockUntil) return false;
  return user.lockUntil > nowInZone(now);
}

/** Admin accounts (888, 999) are shown but only the super admin changes them (the server says D1005). */
export function isAdminAccount(user: Pick<UserRow, 'accountType'>): boolean {
  return user.accountType === ACCOUNT_TYPE.superAdmin || user.accountType === ACCOUNT_TYPE.sysAdmin;
}
