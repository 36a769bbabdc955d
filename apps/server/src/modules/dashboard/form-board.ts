import {
  BOARD_TREND_LENGTH,
  type BoardData,
  type BoardItem,
  type boardDataInputSchema,
} from '@shuzhi/contracts/dashboard';
import { REPORT_TYPE, valueFields } from '@shuzhi/contracts/diy-form';
import type { RollupConfig } from '@shuzhi/contracts/diy-rollup';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formWithAuth, parsePeriodSettings, recordReach } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { MEASURE_TYPES, type Opened, openRollup } from '../diy-rollup/rollup.service.ts';
import { rollupFigures } from '../diy-rollup/rollup-data.ts';
import { tableList, versionDesign } from '../diy-table/diy-table.service.ts';

type Input = z.output<typeof boardDataInputSchema>;

/** Measures of a form's dashboard: the record count, then the sums of its number fields (at most 20 in all). */
const MAX_MEASURES = 20;
const COUNT_LABEL = { 'zh-CN': '报送份数', en: 'Records', 'zh-TW': '報送份數' } as const;

/**
 * The data dashboard of a form or a roll-up (issue 20 §2, docs/dashboards.md). A roll-up is opened as its
 * page opens it (`openRollup`: its viewers and admins, then its source); a report form is read as a roll-up
 * of itself — a record count and the sum of each top-level number field, by org level — for those who may
 * query its records. Either way the figures are the roll-up module's (`rollupFigures`: one GROUP BY over
 * the data table, the caller's record reach, tenant and live records), so a figure on the dashboard is the
 * roll-up's figure for the same filter.
 */
export async function openBoard(
  ctx: AppContext,
  user: AuthUser,
  input: Input,
  locale: Locale,
): Promise<Opened> {
  const { form, auth, caller } = await formWithAuth(ctx, user, input.id);
  if (form.report_type === REPORT_TYPE.load2) {
    const opened = await openRollup(ctx, user, input.id);
    const config: RollupConfig = { ...opened.config };
    if (config.dimension === 'org' && input.orgType) config.orgType = input.orgType;
    if (config.dimension === 'region' && input.regionLevel) config.regionLevel = input.regionLevel;
    return { ...opened, config };
  }
  if (form.report_type !== REPORT_TYPE.form || !auth.published) throw new AppError('B1000');
  if (!auth.query) throw new AppError(auth.enabled ? 'F1000' : 'F1003');
  const design = await versionDesign(ctx, ctx.db, form.id, form.version);
  const numbers = (design ? valueFields(design) : []).filter((f) => MEASURE_TYPES.includes(f.type));
  const config: RollupConfig = {
    sourceTableId: form.id,
    dimension: 'org',
    orgType: input.orgType ?? 'street',
    regionField: null,
    regionLevel: 4,
    statuses: 'submitted',
    measures: [
      { id: 'm0', label: COUNT_LABEL[locale], agg: 'count', field: null },
      ...numbers
        .slice(0, MAX_MEASURES - 1)
        .map((f, i) => ({ id: `m${i + 1}`, label: f.label, agg: 'sum' as const, field: f.id })),
    ],
  };
  const source = { form, auth, caller };
  return { rollup: form, rollupAuth: auth, config, source, reach: recordReach(auth, caller) };
}

/** `POST /api/dashboard/form/data`. */
export async function boardData(
  ctx: AppContext,
  user: AuthUser,
  input: Input,
  locale: Locale,
): Promise<BoardData> {
  const opened = await openBoard(ctx, user, input, locale);
  const { config, rollup, source } = opened;
  const { data, trend } = await rollupFigures(
    ctx,
    user,
    opened,
    { periodId: input.periodId, parent: input.parent, compare: true },
    locale,
    BOARD_TREND_LENGTH,
  );
  return {
    id: rollup.id,
    title: rollup.title,
    reportType: rollup.report_type,
    sourceTableId: source.form.id,
    periodic: parsePeriodSettings(source.form.period).kind !== 'none',
    dimension: config.dimension,
    orgType: config.orgType,
    regionLevel: config.regionLevel,
    regionField: config.dimension === 'region' ? (config.regionField ?? null) : null,
    measures: config.measures.map(({ id, label, agg }) => ({ id, label, agg })),
    data,
    trend: trend.map((p) => ({
      periodId: p.period.id,
      name: p.period.name,
      figures: p.figures,
      records: p.records,
    })),
  };
}

/** `GET /api/dashboard/form/list`: the published forms and roll-ups whose records the caller may query. */
export async function boardList(ctx: AppContext, user: AuthUser, locale: Locale): Promise<BoardItem[]> {
  const items = await tableList(ctx, user, {}, locale);
  return items
    .filter(
      (item) =>
        (item.reportType === REPORT_TYPE.form || item.reportType === REPORT_TYPE.load2) && item.myAuth.query,
    )
    .map(({ id, title, reportType }) => ({ id, title, reportType }));
}

/**
 * This period's progress of a periodic form the caller administers (the home page): the roll-up's figures
 * of the form at district level — its total holds every unit of the tenant's tree in the caller's reach —
 * counting records; null when the caller does not administer it or it has no period yet.
 */
export async function formProgress(ctx: AppContext, user: AuthUser, id: number, locale: Locale) {
  const opened = await openBoard(ctx, user, { id, orgType: 'district' }, locale);
  if (!opened.source.auth.admin) return null;
  const counted: Opened = {
    ...opened,
    config: { ...opened.config, measures: [opened.config.measures[0] as never] },
  };
  const { data } = await rollupFigures(ctx, user, counted, { compare: false }, locale);
  if (!data.period) return null;
  return {
    period: data.period,
    records: data.total.records + data.outside,
    pending: data.total.pending,
    expected: data.total.expectedUnits ?? 0,
    missing: data.total.missingUnits ?? 0,
  };
}
