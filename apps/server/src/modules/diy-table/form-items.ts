import { type FormDesign, valueFields } from '@shuzhi/contracts/diy-form';
import type { PeriodBrief } from '@shuzhi/contracts/diy-period';
import type { FormItem, formSelectQuerySchema, tableListQuerySchema } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import {
  type Caller,
  formAuth,
  formWithAuth,
  loadCaller,
  myAuthOf,
  parsePeriodSettings,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { currentPeriods } from '../diy-period/diy-period.service.ts';
import { formQuery, type JoinedForm } from './form-rows.ts';
import { EMPTY_DESIGN, versionDesign } from './form-version.ts';

/** Forms as fillers, viewers and pickers see them: the filling list, choices of forms and fields, visits. */

/** `GET /column/select/{id}`: the published fields (and sub-table columns) as choices. */
export async function columnOptions(ctx: AppContext, user: AuthUser, id: number) {
  const { form, auth } = await formWithAuth(ctx, user, id);
  if (!auth.query && !auth.design) throw new AppError('F1001');
  const design = (await versionDesign(ctx, ctx.db, form.id, form.version)) ?? EMPTY_DESIGN;
  const out: { value: string; label: string; type: string; parent: string | null }[] = [];
  for (const field of valueFields(design)) {
    out.push({ value: field.id, label: field.label, type: field.type, parent: null });
    for (const column of field.columns ?? []) {
      out.push({ value: column.id, label: column.label, type: column.type, parent: field.id });
    }
  }
  return out;
}

/** Forms of the caller's tenant with the caller's rights, for pickers and the filling list. */
async function formsWithAuth(ctx: AppContext, user: AuthUser, reportTypes?: readonly number[]) {
  let query = formQuery(ctx.db).where('t.tenant_id', '=', user.tenantId);
  if (reportTypes && reportTypes.length > 0) query = query.where('t.report_type', 'in', reportTypes);
  const rows = (await query.orderBy('t.order_no').orderBy('t.id').execute()) as JoinedForm[];
  const caller = await loadCaller(ctx, user);
  return { caller, forms: rows.map((row) => ({ row, auth: formAuth(row, caller) })) };
}

/** `GET /select/{type}` and `GET /select?Types=&DiyTableAffiliation=`: forms the caller may open or design. */
export async function formOptions(
  ctx: AppContext,
  user: AuthUser,
  query: z.output<typeof formSelectQuerySchema>,
) {
  const types = (query.Types ?? '')
    .split(',')
    .map((t) => Number(t.trim()))
    .filter((t) => Number.isSafeInteger(t) && t > 0);
  const { caller, forms } = await formsWithAuth(ctx, user, types);
  return forms
    .filter(({ row, auth }) => {
      if (query.DiyTableAffiliation === 1)
        return row.owner_org_id !== null && caller.orgIds.includes(row.owner_org_id);
      if (query.DiyTableAffiliation === 2) return auth.add;
      return auth.query || auth.design;
    })
    .map(({ row }) => ({ value: row.id, label: row.title, reportType: row.report_type }));
}

/** Fields hidden in the record list until shown. */
export function hiddenFields(design: FormDesign | null): string[] {
  return design
    ? valueFields(design)
        .filter((f) => f.listHidden)
        .map((f) => f.id)
    : [];
}

function parseQuery(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  } catch {
    return null;
  }
}

/** A form as the filling list and the opening logic use it. */
export function toFormItem(
  row: JoinedForm,
  auth: ReturnType<typeof formAuth>,
  design: FormDesign | null,
  visitTime: string | undefined,
  currentPeriod: PeriodBrief | null = null,
): FormItem {
  return {
    id: row.id,
    title: row.title,
    reportType: row.report_type,
    isEnable: row.status === STATUS.enabled,
    // The prompt is for those the server will ask: form admins open a protected form without it.
    isShowPwd: row.pwd_hash !== null && !auth.admin,
    lastUpdateTime: row.last_update_time,
    isTip: row.last_update_time !== null && (visitTime === undefined || visitTime < row.last_update_time),
    query: parseQuery(row.query),
    defaultHideDataList: hiddenFields(design),
    myAuth: myAuthOf(auth),
    categoryId: row.classify_id,
    categoryName: row.category_name,
    ownerOrgId: row.owner_org_id,
    ownerOrgName: row.owner_org_name,
    version: row.version,
    hasDraft: row.draft_design !== null,
    recordCount: row.record_count,
    periodKind: parsePeriodSettings(row.period).kind,
    currentPeriod,
  };
}

async function visitTimes(ctx: AppContext, userId: number, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .selectFrom('diy_table_visit')
    .select(['table_id', 'visit_time'])
    .where('user_id', '=', userId)
    .where('table_id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.table_id, r.visit_time]));
}

/** `GET /tableList`: the published forms the caller fills, views, reviews or administers. */
export async function tableList(
  ctx: AppContext,
  user: AuthUser,
  query: z.output<typeof tableListQuerySchema>,
  locale: Locale,
): Promise<FormItem[]> {
  const { forms } = await formsWithAuth(
    ctx,
    user,
    typeof query.reportType === 'number' ? [query.reportType] : [],
  );
  const keyword = query.keyword?.toLowerCase();
  const chosen = forms.filter(
    ({ row, auth }) =>
      auth.published &&
      (auth.filler || auth.viewer || auth.reviewer || auth.admin) &&
      (typeof query.classifyId !== 'number' || row.classify_id === query.classifyId) &&
      (!keyword || row.title.toLowerCase().includes(keyword)),
  );
  const visits = await visitTimes(
    ctx,
    user.userId,
    chosen.map(({ row }) => row.id),
  );
  // The current periods of every listed form at once (docs/periods.md): no query per form.
  const periods = await currentPeriods(
    ctx,
    chosen.map(({ row }) => row),
    locale,
  );
  const items: FormItem[] = [];
  for (const { row, auth } of chosen) {
    const design = await versionDesign(ctx, ctx.db, row.id, row.version);
    items.push(toFormItem(row, auth, design, visits.get(row.id), periods.get(row.id) ?? null));
  }
  return items;
}

/** The form item of one form for the caller (the filling page's header). */
export async function formItemOf(
  ctx: AppContext,
  user: AuthUser,
  row: DiyTableTable,
  caller: Caller,
  locale: Locale,
) {
  const joined = (await formQuery(ctx.db).where('t.id', '=', row.id).executeTakeFirstOrThrow()) as JoinedForm;
  const visits = await visitTimes(ctx, user.userId, [row.id]);
  const design = await versionDesign(ctx, ctx.db, row.id, row.version);
  const periods = await currentPeriods(ctx, [joined], locale);
  return toFormItem(joined, formAuth(row, caller), design, visits.get(row.id), periods.get(row.id) ?? null);
}

/** `POST /clearTip`: the caller opened the form. */
export async function clearTip(ctx: AppContext, user: AuthUser, id: number): Promise<void> {
  const { form } = await formWithAuth(ctx, user, id);
  const now = formatDateTime();
  await ctx.db
    .insertInto('diy_table_visit')
    .values({ id: ctx.newId(), table_id: form.id, user_id: user.userId, visit_time: now })
    .onConflict((oc) => oc.columns(['user_id', 'table_id']).doUpdateSet({ visit_time: now }))
    .execute();
}
