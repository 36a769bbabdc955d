import { CONFIG_DEFAULTS } from '@shuzhi/contracts/config';
import { STATUS } from '@shuzhi/contracts/envelope';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import { orgAreaFields } from '../../platform/org/org-area.ts';
import { insertMany, type SeedRun } from './seed-kit.ts';
import type { SeededOrgs } from './seed-orgs.ts';
import type { SeededRoles } from './seed-roles.ts';

/** The tenant's users by account, and the ids this run inserted. */
export type SeededUsers = { userRows: Map<string, number>; newUserIds: Set<number> };

/**
 * Users by account (any tenant's: an account taken elsewhere is skipped) with their roles and extra orgs.
 * One argon2 hash of the default password serves every new seed user.
 */
export async function seedUsers(
  run: SeedRun,
  tenantId: number,
  { orgs, newOrgIds }: SeededOrgs,
  positions: Map<string, number>,
  { roles, newRoleIds }: SeededRoles,
): Promise<SeededUsers> {
  const { trx, ctx, data, base, report, now } = run;
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
  return { userRows, newUserIds };
}

/**
 * User groups by code with their members (none given: the table is not read, it may predate migration
 * 0007).
 */
export async function seedUserGroups(
  run: SeedRun,
  tenantId: number,
  { userRows, newUserIds }: SeededUsers,
): Promise<void> {
  const { trx, ctx, data, base, report } = run;
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
}
