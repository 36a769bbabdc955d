import type { RollupConfig, RollupMeasure, RollupRow } from '@shuzhi/contracts/diy-rollup';
import { type AliasedRawBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { AppContext } from '../../platform/context.ts';
import { columnFor, type DataColumn, safeColumn } from '../../platform/diy/data-table.ts';
import { recordsOf } from '../../platform/diy/dynamic-table.ts';
import type { Opened } from './rollup.service.ts';

/**
 * A roll-up's figures: one GROUP BY over the source form's records (`partials`), folded into rows (`Acc`)
 * and turned into the measures' figures (`figuresOf`).
 */

/** Partial aggregates of one group (an org, or a region prefix) in one period. */
export type Part = {
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
export function measureColumns(
  config: RollupConfig,
  columns: readonly DataColumn[],
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
export async function partials(
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
  const selects: AliasedRawBuilder<unknown, string>[] = [
    key.as('g'),
    sql`count(case when ${isCounted} then 1 end)`.as('n'),
    sql`count(*)`.as('total'),
  ];
  if (periodIds) selects.push(sql`period_id`.as('p'));
  cols.forEach((name, i) => {
    const ref = sql.ref(name);
    selects.push(
      sql`sum(case when ${isCounted} then ${ref} end)`.as(`s${i}`),
      sql`count(case when ${isCounted} then ${ref} end)`.as(`c${i}`),
      sql`min(case when ${isCounted} then ${ref} end)`.as(`lo${i}`),
      sql`max(case when ${isCounted} then ${ref} end)`.as(`hi${i}`),
    );
  });
  let query = recordsOf(ctx.db, source.form.id)
    .select(selects)
    .where('tenant_id', '=', source.form.tenant_id)
    .where('is_delete', '=', 0);
  if (periodIds) query = query.where('period_id', 'in', periodIds);
  if (!reach.all) {
    query = query.where((eb) =>
      reach.orgIds.length > 0
        ? eb.or([eb('create_org_id', 'in', reach.orgIds), eb('create_user_id', '=', reach.userId)])
        : eb('create_user_id', '=', reach.userId),
    );
  }
  if (group.kind === 'org') query = query.where('create_org_id', 'is not', null);
  else {
    const column = sql.ref(group.column);
    query = query.where(sql<SqlBool>`length(${column}) >= ${sql.lit(group.length)}`);
    if (group.prefix) {
      query = query.where(
        sql<SqlBool>`substr(${column}, 1, ${sql.lit(group.prefix.length)}) = ${group.prefix}`,
      );
    }
  }
  const rows = await query
    .groupBy(periodIds ? [key, 'period_id'] : [key])
    .$castTo<Record<string, unknown>>()
    .execute();
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
export class Acc {
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

export function figuresOf(
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

export function emptyRow(key: string, name: string, hasChildren: boolean, compare: boolean): RollupRow {
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
