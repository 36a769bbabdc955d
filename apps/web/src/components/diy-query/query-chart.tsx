import type { QueryConfig, QueryData, QueryInfo } from '@shuzhi/contracts/diy-query';
import { useEffect, useRef } from 'react';
import { chartOption } from './query.model.ts';

type ECharts = { setOption(option: object, notMerge?: boolean): void; resize(): void; dispose(): void };

/** ECharts, tree-shaken to the bar, line and pie charts, loaded the first time a chart is shown. */
async function loadCharts(): Promise<{ init(el: HTMLElement): ECharts }> {
  const [core, charts, components, renderers] = await Promise.all([
    import('echarts/core'),
    import('echarts/charts'),
    import('echarts/components'),
    import('echarts/renderers'),
  ]);
  core.use([
    charts.BarChart,
    charts.LineChart,
    charts.PieChart,
    components.GridComponent,
    components.TooltipComponent,
    components.LegendComponent,
    renderers.CanvasRenderer,
  ]);
  return { init: (el) => core.init(el) as unknown as ECharts };
}

/** 图表: the page's rows as the report's chart (category column, one series per value column). */
export default function QueryChart({
  chart,
  info,
  data,
}: {
  chart: NonNullable<QueryConfig['chart']>;
  info: QueryInfo;
  data: QueryData;
}) {
  const host = useRef<HTMLDivElement>(null);
  const instance = useRef<ECharts | null>(null);
  useEffect(() => {
    let gone = false;
    const onResize = () => instance.current?.resize();
    void loadCharts().then((echarts) => {
      if (gone || !host.current) return;
      instance.current = echarts.init(host.current);
      instance.current.setOption(chartOption(chart, info, data), true);
      window.addEventListener('resize', onResize);
    });
    return () => {
      gone = true;
      window.removeEventListener('resize', onResize);
      instance.current?.dispose();
      instance.current = null;
    };
  }, [chart, info, data]);
  return <div ref={host} style={{ width: '100%', height: 420 }} data-testid="query-chart" />;
}
