import type { QueryCell, QueryConfig, QueryData, QueryInfo } from '@shuzhi/contracts/diy-query';

/**
 * The query report page's pure parts: ids of new columns and parameters, the parameter values sent, how a cell
 * shows, and the chart's option built from the page's rows (docs/query-reports.md).
 */

/** The next free id with a prefix (`c` → `c4` when c1–c3 exist). */
export function nextId(prefix: 'c' | 'p', used: readonly (string | undefined)[]): string {
  const taken = new Set(used.filter((u): u is string => !!u));
  let n = 1;
  while (taken.has(`${prefix}${n}`)) n += 1;
  return `${prefix}${n}`;
}

/** `config.columns.0.field` → `['config', 'columns', 0, 'field']` (server field errors onto the form). */
export const namePath = (path: string) =>
  path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

export type ParamValue = string | number | (string | null)[] | null;

/** The parameters as the server takes them: unset ones left out. */
export function paramsBody(values: Record<string, ParamValue | undefined>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value) && value.every((v) => !v)) continue;
    out[key] = value;
  }
  return out;
}

/** The first choice of every period parameter (the newest started period), so a report opens on one period. */
export function defaultParams(info: Pick<QueryInfo, 'config' | 'paramOptions'>): Record<string, ParamValue> {
  const out: Record<string, ParamValue> = {};
  for (const p of info.config.params) {
    const first = info.paramOptions[p.id]?.[0];
    if (p.kind === 'period' && first) out[p.id] = first.value;
  }
  return out;
}

/** A cell as shown: numbers with the column's places and thousands separators, empty as —. */
export function formatCell(
  value: QueryCell | undefined,
  kind: string,
  precision: number,
  locale = 'zh-CN',
): string {
  if (value === null || value === undefined || value === '') return '—';
  if (kind === 'number' && typeof value === 'number')
    return value.toLocaleString(locale, {
      minimumFractionDigits: 0,
      maximumFractionDigits: Math.max(precision, 0),
    });
  return String(value);
}

/** The chart's option (ECharts) from the rows of the page: one series per value column; subtotals left out. */
export function chartOption(
  chart: NonNullable<QueryConfig['chart']>,
  info: Pick<QueryInfo, 'columns'>,
  data: Pick<QueryData, 'rows'>,
) {
  const rows = data.rows.filter((r) => r.kind === 'row');
  const label = (id: string) => info.columns.find((c) => c.id === id)?.label ?? id;
  const categories = rows.map((r) => String(r.cells[chart.category] ?? '—'));
  const number = (v: QueryCell | undefined) => (typeof v === 'number' ? v : null);
  if (chart.type === 'pie') {
    const value = chart.values[0] as string;
    return {
      tooltip: { trigger: 'item' },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          type: 'pie',
          name: label(value),
          radius: '60%',
          data: rows.map((r, i) => ({ name: categories[i], value: number(r.cells[value]) })),
        },
      ],
    };
  }
  return {
    tooltip: { trigger: 'axis' },
    legend: { type: 'scroll', bottom: 0 },
    grid: { left: 48, right: 24, top: 24, bottom: 48, containLabel: true },
    xAxis: { type: 'category', data: categories },
    yAxis: { type: 'value' },
    series: chart.values.map((id) => ({
      type: chart.type,
      name: label(id),
      data: rows.map((r) => number(r.cells[id])),
    })),
  };
}
