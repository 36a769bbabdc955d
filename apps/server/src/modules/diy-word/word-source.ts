import { type AnyField, REPORT_TYPE, valueFields } from '@shuzhi/contracts/diy-form';
import type { QueryCell, QueryRunInput } from '@shuzhi/contracts/diy-query';
import type { RollupRow } from '@shuzhi/contracts/diy-rollup';
import type { DiyRecord } from '@shuzhi/contracts/diy-table';
import { WORD_BULLETIN_MAX_ROWS, type WordName, type WordSourceKind } from '@shuzhi/contracts/diy-word';
import type { Locale } from '@shuzhi/contracts/i18n';
import type { DiyTableTable } from '../../db/schema.ts';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { formatDate } from '../../platform/db/time.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { openForm, requireQuery } from '../diy-data/diy-data.service.ts';
import { openQuery } from '../diy-query/query.service.ts';
import { runPage } from '../diy-query/query-run.ts';
import { openRollup } from '../diy-rollup/rollup.service.ts';
import { rollupFigures } from '../diy-rollup/rollup-data.ts';
import { STORED } from './word-docx.ts';

/**
 * What a template may name, by source (docs/word-documents.md "Placeholders"), and the values a generation
 * fills in: a record's fields and sub-table rows; a roll-up's figures this period, last period and the change,
 * in total and by row; a query report's rows and totals. Every value is read through the source's own opening
 * (`openForm`, `openRollup`, `openQuery`), so the caller's rights and data scope apply as on the source's page.
 */

type Texts = Record<Locale, string>;
type QueryParams = NonNullable<QueryRunInput['params']>;
const SYSTEM: Record<string, Texts> = {
  $title: { 'zh-CN': '标题', en: 'Title', 'zh-TW': '標題' },
  $today: { 'zh-CN': '生成日期', en: 'Date generated', 'zh-TW': '產生日期' },
  $org: { 'zh-CN': '填报单位', en: 'Filing unit', 'zh-TW': '填報單位' },
  $period: { 'zh-CN': '周期', en: 'Period', 'zh-TW': '週期' },
  $lastPeriod: { 'zh-CN': '上期', en: 'Last period', 'zh-TW': '上期' },
  $dataNo: { 'zh-CN': '编号', en: 'Number', 'zh-TW': '編號' },
  $submitTime: { 'zh-CN': '提交时间', en: 'Submitted', 'zh-TW': '提交時間' },
  $user: { 'zh-CN': '填报人', en: 'Filed by', 'zh-TW': '填報人' },
  $count: { 'zh-CN': '行数', en: 'Rows', 'zh-TW': '列數' },
  $records: { 'zh-CN': '记录数', en: 'Records', 'zh-TW': '記錄數' },
  rows: { 'zh-CN': '各行（循环）', en: 'Rows (loop)', 'zh-TW': '各列（迴圈）' },
  name: { 'zh-CN': '名称', en: 'Name', 'zh-TW': '名稱' },
  records: { 'zh-CN': '记录数', en: 'Records', 'zh-TW': '記錄數' },
  last: { 'zh-CN': '上期', en: 'last period', 'zh-TW': '上期' },
  change: { 'zh-CN': '增减', en: 'change', 'zh-TW': '增減' },
  pct: { 'zh-CN': '增减率', en: 'change in %', 'zh-TW': '增減率' },
  total: { 'zh-CN': '合计', en: 'total', 'zh-TW': '合計' },
};

const value = (name: string, label: string): WordName => ({ name, label, kind: 'value', inner: [] });
const system = (name: string, locale: Locale) => value(name, (SYSTEM[name] as Texts)[locale]);

export const sourceKindOf = (form: Pick<DiyTableTable, 'report_type'>): WordSourceKind | null =>
  form.report_type === REPORT_TYPE.form
    ? 'form'
    : form.report_type === REPORT_TYPE.load2
      ? 'rollup'
      : form.report_type === REPORT_TYPE.load3
        ? 'query'
        : null;

/** A refusal of the source's own opening that means "no such source for you": W1001. */
const NOT_YOURS = new Set(['F1000', 'F1001', 'F1002', 'F1040', 'Q1000', 'Q1001']);

/** Runs a source's opening, answering W1001 for a source the caller may not use. */
export async function asSource<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AppError && NOT_YOURS.has(error.code)) throw new AppError('W1001');
    throw error;
  }
}

/**
 * The names a template of the source may use, opened as the caller (W1001 when they may not), and the form
 * whose periods a generation picks from (the form itself, a roll-up's source; none for a query report).
 */
export async function namesOf(
  ctx: AppContext,
  user: AuthUser,
  form: DiyTableTable,
  kind: WordSourceKind,
  locale: Locale,
): Promise<{ names: WordName[]; periodTableId: number | null }> {
  const common = [system('$title', locale), system('$today', locale)];
  if (kind === 'form') {
    const open = await asSource(() => openForm(ctx, user, form.id));
    if (!open.auth.query) throw new AppError('W1001');
    const fields = valueFields(open.design).map(
      (f): WordName =>
        f.type === 'subTable'
          ? {
              name: f.id,
              label: f.label,
              kind: 'loop',
              inner: (f.columns ?? []).map((c: AnyField) => ({ name: c.id, label: c.label })),
            }
          : value(f.id, f.label),
    );
    const sys = ['$org', '$period', '$dataNo', '$submitTime', '$user'].map((n) => system(n, locale));
    return { names: [...common, ...sys, ...fields], periodTableId: form.id };
  }
  if (kind === 'rollup') {
    const { config, source } = await asSource(() => openRollup(ctx, user, form.id));
    const figures = config.measures.flatMap((m) => [
      { name: m.id, label: m.label },
      { name: `${m.id}_last`, label: `${m.label}（${(SYSTEM.last as Texts)[locale]}）` },
      { name: `${m.id}_change`, label: `${m.label}（${(SYSTEM.change as Texts)[locale]}）` },
      { name: `${m.id}_pct`, label: `${m.label}（${(SYSTEM.pct as Texts)[locale]}）` },
    ]);
    const rowNames = [
      { name: 'name', label: (SYSTEM.name as Texts)[locale] },
      { name: 'records', label: (SYSTEM.records as Texts)[locale] },
      ...figures,
    ];
    const names: WordName[] = [
      ...common,
      ...['$period', '$lastPeriod', '$records'].map((n) => system(n, locale)),
      ...figures.map((f) => value(f.name, f.label)),
      { name: 'rows', label: (SYSTEM.rows as Texts)[locale], kind: 'loop', inner: rowNames },
    ];
    return { names, periodTableId: source.form.id };
  }
  const { plan } = await asSource(() => openQuery(ctx, user, form.id, locale));
  const shown = plan.columns.filter((c) => !c.hidden);
  const totals = shown
    .filter((c) => c.kind === 'number')
    .map((c) => value(`total_${c.id}`, `${c.label}（${(SYSTEM.total as Texts)[locale]}）`));
  const names: WordName[] = [
    ...common,
    system('$count', locale),
    ...totals,
    {
      name: 'rows',
      label: (SYSTEM.rows as Texts)[locale],
      kind: 'loop',
      inner: shown.map((c) => ({ name: c.id, label: c.label })),
    },
  ];
  return { names, periodTableId: null };
}

// ---------------------------------------------------------------------------------------------------------
// Values

const today = () => formatDate(new Date());

/** A value as the document prints it: numbers as they are, lists joined, nothing as empty. */
function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(text).join('、');
  if (typeof v === 'object') return '';
  return String(v);
}

const optionLabel = (field: AnyField, v: unknown): string => {
  const items = field.options?.source === 'options' ? field.options.items : null;
  if (!items) return text(v);
  const label = (one: unknown) => items.find((i) => i.value === String(one))?.label ?? text(one);
  return Array.isArray(v) ? v.map(label).join('、') : v === null || v === undefined ? '' : label(v);
};

/** A record's values for its template: labels of coded values, sub-table rows as lists. */
export async function recordData(
  ctx: AppContext,
  user: AuthUser,
  form: DiyTableTable,
  record: DiyRecord,
): Promise<Record<string, unknown>> {
  const open = await asSource(() => openForm(ctx, user, form.id));
  requireQuery(open);
  const data: Record<string, unknown> = {
    $title: form.title,
    $today: today(),
    $org: record.createOrgName ?? '',
    $period: record.periodName ?? '',
    $dataNo: record.dataNo ?? '',
    $submitTime: record.submitTime ?? '',
    $user: record.createUserName ?? '',
  };
  const stored: Record<string, unknown> = {};
  for (const field of valueFields(open.design)) {
    const v = record.values[field.id];
    if (field.type === 'subTable') {
      const rows = Array.isArray(v) ? (v as Record<string, unknown>[]) : [];
      data[field.id] = rows.map((row) => {
        const columns = field.columns ?? [];
        const printed: Record<string | symbol, unknown> = Object.fromEntries(
          columns.map((c: AnyField) => [c.id, optionLabel(c, row?.[c.id])]),
        );
        printed[STORED] = Object.fromEntries(columns.map((c: AnyField) => [c.id, text(row?.[c.id])]));
        return printed;
      });
    } else {
      data[field.id] = record.labels[field.id] ?? optionLabel(field, v);
      stored[field.id] = text(v);
    }
  }
  return Object.assign(data, { [STORED]: stored });
}

const figure = (v: number | null | undefined) =>
  v === null || v === undefined ? '' : String(Math.round(v * 100) / 100);

function figuresOf(row: RollupRow, measures: readonly { id: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of measures) {
    const now = row.figures[m.id] ?? null;
    const last = row.last?.[m.id] ?? null;
    out[m.id] = figure(now);
    out[`${m.id}_last`] = figure(last);
    out[`${m.id}_change`] = now === null || last === null ? '' : figure(now - last);
    out[`${m.id}_pct`] =
      now === null || last === null || last === 0 ? '' : `${(((now - last) / last) * 100).toFixed(1)}%`;
  }
  return out;
}

/** A roll-up's bulletin values: this period, last period and the change, in total and by row. */
export async function rollupBulletin(
  ctx: AppContext,
  user: AuthUser,
  form: DiyTableTable,
  periodId: number | undefined,
  locale: Locale,
): Promise<{ data: Record<string, unknown>; periodId: number | null }> {
  const opened = await asSource(() => openRollup(ctx, user, form.id));
  const { data } = await rollupFigures(ctx, user, opened, { periodId, compare: true }, locale);
  const measures = opened.config.measures;
  return {
    periodId: data.period?.id ?? null,
    data: {
      $title: form.title,
      $today: today(),
      $period: data.period?.name ?? '',
      $lastPeriod: data.lastPeriod?.name ?? '',
      $records: String(data.total.records),
      ...figuresOf(data.total, measures),
      rows: data.rows.map((row) => ({
        name: row.name,
        records: String(row.records),
        ...figuresOf(row, measures),
      })),
    },
  };
}

/** A query report's bulletin values: its rows (at most WORD_BULLETIN_MAX_ROWS, else W1010) and totals. */
export async function queryBulletin(
  ctx: AppContext,
  user: AuthUser,
  form: DiyTableTable,
  params: QueryParams,
  locale: Locale,
): Promise<Record<string, unknown>> {
  const { plan } = await asSource(() => openQuery(ctx, user, form.id, locale));
  const page = await runPage(ctx, plan, params, 1, WORD_BULLETIN_MAX_ROWS, locale);
  if (page.count > WORD_BULLETIN_MAX_ROWS) throw new AppError('W1010', { max: WORD_BULLETIN_MAX_ROWS });
  const shown = plan.columns.filter((c) => !c.hidden);
  const cell = (v: QueryCell | undefined) => text(v);
  const data: Record<string, unknown> = {
    $title: form.title,
    $today: today(),
    $count: String(page.count),
    rows: page.rows
      .filter((r) => r.kind === 'row')
      .map((r) => Object.fromEntries(shown.map((c) => [c.id, cell(r.cells[c.id])]))),
  };
  for (const c of shown) if (c.kind === 'number') data[`total_${c.id}`] = cell(page.total[c.id]);
  return data;
}
