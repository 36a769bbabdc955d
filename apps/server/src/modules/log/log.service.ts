import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { LogTable } from '../../platform/audit/log-insert.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';

/**
 * Removes every row of one log for the caller's tenant (a super admin: of all tenants); answers how many.
 * Rows still queued in the writer land afterwards: a clear is "everything written so far".
 */
export async function clearLogs(ctx: AppContext, user: AuthUser, table: LogTable): Promise<number> {
  let query = ctx.db.deleteFrom(table);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('tenant_id', '=', user.tenantId);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}
