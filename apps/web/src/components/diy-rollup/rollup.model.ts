import type { RollupData, RollupInfo, RollupRow } from '@shuzhi/contracts/diy-rollup';

/** What the figure columns show: this period, last period, same period last year, or the change in %. */
export const COMPARE_MODES = ['current', 'last', 'lastYear', 'mom', 'yoy'] as const;
export type CompareMode = (typeof COMPARE_MODES)[number];

/** Field types a measure may read (numbers and formulas; the server checks the same). */
export const MEASURE_FIELD_TYPES: readonly string[] = ['integer', 'decimal', 'money', 'percent', 'formula'];

/**
 * The change from `before` to `now` in % (computed here, not by the server): null when either is missing or
 * the base is 0 (a change from nothing has no percentage).
 */
export function changePercent(
  now: number | null | undefined,
  before: number | null | undefined,
): number | null {
  if (now === null || now === undefined || before === null || before === undefined || before === 0)
    return null;
  return ((now - before) / Math.abs(before)) * 100;
}

/** The figure of a row's measure in a mode (a % for mom / yoy). */
export function figureIn(row: RollupRow, measureId: string, mode: CompareMode): number | null {
  const now = row.figures[measureId] ?? null;
  switch (mode) {
    case 'current':
      return now;
    case 'last':
      return row.last?.[measureId] ?? null;
    case 'lastYear':
      return row.lastYear?.[measureId] ?? null;
    case 'mom':
      return changePercent(now, row.last?.[measureId]);
    case 'yoy':
      return changePercent(now, row.lastYear?.[measureId]);
  }
}

/** The period whose records a figure in a mode comes from (this period for the % modes). */
export function periodOfMode(data: RollupData, mode: CompareMode): { id: number; name: string } | null {
  if (mode === 'last') return data.lastPeriod;
  if (mode === 'lastYear') return data.lastYearPeriod;
  return data.period;
}

/**
 * The record list behind a figure: the source form, the period, and the row's org subtree (`orgId`) or
 * region prefix (`filter=<field>:prefix:<code>`). `key` empty: every record of the level (the total row at
 * the top; drilled, the parent's). `own`: the row of the parent's own records (its （本级） row), whose
 * records are the org's own and not those of the orgs below it.
 */
export function recordsPath(
  info: Pick<RollupInfo, 'sourceTableId' | 'config'>,
  periodId: number | null,
  target: { key: string; name: string; own?: boolean } | null,
): string {
  const params = new URLSearchParams({ id: String(info.sourceTableId) });
  if (periodId !== null) params.set('periodId', String(periodId));
  if (target?.key) {
    if (info.config.dimension === 'region' && info.config.regionField) {
      params.set('filter', `${info.config.regionField}:prefix:${target.key}`);
    } else {
      params.set('orgId', target.key);
      if (target.own) params.set('orgOwn', '1');
      params.set('orgName', target.name);
    }
  }
  return `/diyReport/index/formTable?${params.toString()}`;
}
