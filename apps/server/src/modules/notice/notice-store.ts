import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SysNoticeTable } from '../../db/schema.ts';
import { dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/** The notice rows, and the ones a caller may see and manage. */

export type Db = Kysely<Database> | Transaction<Database>;
export type NoticeRecord = Selectable<SysNoticeTable>;

/** Notices the caller may see and manage: live, their tenant (the super admin any), their data scope. */
export async function visibleNotices(ctx: AppContext, db: Db, user: AuthUser) {
  let query = db.selectFrom('sys_notice').where('is_delete', '=', 0);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('tenant_id', '=', user.tenantId);
  // The scope is read on `db`: inside a transaction SQLite has one connection.
  const view = await dataScopeOf({ ...ctx, db: db as AppContext['db'] }, user);
  return whereInScope(query, view, 'create_org_id', 'create_user_id');
}

export async function visibleNotice(
  ctx: AppContext,
  db: Db,
  user: AuthUser,
  id: number,
): Promise<NoticeRecord> {
  const row = await (await visibleNotices(ctx, db, user)).selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('D1002');
  return row;
}
