import type { PeriodSettings } from '@shuzhi/contracts/diy-period';
/**
 * Shapes of the demo-district seed data. The data modules beside this file are plain data; the seeder
 * inserts whatever is missing by natural key (code, account, menu name) and never updates a row, so a
 * restart neither duplicates nor overwrites what an admin changed.
 */

/** Org type values come from the `org_type` dictionary. */
export type SeedOrgType = 'district' | 'street' | 'community' | 'grid' | 'department' | 'enterprise';

export type SeedOrg = {
  code: string;
  name: string;
  type: SeedOrgType;
  /** GB/T 2260 / statistical division code of the area the org governs, when it has one. */
  regionCode?: string;
  orderNo: number;
  remark?: string;
  children?: SeedOrg[];
};

export type SeedPos = { code: string; name: string; orderNo: number };

export type SeedRole = {
  code: string;
  name: string;
  /** 1 all, 2 own org and below, 3 own org, 4 self only, 5 custom org list. */
  dataScope: 1 | 2 | 3 | 4 | 5;
  /** For dataScope 5: org codes. */
  customOrgCodes?: string[];
  /** Menu names (directories/menus) and button permission strings granted to the role, or every menu. */
  menus: 'all' | string[];
  orderNo: number;
  remark?: string;
};

export type SeedUser = {
  account: string;
  realName: string;
  /** 999 super admin, 888 tenant admin, 777 normal, 666 member (enterprise). */
  accountType: 999 | 888 | 777 | 666;
  orgCode: string;
  posCode?: string;
  roleCodes: string[];
  extOrgCodes?: string[];
  sex?: 1 | 2;
  phone?: string;
  email?: string;
  idCardNum?: string;
  address?: string;
  /** Enterprise name for enterprise (member) users. */
  enterprise?: string;
  orderNo: number;
  remark?: string;
};

/** A user group and its members by account (natural key: tenant + code). */
export type SeedUserGroup = {
  code: string;
  name: string;
  orderNo: number;
  remark?: string;
  members: string[];
};

export type SeedMenu = {
  /** Unique route name, e.g. `sysUser`; buttons use their permission as name. */
  name: string;
  /** 1 directory, 2 menu, 3 button. */
  type: 1 | 2 | 3;
  title: string;
  path?: string;
  /** View component, e.g. `/system/user/index`; matched against the web app's view registry. */
  component?: string;
  redirect?: string;
  /** Buttons: a `resource:action` string from the permission catalogue. */
  permission?: string;
  icon?: string;
  isHide?: boolean;
  isKeepAlive?: boolean;
  isAffix?: boolean;
  isIframe?: boolean;
  /** External link opened by the menu. */
  outLink?: string;
  orderNo: number;
  /** False while the page does not exist yet, so nobody sees a dead link. */
  enabled: boolean;
  children?: SeedMenu[];
};

export type SeedDictType = {
  code: string;
  name: string;
  remark?: string;
  items: { label: string; value: string; tagType?: string; orderNo: number; remark?: string }[];
};

export type SeedConfig = {
  code: string;
  name: string;
  value: string;
  groupCode: string;
  /** 1 built-in (not deletable), 2 ordinary. */
  sysFlag: 1 | 2;
  orderNo: number;
  remark?: string;
};

/** A category of report forms (natural key: tenant + name, top level). */
export type SeedFormCategory = { name: string; icon?: string; orderNo: number; remark?: string };

/** A form audience by org codes (resolved to ids when seeding). */
export type SeedAudience = { all?: boolean; orgCodes?: string[]; enterprises?: boolean };

/** A record filed on a seeded form: who filed it, its values and how far it got. */
export type SeedFormRecord = {
  account: string;
  /**
   * Values by field id; `{ $org: code }` stands for an org's id (pickers). Fields with a filler default
   * (fillerOrg, fillerName, …) take it from the filer when left out.
   */
  values: Record<string, unknown>;
  state: 'draft' | 'submitted' | 'approved' | 'returned';
  /** The reviewer's comment (returned records). */
  comment?: string;
  /** How long ago it was filed (days); submitted and reviewed a little later. */
  daysAgo: number;
  /**
   * Periodic forms: the record's period, counted back from the current one (0); a record of a past period is
   * filed a few days after the period ended. `{ $period: true }` in values stands for the period's key.
   */
  periodsAgo?: number;
  /** Filed for this org instead of the filer's own (a street's staff entering a community's paper return). */
  orgCode?: string;
  /** A zero report (no values). */
  zero?: boolean;
};

/** A seeded form's periods: its settings, how many past periods exist and how many of the oldest are closed. */
export type SeedFormPeriods = { settings: PeriodSettings; back: number; closed: number };

/**
 * A published demo form (natural key: tenant + title, deleted ones included). Its design is checked with
 * the designer's rules and published like the designer does (data table and columns); records only come
 * with a form inserted in the same run.
 */
export type SeedForm = {
  title: string;
  category: string;
  ownerOrgCode: string;
  fillers: SeedAudience;
  viewers: SeedAudience;
  reviewerAccounts: string[];
  needsReview: boolean;
  orderNo: number;
  remark?: string;
  /** A design as the designer saves it (checked by formDesignSchema and validateDesign). */
  design: unknown;
  records: SeedFormRecord[];
  /** Periodic forms (docs/periods.md). */
  periods?: SeedFormPeriods;
};
