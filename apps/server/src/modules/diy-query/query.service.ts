import { CHOICE_TYPES, REPORT_TYPE } from '@shuzhi/contracts/diy-form';
import {
  type QueryConfig,
  type QueryInfo,
  type queryAddInputSchema,
  queryConfigSchema,
  type queryUpdateInputSchema,
} from '@shuzhi/contracts/diy-query';
import type { FormAudience } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { adminForm, type FormAuth, formWithAuth, parseAudience } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { dictLabels } from '../diy-data/diy-record-labels.ts';
import { periodNames } from '../diy-period/diy-period.service.ts';
import { ensurePeriods } from '../diy-period/period-making.ts';
import { checkCategory, checkOwner, emptyDataTable } from '../diy-rollup/rollup.service.ts';
import { type Plan, resolvePlan } from './query-plan.ts';
import { outKind } from './query-run.ts';

type AddInput = z.output<typeof queryAddInputSchema>;
type UpdateInput = z.output<typeof queryUpdateInputSchema>;

/**
 * Query reports (issue 21 §1, docs/query-reports.md): a `diy_table` row of report type 3 holding a
 * `queryConfigSchema` in `query_config`, with no design and no records (an empty data table, like a roll-up, so
 * that everything reading a published item's records answers an empty list). Writes need `diyTable:add` /
 * `diyTable:update` and the right to administer every source form; reads need the report's viewers (or its
 * admins) and the right to query every source, whose records are then read within the caller's reach.
 */

const EMPTY_AUDIENCE: FormAudience = { all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false };

/** The config checked against the sources the caller administers (Q1001 / Q1002). */
async function checkedPlan(
  ctx: AppContext,
  user: AuthUser,
  config: QueryConfig,
  locale: Locale,
): Promise<Plan> {
  const plan = await resolvePlan(ctx, user, config, locale);
  if (!plan.sources.every((s) => s.open.auth.admin)) throw new AppError('Q1001');
  return plan;
}

/** `POST /api/diyQuery/add`: a new query report; viewers start as the base source's viewers. */
export async function addQuery(
  ctx: AppContext,
  user: AuthUser,
  input: AddInput,
  locale: Locale,
): Promise<number> {
  const plan = await checkedPlan(ctx, user, input.config, locale);
  const base = plan.sources[0]?.open.form as DiyTableTable;
  const id = ctx.newId();
  await ctx.db.transaction().execute(async (trx) => {
    await checkCategory(trx, plan.tenantId, input.categoryId);
    await checkOwner(ctx, trx, user, plan.tenantId, input.ownerOrgId);
    const org = user.orgId
      ? await trx.selectFrom('sys_org').select('name').where('id', '=', user.orgId).executeTakeFirst()
      : undefined;
    const now = formatDateTime();
    await trx
      .insertInto('diy_table')
      .values({
        id,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
        is_delete: 0,
        tenant_id: plan.tenantId,
        title: input.title,
        report_type: REPORT_TYPE.load3,
        classify_id: input.categoryId ?? null,
        owner_org_id: input.ownerOrgId || user.orgId || null,
        status: STATUS.enabled,
        pwd_hash: null,
        fillers: JSON.stringify(EMPTY_AUDIENCE),
        viewers: JSON.stringify(parseAudience(base.viewers)),
        reviewer_ids: '[]',
        needs_review: 0,
        draft_design: null,
        draft_revision: 0,
        version: 1,
        last_update_time: now,
        query_config: JSON.stringify(input.config),
        order_no: 100,
        remark: input.remark ?? null,
        record_count: 0,
        create_org_id: user.orgId || null,
        create_org_name: org?.name ?? null,
      })
      .execute();
    await emptyDataTable(ctx, trx, id, now);
  });
  return id;
}

/** The stored config of a type-3 item, else Q1000. */
function asQuery(form: DiyTableTable): QueryConfig {
  if (form.report_type !== REPORT_TYPE.load3 || !form.query_config) throw new AppError('Q1000');
  let parsed: unknown;
  try {
    parsed = JSON.parse(form.query_config);
  } catch {
    throw new AppError('Q1000');
  }
  const result = queryConfigSchema.safeParse(parsed);
  if (!result.success) throw new AppError('Q1000');
  return result.data;
}

/** `POST /api/diyQuery/update`: title, category, owner, remark and config (checked as on add). */
export async function updateQuery(
  ctx: AppContext,
  user: AuthUser,
  input: UpdateInput,
  locale: Locale,
): Promise<void> {
  const { form } = await adminFormOrMissing(ctx, user, input.id);
  asQuery(form);
  if (input.config) {
    const plan = await checkedPlan(ctx, user, input.config, locale);
    if (plan.tenantId !== form.tenant_id) throw new AppError('Q1001');
  }
  await ctx.db.transaction().execute(async (trx) => {
    await checkCategory(trx, form.tenant_id, input.categoryId);
    await checkOwner(ctx, trx, user, form.tenant_id, input.ownerOrgId);
    const now = formatDateTime();
    const values: Partial<DiyTableTable> = {
      update_time: now,
      update_user_id: user.userId,
      update_user_name: user.realName,
      last_update_time: now,
    };
    if (input.title !== undefined) values.title = input.title;
    if (input.categoryId !== undefined) values.classify_id = input.categoryId ?? null;
    if (input.ownerOrgId) values.owner_org_id = input.ownerOrgId;
    if (input.remark !== undefined) values.remark = input.remark ?? null;
    if (input.config) values.query_config = JSON.stringify(input.config);
    await trx.updateTable('diy_table').set(values).where('id', '=', form.id).execute();
  });
}

async function adminFormOrMissing(ctx: AppContext, user: AuthUser, id: number) {
  try {
    return await adminForm(ctx, user, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'F1000') throw new AppError('Q1000');
    throw error;
  }
}

export type OpenedQuery = { form: DiyTableTable; auth: FormAuth; plan: Plan };

/** The report for its page: its viewers and admins (Q1000; disabled → F1003 for non-admins), then its plan. */
export async function openQuery(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  locale: Locale,
): Promise<OpenedQuery> {
  let opened: Awaited<ReturnType<typeof formWithAuth>>;
  try {
    opened = await formWithAuth(ctx, user, id);
  } catch (error) {
    if (error instanceof AppError && error.code === 'F1000') throw new AppError('Q1000');
    throw error;
  }
  const { form, auth } = opened;
  const config = asQuery(form);
  if (!auth.admin && !auth.viewer) throw new AppError('Q1000');
  if (!auth.enabled && !auth.admin) throw new AppError('F1003');
  const plan = await resolvePlan(ctx, user, config, locale);
  if (plan.tenantId !== form.tenant_id) throw new AppError('Q1001');
  return { form, auth, plan };
}

/** `GET /api/diyQuery/{id}/config`. */
export async function queryInfo(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  locale: Locale,
): Promise<QueryInfo> {
  const { form, auth, plan } = await openQuery(ctx, user, id, locale);
  const paramOptions: QueryInfo['paramOptions'] = {};
  for (const p of plan.params) {
    const source = plan.sources.find((s) => s.alias === p.source);
    if (!source) continue;
    if (p.kind === 'period') {
      await ensurePeriods(ctx, ctx.db, source.open.form);
      const rows = await ctx.db
        .selectFrom('diy_table_period')
        .select('id')
        .where('table_id', '=', source.open.form.id)
        .where('start_date', '<=', formatDate(new Date()))
        .orderBy('start_date', 'desc')
        .limit(60)
        .execute();
      const names = await periodNames(
        ctx.db,
        rows.map((r) => Number(r.id)),
        locale,
      );
      paramOptions[p.id] = rows.map((r) => ({
        value: String(r.id),
        label: names.get(Number(r.id)) ?? String(r.id),
      }));
    } else if (p.kind === 'option' && p.field) {
      const field = source.fields.get(p.field);
      if (!field?.options || !CHOICE_TYPES.includes(field.type)) continue;
      const options = field.options;
      paramOptions[p.id] =
        options.source === 'options'
          ? options.items.map((o) => ({ value: o.value, label: o.label }))
          : [...((await dictLabels(ctx.db, [options.dictCode])).get(options.dictCode) ?? new Map())].map(
              ([value, label]) => ({ value, label }),
            );
    }
  }
  return {
    id: form.id,
    title: form.title,
    config: plan.config,
    sources: plan.sources.map((s) => ({
      alias: s.alias,
      tableId: s.open.form.id,
      title: s.open.form.title,
      periodic: s.periodic,
    })),
    columns: plan.columns
      .filter((c) => !c.hidden)
      .map((c) => ({ id: c.id, label: c.label, kind: outKind(plan, c), precision: c.precision })),
    paramOptions,
    canEdit: auth.admin && user.permissions.has('diyTable:update'),
    categoryId: form.classify_id,
    remark: form.remark,
  };
}

/** `GET /api/diyLoad/{id}/kind`: the report type of an item the caller may open (the page picks its view). */
export async function loadKind(ctx: AppContext, user: AuthUser, id: number): Promise<{ reportType: number }> {
  const { form, auth } = await formWithAuth(ctx, user, id);
  if (!auth.admin && !auth.viewer) throw new AppError('F1000');
  return { reportType: form.report_type };
}
