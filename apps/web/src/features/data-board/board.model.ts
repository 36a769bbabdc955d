import type { BoardData, BoardMeasure } from '@shuzhi/contracts/dashboard';
import type { RollupRow } from '@shuzhi/contracts/diy-rollup';
import { recordsPath } from '../../components/diy-rollup/rollup.model.ts';

/** Units listed at each end of the ranking. */
export const RANK_SIZE = 5;

type Ranked = { key: string; name: string; value: number };

/**
 * The rows with a figure for the measure, highest first (`top`) and lowest first (`bottom`), at most `size`
 * each; the two lists do not repeat a row when there are fewer than 2 × size rows.
 */
export function rankUnits(rows: readonly RollupRow[], measureId: string, size = RANK_SIZE) {
  const ranked: Ranked[] = rows
    .map((r) => ({ key: r.key, name: r.name, value: r.figures[measureId] }))
    .filter((r): r is Ranked => typeof r.value === 'number')
    .sort((a, b) => b.value - a.value);
  const top = ranked.slice(0, size);
  const bottom = ranked.slice(top.length).reverse().slice(0, size);
  return { top, bottom };
}

/** A district row's figure under a map area's name (`黄浦区` matches `黄浦区` and `上海市黄浦区`). */
export function districtFigures(
  rows: readonly RollupRow[],
  measureId: string,
  areas: readonly string[],
): { name: string; value: number | null; key: string | null }[] {
  return areas.map((area) => {
    const row = rows.find((r) => r.name === area || r.name.endsWith(area));
    return { name: area, value: row?.figures[measureId] ?? null, key: row?.key ?? null };
  });
}

/** The record list behind a breakdown row (or the whole period with `row` null). */
export function boardRecordsPath(board: BoardData, row: { key: string; name: string } | null): string {
  return recordsPath(
    {
      sourceTableId: board.sourceTableId,
      config: {
        sourceTableId: board.sourceTableId,
        dimension: board.dimension,
        orgType: board.orgType,
        regionField: board.regionField,
        regionLevel: board.regionLevel,
        measures: board.measures.map((m) => ({ ...m, field: null })),
        statuses: 'submitted',
      },
    },
    board.data.period?.id ?? null,
    row,
  );
}

/** A figure as shown: — for none, thousands separators, at most 2 decimals. */
export function formatFigure(value: number | null | undefined, locale: string): string {
  if (value === null || value === undefined) return '—';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
}

/** The measure shown first: the first sum (a form's record count is m0), else the first measure. */
export function defaultMeasure(measures: readonly BoardMeasure[]): string | undefined {
  return (measures.find((m) => m.agg !== 'count') ?? measures[0])?.id;
}
