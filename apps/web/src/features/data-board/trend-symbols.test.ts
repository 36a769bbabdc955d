import type { BoardData } from '@shuzhi/contracts/dashboard';
import type { EfficiencyFigures } from '@shuzhi/contracts/efficiency';
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { type EChartsCoreOption, init, use } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { describe, expect, it } from 'vitest';
import { trendOption as boardTrendOption } from './board-options.ts';
import { trendOption } from './efficiency.model.ts';

// ECharts lays the chart out without a DOM (server-side rendering to SVG): which symbols a line series draws is
// decided there, by the same code as in the browser.
use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

/** The data indexes of the first series whose point is drawn as a symbol, at a chart of `width` px. */
function drawnSymbols(option: EChartsCoreOption, width: number): number[] {
  const chart = init(null, undefined, { renderer: 'svg', ssr: true, width, height: 300 });
  try {
    chart.setOption({ ...option, animation: false });
    const model = chart as unknown as {
      getModel: () => {
        getSeriesByIndex: (i: number) => {
          getData: () => { count: () => number; getItemGraphicEl: (i: number) => unknown };
        };
      };
    };
    const data = model.getModel().getSeriesByIndex(0).getData();
    return Array.from({ length: data.count() }, (_, i) => i).filter((i) => data.getItemGraphicEl(i));
  } finally {
    chart.dispose();
  }
}

const none: EfficiencyFigures = {
  expected: 0,
  submitted: 0,
  onTime: 0,
  late: 0,
  onTimeRate: null,
  avgDaysBeforeDue: null,
  returnsPerRecord: null,
  avgReviewHours: null,
  records: 0,
  fillers: 0,
  recordsPerFiller: null,
};

// 36 months (the longest range) with figures in three months only, each between two empty months.
const LONE = [4, 13, 32];
const months = Array.from({ length: 36 }, (_, i) => {
  const month = `${2024 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
  return LONE.includes(i) ? { month, ...none, expected: 2, onTime: 1, onTimeRate: 0.5 } : { month, ...none };
});

describe('a month between two empty months', () => {
  it('is drawn as a point on the efficiency trend, also when the chart is narrow', () => {
    const option = trendOption(months, { rate: '按时率', late: '逾期' });
    // A phone's width: 36 months leave less room per month than a symbol needs, and ECharts then drew only the
    // symbols of months with an axis label ('auto'); a lone point elsewhere had neither a symbol nor a line.
    expect(drawnSymbols(option, 360)).toEqual(LONE);
    expect(drawnSymbols(option, 1200)).toEqual(LONE);
  });

  it('is drawn as a point on the data dashboard’s trend', () => {
    const board = {
      trend: months.map((m, i) => ({ name: m.month, figures: { m0: LONE.includes(i) ? 5 : null } })),
    } as unknown as BoardData;
    expect(drawnSymbols(boardTrendOption(board, 'm0', '记录数'), 360)).toEqual(LONE);
  });
});
