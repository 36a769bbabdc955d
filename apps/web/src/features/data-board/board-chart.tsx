import { BarChart, LineChart, MapChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent, VisualMapComponent } from 'echarts/components';
import { type ECharts, type EChartsCoreOption, init, registerMap, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react';

// Tree-shaken: only the charts and components the data dashboard and efficiency analysis draw (issue 20 §7).
use([
  BarChart,
  LineChart,
  MapChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  VisualMapComponent,
  CanvasRenderer,
]);

/** The name the Shanghai district map is registered under. */
export const SHANGHAI_MAP = 'shanghai';
let mapLoading: Promise<string[]> | null = null;

/**
 * The 16 districts of Shanghai (ECharts' encoded GeoJSON that ships with the app, no map tiles), registered
 * once, on first use: the map data loads only when a map is shown. Answers the districts' names.
 */
export function loadShanghaiMap(): Promise<string[]> {
  mapLoading ??= import('echarts-legacy-maps/map/json/province/shanghai.json').then((mod) => {
    const geo = (mod as { default: { features: { properties: { name: string } }[] } }).default;
    registerMap(SHANGHAI_MAP, geo as never);
    return geo.features.map((f) => f.properties.name);
  });
  return mapLoading;
}

export type ChartHandle = { imageUrl: () => string | null };

type Props = {
  option: EChartsCoreOption;
  height?: number;
  onClick?: (params: { name: string; dataIndex: number; data: unknown }) => void;
  testId?: string;
};

/** One ECharts chart: drawn on mount, updated with the option, resized with its box, disposed on unmount. */
export const BoardChart = forwardRef<ChartHandle, Props>(function BoardChart(
  { option, height = 320, onClick, testId },
  ref,
) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const click = useRef(onClick);
  click.current = onClick;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const instance = init(el);
    chart.current = instance;
    instance.on('click', (params) => click.current?.(params as never));
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  useImperativeHandle(ref, () => ({
    imageUrl: () =>
      chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#fff' }) ?? null,
  }));

  return <div ref={box} style={{ width: '100%', height }} data-testid={testId} />;
});
