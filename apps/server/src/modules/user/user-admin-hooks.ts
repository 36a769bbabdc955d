import { STATUS } from '@shuzhi/contracts/envelope';
import { revokeUserSessions } from '../../platform/auth/sessions.ts';
import type { CrudHooks } from '../../platform/crud/crud.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { areaFieldsOf, followOrgArea, orgAreaFields } from '../../platform/org/org-area.ts';
import { assertMayChange, defaultPassword, type ExtOrgInput, isAdminType } from './user-admin.service.ts';
import {
  assertAccountFree,
  checkLinks,
  followOrg,
  forgetUser,
  type LinkInput,
  replaceExtOrgs,
  replaceRoles,
} from './user-admin-links.ts';

type AddIn = {
  account: string;
  accountType: number;
  orgId: number;
  posId?: number | null;
  status: number;
  roleIdList: number[];
  extOrgList: ExtOrgInput[];
};
type UpdateIn = { id: number; account?: string; accountType?: number; status?: number } & LinkInput;

/** The rules of users around the CRUD factory's writes. */
export function userHooks(): CrudHooks<'sys_user', AddIn, UpdateIn> {
  return {
    async beforeAdd({ ctx, trx, user, input, values }) {
      const tenantId = values.tenant_id as number;
      await assertAccountFree(trx, input.account, null);
      await checkLinks(ctx, trx, user, tenantId, input, null);
      const { hash } = await defaultPassword(ctx);
      values.password = hash;
      values.is_def_pwd = 1;
      values.login_fail_count = 0;
      values.lock_until = null;
      // Area levels left blank are copied from the org chain; typed ones are the admin's.
      const chain = (await orgAreaFields(trx, [input.orgId])).get(input.orgId);
      if (chain) Object.assign(values, followOrgArea(areaFieldsOf(values), null, chain));
      const id = values.id as number;
      await replaceRoles(trx, ctx, id, input.roleIdList);
      await replaceExtOrgs(trx, ctx, id, input.extOrgList);
    },

    async beforeUpdate({ ctx, trx, user, input, values, row }) {
      assertMayChange(user, row);
      if (isAdminType(row.account_type)) delete values.account_type;
      if (input.status === STATUS.disabled && row.id === user.userId) throw new AppError('D1003');
      if (input.account !== undefined) await assertAccountFree(trx, input.account, row.id);
      await checkLinks(ctx, trx, user, row.tenant_id, input, { org_id: row.org_id, userId: row.id });
      await followOrg(trx, row, values);
      if (input.roleIdList) await replaceRoles(trx, ctx, row.id, input.roleIdList);
      if (input.extOrgList) await replaceExtOrgs(trx, ctx, row.id, input.extOrgList);
    },

    beforeSetStatus({ user, status, row }) {
      if (row.id === user.userId) throw new AppError('D1003');
      assertMayChange(user, row);
      // Disabling touches no other table; sessions end once the change has committed (afterChange).
      void status;
    },

    async beforeDelete({ trx, user, rows }) {
      for (const row of rows) {
        if (row.id === user.userId) throw new AppError('D1001');
        assertMayChange(user, row);
      }
      const ids = rows.map((r) => r.id);
      // A deleted user holds no roles or extra orgs: "role still has users" counts live users only.
      await trx.deleteFrom('sys_user_role').where('user_id', 'in', ids).execute();
      await trx.deleteFrom('sys_user_ext_org').where('user_id', 'in', ids).execute();
    },

    async afterChange({ ctx, ids }) {
      const rows = await ctx.db
        .selectFrom('sys_user')
        .select(['id', 'status', 'is_delete'])
        .where('id', 'in', ids)
        .execute();
      for (const row of rows) {
        // A disabled or deleted user is out at once: their sessions end for real, not at token expiry.
        if (row.is_delete !== 0 || row.status !== STATUS.enabled) {
          await revokeUserSessions(ctx, row.id, row.is_delete !== 0 ? 'user_deleted' : 'user_disabled');
        }
        await forgetUser(ctx, row.id);
      }
    },
  };
}
