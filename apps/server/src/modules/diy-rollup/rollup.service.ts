import { type FieldType, NUMBER_TYPES, REPORT_TYPE, valueFields } from '@shuzhi/contracts/diy-form';
import type {
  RollupConfig,
  RollupInfo,
  rollupAddInputSchema,
  rollupUpdateInputSchema,
} from '@shuzhi/contracts/diy-rollup';
import type { FormAudience } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import { assertOrgInScope, dataScopeOf } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { publishColumns } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  adminForm,
  type Caller,
  type FormAuth,
  formWithAuth,
  parseAudience,
  parsePeriodSettings,
  parseRollup,
  type RecordReach,
  recordReach,
} from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { EMPTY_DESIGN, versionDesign } from '../diy-table/diy-table.service.ts';

type Db = AppContext['db'] | Transaction<Database>;
type AddInput = z.output<typeof rollupAddInputSchema>;
type UpdateInput = z.output<typeof rollupUpdateInputSchema>;

/**
 * Roll-up reports (issue 6 §2, docs/rollups.md). A roll-up is a `diy_table` row of report type 2 holding a
 * `rollupConfigSchema` in `rollup`; it has no design and no records. Its figures are computed on each call
 * from the source form's data table, in SQL (one GROUP BY per call over the records of the periods asked
 * for), limited to the records the caller may see on the source form.
 *
 * This file keeps a roll-up's settings (add, update, open, info); `rollup-data.ts` answers its figures, with
 * `rollup-periods.ts` (the periods compared), `rollup-figures.ts` (the GROUP BY and its folding) and
 * `rollup-units.ts` (the org tree and the units expected to file).
 */

/** Field types a measure may sum: numbers, and formulas (stored as decimals). */
export const MEASURE_TYPES: readonly FieldType[] = [...NUMBER_TYPES, 'formula'];
const EMPTY_AUDIENCE: FormAudience = { all: false, orgIds: [], roleIds: [], userIds: [], enterprises: false };

const TEXTS = {
  unknownField: {
    'zh-CN': '来源表单中没有此字段',
    en: 'The source form has no such field',
    'zh-TW': '來源表單中沒有此欄位',
  },
  notNumber: {
    'zh-CN': '不是数字字段，不能汇总',
    en: 'Not a number field; it cannot be summed',
    'zh-TW': '不是數字欄位，不能彙總',
  },
  notRegion: {
    'zh-CN': '不是行政区划字段',
    en: 'Not a region field',
    'zh-TW': '不是行政區劃欄位',
  },
  duplicateId: {
    'zh-CN': '指标编号重复',
    en: 'Measure ids repeat',
    'zh-TW': '指標編號重複',
  },
} satisfies Record<string, Localized>;

// ---------------------------------------------------------------------------------------------------------
// The source form

export type Source = {
  form: DiyTableTable;
  auth: FormAuth;
  caller: Caller;
};

/** The source form as the caller reaches it; F1040 when it is missing, another tenant's or not theirs. */
async function sourceOf(ctx: AppContext, user: AuthUser, id: number, db: Db = ctx.db): Promise<Source> {
  let found: Source;
  try {
    found = await formWithAuth(ctx, user, id, db);
  } catch (error) {
    if (error instanceof AppError && error.code === 'F1000') throw new AppError('F1040');
    throw error;
  }
  if (found.form.report_type !== REPORT_TYPE.form || !found.auth.published) throw new AppError('F1040');
  return found;
}

/**
 * Checks a config against the source's published design: measures on number fields, the region field a
 * region field. Problems answer F1041 with field errors keyed by `config.measures.<i>.field` /
 * `config.regionField`.
 */
async function checkConfig(
  ctx: AppContext,
  db: Db,
  source: DiyTableTable,
  config: RollupConfig,
  locale: Locale,
): Promise<void> {
  const design = await versionDesign(ctx, db, source.id, source.version);
  const fields = new Map((design ? valueFields(design) : []).map((f) => [f.id, f]));
  const errors: Record<string, string[]> = {};
  const ids = new Set<string>();
  config.measures.forEach((m, i) => {
    if (ids.has(m.id)) errors[`config.measures.${i}.id`] = [TEXTS.duplicateId[locale]];
    ids.add(m.id);
    if (m.field === null) return;
    const field = fields.get(m.field);
    if (!field) errors[`config.measures.${i}.field`] = [TEXTS.unknownField[locale]];
    else if (!MEASURE_TYPES.includes(field.type))
      errors[`config.measures.${i}.field`] = [TEXTS.notNumber[locale]];
  });
  if (config.dimension === 'region' && config.regionField) {
    const field = fields.get(config.regionField);
    if (!field) errors['config.regionField'] = [TEXTS.unknownField[locale]];
    else if (field.type !== 'region') errors['config.regionField'] = [TEXTS.notRegion[locale]];
  }
  if (Object.keys(errors).length > 0) throw new RollupFieldErrors(errors);
}

/** F1041 with the fields at fault (the route answers it with the envelope's `errors`). */
export class RollupFieldErrors extends FieldErrorsError {}

/** Only what the config says: measures without a field keep `field: null`, region settings only for regions. */
function storedConfig(config: RollupConfig): RollupConfig {
  return {
    ...config,
    regionField: config.dimension === 'region' ? (config.regionField ?? null) : null,
    measures: config.measures.map((m) => ({ ...m, field: m.field ?? null })),
  };
}

/** A category of the item's tenant, else F1010 (roll-ups and query reports). */
export async function checkCategory(
  db: Db,
  tenantId: number,
  categoryId: number | null | undefined,
): Promise<void> {
  if (!categoryId) return;
  const category = await db
    .selectFrom('diy_table_classify')
    .select('id')
    .where('id', '=', categoryId)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!category) throw new AppError('F1010');
}

/** An owner org of the tenant within the caller's data scope (roll-ups and query reports). */
export async function checkOwner(
  ctx: AppContext,
  db: Db,
  user: AuthUser,
  tenantId: number,
  ownerOrgId: number | null | undefined,
): Promise<void> {
  if (!ownerOrgId) return;
  const org = await db
    .selectFrom('sys_org')
    .select('id')
    .where('id', '=', ownerOrgId)
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .executeTakeFirst();
  if (!org) throw new AppError('D1002');
  assertOrgInScope(await dataScopeOf({ ...ctx, db: db as AppContext['db'] }, user), ownerOrgId);
}

/**
 * `POST /api/diyTable/addRollup`: a new roll-up (report type 2, version 1 so lists treat it as published, no
 * design). The caller must administer the source form. Viewers start as the source's viewers.
 */
export async function addRollup(
  ctx: AppContext,
  user: AuthUser,
  input: AddInput,
  locale: Locale,
): Promise<number> {
  const id = ctx.newId();
  await ctx.db.transaction().execute(async (trx) => {
    const source = await sourceOf(ctx, user, input.config.sourceTableId, trx);
    if (!source.auth.admin) throw new AppError('F1040');
    await checkConfig(ctx, trx, source.form, input.config, locale);
    const tenantId = source.form.tenant_id;
    await checkCategory(trx, tenantId, input.categoryId);
    await checkOwner(ctx, trx, user, tenantId, input.ownerOrgId);
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
        tenant_id: tenantId,
        title: input.title,
        report_type: REPORT_TYPE.load2,
        classify_id: input.categoryId ?? null,
        owner_org_id: input.ownerOrgId || user.orgId || null,
        status: STATUS.enabled,
        pwd_hash: null,
        fillers: JSON.stringify(EMPTY_AUDIENCE),
        viewers: JSON.stringify(parseAudience(source.form.viewers)),
        reviewer_ids: '[]',
        needs_review: 0,
        draft_design: null,
        draft_revision: 0,
        version: 1,
        last_update_time: now,
        rollup: JSON.stringify(storedConfig(input.config)),
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

/**
 * A roll-up has no records, but it is a published form item (version 1) and everything that reads a published
 * form's records (record list, recycle bin, counts, ledger) expects its data table: it gets an empty one.
 */
export async function emptyDataTable(
  ctx: Pick<AppContext, 'newId' | 'dialect'>,
  trx: Db,
  id: number,
  now: string,
): Promise<void> {
  await publishColumns(trx, ctx.dialect, ctx.newId, id, EMPTY_DESIGN, 1, now);
}

/** A roll-up row of the caller's (report type 2 with a readable config), else F1000. */
function asRollup(form: DiyTableTable): RollupConfig {
  const config = form.report_type === REPORT_TYPE.load2 ? parseRollup(form.rollup) : null;
  if (!config) throw new AppError('F1000');
  return config;
}

/** `POST /api/diyTable/updateRollup`: title, category, owner, remark and config (checked as on add). */
export async function updateRollup(
  ctx: AppContext,
  user: AuthUser,
  input: UpdateInput,
  locale: Locale,
): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const { form } = await adminForm(ctx, user, input.id, trx);
    asRollup(form);
    if (input.config) {
      const source = await sourceOf(ctx, user, input.config.sourceTableId, trx);
      if (!source.auth.admin || source.form.tenant_id !== form.tenant_id) throw new AppError('F1040');
      await checkConfig(ctx, trx, source.form, input.config, locale);
    }
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
    if (input.config) values.rollup = JSON.stringify(storedConfig(input.config));
    await trx.updateTable('diy_table').set(values).where('id', '=', form.id).execute();
  });
}

// ---------------------------------------------------------------------------------------------------------
// Opening a roll-up

export type Opened = {
  rollup: DiyTableTable;
  rollupAuth: FormAuth;
  config: RollupConfig;
  source: Source;
  reach: RecordReach;
};

/** The roll-up for its page: viewers and admins of it (F1000 / F1003), then its source (F1040). */
export async function openRollup(ctx: AppContext, user: AuthUser, id: number): Promise<Opened> {
  const { form, auth } = await formWithAuth(ctx, user, id);
  const config = asRollup(form);
  if (!auth.admin && !auth.viewer) throw new AppError('F1000');
  if (!auth.enabled && !auth.admin) throw new AppError('F1003');
  const source = await sourceOf(ctx, user, config.sourceTableId);
  if (source.form.tenant_id !== form.tenant_id) throw new AppError('F1040');
  if (!source.auth.query) throw new AppError(source.auth.enabled ? 'F1040' : 'F1003');
  return { rollup: form, rollupAuth: auth, config, source, reach: recordReach(source.auth, source.caller) };
}

/** `GET /api/diyLoad/{id}/config`. */
export async function rollupInfo(ctx: AppContext, user: AuthUser, id: number): Promise<RollupInfo> {
  const { rollup, rollupAuth, config, source } = await openRollup(ctx, user, id);
  let regionFieldLabel: string | null = null;
  if (config.dimension === 'region' && config.regionField) {
    const design = await versionDesign(ctx, ctx.db, source.form.id, source.form.version);
    regionFieldLabel =
      (design ? valueFields(design) : []).find((f) => f.id === config.regionField)?.label ?? null;
  }
  return {
    id: rollup.id,
    title: rollup.title,
    sourceTableId: source.form.id,
    sourceTitle: source.form.title,
    periodic: parsePeriodSettings(source.form.period).kind !== 'none',
    config,
    canEdit: rollupAuth.admin && user.permissions.has('diyTable:update'),
    regionFieldLabel,
    categoryId: rollup.classify_id,
    remark: rollup.remark,
  };
}
