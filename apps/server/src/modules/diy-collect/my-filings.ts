import type { MyFiling } from '@shuzhi/contracts/diy-collect';
import { RECORD_STATUS, type RecordStatus } from '@shuzhi/contracts/diy-form';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { type AnyDb, dataTableName } from '../../platform/diy/data-table.ts';
import { type Caller, loadCaller, parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { tableList } from '../diy-table/diy-table.service.ts';

/**
 * The forms the caller must file this period, for the home page (issue 16 §5). Which forms and which period
 * come from `tableList` — the filling list's own rule: published forms the caller may add records to
 * (`myAuth.add`), with the current period `currentPeriods` picks (the newest started period that is open or
 * in grace). Forms without periods, and periodic forms with no period open now, are not listed.
 */

type OwnRecord = Pick<MyFiling, 'recordId' | 'recordStatus' | 'late' | 'recordTime'>;
const NO_RECORD: OwnRecord = { recordId: null, recordStatus: null, late: false, recordTime: null };

/**
 * The caller's own live record of a form in a period, the latest changed: with one record per unit the unit's
 * record (the caller's org, as the one-per-unit rule counts it), else a record the caller filed.
 */
async function ownRecord(
  ctx: AppContext,
  caller: Caller,
  tenantId: number,
  tableId: number,
  periodId: number,
  onePerOrg: boolean,
): Promise<OwnRecord> {
  let query = (ctx.db as unknown as AnyDb)
    .selectFrom(dataTableName(tableId))
    .select(['id', 'status', 'late', 'create_time', 'update_time'])
    .where('is_delete', '=', 0)
    .where('tenant_id', '=', tenantId)
    .where('period_id', '=', periodId);
  query =
    onePerOrg && caller.orgId !== null
      ? query.where('create_org_id', '=', caller.orgId)
      : query.where('create_user_id', '=', caller.user.userId);
  const row = (await query
    .orderBy((eb) => eb.fn.coalesce('update_time', 'create_time'), 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as
    | {
        id: number | string;
        status: number | string;
        late: number | string;
        create_time: string;
        update_time: string | null;
      }
    | undefined;
  if (!row) return NO_RECORD;
  return {
    recordId: Number(row.id),
    recordStatus: Number(row.status) as RecordStatus,
    late: Number(row.late) === 1,
    recordTime: row.update_time ?? row.create_time,
  };
}

/** What is still the caller's to do comes first: not filed, draft, returned; then by due date and title. */
function order(a: MyFiling, b: MyFiling): number {
  const pending = (f: MyFiling) =>
    f.recordStatus === RECORD_STATUS.submitted || f.recordStatus === RECORD_STATUS.approved ? 1 : 0;
  return (
    pending(a) - pending(b) ||
    a.currentPeriod.dueDate.localeCompare(b.currentPeriod.dueDate) ||
    a.title.localeCompare(b.title) ||
    a.id - b.id
  );
}

/** `GET /myFilings`: the forms the caller files this period, with their own record's state. */
export async function myFilings(ctx: AppContext, user: AuthUser, locale: Locale): Promise<MyFiling[]> {
  const items = (await tableList(ctx, user, {}, locale)).filter(
    (item): item is FormItem & { currentPeriod: MyFiling['currentPeriod'] } =>
      item.myAuth.add && item.currentPeriod !== null,
  );
  if (items.length === 0) return [];
  const caller = await loadCaller(ctx, user);
  const settings = await ctx.db
    .selectFrom('diy_table')
    .select(['id', 'period'])
    .where(
      'id',
      'in',
      items.map((i) => i.id),
    )
    .execute();
  const onePerOrg = new Map(settings.map((s) => [s.id, parsePeriodSettings(s.period).onePerOrg]));
  const out: MyFiling[] = [];
  for (const item of items) {
    const own = await ownRecord(
      ctx,
      caller,
      user.tenantId,
      item.id,
      item.currentPeriod.id,
      onePerOrg.get(item.id) ?? true,
    );
    out.push({ ...item, ...own });
  }
  return out.sort(order);
}
