import { CHOICE_TYPES, PICKER_TYPES } from '@shuzhi/contracts/diy-form';
import { evaluateFormula, roundTo } from '@shuzhi/contracts/diy-formula';
import type { QueryCell, QueryData, QueryRow, QueryRunInput } from '@shuzhi/contracts/diy-query';
import type { Locale } from '@shuzhi/contracts/i18n';
import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { dictLabels } from '../diy-data/diy-record-labels.ts';
import { STATUS_LABELS } from '../diy-ledger/ledger-columns.ts';
import { periodNames } from '../diy-period/diy-period.service.ts';
import { type ColumnPlan, outputName, type Plan, type ValueKind } from './query-plan.ts';
import { fromClause, whereClause } from './query-sql.ts';

/**
 * Runs a query report (docs/query-reports.md): without grouping, one row per base record (joined records beside
 * it), sorted and paged in SQL; with grouping, one row per group (GROUP BY in SQL), a subtotal after each
 * first-level group when grouping by two columns, and a grand total. Computed columns are evaluated here, on the
 * row's raw values (the aggregated ones in groups and totals), with the forms' formula language — never eval.
 * Labels (options, dictionaries, regions, orgs, users, periods, states) replace coded values last.
 */

type Params = NonNullable<QueryRunInput['params']>;
type Raw = Record<string, unknown>;
type Cells = Record<string, QueryCell>;

const NUMBER_PLACES = 6;

/** The kind a column's values take in a run: a folded column counts, whatever it folds. */
export function outKind(plan: Plan, c: ColumnPlan): ValueKind {
  if (!c.expr) return 'number';
  const grouped = plan.groupBy.length > 0 && !plan.groupBy.includes(c);
  if (grouped && (c.agg === 'count' || c.kind === 'number'))
    return c.agg === 'min' || c.agg === 'max' ? c.kind : 'number';
  return c.kind;
}

function aggregate(c: ColumnPlan): RawBuilder<unknown> {
  const expr = c.expr as RawBuilder<unknown>;
  switch (c.agg) {
    case 'count':
      return sql`count(${expr})`;
    case 'avg':
      return sql`avg(${expr})`;
    case 'min':
      return sql`min(${expr})`;
    case 'max':
      return sql`max(${expr})`;
    default:
      return sql`sum(${expr})`;
  }
}

const fieldColumns = (plan: Plan) => plan.columns.filter((c) => c.expr !== null);

/** Select list of a detail or grouped run. */
function selectList(plan: Plan, grouped: boolean): RawBuilder<unknown> {
  const parts = fieldColumns(plan).map((c) => {
    const value = grouped && !plan.groupBy.includes(c) ? aggregate(c) : c.expr;
    return sql`${value} as ${outputName(c.id)}`;
  });
  return sql.join(parts);
}

/** Whether the total folds a column: numbers, and with grouping the counted columns (text has no total). */
const totalled = (plan: Plan, c: ColumnPlan) =>
  !plan.groupBy.includes(c) && (c.kind === 'number' || (plan.groupBy.length > 0 && c.agg === 'count'));

/** The total's select list: folded number columns (and counts); nothing for text. */
function totalList(plan: Plan): RawBuilder<unknown> {
  const parts = fieldColumns(plan)
    .filter((c) => totalled(plan, c))
    .map((c) => sql`${aggregate(c)} as ${outputName(c.id)}`);
  return parts.length ? sql.join(parts) : sql`count(*) as ${sql.id('n')}`;
}

function orderList(plan: Plan, grouped: boolean): RawBuilder<unknown> {
  const byId = new Map(plan.columns.map((c) => [c.id, c]));
  const parts: RawBuilder<unknown>[] = [];
  const dir = (desc: boolean) => sql.raw(desc ? 'desc' : 'asc');
  if (grouped) {
    // Groups stay together: the grouped columns first (a sort naming one gives its direction).
    for (const g of plan.groupBy) {
      const s = plan.config.sort.find((x) => x.column === g.id);
      parts.push(sql`${g.expr} ${dir(s?.desc ?? false)}`);
    }
    for (const s of plan.config.sort) {
      const c = byId.get(s.column);
      if (c && !plan.groupBy.includes(c) && c.expr) parts.push(sql`${aggregate(c)} ${dir(s.desc)}`);
    }
    return sql.join(parts);
  }
  for (const s of plan.config.sort) {
    const c = byId.get(s.column);
    if (c?.expr) parts.push(sql`${c.expr} ${dir(s.desc)}`);
  }
  parts.push(sql`${sql.ref('s1.id')} asc`);
  return sql.join(parts);
}

const groupList = (plan: Plan, level = plan.groupBy.length) =>
  sql.join(plan.groupBy.slice(0, level).map((g) => g.expr as RawBuilder<unknown>));

/** Raw values as numbers where the column holds numbers (PostgreSQL answers numeric and bigint as text). */
function normalise(plan: Plan, raw: Raw): Cells {
  const cells: Cells = {};
  for (const c of fieldColumns(plan)) {
    const v = raw[c.id];
    if (v === null || v === undefined) cells[c.id] = null;
    else if (outKind(plan, c) === 'number') {
      const n = Number(v);
      cells[c.id] = Number.isFinite(n) ? roundTo(n, NUMBER_PLACES) : null;
    } else cells[c.id] = typeof v === 'number' ? v : String(v);
  }
  return cells;
}

/** Computed columns in column order (a formula sees the columns before it, computed ones included). */
function compute(plan: Plan, cells: Cells): Cells {
  for (const c of plan.columns) {
    if (!c.formula) continue;
    let value: number | string | null = null;
    try {
      value = evaluateFormula(c.formula, (path) => (path.length === 1 ? cells[path[0] as string] : null));
    } catch {
      value = null;
    }
    cells[c.id] = typeof value === 'number' ? roundTo(value, c.precision) : value;
  }
  return cells;
}

/** The page's rows: counted, paged and, with two grouped columns, with the subtotals that end on the page. */
export async function runPage(
  ctx: AppContext,
  plan: Plan,
  params: Params,
  page: number,
  pageSize: number,
  locale: Locale,
  options: { count?: boolean; labels?: boolean } = {},
): Promise<QueryData> {
  const grouped = plan.groupBy.length > 0;
  const from = fromClause(plan);
  const where = whereClause(ctx, plan, params);
  const group = grouped ? sql` group by ${groupList(plan)}` : sql``;
  const body = sql`select ${selectList(plan, grouped)} from ${from} where ${where}${group}`;
  const offset = (page - 1) * pageSize;
  const { rows } =
    await sql<Raw>`${body} order by ${orderList(plan, grouped)} limit ${pageSize + 1} offset ${offset}`.execute(
      ctx.db,
    );
  const more = rows.length > pageSize;
  const pageRows = rows.slice(0, pageSize).map((r) => compute(plan, normalise(plan, r)));
  let count = offset + rows.length;
  if (options.count !== false) {
    const counted = await sql<{ n: unknown }>`select count(*) as ${sql.id('n')} from (${body}) as q`.execute(
      ctx.db,
    );
    count = Number(counted.rows[0]?.n ?? 0);
  }
  const out: QueryRow[] = [];
  if (plan.groupBy.length === 2) {
    const first = plan.groupBy[0] as ColumnPlan;
    const next = more ? normalise(plan, rows[pageSize] as Raw)[first.id] : undefined;
    const ends = new Set<QueryCell>();
    pageRows.forEach((r, i) => {
      const after = i + 1 < pageRows.length ? pageRows[i + 1]?.[first.id] : more ? next : Symbol.for('end');
      if (after !== r[first.id]) ends.add(r[first.id] ?? null);
    });
    const subtotals = await subtotalsOf(ctx, plan, params, [...ends]);
    pageRows.forEach((r, i) => {
      out.push({ kind: 'row', cells: r });
      const key = r[first.id] ?? null;
      const after = i + 1 < pageRows.length ? pageRows[i + 1]?.[first.id] : more ? next : Symbol.for('end');
      if (after !== r[first.id]) {
        const sub = subtotals.get(key);
        if (sub) out.push({ kind: 'subtotal', cells: sub });
      }
    });
  } else for (const r of pageRows) out.push({ kind: 'row', cells: r });
  const total = page === 1 || options.count !== false ? await totalOf(ctx, plan, params) : {};
  if (options.labels !== false) await labelRows(ctx, plan, out, locale);
  // Hidden columns feed formulas only.
  for (const c of plan.columns.filter((x) => x.hidden)) {
    for (const r of out) delete r.cells[c.id];
    delete total[c.id];
  }
  return { rows: out, total, count, page, pageSize };
}

/** Subtotals of first-level groups (by the first grouped column's raw value). */
async function subtotalsOf(
  ctx: AppContext,
  plan: Plan,
  params: Params,
  keys: QueryCell[],
): Promise<Map<QueryCell, Cells>> {
  const out = new Map<QueryCell, Cells>();
  if (keys.length === 0) return out;
  const first = plan.groupBy[0] as ColumnPlan;
  const expr = first.expr as RawBuilder<unknown>;
  const values = keys.filter((k) => k !== null);
  const match = [
    ...(values.length ? [sql`${expr} in (${sql.join(values)})`] : []),
    ...(keys.includes(null) ? [sql`${expr} is null`] : []),
  ];
  const { rows } =
    await sql<Raw>`select ${expr} as ${outputName(first.id)}, ${totalList(plan)} from ${fromClause(plan)} where ${whereClause(ctx, plan, params)} and (${sql.join(match, sql` or `)}) group by ${expr}`.execute(
      ctx.db,
    );
  for (const r of rows) {
    const cells = compute(plan, normalise(plan, r));
    // Keys come back as the driver gives them; matched to the page's normalised keys by text.
    const key = keys.find((k) => String(k) === String(cells[first.id])) ?? cells[first.id] ?? null;
    cells[first.id] = key;
    out.set(key, cells);
  }
  return out;
}

/** The grand total over every row the parameters leave. */
async function totalOf(ctx: AppContext, plan: Plan, params: Params): Promise<Cells> {
  const { rows } =
    await sql<Raw>`select ${totalList(plan)} from ${fromClause(plan)} where ${whereClause(ctx, plan, params)}`.execute(
      ctx.db,
    );
  const raw = rows[0] ?? {};
  const cells: Cells = {};
  for (const c of fieldColumns(plan)) {
    const v = raw[c.id];
    const summed = !plan.groupBy.includes(c) && (c.kind === 'number' || c.agg === 'count');
    cells[c.id] =
      summed && v !== null && v !== undefined && Number.isFinite(Number(v))
        ? roundTo(Number(v), NUMBER_PLACES)
        : null;
  }
  return compute(plan, cells);
}

const listOf = (v: QueryCell): string[] => {
  if (typeof v === 'string' && v.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(v);
      if (Array.isArray(parsed)) return parsed.map(String);
    } catch {
      return [v];
    }
  }
  return v === null ? [] : [String(v)];
};

/** Coded values of shown (not folded) columns → their labels, in place. */
async function labelRows(ctx: AppContext, plan: Plan, rows: QueryRow[], locale: Locale): Promise<void> {
  const shown = fieldColumns(plan).filter((c) => plan.groupBy.length === 0 || plan.groupBy.includes(c));
  const want = {
    orgs: new Set<string>(),
    users: new Set<string>(),
    regions: new Set<string>(),
    periods: new Set<number>(),
  };
  const dicts = new Set<string>();
  for (const c of shown) {
    for (const r of rows) {
      const v = r.cells[c.id] ?? null;
      if (v === null) continue;
      if (c.system === '$period') want.periods.add(Number(v));
      else if (c.field?.type === 'region') want.regions.add(String(v));
      else if (c.field?.type === 'user') for (const x of listOf(v)) want.users.add(x);
      else if (c.field && PICKER_TYPES.includes(c.field.type)) for (const x of listOf(v)) want.orgs.add(x);
    }
    if (c.field?.options?.source === 'dict') dicts.add(c.field.options.dictCode);
  }
  const ids = (set: Set<string>) => [...set].map(Number).filter(Number.isSafeInteger);
  const [orgs, users, regions, periods, dictMaps] = await Promise.all([
    want.orgs.size
      ? ctx.db.selectFrom('sys_org').select(['id', 'name']).where('id', 'in', ids(want.orgs)).execute()
      : [],
    want.users.size
      ? ctx.db
          .selectFrom('sys_user')
          .select(['id', 'real_name as name'])
          .where('id', 'in', ids(want.users))
          .execute()
      : [],
    want.regions.size
      ? ctx.db
          .selectFrom('sys_region')
          .select(['code', 'full_name'])
          .where('code', 'in', [...want.regions])
          .execute()
      : [],
    want.periods.size ? periodNames(ctx.db, [...want.periods], locale) : new Map<number, string>(),
    dictLabels(ctx.db, [...dicts]),
  ]);
  const orgNames = new Map(orgs.map((o) => [String(o.id), o.name]));
  const userNames = new Map(users.map((u) => [String(u.id), u.name]));
  const regionNames = new Map(regions.map((r) => [r.code, r.full_name ?? r.code]));
  for (const c of shown) {
    const field = c.field;
    let map: Map<string, string> | null = null;
    if (c.system === '$period') map = new Map([...periods].map(([id, name]) => [String(id), name]));
    else if (c.system === '$status')
      map = new Map(Object.entries(STATUS_LABELS).map(([k, v]) => [k, v[locale]]));
    else if (field?.type === 'region') map = regionNames;
    else if (field?.type === 'user') map = userNames;
    else if (field && PICKER_TYPES.includes(field.type)) map = orgNames;
    else if (field && CHOICE_TYPES.includes(field.type) && field.options)
      map =
        field.options.source === 'options'
          ? new Map(field.options.items.map((o) => [o.value, o.label]))
          : (dictMaps.get(field.options.dictCode) ?? null);
    if (!map) continue;
    const labels = map;
    for (const r of rows) {
      const v = r.cells[c.id] ?? null;
      if (v === null) continue;
      r.cells[c.id] = listOf(v)
        .map((x) => labels.get(x) ?? x)
        .join('、');
    }
  }
}
