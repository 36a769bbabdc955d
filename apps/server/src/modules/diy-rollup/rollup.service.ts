import { type FieldType, NUMBER_TYPES, REPORT_TYPE, valueFields } from '@shuzhi/contracts/diy-form';
import type {
  RollupConfig,
  RollupData,
  RollupInfo,
  RollupMeasure,
  RollupRow,
  rollupAddInputSchema,
  rollupDataInputSchema,
  rollupUpdateInputSchema,
} from '@shuzhi/contracts/diy-rollup';
import type { FormAudience } from '@shuzhi/contracts/diy-table';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import { ORG_PATH_SEPARATOR } from '@shuzhi/contracts/org';
import { type RawBuilder, sql, type Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database, DiyTableTable } from '../../db/schema.ts';
import { assertOrgInScope, dataScopeOf } from '../../platform/access/data-scope.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate, formatDateTime } from '../../platform/db/time.ts';
import { columnFor, dataTableName, publishColumns, safeColumn } from '../../platform/diy/data-table.ts';
import { FieldErrorsError } from '../../platform/diy/field-errors.ts';
import {
  adminForm,
  assertPasswordVerified,
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
import { displayName, ensurePeriods } from '../diy-period/diy-period.service.ts';
import { columnsAt, EMPTY_DESIGN, versionDesign } from '../diy-table/diy-table.service.ts';

type Db = AppContext['db'] | Transaction<Database>;
type AddInput = z.output<typeof rollupAddInputSchema>;
type UpdateInput = z.output<typeof rollupUpdateInputSchema>;
type DataInput = z.output<typeof rollupDataInputSchema>;

/**
 * Roll-up reports (issue 6 §2, docs/rollups.md). A roll-up is a `diy_table` row of report type 2 holding a
 * `rollupConfigSchema` in `rollup`; it has no design and no records. Its figures are computed on each call
 * from the source form's data table, in SQL (one GROUP BY per call over the records of the periods asked
 * for), limited to the records the caller may see on the source form.
 */

/** Field types a measure may sum: numbers, and formulas (stored as decimals). */
const MEASURE_TYPES: readonly FieldType[] = [...NUMBER_TYPES, 'formula'];
/** Region code length per level (GB/T 2260 and the statistical division codes: 2, 4, 6, 9, 12). */
export const REGION_CODE_LENGTH = [0, 2, 4, 6, 9, 12] as const;
/** Units listed as missing, at most. */
const MISSING_LIMIT = 200;
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

/** The row of a drilled-into org's own records. */
const OWN_SUFFIX: Localized = { 'zh-CN': '（本级）', en: ' (own)', 'zh-TW': '（本級）' };

// ---------------------------------------------------------------------------------------------------------
// The source form

type Source = {
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

async function checkCategory(db: Db, tenantId: number, categoryId: number | null | undefined): Promise<void> {
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

async function checkOwner(
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

type Opened = {
  rollup: DiyTableTable;
  rollupAuth: FormAuth;
  config: RollupConfig;
  source: Source;
  reach: RecordReach;
};

/** The roll-up for its page: viewers and admins of it (F1000 / F1003), then its source (F1040). */
async function openRollup(ctx: AppContext, user: AuthUser, id: number): Promise<Opened> {
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

// ---------------------------------------------------------------------------------------------------------
// Periods

type PeriodRef = { id: number; name: string; key: string; start: string };

/** `2026-11` → `2025-11`, `2026-Q4` → `2025-Q4`, `C2026-11-01` → `C2025-11-01`. */
export function lastYearKey(key: string): string | null {
  const match = /^(C?)(\d{4})(.*)$/.exec(key);
  if (!match) return null;
  return `${match[1]}${Number(match[2]) - 1}${match[3]}`;
}

async function periodsFor(
  db: Db,
  source: DiyTableTable,
  periodId: number | undefined,
  compare: boolean,
  locale: Locale,
): Promise<{ current: PeriodRef | null; last: PeriodRef | null; lastYear: PeriodRef | null }> {
  const pick = () =>
    db
      .selectFrom('diy_table_period')
      .select(['id', 'name', 'period_key', 'start_date'])
      .where('table_id', '=', source.id)
      .where('tenant_id', '=', source.tenant_id);
  const ref = (row: { id: number; name: string; period_key: string; start_date: string } | undefined) =>
    row
      ? { id: Number(row.id), name: displayName(row, locale), key: row.period_key, start: row.start_date }
      : null;
  let current: PeriodRef | null;
  if (periodId !== undefined) {
    current = ref(await pick().where('id', '=', periodId).executeTakeFirst());
    if (!current) throw new AppError('F1025');
  } else {
    // The latest period that has started (today in the server's time zone).
    current = ref(
      await pick()
        .where('start_date', '<=', formatDate())
        .orderBy('start_date', 'desc')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst(),
    );
  }
  if (!current || !compare) return { current, last: null, lastYear: null };
  const last = ref(
    await pick()
      .where('start_date', '<', current.start)
      .orderBy('start_date', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst(),
  );
  const key = lastYearKey(current.key);
  const lastYear = key ? ref(await pick().where('period_key', '=', key).executeTakeFirst()) : null;
  return { current, last, lastYear };
}

// ---------------------------------------------------------------------------------------------------------
// Figures

/** Partial aggregates of one group (an org, or a region prefix) in one period. */
type Part = {
  group: string;
  period: number | null;
  records: number;
  pending: number;
  /** Per measure column: sum, count of values, min, max. */
  cols: { sum: number; n: number; min: number | null; max: number | null }[];
};

const num = (v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  const n = typeof v === 'number' ? v : Number(v);
  return Number.isFinite(n) ? n : null;
};

/** The distinct columns the measures read, and for each measure its index (-1: a record count). */
function measureColumns(
  config: RollupConfig,
  columns: Awaited<ReturnType<typeof columnsAt>>,
  version: number,
): { names: string[]; index: Map<string, number> } {
  const names: string[] = [];
  const index = new Map<string, number>();
  for (const m of config.measures) {
    if (m.field === null) continue;
    const column = columnFor(columns, m.field, version);
    if (!column) continue;
    const name = safeColumn(column.columnName);
    let i = names.indexOf(name);
    if (i < 0) {
      names.push(name);
      i = names.length - 1;
    }
    index.set(m.id, i);
  }
  return { names, index };
}

/**
 * One GROUP BY over the source's live records in reach: per group (the filing org, or the region code's
 * prefix at a level) and period, the records that count, those that do not yet (drafts, returned, and with
 * `approved` submitted ones too), and sum / count / min / max of each measure column over the counted ones.
 */
async function partials(
  ctx: AppContext,
  opened: Opened,
  cols: string[],
  periodIds: number[] | null,
  group: { kind: 'org' } | { kind: 'region'; column: string; length: number; prefix: string },
): Promise<Part[]> {
  const { source, reach, config } = opened;
  const counted = config.statuses === 'approved' ? [2] : [1, 2];
  const isCounted = sql`status in (${sql.join(counted)})`;
  const key: RawBuilder<unknown> =
    group.kind === 'org'
      ? sql.ref('create_org_id')
      : sql`substr(${sql.ref(group.column)}, 1, ${sql.lit(group.length)})`;
  const selects: RawBuilder<unknown>[] = [
    sql`${key} as g`,
    sql`count(case when ${isCounted} then 1 end) as n`,
    sql`count(*) as total`,
  ];
  if (periodIds) selects.push(sql`period_id as p`);
  cols.forEach((name, i) => {
    const ref = sql.ref(name);
    selects.push(
      sql`sum(case when ${isCounted} then ${ref} end) as ${sql.id(`s${i}`)}`,
      sql`count(case when ${isCounted} then ${ref} end) as ${sql.id(`c${i}`)}`,
      sql`min(case when ${isCounted} then ${ref} end) as ${sql.id(`lo${i}`)}`,
      sql`max(case when ${isCounted} then ${ref} end) as ${sql.id(`hi${i}`)}`,
    );
  });
  const where: RawBuilder<unknown>[] = [sql`tenant_id = ${source.form.tenant_id}`, sql`is_delete = 0`];
  if (periodIds) where.push(sql`period_id in (${sql.join(periodIds)})`);
  if (!reach.all) {
    where.push(
      reach.orgIds.length > 0
        ? sql`(create_org_id in (${sql.join(reach.orgIds)}) or create_user_id = ${reach.userId})`
        : sql`create_user_id = ${reach.userId}`,
    );
  }
  if (group.kind === 'org') where.push(sql`create_org_id is not null`);
  else {
    const column = sql.ref(group.column);
    where.push(sql`length(${column}) >= ${sql.lit(group.length)}`);
    if (group.prefix)
      where.push(sql`substr(${column}, 1, ${sql.lit(group.prefix.length)}) = ${group.prefix}`);
  }
  const groupBy = periodIds ? sql`${key}, period_id` : key;
  const query = sql<Record<string, unknown>>`select ${sql.join(selects)} from ${sql.id(
    dataTableName(source.form.id),
  )} where ${sql.join(where, sql` and `)} group by ${groupBy}`;
  const { rows } = await query.execute(ctx.db);
  return rows.map((row) => ({
    group: String(row.g),
    period: periodIds ? num(row.p) : null,
    records: num(row.n) ?? 0,
    pending: (num(row.total) ?? 0) - (num(row.n) ?? 0),
    cols: cols.map((_, i) => ({
      sum: num(row[`s${i}`]) ?? 0,
      n: num(row[`c${i}`]) ?? 0,
      min: num(row[`lo${i}`]),
      max: num(row[`hi${i}`]),
    })),
  }));
}

/** Partials folded together (a row's orgs or prefixes, the total). */
class Acc {
  records = 0;
  pending = 0;
  cols: { sum: number; n: number; min: number | null; max: number | null }[];
  constructor(width: number) {
    this.cols = Array.from({ length: width }, () => ({ sum: 0, n: 0, min: null, max: null }));
  }
  add(p: { records: number; pending: number; cols: Part['cols'] }): void {
    this.records += p.records;
    this.pending += p.pending;
    p.cols.forEach((c, i) => {
      const mine = this.cols[i];
      if (!mine) return;
      mine.sum += c.sum;
      mine.n += c.n;
      if (c.min !== null) mine.min = mine.min === null ? c.min : Math.min(mine.min, c.min);
      if (c.max !== null) mine.max = mine.max === null ? c.max : Math.max(mine.max, c.max);
    });
  }
}

const round = (n: number) => Math.round(n * 1e6) / 1e6;

function figuresOf(
  acc: Acc | undefined,
  measures: RollupMeasure[],
  index: Map<string, number>,
): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const m of measures) {
    const i = index.get(m.id);
    const col = i === undefined ? undefined : acc?.cols[i];
    if (m.agg === 'count') {
      out[m.id] = m.field === null ? (acc?.records ?? 0) : (col?.n ?? 0);
      continue;
    }
    if (!col || col.n === 0) {
      out[m.id] = null;
      continue;
    }
    if (m.agg === 'sum') out[m.id] = round(col.sum);
    else if (m.agg === 'avg') out[m.id] = round(col.sum / col.n);
    else if (m.agg === 'min') out[m.id] = col.min;
    else out[m.id] = col.max;
  }
  return out;
}

type OrgNode = {
  id: number;
  pid: number;
  name: string;
  type: string;
  status: number;
  orderNo: number;
  chain: number[];
};

async function tenantOrgs(db: Db, tenantId: number): Promise<Map<number, OrgNode>> {
  const rows = await db
    .selectFrom('sys_org')
    .select(['id', 'pid', 'name', 'type', 'status', 'order_no', 'full_ids'])
    .where('tenant_id', '=', tenantId)
    .where('is_delete', '=', 0)
    .execute();
  return new Map(
    rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        pid: Number(r.pid),
        name: r.name,
        type: r.type,
        status: r.status,
        orderNo: r.order_no,
        chain: r.full_ids.split(ORG_PATH_SEPARATOR).filter(Boolean).map(Number),
      },
    ]),
  );
}

/**
 * Units expected to file (docs/rollups.md): the leaf orgs inside the source's fillers audience — orgs of its
 * subtrees (the whole tenant with `all`), enterprise orgs only when it admits enterprises, a leaf having no
 * child inside that set — plus the orgs of the users it names and of the holders of the roles it names.
 */
async function expectedUnits(
  db: Db,
  source: DiyTableTable,
  orgs: Map<number, OrgNode>,
): Promise<Set<number>> {
  const audience = parseAudience(source.fillers);
  const roots = new Set(audience.orgIds);
  const inSet = new Set<number>();
  for (const org of orgs.values()) {
    if (org.status !== STATUS.enabled) continue;
    if (org.type === 'enterprise' && !audience.enterprises) continue;
    if (audience.all || org.chain.some((id) => roots.has(id))) inSet.add(org.id);
  }
  const parents = new Set<number>();
  for (const id of inSet) {
    const org = orgs.get(id);
    if (org && inSet.has(org.pid)) parents.add(org.pid);
  }
  const units = new Set([...inSet].filter((id) => !parents.has(id)));
  if (audience.userIds.length > 0 || audience.roleIds.length > 0) {
    let query = db
      .selectFrom('sys_user as u')
      .select('u.org_id')
      .distinct()
      .where('u.tenant_id', '=', source.tenant_id)
      .where('u.is_delete', '=', 0)
      .where('u.status', '=', STATUS.enabled);
    query = query.where((eb) =>
      eb.or([
        ...(audience.userIds.length ? [eb('u.id', 'in', audience.userIds)] : []),
        ...(audience.roleIds.length
          ? [
              eb(
                'u.id',
                'in',
                eb
                  .selectFrom('sys_user_role as ur')
                  .select('ur.user_id')
                  .where('ur.role_id', 'in', audience.roleIds),
              ),
            ]
          : []),
      ]),
    );
    for (const row of await query.execute()) {
      const org = row.org_id === null ? undefined : orgs.get(Number(row.org_id));
      if (org && org.status === STATUS.enabled) units.add(org.id);
    }
  }
  return units;
}

const byOrder = (a: OrgNode, b: OrgNode) => a.orderNo - b.orderNo || a.id - b.id;

function emptyRow(key: string, name: string, hasChildren: boolean, compare: boolean): RollupRow {
  return {
    key,
    name,
    hasChildren,
    figures: {},
    last: compare ? {} : null,
    lastYear: compare ? {} : null,
    records: 0,
    pending: 0,
    expectedUnits: null,
    missingUnits: null,
  };
}

/** `POST /api/diyLoad/{id}/data`. */
export async function rollupData(
  ctx: AppContext,
  user: AuthUser,
  id: number,
  input: DataInput,
  locale: Locale,
): Promise<RollupData> {
  const opened = await openRollup(ctx, user, id);
  const { config, source } = opened;
  // Sums are the source's records in another shape: a source behind a password asks for it first (F1007).
  await assertPasswordVerified(ctx, user, source.form, source.auth);
  const periodic = parsePeriodSettings(source.form.period).kind !== 'none';
  const compare = periodic && input.compare;
  // Calendar periods are made as time reaches them (the source's own lists do the same).
  if (periodic) await ensurePeriods(ctx, ctx.db, source.form);
  const periods = periodic
    ? await periodsFor(ctx.db, source.form, input.periodId, compare, locale)
    : { current: null, last: null, lastYear: null };
  const brief = (p: PeriodRef | null) => (p ? { id: p.id, name: p.name } : null);
  const base: Omit<RollupData, 'rows' | 'total' | 'path' | 'missing'> = {
    period: brief(periods.current),
    lastPeriod: brief(periods.last),
    lastYearPeriod: brief(periods.lastYear),
    outside: 0,
  };
  const columns = await columnsAt(ctx, ctx.db, source.form.id, source.form.version);
  const { names, index } = measureColumns(config, columns, source.form.version);
  const periodIds = periodic
    ? [periods.current, periods.last, periods.lastYear]
        .filter((p): p is PeriodRef => p !== null)
        .map((p) => p.id)
    : null;
  const empty = (path: RollupData['path']): RollupData => {
    const total = emptyRow('', '', false, compare);
    total.figures = figuresOf(undefined, config.measures, index);
    return { ...base, path, rows: [], total, missing: [] };
  };
  // A periodic form with no period yet has nothing to sum.
  if (periodic && !periods.current) return empty([]);

  const fold = (list: Part[], keyOf: (p: Part) => string | null) => {
    const maps = {
      current: new Map<string, Acc>(),
      last: new Map<string, Acc>(),
      lastYear: new Map<string, Acc>(),
    };
    for (const p of list) {
      const key = keyOf(p);
      if (key === null) continue;
      const which =
        !periodic || p.period === periods.current?.id
          ? maps.current
          : p.period === periods.last?.id
            ? maps.last
            : maps.lastYear;
      // The previous period may also be last year's (yearly forms): it then feeds both.
      const targets = [which];
      if (periodic && p.period === periods.last?.id && p.period === periods.lastYear?.id)
        targets.push(maps.lastYear);
      for (const target of targets) {
        let acc = target.get(key);
        if (!acc) {
          acc = new Acc(names.length);
          target.set(key, acc);
        }
        acc.add(p);
      }
    }
    return maps;
  };
  const toRow = (row: RollupRow, maps: ReturnType<typeof fold>, key: string): RollupRow => {
    const acc = maps.current.get(key);
    row.figures = figuresOf(acc, config.measures, index);
    row.records = acc?.records ?? 0;
    row.pending = acc?.pending ?? 0;
    if (compare) {
      row.last = periods.last ? figuresOf(maps.last.get(key), config.measures, index) : null;
      row.lastYear = periods.lastYear ? figuresOf(maps.lastYear.get(key), config.measures, index) : null;
    }
    return row;
  };
  const totalOf = (maps: ReturnType<typeof fold>, keys: string[]): RollupRow => {
    const sum = (m: Map<string, Acc>) => {
      const acc = new Acc(names.length);
      for (const k of keys) {
        const part = m.get(k);
        if (part) acc.add(part);
      }
      return acc;
    };
    const merged = {
      current: new Map([['', sum(maps.current)]]),
      last: new Map([['', sum(maps.last)]]),
      lastYear: new Map([['', sum(maps.lastYear)]]),
    };
    return toRow(emptyRow('', '', false, compare), merged, '');
  };

  if (config.dimension === 'region') {
    const fieldColumn = config.regionField
      ? columnFor(columns, config.regionField, source.form.version)
      : null;
    if (!fieldColumn) return empty([]);
    const column = safeColumn(fieldColumn.columnName);
    let level = config.regionLevel;
    let prefix = '';
    if (input.parent) {
      const parentLevel = REGION_CODE_LENGTH.indexOf(input.parent.length as never);
      if (parentLevel < config.regionLevel || parentLevel >= 5) return empty([]);
      level = parentLevel + 1;
      prefix = input.parent;
    }
    const length = REGION_CODE_LENGTH[level] as number;
    const list = await partials(ctx, opened, names, periodIds, { kind: 'region', column, length, prefix });
    const maps = fold(list, (p) => p.group);
    // Rows: the prefixes with records this period (with compare, also those with records only before).
    const keys = [
      ...new Set(list.filter((p) => compare || maps.current.has(p.group)).map((p) => p.group)),
    ].sort();
    const wanted = [...keys];
    const pathCodes: string[] = [];
    if (prefix) {
      for (let l = config.regionLevel; l <= level - 1; l++) {
        const code = prefix.slice(0, REGION_CODE_LENGTH[l]);
        pathCodes.push(code);
        wanted.push(code);
      }
    }
    const names_ = new Map<string, string>();
    if (wanted.length > 0) {
      const found = await ctx.db
        .selectFrom('sys_region')
        .select(['code', 'name'])
        .where('code', 'in', wanted)
        .where('is_delete', '=', 0)
        .execute();
      for (const r of found) names_.set(r.code, r.name);
    }
    const rows = keys.map((k) => toRow(emptyRow(k, names_.get(k) ?? k, level < 5, compare), maps, k));
    return {
      ...base,
      path: pathCodes.map((code) => ({ key: code, name: names_.get(code) ?? code })),
      rows,
      total: totalOf(maps, keys),
      missing: [],
    };
  }

  // Dimension org: the rows are orgs of the config's type (top) or the children of `parent`, each standing
  // for its subtree; records count under the row whose subtree holds their filing org.
  const orgs = await tenantOrgs(ctx.db, source.form.tenant_id);
  const { reach, caller } = { reach: opened.reach, caller: source.caller };
  const reachSet = new Set(reach.orgIds);
  // Orgs the caller may see figures under: their reach and every ancestor of it.
  const visible = new Set<number>();
  if (!reach.all) {
    for (const id of [...reach.orgIds, ...caller.orgIds])
      for (const a of orgs.get(id)?.chain ?? []) visible.add(a);
  }
  const canSee = (org: OrgNode) => reach.all || visible.has(org.id);
  let rowOrgs: OrgNode[];
  let path: RollupData['path'] = [];
  let parent: OrgNode | null = null;
  if (input.parent) {
    parent = orgs.get(Number(input.parent)) ?? null;
    if (!parent || !canSee(parent)) return empty([]);
    const p = parent;
    rowOrgs = [...orgs.values()].filter((o) => o.pid === p.id && canSee(o)).sort(byOrder);
    const top = p.chain.findIndex((a) => orgs.get(a)?.type === config.orgType);
    path = p.chain
      .slice(top < 0 ? p.chain.length - 1 : top)
      .map((a) => orgs.get(a))
      .filter((o): o is OrgNode => !!o)
      .map((o) => ({ key: String(o.id), name: o.name }));
  } else {
    rowOrgs = [...orgs.values()].filter((o) => o.type === config.orgType && canSee(o)).sort(byOrder);
  }
  // Drilled: the parent's own records (filed by the parent org itself) get a row of their own.
  const rowIds = new Set(rowOrgs.map((o) => o.id));
  if (parent) rowIds.add(parent.id);
  // The deepest row above an org: a child row before the parent's own row.
  const rowOf = (orgId: number): number | null => {
    const org = orgs.get(orgId);
    if (!org) return null;
    for (let i = org.chain.length - 1; i >= 0; i--) {
      const a = org.chain[i] as number;
      if (rowIds.has(a)) return a;
    }
    return null;
  };
  const list = await partials(ctx, opened, names, periodIds, { kind: 'org' });
  const maps = fold(list, (p) => {
    const r = rowOf(Number(p.group));
    return r === null ? null : String(r);
  });
  // Units that filed (a counted record in the current period) and the units expected under each row.
  const filed = new Set<number>();
  for (const p of list) {
    if (p.records > 0 && (!periodic || p.period === periods.current?.id)) filed.add(Number(p.group));
  }
  const units = await expectedUnits(ctx.db, source.form, orgs);
  const expected = new Map<number, number>();
  const missingBy = new Map<number, number>();
  const missing: { unit: OrgNode; row: number }[] = [];
  for (const unitId of units) {
    if (!reach.all && !reachSet.has(unitId)) continue;
    const row = rowOf(unitId);
    if (row === null) continue;
    expected.set(row, (expected.get(row) ?? 0) + 1);
    if (!filed.has(unitId)) {
      missingBy.set(row, (missingBy.get(row) ?? 0) + 1);
      const unit = orgs.get(unitId);
      if (unit) missing.push({ unit, row });
    }
  }
  const hasChild = new Set<number>();
  for (const o of orgs.values()) if (canSee(o)) hasChild.add(o.pid);
  const toOrgRow = (o: OrgNode, name: string, hasChildren: boolean) => {
    const row = toRow(emptyRow(String(o.id), name, hasChildren, compare), maps, String(o.id));
    row.expectedUnits = expected.get(o.id) ?? 0;
    row.missingUnits = missingBy.get(o.id) ?? 0;
    return row;
  };
  const rows = rowOrgs.map((o) => toOrgRow(o, o.name, hasChild.has(o.id)));
  if (parent) {
    const key = String(parent.id);
    const has = [maps.current, maps.last, maps.lastYear].some((m) => m.has(key)) || expected.has(parent.id);
    if (has) rows.unshift(toOrgRow(parent, `${parent.name}${OWN_SUFFIX[locale]}`, false));
  }
  const total = totalOf(
    maps,
    rows.map((r) => r.key),
  );
  total.expectedUnits = rows.reduce((s, r) => s + (r.expectedUnits ?? 0), 0);
  total.missingUnits = rows.reduce((s, r) => s + (r.missingUnits ?? 0), 0);
  const collator = new Intl.Collator('zh-CN');
  const missingList = missing
    .map(({ unit, row }) => {
      const from = unit.chain.indexOf(row);
      const names = unit.chain
        .slice(from < 0 ? unit.chain.length - 1 : from)
        .map((a) => orgs.get(a)?.name ?? '')
        .filter(Boolean);
      return { orgId: unit.id, orgName: unit.name, orgPath: names.join('/') };
    })
    .sort((a, b) => collator.compare(a.orgPath, b.orgPath))
    .slice(0, MISSING_LIMIT);
  // At the top, records of units under no row (a bureau beside the streets) are said, not silently dropped.
  const outside = parent
    ? 0
    : list
        .filter((p) => (!periodic || p.period === periods.current?.id) && rowOf(Number(p.group)) === null)
        .reduce((s, p) => s + p.records, 0);
  return { ...base, path, rows, total, missing: missingList, outside };
}
