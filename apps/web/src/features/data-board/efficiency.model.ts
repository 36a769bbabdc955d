import type { EfficiencyFigures } from '@shuzhi/contracts/efficiency';
import type { EChartsCoreOption } from 'echarts/core';
import type { Efficiency } from './efficiency.api.ts';

/** Pure helpers of the efficiency analysis page: figures as shown and the charts' ECharts options. */

const PRIMARY = '#1677ff';
const LATE = '#ff4d4f';

/** A rate (0..1) as a percentage with one decimal; — for none. */
export function formatRate(rate: number | null): string {
  return rate === null ? '—' : `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

/** A number as shown: — for none, at most `digits` decimals. */
export function formatNumber(value: number | null, locale: string, digits = 2): string {
  if (value === null) return '—';
  return new Intl.NumberFormat(locale, { maximumFractionDigits: digits }).format(value);
}

/** Rate as a percentage for a chart (null stays a gap). */
const percent = (rate: number | null) => (rate === null ? null : Math.round(rate * 1000) / 10);

/** The trend: on-time rate (%) as a line on the left axis, late cells as bars on the right. */
export function trendOption(
  trend: Efficiency['trend'],
  labels: { rate: string; late: string },
): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [labels.rate, labels.late], top: 0 },
    grid: { left: 56, right: 56, top: 36, bottom: 40 },
    xAxis: { type: 'category', data: trend.map((p) => p.month), axisLabel: { hideOverlap: true } },
    yAxis: [
      { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
      { type: 'value', minInterval: 1 },
    ],
    series: [
      {
        name: labels.rate,
        type: 'line',
        smooth: true,
        connectNulls: false,
        // A month between empty ones is a lone point, drawn by its symbol only: every symbol is drawn. ECharts'
        // default ('auto') drops the symbols of months without an axis label once the months are too narrow for
        // them (36 months on a phone), and such a month then showed nothing.
        showSymbol: true,
        showAllSymbol: true,
        symbolSize: 7,
        itemStyle: { color: PRIMARY },
        data: trend.map((p) => percent(p.onTimeRate)),
      },
      {
        name: labels.late,
        type: 'bar',
        yAxisIndex: 1,
        barMaxWidth: 24,
        itemStyle: { color: LATE },
        data: trend.map((p) => p.late),
      },
    ],
  };
}

/** On-time rate (%) of named groups (levels or forms) as bars. */
export function rateBarsOption(
  groups: readonly (EfficiencyFigures & { name: string })[],
  label: string,
): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 56, right: 24, top: 24, bottom: 72 },
    xAxis: {
      type: 'category',
      data: groups.map((g) => g.name),
      axisLabel: { interval: 0, rotate: groups.length > 5 ? 30 : 0, hideOverlap: true },
    },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        name: label,
        type: 'bar',
        barMaxWidth: 36,
        itemStyle: { color: PRIMARY },
        data: groups.map((g) => percent(g.onTimeRate)),
      },
    ],
  };
}

/** A table sorter over a figure: a row without one (null) counts as the lowest. */
export function figureSorter<K extends keyof EfficiencyFigures>(key: K) {
  return (a: EfficiencyFigures, b: EfficiencyFigures) =>
    ((a[key] as number | null) ?? Number.NEGATIVE_INFINITY) -
    ((b[key] as number | null) ?? Number.NEGATIVE_INFINITY);
}
