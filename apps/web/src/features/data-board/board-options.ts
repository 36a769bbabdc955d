import type { BoardData } from '@shuzhi/contracts/dashboard';
import type { RollupRow } from '@shuzhi/contracts/diy-rollup';
import type { EChartsCoreOption } from 'echarts/core';

/** ECharts options of the data dashboard's charts (pure: the page passes them to `BoardChart`). */

const PRIMARY = '#1677ff';
const OWN = '#fa8c16';

export function trendOption(board: BoardData, measureId: string, label: string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 56, right: 24, top: 24, bottom: 40 },
    xAxis: { type: 'category', data: board.trend.map((p) => p.name), axisLabel: { hideOverlap: true } },
    yAxis: { type: 'value' },
    series: [
      {
        name: label,
        type: 'line',
        smooth: true,
        connectNulls: false,
        // A period between empty ones is a lone point, drawn by its symbol only: every symbol is drawn (see the
        // efficiency trend's option).
        showSymbol: true,
        showAllSymbol: true,
        areaStyle: { opacity: 0.12 },
        itemStyle: { color: PRIMARY },
        data: board.trend.map((p) => p.figures[measureId] ?? null),
      },
    ],
  };
}

export function breakdownOption(
  rows: readonly RollupRow[],
  measureId: string,
  label: string,
): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 56, right: 24, top: 24, bottom: 72 },
    xAxis: {
      type: 'category',
      data: rows.map((r) => r.name),
      axisLabel: { interval: 0, rotate: rows.length > 6 ? 30 : 0, hideOverlap: true },
    },
    yAxis: { type: 'value' },
    series: [
      {
        name: label,
        type: 'bar',
        barMaxWidth: 36,
        itemStyle: { color: PRIMARY },
        data: rows.map((r) => r.figures[measureId] ?? null),
      },
    ],
  };
}

/** The district map: figures as colour, the profile's own district outlined and labelled. */
export function mapOption(
  map: string,
  areas: readonly { name: string; value: number | null }[],
  ownDistrict: string,
  label: string,
): EChartsCoreOption {
  const values = areas.map((a) => a.value).filter((v): v is number => v !== null);
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value: unknown }) =>
        `${p.name}<br/>${label}：${Number.isFinite(p.value) ? p.value : '—'}`,
    },
    visualMap: {
      min: 0,
      max: Math.max(1, ...values),
      left: 8,
      bottom: 8,
      calculable: true,
      inRange: { color: ['#e6f4ff', '#69b1ff', '#0958d9'] },
    },
    series: [
      {
        name: label,
        type: 'map',
        map,
        roam: false,
        // Central districts are small: names show on hover, the own district's always.
        label: { show: false, fontSize: 10 },
        emphasis: { label: { show: true } },
        data: areas.map((a) =>
          a.name === ownDistrict
            ? {
                name: a.name,
                value: a.value,
                itemStyle: { borderColor: OWN, borderWidth: 3 },
                label: { show: true, color: OWN, fontWeight: 'bold' },
              }
            : { name: a.name, value: a.value },
        ),
      },
    ],
  };
}
