import {
  COCKPIT_ALERTS,
  COCKPIT_LATEST,
  COCKPIT_MAX_FORMS,
  type CockpitConfig,
  type CockpitData,
  type CockpitForm,
} from '@shuzhi/contracts/cockpit';
import { RECORD_STATUS, REPORT_TYPE } from '@shuzhi/contracts/diy-form';
import type { FormItem } from '@shuzhi/contracts/diy-table';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDateTime } from '../../platform/db/time.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import type { RecordReach } from '../../platform/diy/form-access.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { openBoard } from '../dashboard/form-board.ts';
import { rollupFigures } from '../diy-rollup/rollup-data.ts';
import { tableList } from '../diy-table/form-items.ts';
import { cockpitWeather } from './cockpit-weather.ts';

const COUNTED = [RECORD_STATUS.submitted, RECORD_STATUS.approved];
/** Key figures per form, at most (the record count and the first sums). */
const FIGURES_PER_FORM = 4;

type Latest = NonNullable<CockpitData['latest']>[number];
type Alert = NonNullable<CockpitData['alerts']>[number];
type FormRead = {
  form: CockpitForm;
  /** Counted records read for the on-time share (the same as `records` unless some have no org). */
  counted: number;
  districts: Map<string, number>;
  latest: Latest[];
  alerts: Alert[];
};

/** The forms on the cockpit: the configured ones the viewer may query, or else their first 8 periodic forms. */
function chosenForms(items: FormItem[], config: CockpitConfig): FormItem[] {
  const readable = items.filter((i) => i.reportType === REPORT_TYPE.form && i.myAuth.query);
  if (config.formIds.length > 0) {
    const byId = new Map(readable.map((i) => [i.id, i]));
    return config.formIds.map((id) => byId.get(id)).filter((i): i is FormItem => i !== undefined);
  }
  return readable.filter((i) => i.periodKind !== 'none').slice(0, COCKPIT_MAX_FORMS);
}

/** Only the records in the caller's reach (the roll-up's own rule, `rollup-figures.ts`). */
function inReach<Q extends { where: (...args: never[]) => Q }>(query: Q, reach: RecordReach): Q {
  if (reach.all) return query;
  // biome-ignore lint/suspicious/noExplicitAny: the data table's builder, whose row type is dynamic.
  return (query as any).where((eb: any) =>
    reach.orgIds.length > 0
      ? eb.or([eb('create_org_id', 'in', reach.orgIds), eb('create_user_id', '=', reach.userId)])
      : eb('create_user_id', '=', reach.userId),
  );
}

/**
 * One form's part of the cockpit: the roll-up's figures at district level for the period (records, expected
 * and reported units, the key figures against the last period, the districts' counts for the map, the units
 * still missing), then two small reads of the same records — how many were filed by the due date (`late` = 0)
 * and the latest submissions.
 */
async function readForm(ctx: AppContext, user: AuthUser, item: FormItem, locale: Locale): Promise<FormRead> {
  const opened = await openBoard(ctx, user, { id: item.id, orgType: 'district' }, locale);
  const { data } = await rollupFigures(ctx, user, opened, { compare: true }, locale);
  const periodId = data.period?.id ?? null;
  const table = opened.source.form;
  const base = () => {
    let q = recordsOf(ctx.db, table.id)
      .where('tenant_id', '=', table.tenant_id)
      .where('is_delete', '=', 0)
      .where('status', 'in', COUNTED);
    if (periodId !== null) q = q.where('period_id', '=', periodId);
    return inReach(q, opened.reach);
  };
  const late = await base()
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('late').as('late')])
    .executeTakeFirst();
  const latest = await base()
    .select(['create_org_name', 'create_user_name', 'submit_time'])
    .where('submit_time', 'is not', null)
    .orderBy('submit_time', 'desc')
    .limit(COCKPIT_LATEST)
    .execute();
  const counted = Number(late?.n ?? 0);
  const records = data.total.records + data.outside;
  const expected = data.total.expectedUnits ?? 0;
  const today = formatDateTime().slice(0, 10);
  const period =
    periodId === null
      ? undefined
      : await ctx.db
          .selectFrom('diy_table_period')
          .select('due_date')
          .where('id', '=', periodId)
          .executeTakeFirst();
  const due = period?.due_date ?? null;
  const measures = opened.config.measures.slice(0, FIGURES_PER_FORM);
  return {
    form: {
      tableId: item.id,
      title: item.title,
      periodName: data.period?.name ?? null,
      dueDate: due,
      records,
      expectedUnits: expected,
      reportedUnits: expected - (data.total.missingUnits ?? 0),
      onTime: counted - Number(late?.late ?? 0),
      figures: measures.map((m) => ({
        label: m.label,
        value: data.total.figures[m.id] ?? null,
        last: data.total.last?.[m.id] ?? null,
      })),
    },
    counted,
    districts: new Map(data.rows.map((r) => [r.name, r.records])),
    latest: latest.map((r) => ({
      tableId: item.id,
      title: item.title,
      orgName: r.create_org_name ?? r.create_user_name ?? '',
      submitTime: String(r.submit_time),
    })),
    alerts:
      due && due < today && data.period
        ? data.missing.map((m) => ({
            tableId: item.id,
            title: item.title,
            periodName: data.period?.name ?? '',
            dueDate: due,
            orgName: m.orgName,
          }))
        : [],
  };
}

/**
 * `GET /api/cockpit/data` (issue 20 §4): every configured panel in one answer, for the caller's data scope —
 * each figure is the roll-up's (`rollupFigures`) or a read of the same records with the same reach. Panels
 * not configured are null, so a signed link shows nothing more than the admin chose.
 */
export async function cockpitData(
  ctx: AppContext,
  user: AuthUser,
  config: CockpitConfig,
  locale: Locale,
): Promise<CockpitData> {
  const on = new Set(config.panels);
  const profile = ctx.config.profile;
  const items = chosenForms(await tableList(ctx, user, {}, locale), config);
  const reads: FormRead[] = [];
  for (const item of items) {
    const read = await readForm(ctx, user, item, locale).catch((error: unknown) => {
      // A form behind a password (F1007) or closed to the viewer is left out, not a failed screen.
      if (error instanceof AppError) return null;
      throw error;
    });
    if (read) reads.push(read);
  }
  const forms = reads.map((r) => r.form);
  const sum = (pick: (f: CockpitForm) => number) => forms.reduce((n, f) => n + pick(f), 0);
  const districts = new Map<string, number>();
  for (const r of reads)
    for (const [name, n] of r.districts) districts.set(name, (districts.get(name) ?? 0) + n);
  return {
    config,
    now: formatDateTime(),
    district: profile.mapDistrict,
    city: profile.mapCity,
    forms: on.has('figures') || on.has('progress') ? forms : [],
    progress: on.has('progress')
      ? {
          expected: sum((f) => f.expectedUnits),
          reported: sum((f) => f.reportedUnits),
          records: sum((f) => f.records),
        }
      : null,
    onTime: on.has('onTime')
      ? { records: reads.reduce((n, r) => n + r.counted, 0), onTime: sum((f) => f.onTime) }
      : null,
    topForms: on.has('topForms')
      ? forms
          .map(({ tableId, title, records }) => ({ tableId, title, records }))
          .sort((a, b) => b.records - a.records || a.tableId - b.tableId)
      : null,
    latest: on.has('latest')
      ? reads
          .flatMap((r) => r.latest)
          .sort((a, b) => b.submitTime.localeCompare(a.submitTime))
          .slice(0, COCKPIT_LATEST)
      : null,
    alerts: on.has('alerts') ? reads.flatMap((r) => r.alerts).slice(0, COCKPIT_ALERTS) : null,
    districts: on.has('map') ? [...districts].map(([name, records]) => ({ name, records })) : null,
    weather: on.has('weather') ? await cockpitWeather(ctx, profile.weatherCity) : null,
  };
}
