import type {
  CollectResult,
  collectInputSchema,
  MyReportItem,
  myReportsQuerySchema,
} from '@shuzhi/contracts/diy-collect';
import type { RecordStatus } from '@shuzhi/contracts/diy-form';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { ExpressionBuilder } from 'kysely';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { type AnyDb, dataTableName } from '../../platform/diy/data-table.ts';
import { type Caller, type FormAuth, formWithAuth, loadCaller } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { formItemOf, tableList } from '../diy-table/diy-table.service.ts';

/**
 * Favourite forms and the enterprise portal's report list (issue 6 §5). Everything a caller sees here comes
 * from `tableList` / `formWithAuth`, so the portal offers exactly the forms the filling list offers, with
 * the same myAuth; the record figures are those of the caller's own org (an enterprise user: their
 * enterprise) and their own records, i.e. what they fill.
 */

/** F1002 / F1003 / F1000 unless the caller may open the form now. */
function assertOpenable(auth: FormAuth): void {
  if (!auth.published) throw new AppError('F1002');
  if (!auth.enabled && !auth.admin) throw new AppError('F1003');
  if (!auth.query) throw new AppError('F1000');
}

async function collectedIds(ctx: AppContext, user: AuthUser): Promise<Map<number, string>> {
  const rows = await ctx.db
    .selectFrom('diy_table_collect')
    .select(['table_id', 'create_time'])
    .where('user_id', '=', user.userId)
    .where('tenant_id', '=', user.tenantId)
    .execute();
  return new Map(rows.map((r) => [r.table_id, r.create_time]));
}

/** `POST /collect`: without `collect` the favourite toggles; adding one needs a form the caller may open. */
export async function collect(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof collectInputSchema>,
): Promise<CollectResult> {
  const existing = await ctx.db
    .selectFrom('diy_table_collect')
    .select('id')
    .where('user_id', '=', user.userId)
    .where('table_id', '=', input.tableId)
    .executeTakeFirst();
  const want = input.collect ?? !existing;
  if (!want) {
    // Taking a favourite away is always allowed (the form may have left the caller's reach meanwhile).
    if (existing) await ctx.db.deleteFrom('diy_table_collect').where('id', '=', existing.id).execute();
    else await formWithAuth(ctx, user, input.tableId);
    return { tableId: input.tableId, collected: false };
  }
  const { form, auth } = await formWithAuth(ctx, user, input.tableId);
  assertOpenable(auth);
  if (!existing) {
    await ctx.db
      .insertInto('diy_table_collect')
      .values({
        id: ctx.newId(),
        tenant_id: form.tenant_id,
        table_id: form.id,
        user_id: user.userId,
        create_time: formatDateTime(),
      })
      .onConflict((oc) => oc.columns(['user_id', 'table_id']).doNothing())
      .execute();
  }
  return { tableId: form.id, collected: true };
}

/** `GET /list`: the caller's favourite forms they may still open, latest favourite first. */
export async function collectList(ctx: AppContext, user: AuthUser, locale: Locale): Promise<FormItem[]> {
  const collected = await collectedIds(ctx, user);
  if (collected.size === 0) return [];
  const items = await tableList(ctx, user, {}, locale);
  return items
    .filter((item) => collected.has(item.id) && item.myAuth.query)
    .sort((a, b) => (collected.get(b.id) ?? '').localeCompare(collected.get(a.id) ?? '') || a.id - b.id);
}

type RecordSummary = Pick<MyReportItem, 'myRecordCount' | 'latestStatus' | 'lastSubmitTime'>;

/** The caller's org's (and their own) live records of a published form. */
async function recordSummary(
  ctx: AppContext,
  caller: Caller,
  tenantId: number,
  tableId: number,
): Promise<RecordSummary> {
  const db = ctx.db as unknown as AnyDb;
  const mine = () =>
    db
      .selectFrom(dataTableName(tableId))
      .where('is_delete', '=', 0)
      .where('tenant_id', '=', tenantId)
      // biome-ignore lint/suspicious/noExplicitAny: the data table is not in the static schema.
      .where((eb: ExpressionBuilder<any, any>) => {
        const self = eb('create_user_id', '=', caller.user.userId);
        return caller.orgId !== null ? eb.or([eb('create_org_id', '=', caller.orgId), self]) : self;
      });
  const totals = await mine()
    .select((eb) => [eb.fn.countAll<number | string>().as('n'), eb.fn.max('submit_time').as('last')])
    .executeTakeFirst();
  const latest = await mine()
    .select(['status'])
    .orderBy((eb) => eb.fn.coalesce('update_time', 'create_time'), 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    myRecordCount: Number(totals?.n ?? 0),
    latestStatus: latest ? (Number(latest.status) as RecordStatus) : null,
    lastSubmitTime: (totals?.last as string | null | undefined) ?? null,
  };
}

async function remarks(ctx: AppContext, ids: number[]): Promise<Map<number, string | null>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db.selectFrom('diy_table').select(['id', 'remark']).where('id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.id, r.remark]));
}

/** `GET /myReports`: every form the caller fills, with their records' status and whether favourited. */
export async function myReports(
  ctx: AppContext,
  user: AuthUser,
  query: z.output<typeof myReportsQuerySchema>,
  locale: Locale,
): Promise<MyReportItem[]> {
  const items = (
    await tableList(ctx, user, { classifyId: query.classifyId, keyword: query.keyword }, locale)
  ).filter((item) => item.myAuth.add);
  if (items.length === 0) return [];
  const caller = await loadCaller(ctx, user);
  const collected = await collectedIds(ctx, user);
  const notes = await remarks(
    ctx,
    items.map((i) => i.id),
  );
  const out: MyReportItem[] = [];
  for (const item of items) {
    out.push({
      ...item,
      remark: notes.get(item.id) ?? null,
      collected: collected.has(item.id),
      ...(await recordSummary(ctx, caller, user.tenantId, item.id)),
    });
  }
  return out;
}

/** `GET /detail?id=`: one form the caller may open, as the portal's detail page shows it. */
export async function collectDetail(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  locale: Locale,
): Promise<MyReportItem> {
  const { form, auth, caller } = await formWithAuth(ctx, user, id);
  assertOpenable(auth);
  const item = await formItemOf(ctx, user, form, caller, locale);
  const collected = await collectedIds(ctx, user);
  return {
    ...item,
    remark: form.remark,
    collected: collected.has(form.id),
    ...(await recordSummary(ctx, caller, form.tenant_id, form.id)),
  };
}
