import type { PeriodLog } from '@shuzhi/contracts/diy-period';
import type { Selectable, Transaction } from 'kysely';
import type { Database, DiyTablePeriodTable, DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formAuth, loadCaller, loadForm } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';

/** The period rows, their log, and the lookup of a period by the staff who administer its form. */

export type Db = AppContext['db'] | Transaction<Database>;
export type PeriodDbRow = Selectable<DiyTablePeriodTable>;

export type PeriodForm = Pick<DiyTableTable, 'id' | 'tenant_id' | 'period' | 'version'>;
export type Actor = { userId: number | null; userName: string | null };
export const SYSTEM_ACTOR: Actor = { userId: null, userName: null };

export async function writeLog(
  ctx: AppContext,
  db: Db,
  period: Pick<PeriodDbRow, 'id' | 'tenant_id' | 'table_id'>,
  action: PeriodLog['action'],
  actor: Actor,
  now: string,
  comment: string | null = null,
  changes: PeriodLog['changes'] = [],
): Promise<void> {
  await db
    .insertInto('diy_table_period_log')
    .values({
      id: ctx.newId(),
      tenant_id: period.tenant_id,
      table_id: period.table_id,
      period_id: period.id,
      action,
      comment,
      changes: JSON.stringify(changes),
      user_id: actor.userId,
      user_name: actor.userName,
      create_time: now,
    })
    .execute();
}

/** Runs `work` in the given transaction, or in a new one. */
export function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction<Database>);
  return (db as AppContext['db']).transaction().execute(work);
}

/**
 * A period of a form the caller administers: F1025 when there is no such period, F1000 when its form is not
 * theirs (another tenant's, outside their data scope, deleted).
 */
export async function adminPeriod(
  ctx: AppContext,
  db: Db,
  user: AuthUser,
  id: number,
): Promise<{ period: PeriodDbRow; form: DiyTableTable }> {
  const period = await db.selectFrom('diy_table_period').selectAll().where('id', '=', id).executeTakeFirst();
  if (!period) throw new AppError('F1025');
  const form = await loadForm(db, user, period.table_id);
  const caller = await loadCaller(ctx, user, db);
  if (!formAuth(form, caller).admin) throw new AppError('F1000');
  return { period, form };
}
