import { CONFIG_DEFAULTS } from '@shuzhi/contracts/config';
import {
  type FormDesign,
  formDesignSchema,
  numberingSchema,
  RECORD_STATUS,
  type RecordValues,
  valueFields,
} from '@shuzhi/contracts/diy-form';
import { defaultValues, validateDesign, validateRecord } from '@shuzhi/contracts/diy-validate';
import { STATUS, SYS_FLAG } from '@shuzhi/contracts/envelope';
import { MENU_TYPE, PLATFORM_ONLY_MENUS } from '@shuzhi/contracts/menu';
import { type Kysely, sql, type Transaction } from 'kysely';
import { nextDataNo } from '../../modules/diy-data/diy-record-numbering.ts';
import {
  addDays,
  calendarName,
  calendarPeriodAt,
  isCalendarKind,
  shiftPeriod,
} from '../../modules/diy-period/diy-period.service.ts';
import { seedRollups } from '../../modules/diy-rollup/rollup-seed.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import type { AppContext } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { type AnyDb, dataTableName, publishColumns, toColumnValues } from '../../platform/diy/data-table.ts';
import { orgAreaFields } from '../../platform/org/org-area.ts';
import type { Database } from '../schema.ts';
import { CONFIGS } from './data/configs.ts';
import { DICTS } from './data/dicts.ts';
import { FORM_CATEGORIES, FORMS } from './data/forms.ts';
import { JOBS, type SeedJob } from './data/jobs.ts';
import { MENUS } from './data/menus.ts';
import { ORGS } from './data/orgs.ts';
import { POSITIONS } from './data/positions.ts';
import { ROLES } from './data/roles.ts';
import { USER_GROUPS } from './data/user-groups.ts';
import { USERS } from './data/users.ts';
import type {
  SeedAudience,
  SeedConfig,
  SeedDictType,
  SeedForm,
  SeedFormCategory,
  SeedFormPeriods,
  SeedFormRecord,
  SeedMenu,
  SeedOrg,
  SeedPos,
  SeedRole,
  SeedUser,
  SeedUserGroup,
} from './types.ts';

export type SeedData = {
  orgs: SeedOrg[];
  positions: SeedPos[];
  roles: SeedRole[];
  users: SeedUser[];
  userGroups: SeedUserGroup[];
  menus: SeedMenu[];
  dicts: SeedDictType[];
  configs: SeedConfig[];
  jobs: SeedJob[];
  /** Categories of report forms (needs migration 0009; pass `[]` for an older database). */
  formCategories: SeedFormCategory[];
  /** Published demo forms with records (needs migration 0009; pass `[]` for an older database). */
  forms: SeedForm[];
};

export const DEMO_DATA: SeedData = {
  orgs: ORGS,
  positions: POSITIONS,
  roles: ROLES,
  users: USERS,
  userGroups: USER_GROUPS,
  menus: MENUS,
  dicts: DICTS,
  configs: CONFIGS,
  jobs: JOBS,
  formCategories: FORM_CATEGORIES,
  forms: FORMS,
};

/** The default tenant keeps the id Admin.NET-family clients know. */
export const DEFAULT_TENANT_ID = 1_300_000_000_001;
const DEFAULT_TENANT_CODE = 'default';
const SEED_USER = { id: 0, name: 'seed' };
const CHUNK = 200;

export type SeedReport = Record<string, number>;

type Trx = Transaction<Database> | Kysely<Database>;
/** The dialect is needed only to publish demo forms (their data tables' column types). */
type SeedContext = Pick<AppContext, 'db' | 'newId' | 'passwordHashing'> &
  Partial<Pick<AppContext, 'dialect'>>;

async function insertMany<T extends keyof Database & string>(
  trx: Trx,
  table: T,
  rows: Record<string, unknown>[],
  report: SeedReport,
): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK) as never)
      .execute();
  }
  report[table] = (report[table] ?? 0) + rows.length;
}

/**
 * Inserts the demo district where it is missing, by natural key (tenant code, org/position/role/user group
 * code, account, menu name, dict type code + value, config code), and never updates a row. Links (role→menu,
 * user→role, …) are added only together with a row inserted in the same run, so a link an admin removed
 * stays removed. Everything runs in one transaction.
 */
export async function seed(ctx: SeedContext, data: SeedData = DEMO_DATA): Promise<SeedReport> {
  return ctx.db.transaction().execute((trx) => seedIn(trx, ctx, data));
}

async function seedIn(trx: Trx, ctx: SeedContext, data: SeedData): Promise<SeedReport> {
  const report: SeedReport = {};
  const now = formatDateTime();
  const base = () => ({
    id: ctx.newId(),
    create_time: now,
    update_time: null,
    create_user_id: SEED_USER.id,
    create_user_name: SEED_USER.name,
    update_user_id: null,
    update_user_name: null,
    is_delete: 0,
  });

  // Tenant.
  const tenant = await trx
    .selectFrom('sys_tenant')
    .select('id')
    .where('code', '=', DEFAULT_TENANT_CODE)
    .executeTakeFirst();
  const tenantId = tenant?.id ?? DEFAULT_TENANT_ID;
  const tenantIsNew = !tenant;
  if (tenantIsNew) {
    await insertMany(
      trx,
      'sys_tenant',
      [
        {
          ...base(),
          id: tenantId,
          code: DEFAULT_TENANT_CODE,
          name: data.orgs[0]?.name ?? DEFAULT_TENANT_CODE,
          org_id: null,
          host: null,
          status: STATUS.enabled,
          order_no: 1,
          remark: null,
        },
      ],
      report,
    );
  }

  // Orgs: walk the tree; a new org takes its place under its parent as the parent is now.
  const orgRows = await trx
    .selectFrom('sys_org')
    .select(['id', 'code', 'full_ids', 'full_names', 'level'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const orgs = new Map(orgRows.map((o) => [o.code, o]));
  const newOrgIds = new Set<number>();
  const orgInserts: Record<string, unknown>[] = [];
  const walkOrgs = (
    list: SeedOrg[],
    parent: { id: number; full_ids: string; full_names: string; level: number } | null,
  ) => {
    for (const org of list) {
      let row = orgs.get(org.code);
      if (!row) {
        const id = ctx.newId();
        row = {
          id,
          code: org.code,
          full_ids: parent ? `${parent.full_ids},${id}` : String(id),
          full_names: parent ? `${parent.full_names}/${org.name}` : org.name,
          level: parent ? parent.level + 1 : 1,
        };
        orgs.set(org.code, row);
        newOrgIds.add(id);
        orgInserts.push({
          ...base(),
          id,
          tenant_id: tenantId,
          pid: parent?.id ?? 0,
          code: org.code,
          name: org.name,
          type: org.type,
          level: row.level,
          full_ids: row.full_ids,
          full_names: row.full_names,
          region_code: org.regionCode ?? null,
          order_no: org.orderNo,
          status: STATUS.enabled,
          remark: org.remark ?? null,
        });
      }
      walkOrgs(org.children ?? [], row);
    }
  };
  walkOrgs(data.orgs, null);
  await insertMany(trx, 'sys_org', orgInserts, report);
  const rootOrg = data.orgs[0] ? orgs.get(data.orgs[0].code) : undefined;
  if (tenantIsNew && rootOrg) {
    await trx.updateTable('sys_tenant').set({ org_id: rootOrg.id }).where('id', '=', tenantId).execute();
  }

  // Positions.
  const posRows = await trx
    .selectFrom('sys_pos')
    .select(['id', 'code'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const positions = new Map(posRows.map((p) => [p.code, p.id]));
  const posInserts = data.positions
    .filter((p) => !positions.has(p.code))
    .map((p) => {
      const row = {
        ...base(),
        tenant_id: tenantId,
        code: p.code,
        name: p.name,
        order_no: p.orderNo,
        status: STATUS.enabled,
        remark: null,
      };
      positions.set(p.code, row.id);
      return row;
    });
  await insertMany(trx, 'sys_pos', posInserts, report);

  // Menus (global): directories and pages by name, buttons by name under their parent.
  const menuRows = await trx
    .selectFrom('sys_menu')
    .select(['id', 'pid', 'name', 'type', 'permission'])
    .execute();
  const menuKey = (parentId: number, name: string, type: number) =>
    type === MENU_TYPE.button ? `${parentId}/${name}` : name;
  const menus = new Map(menuRows.map((m) => [menuKey(m.pid, m.name, m.type), m]));
  const newMenuIds = new Set<number>();
  const menuInserts: Record<string, unknown>[] = [];
  const walkMenus = (list: SeedMenu[], parentId: number) => {
    for (const menu of list) {
      const key = menuKey(parentId, menu.name, menu.type);
      let row = menus.get(key);
      if (!row) {
        row = {
          id: ctx.newId(),
          pid: parentId,
          name: menu.name,
          type: menu.type,
          permission: menu.permission ?? null,
        };
        menus.set(key, row);
        newMenuIds.add(row.id);
        menuInserts.push({
          ...base(),
          id: row.id,
          pid: parentId,
          type: menu.type,
          name: menu.name,
          path: menu.path ?? null,
          component: menu.component ?? null,
          redirect: menu.redirect ?? null,
          permission: menu.permission ?? null,
          title: menu.title,
          icon: menu.icon ?? null,
          is_iframe: menu.isIframe ? 1 : 0,
          out_link: menu.outLink ?? null,
          is_hide: menu.isHide ? 1 : 0,
          is_keep_alive: menu.isKeepAlive ? 1 : 0,
          is_affix: menu.isAffix ? 1 : 0,
          order_no: menu.orderNo,
          status: menu.enabled ? STATUS.enabled : STATUS.disabled,
          remark: null,
        });
      }
      walkMenus(menu.children ?? [], row.id);
    }
  };
  walkMenus(data.menus, 0);
  await insertMany(trx, 'sys_menu', menuInserts, report);
  const allMenus = [...menus.values()];
  const menuById = new Map(allMenus.map((m) => [m.id, m]));

  // Tenant and menu management stay with the super admin: no tenant (nor its roles) is granted them.
  const platformOnly = platformOnlyMenuIds(allMenus, menuById);
  const tenantMenus = allMenus.filter((m) => !platformOnly.has(m.id));
  await insertMany(
    trx,
    'sys_tenant_menu',
    tenantMenus
      .filter((m) => tenantIsNew || newMenuIds.has(m.id))
      .map((m) => ({ id: ctx.newId(), tenant_id: tenantId, menu_id: m.id })),
    report,
  );

  // Roles with their menus and custom orgs.
  const roleRows = await trx
    .selectFrom('sys_role')
    .select(['id', 'code'])
    .where('tenant_id', '=', tenantId)
    .execute();
  const roles = new Map(roleRows.map((r) => [r.code, r.id]));
  const newRoleIds = new Set<number>();
  const roleInserts: Record<string, unknown>[] = [];
  const roleMenuLinks: Record<string, unknown>[] = [];
  const roleOrgLinks: Record<string, unknown>[] = [];
  for (const role of data.roles) {
    let roleId = roles.get(role.code);
    const isNew = roleId === undefined;
    if (roleId === undefined) {
      roleId = ctx.newId();
      roles.set(role.code, roleId);
      newRoleIds.add(roleId);
      roleInserts.push({
        ...base(),
        id: roleId,
        tenant_id: tenantId,
        code: role.code,
        name: role.name,
        data_scope: role.dataScope,
        order_no: role.orderNo,
        status: STATUS.enabled,
        remark: role.remark ?? null,
      });
    }
    for (const menuId of resolveRoleMenus(role, tenantMenus, menuById)) {
      if (isNew || newMenuIds.has(menuId))
        roleMenuLinks.push({ id: ctx.newId(), role_id: roleId, menu_id: menuId });
    }
    for (const code of role.customOrgCodes ?? []) {
      const org = orgs.get(code);
      if (!org) throw new Error(`Seed role ${role.code}: unknown custom org code ${code}`);
      if (isNew || newOrgIds.has(org.id))
        roleOrgLinks.push({ id: ctx.newId(), role_id: roleId, org_id: org.id });
    }
  }
  await insertMany(trx, 'sys_role', roleInserts, report);
  await insertMany(trx, 'sys_role_menu', roleMenuLinks, report);
  await insertMany(trx, 'sys_role_org', roleOrgLinks, report);

  // Users: one argon2 hash of the default password serves every new seed user.
  const existingAccounts = new Set(
    (await trx.selectFrom('sys_user').select('account').execute()).map((u) => u.account),
  );
  const missingUsers = data.users.filter((u) => !existingAccounts.has(u.account));
  // Area fields come from each user's org chain, as when an admin adds a user (orgs are inserted by now).
  const areas = await orgAreaFields(
    trx,
    missingUsers.flatMap((u) => orgs.get(u.orgCode)?.id ?? []),
  );
  const defaultPassword =
    data.configs.find((c) => c.code === 'sys_password')?.value ?? CONFIG_DEFAULTS.sys_password;
  const passwordHash =
    missingUsers.length > 0 ? await hashPassword(defaultPassword, ctx.passwordHashing) : '';
  const userRows = new Map(
    (
      await trx.selectFrom('sys_user').select(['id', 'account']).where('tenant_id', '=', tenantId).execute()
    ).map((u) => [u.account, u.id]),
  );
  const userInserts: Record<string, unknown>[] = [];
  const userRoleLinks: Record<string, unknown>[] = [];
  const extOrgLinks: Record<string, unknown>[] = [];
  const newUserIds = new Set<number>();
  for (const user of data.users) {
    const isNew = !existingAccounts.has(user.account);
    const userId = isNew ? ctx.newId() : userRows.get(user.account);
    if (userId === undefined) continue;
    if (isNew) {
      userRows.set(user.account, userId);
      newUserIds.add(userId);
    }
    const org = orgs.get(user.orgCode);
    if (!org) throw new Error(`Seed user ${user.account}: unknown org code ${user.orgCode}`);
    if (isNew) {
      userInserts.push({
        ...base(),
        id: userId,
        tenant_id: tenantId,
        account: user.account,
        password: passwordHash,
        real_name: user.realName,
        nick_name: null,
        avatar: null,
        sex: user.sex ?? null,
        phone: user.phone ?? null,
        email: user.email ?? null,
        id_card_num: user.idCardNum ?? null,
        address: user.address ?? null,
        signature: null,
        account_type: user.accountType,
        org_id: org.id,
        pos_id: user.posCode ? (positions.get(user.posCode) ?? null) : null,
        enterprise: user.enterprise ?? null,
        ...areas.get(org.id),
        region_id: null,
        region_name: null,
        status: STATUS.enabled,
        order_no: user.orderNo,
        remark: user.remark ?? null,
        password_update_time: now,
        is_def_pwd: 1,
        login_fail_count: 0,
        lock_until: null,
        last_login_time: null,
        last_login_ip: null,
      });
    }
    for (const code of user.roleCodes) {
      const roleId = roles.get(code);
      if (roleId === undefined) throw new Error(`Seed user ${user.account}: unknown role code ${code}`);
      if (isNew || newRoleIds.has(roleId))
        userRoleLinks.push({ id: ctx.newId(), user_id: userId, role_id: roleId });
    }
    for (const code of user.extOrgCodes ?? []) {
      const ext = orgs.get(code);
      if (!ext) throw new Error(`Seed user ${user.account}: unknown extra org code ${code}`);
      if (isNew || newOrgIds.has(ext.id))
        extOrgLinks.push({ id: ctx.newId(), user_id: userId, org_id: ext.id, pos_id: null });
    }
  }
  await insertMany(trx, 'sys_user', userInserts, report);
  await insertMany(trx, 'sys_user_role', userRoleLinks, report);
  await insertMany(trx, 'sys_user_ext_org', extOrgLinks, report);

  // User groups with their members (none given: the table is not read, it may predate migration 0007).
  const groupRows =
    data.userGroups.length === 0
      ? []
      : await trx
          .selectFrom('sys_user_group')
          .select(['id', 'code'])
          .where('tenant_id', '=', tenantId)
          .execute();
  const groups = new Map(groupRows.map((g) => [g.code, g.id]));
  const groupInserts: Record<string, unknown>[] = [];
  const memberLinks: Record<string, unknown>[] = [];
  for (const group of data.userGroups) {
    let groupId = groups.get(group.code);
    const isNew = groupId === undefined;
    if (groupId === undefined) {
      groupId = ctx.newId();
      groups.set(group.code, groupId);
      groupInserts.push({
        ...base(),
        id: groupId,
        tenant_id: tenantId,
        code: group.code,
        name: group.name,
        order_no: group.orderNo,
        status: STATUS.enabled,
        remark: group.remark ?? null,
      });
    }
    for (const account of new Set(group.members)) {
      if (!data.users.some((u) => u.account === account))
        throw new Error(`Seed user group ${group.code}: unknown account ${account}`);
      const userId = userRows.get(account);
      if (userId === undefined) continue; // the account belongs to another tenant (skipped above as well)
      if (isNew || newUserIds.has(userId))
        memberLinks.push({ id: ctx.newId(), group_id: groupId, user_id: userId });
    }
  }
  await insertMany(trx, 'sys_user_group', groupInserts, report);
  await insertMany(trx, 'sys_user_group_member', memberLinks, report);

  // Dictionaries.
  const typeRows = await trx.selectFrom('sys_dict_type').select(['id', 'code']).execute();
  const types = new Map(typeRows.map((t) => [t.code, t.id]));
  const dataRows = await trx.selectFrom('sys_dict_data').select(['dict_type_id', 'value']).execute();
  const values = new Set(dataRows.map((d) => `${d.dict_type_id}/${d.value}`));
  const typeInserts: Record<string, unknown>[] = [];
  const dataInserts: Record<string, unknown>[] = [];
  for (const [index, dict] of data.dicts.entries()) {
    let typeId = types.get(dict.code);
    if (typeId === undefined) {
      typeId = ctx.newId();
      types.set(dict.code, typeId);
      typeInserts.push({
        ...base(),
        id: typeId,
        code: dict.code,
        name: dict.name,
        order_no: index + 1,
        status: STATUS.enabled,
        sys_flag: SYS_FLAG.yes,
        remark: dict.remark ?? null,
      });
    }
    for (const item of dict.items) {
      if (values.has(`${typeId}/${item.value}`)) continue;
      values.add(`${typeId}/${item.value}`);
      dataInserts.push({
        ...base(),
        dict_type_id: typeId,
        label: item.label,
        value: item.value,
        tag_type: item.tagType ?? null,
        style_setting: null,
        class_setting: null,
        ext_data: null,
        order_no: item.orderNo,
        status: STATUS.enabled,
        remark: item.remark ?? null,
      });
    }
  }
  await insertMany(trx, 'sys_dict_type', typeInserts, report);
  await insertMany(trx, 'sys_dict_data', dataInserts, report);

  // Configs.
  const configCodes = new Set(
    (await trx.selectFrom('sys_config').select('code').execute()).map((c) => c.code),
  );
  await insertMany(
    trx,
    'sys_config',
    data.configs
      .filter((c) => !configCodes.has(c.code))
      .map((c) => ({
        ...base(),
        code: c.code,
        name: c.name,
        value: c.value,
        sys_flag: c.sysFlag,
        group_code: c.groupCode,
        order_no: c.orderNo,
        remark: c.remark ?? null,
      })),
    report,
  );

  // Report forms: categories, then published demo forms with their records.
  await seedForms(trx, ctx, data, { tenantId, now, orgs, users: userRows, base, report });
  // Roll-ups over the demo forms (none without them: a database seeded before the forms' tables has no forms).
  if (data.forms.length > 0) await seedRollups(trx, ctx, { tenantId, report });

  // Built-in jobs (the installation's, no tenant), each with its trigger when the job itself is new; the
  // scheduler gives running triggers their next run time.
  if (data.jobs.length === 0) return report;
  const jobIds = new Set(
    (await trx.selectFrom('sys_job_detail').select('job_id').where('is_delete', '=', 0).execute()).map(
      (j) => j.job_id,
    ),
  );
  const newJobs = data.jobs.filter((j) => !jobIds.has(j.jobId));
  await insertMany(
    trx,
    'sys_job_detail',
    newJobs.map((j) => ({
      ...base(),
      job_id: j.jobId,
      group_name: j.groupName,
      description: j.description,
      create_type: 1,
      handler: j.jobId,
      timeout_seconds: j.timeoutSeconds,
      concurrent: 0,
    })),
    report,
  );
  await insertMany(
    trx,
    'sys_job_trigger',
    newJobs.map((j) => ({
      ...base(),
      job_id: j.jobId,
      trigger_id: j.trigger.triggerId,
      trigger_type: j.trigger.cron ? 'cron' : 'period',
      cron: j.trigger.cron ?? null,
      period_seconds: j.trigger.periodSeconds ?? null,
      description: j.trigger.description,
      status: 1,
      max_number_of_runs: 0,
      run_on_start: 0,
      number_of_runs: 0,
      number_of_errors: 0,
    })),
    report,
  );
  return report;
}

type MenuRef = { id: number; pid: number; name: string; type: number; permission: string | null };

/** The platform-only pages (PLATFORM_ONLY_MENUS) and everything below them. */
function platformOnlyMenuIds(all: MenuRef[], byId: Map<number, MenuRef>): Set<number> {
  const roots = new Set(
    all
      .filter(
        (m) => m.type !== MENU_TYPE.button && (PLATFORM_ONLY_MENUS as readonly string[]).includes(m.name),
      )
      .map((m) => m.id),
  );
  const out = new Set<number>();
  for (const menu of all) {
    for (let node: MenuRef | undefined = menu; node; node = byId.get(node.pid)) {
      if (roots.has(node.id)) {
        out.add(menu.id);
        break;
      }
    }
  }
  return out;
}

/** A role's menus: named directories/pages and buttons by permission, each with its ancestors. */
function resolveRoleMenus(role: SeedRole, all: MenuRef[], byId: Map<number, MenuRef>): Set<number> {
  if (role.menus === 'all') return new Set(all.map((m) => m.id));
  const picked = new Set<number>();
  const unknown: string[] = [];
  for (const name of role.menus) {
    const matches = all.filter((m) =>
      m.type === MENU_TYPE.button ? m.permission === name || m.name === name : m.name === name,
    );
    if (matches.length === 0) unknown.push(name);
    for (const match of matches) {
      let node: MenuRef | undefined = match;
      while (node && !picked.has(node.id)) {
        picked.add(node.id);
        node = byId.get(node.pid);
      }
    }
  }
  if (unknown.length > 0) throw new Error(`Seed role ${role.code}: unknown menus ${unknown.join(', ')}`);
  return picked;
}

type FormSeedScope = {
  tenantId: number;
  now: string;
  orgs: Map<string, { id: number }>;
  users: Map<string, number>;
  base: () => { id: number } & Record<string, unknown>;
  report: SeedReport;
};

const DAY_MS = 86_400_000;

type SeededPeriod = { id: number; key: string; start: string; end: string };

/**
 * The periods of a periodic demo form: the current calendar period and `back` before it (the oldest `closed`
 * of them closed by the seed), each with its `create` (and `close`) log step. Index 0 is the current period.
 */
async function seedPeriods(
  trx: Trx,
  ctx: SeedContext,
  tenantId: number,
  tableId: number,
  spec: SeedFormPeriods,
  report: SeedReport,
): Promise<SeededPeriod[]> {
  const { kind, dueDays, graceDays } = spec.settings;
  if (!isCalendarKind(kind)) throw new Error(`Seed periods: ${kind} is not a calendar kind`);
  const now = new Date();
  const stamp = formatDateTime(now);
  const current = calendarPeriodAt(kind, formatDate(now));
  const out: SeededPeriod[] = [];
  const logs: Record<string, unknown>[] = [];
  const rows: Record<string, unknown>[] = [];
  for (let back = 0; back <= spec.back; back += 1) {
    const p = shiftPeriod(kind, current, -back);
    const id = ctx.newId();
    const due = addDays(p.end, dueDays);
    const closed = back > spec.back - spec.closed;
    rows.push({
      id,
      tenant_id: tenantId,
      table_id: tableId,
      period_key: p.key,
      name: calendarName(kind, p.year, p.index, 'zh-CN'),
      start_date: p.start,
      end_date: p.end,
      due_date: due,
      grace_until: graceDays > 0 ? addDays(due, graceDays) : null,
      reopen_until: null,
      version: 1,
      closed: closed ? 1 : 0,
      close_time: closed ? stamp : null,
      close_user_name: closed ? SEED_USER.name : null,
      create_time: stamp,
      create_user_id: null,
      create_user_name: SEED_USER.name,
      update_time: null,
    });
    const log = (action: string) =>
      logs.push({
        id: ctx.newId(),
        tenant_id: tenantId,
        table_id: tableId,
        period_id: id,
        action,
        comment: null,
        changes: '[]',
        user_id: null,
        user_name: SEED_USER.name,
        create_time: stamp,
      });
    log('create');
    if (closed) log('close');
    out.push({ id, key: p.key, start: p.start, end: p.end });
  }
  await insertMany(trx, 'diy_table_period', rows, report);
  await insertMany(trx, 'diy_table_period_log', logs, report);
  return out;
}

/**
 * When a demo record was filed: a record of a past period a few days after the period ended (before its due
 * date), one of the current period `daysAgo` days ago but not before the period began; otherwise `daysAgo`.
 */
function filedAt(record: SeedFormRecord, period: SeededPeriod | null, index: number): Date {
  const now = Date.now();
  const minutes = (index + 1) * 60_000;
  if (!period) return new Date(now - record.daysAgo * DAY_MS - minutes);
  const [y, m, d] = period.end.split('-').map(Number) as [number, number, number];
  if (record.periodsAgo && record.periodsAgo > 0) {
    return new Date(
      Math.min(new Date(y, m - 1, d + 1 + (index % 4), 9, 0, 0).getTime() + minutes, now - DAY_MS),
    );
  }
  const [sy, sm, sd] = period.start.split('-').map(Number) as [number, number, number];
  return new Date(
    Math.max(now - record.daysAgo * DAY_MS - minutes, new Date(sy, sm - 1, sd, 8, 0, 0).getTime()),
  );
}
/** Advisory lock key of the demo-form seeding (PostgreSQL). */
const SEED_FORMS_LOCK = 7_424_300_509;
const HOUR_MS = 3_600_000;

/**
 * Form categories by name (top level) and demo forms by title (deleted ones count: a form an admin removed
 * stays removed). A new form is published as the designer publishes (the design checked by the designer's
 * rules, `publishColumns` creating its data table, a version row) and gets its records: values checked by
 * `validateRecord` like a filer's, serial numbers from the form's counter, history steps, and the review by
 * the form's first reviewer. Nothing is read when both lists are empty (databases before migration 0009).
 */
async function seedForms(trx: Trx, ctx: SeedContext, data: SeedData, scope: FormSeedScope): Promise<void> {
  if (data.formCategories.length === 0 && data.forms.length === 0) return;
  const { tenantId, now, orgs, users, base, report } = scope;
  // Forms have no unique natural key in the schema: processes starting together on PostgreSQL take turns
  // here, so the second one sees the first one's forms once it committed.
  if (ctx.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${SEED_FORMS_LOCK})`.execute(trx);
  // Deleted categories count too (an admin removed them); a new form does not go into one.
  const categoryRows = await trx
    .selectFrom('diy_table_classify')
    .select(['id', 'name', 'is_delete'])
    .where('tenant_id', '=', tenantId)
    .where('pid', '=', 0)
    .orderBy('is_delete')
    .execute();
  const categories = new Map<string, number | null>();
  for (const c of categoryRows) {
    if (!categories.has(c.name)) categories.set(c.name, c.is_delete === 0 ? c.id : null);
  }
  const orgId = (code: string, what: string) => {
    const org = orgs.get(code);
    if (!org) throw new Error(`Seed ${what}: unknown org code ${code}`);
    return org.id;
  };
  const categoryInserts: Record<string, unknown>[] = [];
  for (const category of data.formCategories) {
    if (categories.has(category.name)) continue;
    const row = {
      ...base(),
      tenant_id: tenantId,
      pid: 0,
      name: category.name,
      icon: category.icon ?? null,
      order_no: category.orderNo,
      status: STATUS.enabled,
      remark: category.remark ?? null,
      create_org_id: null,
      create_org_name: null,
    };
    categories.set(category.name, row.id);
    categoryInserts.push(row);
  }
  await insertMany(trx, 'diy_table_classify', categoryInserts, report);
  if (data.forms.length === 0) return;

  const titles = new Set(
    (await trx.selectFrom('diy_table').select('title').where('tenant_id', '=', tenantId).execute()).map(
      (f) => f.title,
    ),
  );
  const missing = data.forms.filter((f) => !titles.has(f.title));
  report.diy_table = (report.diy_table ?? 0) + missing.length;
  if (missing.length === 0) return;
  const { dialect } = ctx;
  if (!dialect) throw new Error('Seed forms: the database dialect is needed to publish them');

  const accounts = [
    ...new Set(missing.flatMap((f) => [...f.reviewerAccounts, ...f.records.map((r) => r.account)])),
  ];
  const people = new Map(
    (
      await trx
        .selectFrom('sys_user as u')
        .leftJoin('sys_org as o', 'o.id', 'u.org_id')
        .select(['u.id', 'u.account', 'u.real_name', 'u.org_id', 'o.name as org_name', 'o.region_code'])
        .where('u.tenant_id', '=', tenantId)
        .where('u.account', 'in', accounts)
        .execute()
    ).map((u) => [u.account, u]),
  );
  const person = (account: string, what: string) => {
    const found = people.get(account);
    if (!found || users.get(account) !== found.id)
      throw new Error(`Seed ${what}: unknown account ${account}`);
    return found;
  };
  const dictOptions = new Map(data.dicts.map((d) => [d.code, new Set(d.items.map((i) => i.value))]));
  const audience = (a: SeedAudience, what: string) => ({
    all: a.all ?? false,
    orgIds: (a.orgCodes ?? []).map((code) => orgId(code, what)),
    roleIds: [],
    userIds: [],
    enterprises: a.enterprises ?? false,
  });
  const resolve = (value: unknown, what: string, periodKey?: string): unknown => {
    if (Array.isArray(value)) return value.map((v) => resolve(v, what, periodKey));
    if (value && typeof value === 'object') {
      const code = (value as { $org?: unknown }).$org;
      if (typeof code === 'string') return orgId(code, what);
      if ((value as { $period?: unknown }).$period === true) {
        if (!periodKey) throw new Error(`Seed ${what}: $period in a record without a period`);
        return periodKey;
      }
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, what, periodKey)]));
    }
    return value;
  };
  const onBehalf = [
    ...new Set(missing.flatMap((f) => f.records.flatMap((r) => (r.orgCode ? [r.orgCode] : [])))),
  ];
  const orgNames = new Map(
    (onBehalf.length
      ? await trx
          .selectFrom('sys_org')
          .select(['id', 'code', 'name', 'region_code'])
          .where('tenant_id', '=', tenantId)
          .where('code', 'in', onBehalf)
          .execute()
      : []
    ).map((o) => [o.code, { id: o.id, name: o.name, region_code: o.region_code }]),
  );

  for (const form of missing) {
    const what = `form ${form.title}`;
    const design: FormDesign = formDesignSchema.parse(form.design);
    const problems = validateDesign(design);
    if (problems.length > 0) throw new Error(`Seed ${what}: design problems ${JSON.stringify(problems)}`);
    const categoryId = categories.get(form.category);
    if (categoryId === undefined) throw new Error(`Seed ${what}: unknown category ${form.category}`);
    const ownerId = orgId(form.ownerOrgCode, what);
    const reviewers = form.reviewerAccounts.map((a) => person(a, what));
    const reviewer = reviewers[0];
    const formId = ctx.newId();
    const live = form.records.length;
    await trx
      .insertInto('diy_table')
      .values({
        ...(base() as object),
        id: formId,
        tenant_id: tenantId,
        title: form.title,
        report_type: 1,
        classify_id: categoryId,
        owner_org_id: ownerId,
        status: STATUS.enabled,
        pwd_hash: null,
        fillers: JSON.stringify(audience(form.fillers, what)),
        viewers: JSON.stringify(audience(form.viewers, what)),
        reviewer_ids: JSON.stringify(reviewers.map((r) => r.id)),
        needs_review: form.needsReview ? 1 : 0,
        draft_design: null,
        draft_revision: 1,
        version: 1,
        query: null,
        last_update_time: now,
        record_count: live,
        order_no: form.orderNo,
        remark: form.remark ?? null,
        period: form.periods ? JSON.stringify(form.periods.settings) : null,
        create_org_id: ownerId,
        create_org_name: null,
        delete_time: null,
        delete_user_name: null,
      } as never)
      .execute();
    // Publishing version 1: the data table and its columns, as the designer's publish does.
    const columns = await publishColumns(trx, dialect, ctx.newId, formId, design, 1, now);
    await trx
      .insertInto('diy_table_version')
      .values({
        id: ctx.newId(),
        table_id: formId,
        version: 1,
        design: JSON.stringify(design),
        publish_user_id: SEED_USER.id,
        publish_user_name: SEED_USER.name,
        publish_time: now,
      })
      .execute();
    report.diy_table_version = (report.diy_table_version ?? 0) + 1;

    const periods = form.periods ? await seedPeriods(trx, ctx, tenantId, formId, form.periods, report) : [];
    const periodOf = (record: SeedFormRecord) => {
      if (record.periodsAgo === undefined) return null;
      const period = periods[record.periodsAgo];
      if (!period) throw new Error(`Seed ${what}: no period ${record.periodsAgo} back`);
      return period;
    };
    const numbering = design.numbering ? numberingSchema.parse(design.numbering) : null;
    const history: Record<string, unknown>[] = [];
    const fields = valueFields(design);
    for (const [index, record] of form.records.entries()) {
      const filer = person(record.account, what);
      const strict = record.state !== 'draft';
      const period = periodOf(record);
      const filed = filedAt(record, period, index);
      const org = record.orgCode
        ? (orgNames.get(record.orgCode) ?? { id: orgId(record.orgCode, what), name: null, region_code: null })
        : { id: filer.org_id, name: filer.org_name, region_code: filer.region_code };
      const filler = {
        orgId: org.id,
        regionCode: org.region_code,
        realName: filer.real_name,
        userId: filer.id,
      };
      const raw = record.zero
        ? {}
        : {
            ...defaultValues(design, filler, filed, period?.start),
            ...(resolve(record.values, what, period?.key) as RecordValues),
          };
      const { values, errors } = record.zero
        ? { values: {} as RecordValues, errors: {} }
        : validateRecord(design, raw, {
            mode: strict ? 'submit' : 'draft',
            dictOptions: (code) => dictOptions.get(code),
          });
      if (Object.keys(errors).length > 0)
        throw new Error(`Seed ${what}, record ${index + 1}: ${JSON.stringify(errors)}`);
      const submitted = new Date(filed.getTime() + 2 * HOUR_MS);
      const reviewed = new Date(Math.min(filed.getTime() + 26 * HOUR_MS, Date.now()));
      const dataNo =
        strict && numbering && !record.zero
          ? await nextDataNo(trx, ctx.newId, formId, numbering, submitted)
          : null;
      for (const field of fields) if (field.type === 'serialNo') values[field.id] = dataNo;
      const reviewedState = record.state === 'approved' || record.state === 'returned';
      if (reviewedState && !reviewer) throw new Error(`Seed ${what}: a reviewed record needs a reviewer`);
      const status = {
        draft: RECORD_STATUS.draft,
        submitted: RECORD_STATUS.submitted,
        approved: RECORD_STATUS.approved,
        returned: RECORD_STATUS.returned,
      }[record.state];
      const recordId = ctx.newId();
      const at = (d: Date) => formatDateTime(d);
      await (trx as AnyDb)
        .insertInto(dataTableName(formId))
        .values({
          ...toColumnValues(design, columns, 1, values),
          id: recordId,
          tenant_id: tenantId,
          version: 1,
          status,
          data_no: dataNo,
          submit_time: strict ? at(submitted) : null,
          audit_user_id: reviewedState ? reviewer?.id : null,
          audit_user_name: reviewedState ? reviewer?.real_name : null,
          audit_time: reviewedState ? at(reviewed) : null,
          audit_comment: record.state === 'returned' ? (record.comment ?? null) : null,
          create_time: at(filed),
          // Reviews set the audit columns only, like the review route.
          update_time: strict ? at(submitted) : null,
          create_user_id: filer.id,
          create_user_name: filer.real_name,
          update_user_id: strict ? filer.id : null,
          update_user_name: strict ? filer.real_name : null,
          is_delete: 0,
          create_org_id: org.id,
          create_org_name: org.name,
          delete_time: null,
          delete_user_name: null,
          period_id: period?.id ?? null,
          is_zero: record.zero ? 1 : 0,
          late: 0,
        })
        .execute();
      const step = (
        action: string,
        who: { id: number; real_name: string },
        when: Date,
        changes: unknown[],
        comment: string | null = null,
      ) =>
        history.push({
          id: ctx.newId(),
          tenant_id: tenantId,
          table_id: formId,
          record_id: recordId,
          action,
          changes: JSON.stringify(changes),
          comment,
          version: 1,
          user_id: who.id,
          user_name: who.real_name,
          create_time: at(when),
        });
      if (record.zero) {
        step('zero', filer, submitted, [{ field: 'status', label: '状态', before: null, after: 1 }]);
      } else {
        step(
          'create',
          filer,
          filed,
          fields
            .filter((f) => (values[f.id] ?? null) !== null)
            .map((f) => ({ field: f.id, label: f.label, before: null, after: values[f.id] })),
        );
      }
      if (strict && !record.zero) {
        step('submit', filer, submitted, [{ field: 'status', label: '状态', before: null, after: 1 }]);
      }
      if (reviewedState && reviewer) {
        step(
          record.state === 'approved' ? 'approve' : 'return',
          reviewer,
          reviewed,
          [{ field: 'status', label: '状态', before: RECORD_STATUS.submitted, after: status }],
          record.state === 'returned' ? (record.comment ?? null) : null,
        );
      }
    }
    report.diy_data = (report.diy_data ?? 0) + live;
    await insertMany(trx, 'diy_record_history', history, report);
  }
}
