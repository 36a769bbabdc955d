import type { RollupData, RollupRow, rollupDataInputSchema } from '@shuzhi/contracts/diy-rollup';
import type { Locale, Localized } from '@shuzhi/contracts/i18n';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../platform/context.ts';
import { columnFor, type DataColumn, safeColumn } from '../../platform/diy/data-table.ts';
import { assertPasswordVerified, parsePeriodSettings } from '../../platform/diy/form-access.ts';
import { ensurePeriods } from '../diy-period/diy-period.service.ts';
import { columnsAt } from '../diy-table/diy-table.service.ts';
import { type Opened, openRollup } from './rollup.service.ts';
import { Acc, emptyRow, figuresOf, measureColumns, type Part, partials } from './rollup-figures.ts';
import { type PeriodRef, periodsFor, trendPeriods } from './rollup-periods.ts';
import { byOrder, expectedUnits, type OrgNode, reportedUnits, tenantOrgs } from './rollup-units.ts';

type DataInput = z.output<typeof rollupDataInputSchema>;

/** Region code length per level (GB/T 2260 and the statistical division codes: 2, 4, 6, 9, 12). */
export const REGION_CODE_LENGTH = [0, 2, 4, 6, 9, 12] as const;
/** How long the partials of a closed period stay cached (they are checked against its closing time). */
const CLOSED_PARTS_TTL = 6 * 3600;
/** Units listed as missing, at most. */
const MISSING_LIMIT = 200;
/** The row of a drilled-into org's own records. */
const OWN_SUFFIX: Localized = { 'zh-CN': '（本级）', en: ' (own)', 'zh-TW': '（本級）' };

type Periods = { current: PeriodRef | null; last: PeriodRef | null; lastYear: PeriodRef | null };
/** A point of a trend: the total of the rows in one more period (the data dashboard's 12 periods). */
export type TrendPoint = { period: PeriodRef; figures: Record<string, number | null>; records: number };
type Base = Omit<RollupData, 'rows' | 'total' | 'path' | 'missing'>;
/** Folded partials by row key, for the current period, the one before and the year before. */
type Maps = { current: Map<string, Acc>; last: Map<string, Acc>; lastYear: Map<string, Acc> };

/** One call of `rollupData`: what it sums, over which periods, and the folding of partials into rows. */
class Run {
  readonly periodIds: number[] | null;
  /** The rows' totals per trend period, once the rows are known (`series`). */
  trendPoints: TrendPoint[] = [];

  constructor(
    readonly ctx: AppContext,
    readonly opened: Opened,
    readonly periodic: boolean,
    readonly compare: boolean,
    readonly periods: Periods,
    readonly base: Base,
    readonly columns: DataColumn[],
    readonly names: string[],
    readonly index: Map<string, number>,
    readonly trend: PeriodRef[] = [],
  ) {
    this.periodIds = periodic
      ? [
          ...new Set(
            [periods.current, periods.last, periods.lastYear, ...trend]
              .filter((p): p is PeriodRef => p !== null)
              .map((p) => p.id),
          ),
        ]
      : null;
  }

  /** Whether a partial is of the current period, the last one or last year's (not only of the trend). */
  isCompared(p: Part): boolean {
    return this.comparedPeriod(p.period);
  }

  comparedPeriod(id: number | null): boolean {
    const { current, last, lastYear } = this.periods;
    return !this.periodic || id === current?.id || id === last?.id || id === lastYear?.id;
  }

  /** The trend: per trend period, the partials whose row is one of `keys`, folded into the measures' figures. */
  series(list: Part[], keyOf: (p: Part) => string | null, keys: string[]): void {
    const wanted = new Set(keys);
    this.trendPoints = this.trend.map((period) => {
      const acc = new Acc(this.names.length);
      for (const p of list) {
        if (p.period !== period.id) continue;
        const key = keyOf(p);
        if (key !== null && wanted.has(key)) acc.add(p);
      }
      return { period, figures: figuresOf(acc, this.config.measures, this.index), records: acc.records };
    });
  }

  get config() {
    return this.opened.config;
  }

  empty(path: RollupData['path']): RollupData {
    const total = emptyRow('', '', false, this.compare);
    total.figures = figuresOf(undefined, this.config.measures, this.index);
    return { ...this.base, path, rows: [], total, missing: [] };
  }

  /**
   * The GROUP BY's partials. Those of closed trend periods come from the cache when they are there (a closed
   * period's records no longer change: edits, deletions, restores, returns and hand-overs are refused), keyed
   * by form, period and its closing time, the columns, the counted statuses, the grouping and the caller's
   * reach; the other periods are read. With `approved` counted nothing is cached (approvals go on in a closed
   * period).
   */
  async partials(group: Parameters<typeof partials>[4]): Promise<Part[]> {
    const { ctx, opened } = this;
    const cacheable =
      this.periodIds !== null && opened.config.statuses === 'submitted'
        ? this.trend.filter((p) => p.closedAt != null && !this.comparedPeriod(p.id))
        : [];
    if (cacheable.length === 0) return partials(ctx, opened, this.names, this.periodIds, group);
    const { reach } = opened;
    const scope = reach.all ? 'all' : `${[...reach.orgIds].sort().join(',')}|${reach.userId}`;
    const keyOf = (p: PeriodRef) =>
      `rollup-parts:${opened.source.form.id}:${p.id}:${p.closedAt}:${this.names.join(',')}:` +
      `${JSON.stringify(group)}:${scope}`;
    const cached: Part[] = [];
    const read = new Set(this.periodIds);
    const missing: PeriodRef[] = [];
    for (const p of cacheable) {
      const hit = await ctx.cache.get<Part[]>(keyOf(p));
      if (hit) {
        cached.push(...hit);
        read.delete(p.id);
      } else missing.push(p);
    }
    const list = await partials(ctx, opened, this.names, [...read], group);
    for (const p of missing)
      await ctx.cache.set(
        keyOf(p),
        list.filter((x) => x.period === p.id),
        CLOSED_PARTS_TTL,
      );
    return [...cached, ...list];
  }

  /** Whether a partial belongs to the current period (always, without periods). */
  isCurrent(p: Part): boolean {
    return !this.periodic || p.period === this.periods.current?.id;
  }

  fold(list: Part[], keyOf: (p: Part) => string | null): Maps {
    const { periods, periodic } = this;
    const maps: Maps = { current: new Map(), last: new Map(), lastYear: new Map() };
    for (const p of list) {
      // Partials of trend-only periods are folded by `series`.
      if (!this.isCompared(p)) continue;
      const key = keyOf(p);
      if (key === null) continue;
      const which = this.isCurrent(p)
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
          acc = new Acc(this.names.length);
          target.set(key, acc);
        }
        acc.add(p);
      }
    }
    return maps;
  }

  toRow(row: RollupRow, maps: Maps, key: string): RollupRow {
    const { measures } = this.config;
    const acc = maps.current.get(key);
    row.figures = figuresOf(acc, measures, this.index);
    row.records = acc?.records ?? 0;
    row.pending = acc?.pending ?? 0;
    if (this.compare) {
      row.last = this.periods.last ? figuresOf(maps.last.get(key), measures, this.index) : null;
      row.lastYear = this.periods.lastYear ? figuresOf(maps.lastYear.get(key), measures, this.index) : null;
    }
    return row;
  }

  totalOf(maps: Maps, keys: string[]): RollupRow {
    const sum = (m: Map<string, Acc>) => {
      const acc = new Acc(this.names.length);
      for (const k of keys) {
        const part = m.get(k);
        if (part) acc.add(part);
      }
      return acc;
    };
    const merged: Maps = {
      current: new Map([['', sum(maps.current)]]),
      last: new Map([['', sum(maps.last)]]),
      lastYear: new Map([['', sum(maps.lastYear)]]),
    };
    return this.toRow(emptyRow('', '', false, this.compare), merged, '');
  }
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
  return (await rollupFigures(ctx, user, opened, input, locale)).data;
}

/**
 * The figures of an opened roll-up (or of a form read as one, by the data dashboard) for the caller; with
 * `trendLength`, also the rows' totals over that many periods up to the current one (oldest first), from
 * the same GROUP BY.
 */
export async function rollupFigures(
  ctx: AppContext,
  user: AuthUser,
  opened: Opened,
  input: DataInput,
  locale: Locale,
  trendLength = 0,
): Promise<{ data: RollupData; trend: TrendPoint[] }> {
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
  const base: Base = {
    period: brief(periods.current),
    lastPeriod: brief(periods.last),
    lastYearPeriod: brief(periods.lastYear),
    outside: 0,
  };
  const columns = await columnsAt(ctx, ctx.db, source.form.id, source.form.version);
  const { names, index } = measureColumns(config, columns, source.form.version);
  const trend =
    periodic && periods.current && trendLength > 0
      ? await trendPeriods(ctx.db, source.form, periods.current, trendLength, locale)
      : [];
  const run = new Run(ctx, opened, periodic, compare, periods, base, columns, names, index, trend);
  // A periodic form with no period yet has nothing to sum.
  if (periodic && !periods.current) return { data: run.empty([]), trend: [] };
  const data = await (config.dimension === 'region' ? regionData(run, input) : orgData(run, input, locale));
  return { data, trend: run.trendPoints };
}

/** Rows by region: the region codes' prefixes at the configured level, or under the drilled-into region. */
async function regionData(run: Run, input: DataInput): Promise<RollupData> {
  const { config, opened, compare } = run;
  const source = opened.source.form;
  const fieldColumn = config.regionField ? columnFor(run.columns, config.regionField, source.version) : null;
  if (!fieldColumn) return run.empty([]);
  const column = safeColumn(fieldColumn.columnName);
  let level = config.regionLevel;
  let prefix = '';
  if (input.parent) {
    const parentLevel = REGION_CODE_LENGTH.indexOf(input.parent.length as never);
    if (parentLevel < config.regionLevel || parentLevel >= 5) return run.empty([]);
    level = parentLevel + 1;
    prefix = input.parent;
  }
  const length = REGION_CODE_LENGTH[level] as number;
  const list = await run.partials({ kind: 'region', column, length, prefix });
  const maps = run.fold(list, (p) => p.group);
  // Rows: the prefixes with records this period (with compare, also those with records only before).
  const keys = [
    ...new Set(
      list.filter((p) => run.isCompared(p) && (compare || maps.current.has(p.group))).map((p) => p.group),
    ),
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
  const names = new Map<string, string>();
  if (wanted.length > 0) {
    const found = await run.ctx.db
      .selectFrom('sys_region')
      .select(['code', 'name'])
      .where('code', 'in', wanted)
      .where('is_delete', '=', 0)
      .execute();
    for (const r of found) names.set(r.code, r.name);
  }
  const rows = keys.map((k) => run.toRow(emptyRow(k, names.get(k) ?? k, level < 5, compare), maps, k));
  run.series(list, (p) => p.group, keys);
  return {
    ...run.base,
    path: pathCodes.map((code) => ({ key: code, name: names.get(code) ?? code })),
    rows,
    total: run.totalOf(maps, keys),
    missing: [],
  };
}

/**
 * Rows by org: orgs of the config's type (top) or the children of `parent`, each standing for its subtree;
 * records count under the row whose subtree holds their filing org. Each row says how many units are
 * expected to file under it and how many have not.
 */
async function orgData(run: Run, input: DataInput, locale: Locale): Promise<RollupData> {
  const { config, opened, compare } = run;
  const orgs = await tenantOrgs(run.ctx.db, opened.source.form.tenant_id);
  const { reach } = opened;
  const caller = opened.source.caller;
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
    if (!parent || !canSee(parent)) return run.empty([]);
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
  const list = await run.partials({ kind: 'org' });
  const rowKey = (p: Part) => {
    const r = rowOf(Number(p.group));
    return r === null ? null : String(r);
  };
  const maps = run.fold(list, rowKey);
  const units = await unitsByRow(run, orgs, list, rowOf);
  const hasChild = new Set<number>();
  for (const o of orgs.values()) if (canSee(o)) hasChild.add(o.pid);
  const toOrgRow = (o: OrgNode, name: string, hasChildren: boolean) => {
    const row = run.toRow(emptyRow(String(o.id), name, hasChildren, compare), maps, String(o.id));
    row.expectedUnits = units.expected.get(o.id) ?? 0;
    row.missingUnits = units.missingBy.get(o.id) ?? 0;
    return row;
  };
  const rows = rowOrgs.map((o) => toOrgRow(o, o.name, hasChild.has(o.id)));
  if (parent) {
    const key = String(parent.id);
    const has =
      [maps.current, maps.last, maps.lastYear].some((m) => m.has(key)) || units.expected.has(parent.id);
    if (has) rows.unshift(toOrgRow(parent, `${parent.name}${OWN_SUFFIX[locale]}`, false));
  }
  const rowKeys = rows.map((r) => r.key);
  const total = run.totalOf(maps, rowKeys);
  run.series(list, rowKey, rowKeys);
  total.expectedUnits = rows.reduce((s, r) => s + (r.expectedUnits ?? 0), 0);
  total.missingUnits = rows.reduce((s, r) => s + (r.missingUnits ?? 0), 0);
  // At the top, records of units under no row (a bureau beside the streets) are said, not silently dropped.
  const outside = parent
    ? 0
    : list
        .filter((p) => run.isCurrent(p) && rowOf(Number(p.group)) === null)
        .reduce((s, p) => s + p.records, 0);
  return { ...run.base, path, rows, total, missing: missingList(units.missing, orgs), outside };
}

/**
 * The units expected to file (in the caller's reach) counted under their rows, those that have not reported
 * (no counted record of theirs or of a unit below them in the current period) counted and listed.
 */
async function unitsByRow(
  run: Run,
  orgs: Map<number, OrgNode>,
  list: Part[],
  rowOf: (orgId: number) => number | null,
) {
  const { reach } = run.opened;
  const reachSet = new Set(reach.orgIds);
  const filed = new Set<number>();
  for (const p of list) if (p.records > 0 && run.isCurrent(p)) filed.add(Number(p.group));
  const reported = reportedUnits(filed, orgs);
  const expected = new Map<number, number>();
  const missingBy = new Map<number, number>();
  const missing: { unit: OrgNode; row: number }[] = [];
  for (const unitId of await expectedUnits(run.ctx.db, run.opened.source.form, orgs)) {
    if (!reach.all && !reachSet.has(unitId)) continue;
    const row = rowOf(unitId);
    if (row === null) continue;
    expected.set(row, (expected.get(row) ?? 0) + 1);
    if (!reported.has(unitId)) {
      missingBy.set(row, (missingBy.get(row) ?? 0) + 1);
      const unit = orgs.get(unitId);
      if (unit) missing.push({ unit, row });
    }
  }
  return { expected, missingBy, missing };
}

/** The units that have not filed, with their path from their row down, by path, at most `MISSING_LIMIT`. */
function missingList(missing: { unit: OrgNode; row: number }[], orgs: Map<number, OrgNode>) {
  const collator = new Intl.Collator('zh-CN');
  return missing
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
}
