import { ACCOUNT_TYPE } from '@shuzhi/contracts/auth';
import { type FormDesign, REPORT_TYPE, valueFields } from '@shuzhi/contracts/diy-form';
import type { PeriodBrief, PeriodSettings } from '@shuzhi/contracts/diy-period';
import type {
  cloneInputSchema,
  DesignSaveResult,
  designSaveInputSchema,
  FormDesignResult,
  FormItem,
  FormRow,
  formAddInputSchema,
  formPageInputSchema,
  formSelectQuerySchema,
  formUpdateInputSchema,
  tableListQuerySchema,
} from '@shuzhi/contracts/diy-table';
import { DESIGN_PROBLEM_TEXTS, validateDesign } from '@shuzhi/contracts/diy-validate';
import { type PageResult, STATUS } from '@shuzhi/contracts/envelope';
import { format, type Locale } from '@shuzhi/contracts/i18n';
import { type SqlBool, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import { assertOrgInScope, dataScopeOf, whereInScope } from '../../platform/access/data-scope.ts';
import { hashPassword } from '../../platform/auth/password-hash.ts';
import { sm2Decrypt } from '../../platform/auth/sm2.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import {
  type AnyDb,
  copyDataTable,
  type DataColumn,
  dataTableName,
  loadColumns,
  publishColumns,
} from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  adminForm,
  type Caller,
  formAuth,
  formWithAuth,
  loadCaller,
  myAuthOf,
  PWD_OK_PREFIX,
  parseAudience,
  parseDesign,
  parseIds,
  parsePeriodSettings,
  parseRollup,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { paged } from '../../platform/http/paging.ts';
import { currentPeriods } from '../diy-period/diy-period.service.ts';

type Db = AppContext['db'] | Transaction<Database>;
type AddInput = z.output<typeof formAddInputSchema>;
type UpdateInput = z.output<typeof formUpdateInputSchema>;

export const EMPTY_DESIGN: FormDesign = { fields: [], labelWidth: 120 };

/** Period settings as stored: null for a form without periods. */
function periodText(settings: PeriodSettings | undefined): string | null {
  return settings && settings.kind !== 'none' ? JSON.stringify(settings) : null;
}

type JoinedForm = DiyTableTable & { category_name: string | null; owner_org_name: string | null };

function formQuery(db: Db) {
  return db
    .selectFrom('diy_table as t')
    .leftJoin('diy_table_classify as c', 'c.id', 't.classify_id')
    .leftJoin('sys_org as o', 'o.id', 't.owner_org_id')
    .selectAll('t')
    .select(['c.name as category_name', 'o.name as owner_org_name'])
    .where('t.is_delete', '=', 0);
}

export function toFormRow(row: JoinedForm): FormRow {
  return {
    id: row.id,
    title: row.title,
    reportType: row.report_type,
    categoryId: row.classify_id,
    categoryName: row.category_name,
    ownerOrgId: row.owner_org_id,
    ownerOrgName: row.owner_org_name,
    status: row.status,
    isShowPwd: row.pwd_hash !== null,
    version: row.version,
    hasDraft: row.draft_design !== null,
    fillers: parseAudience(row.fillers),
    viewers: parseAudience(row.viewers),
    reviewerIds: parseIds(row.reviewer_ids),
    needsReview: row.needs_review === 1,
    orderNo: row.order_no,
    remark: row.remark,
    recordCount: row.record_count,
    period: parsePeriodSettings(row.period),
    rollup: parseRollup(row.rollup),
    createTime: row.create_time,
    updateTime: row.update_time,
    createUserId: row.create_user_id,
    createUserName: row.create_user_name,
    updateUserId: row.update_user_id,
    updateUserName: row.update_user_name,
  };
}

/** Forms the caller administers: their tenant (the super admin: every tenant), owner org in their data scope. */
async function adminForms(ctx: AppContext, user: AuthUser) {
  let query = formQuery(ctx.db);
  if (user.accountType !== ACCOUNT_TYPE.superAdmin) query = query.where('t.tenant_id', '=', user.tenantId);
  return whereInScope(query, await dataScopeOf(ctx, user), 't.owner_org_id', 't.create_user_id');
}

type PageFilters = z.output<typeof formPageInputSchema>;

function filtered<Q extends Awaited<ReturnType<typeof adminForms>>>(
  ctx: AppContext,
  query: Q,
  input: Partial<PageFilters>,
): Q {
  let q = query;
  if (input.title) {
    const pattern = `%${input.title.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const op = sql.raw(ctx.dialect === 'postgres' ? 'ilike' : 'like');
    q = q.where(sql<SqlBool>`${sql.ref('t.title')} ${op} ${pattern} escape '\\'`) as Q;
  }
  if (typeof input.categoryId === 'number') q = q.where('t.classify_id', '=', input.categoryId) as Q;
  if (typeof input.status === 'number') q = q.where('t.status', '=', input.status) as Q;
  if (typeof input.reportType === 'number') q = q.where('t.report_type', '=', input.reportType) as Q;
  return q;
}

const SORTABLE: Record<string, string> = {
  title: 't.title',
  orderNo: 't.order_no',
  status: 't.status',
  version: 't.version',
  recordCount: 't.record_count',
  createTime: 't.create_time',
  updateTime: 't.update_time',
};

export async function formPage(
  ctx: AppContext,
  user: AuthUser,
  input: PageFilters,
): Promise<PageResult<FormRow>> {
  return paged(filtered(ctx, await adminForms(ctx, user), input), input, {
    sortable: SORTABLE,
    defaultOrder: 't.id',
    map: (row) => toFormRow(row as JoinedForm),
  });
}

export async function formList(
  ctx: AppContext,
  user: AuthUser,
  input: Partial<PageFilters>,
): Promise<FormRow[]> {
  const rows = await filtered(ctx, await adminForms(ctx, user), input)
    .orderBy('t.order_no')
    .orderBy('t.id')
    .limit(10_000)
    .execute();
  return rows.map((r) => toFormRow(r as JoinedForm));
}

export async function formDetail(ctx: AppContext, user: AuthUser, id: number): Promise<FormRow> {
  const { form } = await adminForm(ctx, user, id);
  const row = await formQuery(ctx.db).where('t.id', '=', form.id).executeTakeFirstOrThrow();
  return toFormRow(row as JoinedForm);
}

/** D1002 unless every id is a live row of the tenant. */
async function assertTenantRows(
  db: Db,
  table: 'sys_org' | 'sys_role' | 'sys_user',
  ids: readonly number[],
  tenantId: number,
): Promise<void> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return;
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', wanted)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  if (rows.length !== wanted.length) throw new AppError('D1002');
}

/** A form password (SM2 cipher) as its argon2 hash; D0010 when it does not decrypt, F1011 for a bad length. */
export async function formPasswordHash(ctx: AppContext, cipher: string): Promise<string> {
  const plain = sm2Decrypt(cipher, ctx.config.sm2.privateKey);
  if (plain === null) throw new AppError('D0010');
  const length = [...plain].length;
  if (length < 6 || length > 12) throw new AppError('F1011');
  return hashPassword(plain, ctx.passwordHashing);
}

async function checkSettings(
  ctx: AppContext,
  trx: Db,
  user: AuthUser,
  tenantId: number,
  input: Partial<AddInput>,
): Promise<void> {
  if (input.categoryId) {
    const category = await trx
      .selectFrom('diy_table_classify')
      .select('id')
      .where('id', '=', input.categoryId)
      .where('tenant_id', '=', tenantId)
      .where('is_delete', '=', 0)
      .executeTakeFirst();
    if (!category) throw new AppError('F1010');
  }
  if (input.ownerOrgId) {
    await assertTenantRows(trx, 'sys_org', [input.ownerOrgId], tenantId);
    assertOrgInScope(await dataScopeOf(ctx, user), input.ownerOrgId);
  }
  for (const audience of [input.fillers, input.viewers]) {
    if (!audience) continue;
    await assertTenantRows(trx, 'sys_org', audience.orgIds, tenantId);
    await assertTenantRows(trx, 'sys_role', audience.roleIds, tenantId);
    await assertTenantRows(trx, 'sys_user', audience.userIds, tenantId);
  }
  if (input.reviewerIds) await assertTenantRows(trx, 'sys_user', input.reviewerIds, tenantId);
}

export async function addForm(ctx: AppContext, user: AuthUser, input: AddInput): Promise<number> {
  const id = ctx.newId();
  const pwd = input.password ? await formPasswordHash(ctx, input.password) : null;
  await ctx.db.transaction().execute(async (trx) => {
    await checkSettings(ctx, trx, user, user.tenantId, input);
    const owner = input.ownerOrgId ?? user.orgId;
    const org = await trx
      .selectFrom('sys_org')
      .select('name')
      .where('id', '=', user.orgId)
      .executeTakeFirst();
    await trx
      .insertInto('diy_table')
      .values({
        id,
        create_time: formatDateTime(),
        create_user_id: user.userId,
        create_user_name: user.realName,
        is_delete: 0,
        tenant_id: user.tenantId,
        title: input.title,
        report_type: input.reportType ?? REPORT_TYPE.form,
        classify_id: input.categoryId ?? null,
        owner_org_id: owner || null,
        status: input.status,
        pwd_hash: pwd,
        fillers: JSON.stringify(input.fillers),
        viewers: JSON.stringify(input.viewers),
        reviewer_ids: JSON.stringify(input.reviewerIds),
        needs_review: input.needsReview ? 1 : 0,
        draft_design: JSON.stringify(EMPTY_DESIGN),
        draft_revision: 0,
        version: 0,
        order_no: input.orderNo,
        remark: input.remark ?? null,
        period: periodText(input.period),
        record_count: 0,
        create_org_id: user.orgId || null,
        create_org_name: org?.name ?? null,
      })
      .execute();
  });
  return id;
}

export async function updateForm(ctx: AppContext, user: AuthUser, input: UpdateInput): Promise<void> {
  const pwd = input.password ? await formPasswordHash(ctx, input.password) : undefined;
  await ctx.db.transaction().execute(async (trx) => {
    const { form } = await adminForm(ctx, user, input.id, trx);
    await checkSettings(ctx, trx, user, form.tenant_id, input);
    const values: Partial<DiyTableTable> = {
      update_time: formatDateTime(),
      update_user_id: user.userId,
      update_user_name: user.realName,
    };
    if (input.title !== undefined) values.title = input.title;
    if (input.categoryId !== undefined) values.classify_id = input.categoryId ?? null;
    if (input.ownerOrgId) values.owner_org_id = input.ownerOrgId;
    if (input.status !== undefined) values.status = input.status;
    if (input.fillers !== undefined) values.fillers = JSON.stringify(input.fillers);
    if (input.viewers !== undefined) values.viewers = JSON.stringify(input.viewers);
    if (input.reviewerIds !== undefined) values.reviewer_ids = JSON.stringify(input.reviewerIds);
    if (input.needsReview !== undefined) values.needs_review = input.needsReview ? 1 : 0;
    if (input.orderNo !== undefined) values.order_no = input.orderNo;
    if (input.remark !== undefined) values.remark = input.remark ?? null;
    // Periods already made keep their dates and versions; new ones follow the new settings (docs/periods.md).
    if (input.period !== undefined) values.period = periodText(input.period);
    if (pwd) values.pwd_hash = pwd;
    else if (input.clearPassword) values.pwd_hash = null;
    await trx.updateTable('diy_table').set(values).where('id', '=', form.id).execute();
  });
  if (pwd || input.clearPassword) await ctx.cache.delPrefix(`${PWD_OK_PREFIX}${input.id}:`);
}

/** Soft delete: the form leaves every list and goes to the recycle bin (its data table stays). */
export async function deleteForms(ctx: AppContext, user: AuthUser, ids: readonly number[]): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    for (const id of ids) {
      const { form, auth } = await adminForm(ctx, user, id, trx);
      if (!user.permissions.has('diyTable:delete') || !auth.admin) throw new AppError('F1001');
      const now = formatDateTime();
      await trx
        .updateTable('diy_table')
        .set({
          is_delete: 1,
          delete_time: now,
          delete_user_name: user.realName,
          update_time: now,
          update_user_id: user.userId,
          update_user_name: user.realName,
        })
        .where('id', '=', form.id)
        .execute();
    }
  });
}

const CACHE_SECONDS = 3600;

/**
 * The design of a published version (null when the form has none). Published versions never change, so they
 * are kept in the process cache.
 */
export async function versionDesign(
  ctx: AppContext,
  db: Db,
  tableId: number,
  version: number,
): Promise<FormDesign | null> {
  if (version <= 0) return null;
  const key = `diy-design:${tableId}:${version}`;
  const hit = ctx.cache.local.get<FormDesign>(key);
  if (hit) return hit;
  const row = await db
    .selectFrom('diy_table_version')
    .select('design')
    .where('table_id', '=', tableId)
    .where('version', '=', version)
    .executeTakeFirst();
  const design = row ? parseDesign(row.design) : null;
  if (design) ctx.cache.local.set(key, design, CACHE_SECONDS);
  return design;
}

/**
 * The column registry of a form as of its current version: columns are added only by publishing a newer
 * version, so the registry of a version never changes and is kept in the process cache.
 */
export async function columnsAt(
  ctx: AppContext,
  db: Db,
  tableId: number,
  version: number,
): Promise<DataColumn[]> {
  const key = `diy-columns:${tableId}:${version}`;
  const hit = ctx.cache.local.get<DataColumn[]>(key);
  if (hit) return hit;
  const columns = await loadColumns(db, tableId);
  if (columns.every((c) => c.createdVersion <= version)) ctx.cache.local.set(key, columns, CACHE_SECONDS);
  return columns;
}

export async function formDesignResult(
  ctx: AppContext,
  user: AuthUser,
  id: number,
): Promise<FormDesignResult> {
  const { form } = await adminForm(ctx, user, id);
  const row = await formQuery(ctx.db).where('t.id', '=', form.id).executeTakeFirstOrThrow();
  const published = await versionDesign(ctx, ctx.db, form.id, form.version);
  const versions = await ctx.db
    .selectFrom('diy_table_version')
    .select(['version', 'publish_time', 'publish_user_name'])
    .where('table_id', '=', form.id)
    .orderBy('version', 'desc')
    .execute();
  return {
    form: toFormRow(row as JoinedForm),
    draft: parseDesign(form.draft_design) ?? published ?? EMPTY_DESIGN,
    revision: form.draft_revision,
    published,
    versions: versions.map((v) => ({
      version: v.version,
      publishTime: v.publish_time,
      publishUserName: v.publish_user_name,
    })),
  };
}

/** Design problems as field errors in the request's language. */
function designErrors(design: FormDesign, locale: Locale): Record<string, string[]> | null {
  const problems = validateDesign(design);
  if (problems.length === 0) return null;
  const errors: Record<string, string[]> = {};
  for (const p of problems) {
    const text = format(DESIGN_PROBLEM_TEXTS[p.code][locale], { detail: p.detail ?? '' });
    const list = errors[p.fieldId] ?? [];
    if (!list.includes(text)) list.push(text);
    errors[p.fieldId] = list;
  }
  return errors;
}

/**
 * Saves the draft design; with `publish`, also publishes it as the next version in the same transaction:
 * the version row, the data table (first publish) and the columns of new fields or changed storage kinds.
 * A save based on an older revision than the stored draft is refused (F1004).
 */
export async function saveDesign(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof designSaveInputSchema>,
  locale: Locale,
): Promise<DesignSaveResult> {
  const errors = designErrors(input.design, locale);
  if (errors) throw new FieldErrorsError(errors);
  if (input.publish && !user.permissions.has('diyTable:publish')) throw new AppError('F1001');
  return ctx.db.transaction().execute(async (trx) => {
    const { form, auth } = await adminForm(ctx, user, input.id, trx);
    if (!auth.design) throw new AppError('F1001');
    if (input.baseRevision !== undefined && input.baseRevision !== form.draft_revision) {
      throw new AppError('F1004');
    }
    const now = formatDateTime();
    const revision = form.draft_revision + 1;
    const version = input.publish ? form.version + 1 : form.version;
    // The row is claimed first: of two editors saving over the same revision, the second finds it gone.
    const claimed = await trx
      .updateTable('diy_table')
      .set({
        draft_design: input.publish ? null : JSON.stringify(input.design),
        draft_revision: revision,
        version,
        ...(input.publish ? { last_update_time: now } : {}),
        update_time: now,
        update_user_id: user.userId,
        update_user_name: user.realName,
      })
      .where('id', '=', form.id)
      .where('draft_revision', '=', form.draft_revision)
      .where('version', '=', form.version)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw new AppError('F1004');
    if (input.publish) {
      await publishColumns(trx, ctx.dialect, ctx.newId, form.id, input.design, version, now);
      await trx
        .insertInto('diy_table_version')
        .values({
          id: ctx.newId(),
          table_id: form.id,
          version,
          design: JSON.stringify(input.design),
          publish_user_id: user.userId,
          publish_user_name: user.realName,
          publish_time: now,
        })
        .execute();
    }
    return { revision, version };
  });
}

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

/**
 * The periods of a form cloned with its records: copied as they are (dates, version, closed) with new ids,
 * each logged as made, and the copied records pointed at the copies.
 */
async function copyPeriods(
  ctx: AppContext,
  trx: Transaction<Database>,
  user: AuthUser,
  from: number,
  to: number,
  now: string,
): Promise<void> {
  const periods = await trx.selectFrom('diy_table_period').selectAll().where('table_id', '=', from).execute();
  for (const p of periods) {
    const id = ctx.newId();
    await trx
      .insertInto('diy_table_period')
      .values({
        ...p,
        id,
        table_id: to,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
      })
      .execute();
    await trx
      .insertInto('diy_table_period_log')
      .values({
        id: ctx.newId(),
        tenant_id: p.tenant_id,
        table_id: to,
        period_id: id,
        action: 'create',
        comment: null,
        changes: '[]',
        user_id: user.userId,
        user_name: user.realName,
        create_time: now,
      })
      .execute();
    await (trx as unknown as AnyDb)
      .updateTable(dataTableName(to))
      .set({ period_id: id })
      .where('period_id', '=', p.id)
      .execute();
  }
}

/**
 * `POST /clone`: a new form with the source's settings (no password) and design as its draft; with records,
 * the copy gets the source's versions, columns and live records as they are.
 */
export async function cloneForm(
  ctx: AppContext,
  user: AuthUser,
  input: z.output<typeof cloneInputSchema>,
): Promise<number> {
  const id = ctx.newId();
  await ctx.db.transaction().execute(async (trx) => {
    const { form } = await adminForm(ctx, user, input.id, trx);
    const now = formatDateTime();
    const published = await versionDesign(ctx, trx, form.id, form.version);
    const draft = parseDesign(form.draft_design) ?? published ?? EMPTY_DESIGN;
    const withRecords = input.withRecords && form.version > 0;
    const org = await trx
      .selectFrom('sys_org')
      .select('name')
      .where('id', '=', user.orgId)
      .executeTakeFirst();
    await trx
      .insertInto('diy_table')
      .values({
        ...form,
        id,
        title: input.title ?? `${form.title} - 副本`.slice(0, 128),
        pwd_hash: null,
        draft_design: withRecords && !form.draft_design ? null : JSON.stringify(draft),
        draft_revision: 0,
        version: withRecords ? form.version : 0,
        record_count: withRecords ? form.record_count : 0,
        last_update_time: withRecords ? now : null,
        create_time: now,
        create_user_id: user.userId,
        create_user_name: user.realName,
        update_time: null,
        update_user_id: null,
        update_user_name: null,
        create_org_id: user.orgId || null,
        create_org_name: org?.name ?? null,
        delete_time: null,
        delete_user_name: null,
      })
      .execute();
    if (!withRecords) return;
    const versions = await trx
      .selectFrom('diy_table_version')
      .selectAll()
      .where('table_id', '=', form.id)
      .execute();
    for (const v of versions) {
      await trx
        .insertInto('diy_table_version')
        .values({ ...v, id: ctx.newId(), table_id: id })
        .execute();
    }
    await copyDataTable(trx, ctx.dialect, ctx.newId, form.id, id, now);
    await copyPeriods(ctx, trx, user, form.id, id, now);
    const seqs = await trx.selectFrom('diy_table_seq').selectAll().where('table_id', '=', form.id).execute();
    for (const s of seqs) {
      await trx
        .insertInto('diy_table_seq')
        .values({ ...s, id: ctx.newId(), table_id: id })
        .execute();
    }
  });
  return id;
}
