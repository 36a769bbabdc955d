import { MapChart } from 'echarts/charts';
import { TooltipComponent, VisualMapComponent } from 'echarts/components';
import { type ECharts, type EChartsCoreOption, init, registerMap, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Tree-shaken: the cockpit draws only the map with ECharts (issue 20 §7); its other panels are plain HTML.
use([MapChart, TooltipComponent, VisualMapComponent, CanvasRenderer]);

const MAP = 'shanghai';
const OWN = '#ffb020';
let loading: Promise<void> | null = null;

/** The 16 districts of Shanghai (the GeoJSON that ships with the app, no tiles), registered on first use. */
function loadMap(): Promise<void> {
  loading ??= import('echarts-legacy-maps/map/json/province/shanghai.json').then((mod) => {
    registerMap(MAP, (mod as { default: object }).default as never);
  });
  return loading;
}

/** The map's option: records per district as colour, the profile's district outlined and always named. */
export function mapOption(
  districts: readonly { name: string; records: number }[],
  own: string,
  label: string,
): EChartsCoreOption {
  // Org names may carry the city (上海市黄浦区); the map's areas are the districts' own names.
  const byName = new Map(districts.map((d) => [d.name.replace(/^上海市/, ''), d.records]));
  const max = Math.max(1, ...byName.values());
  return {
    tooltip: { trigger: 'item', formatter: '{b}<br/>{a}：{c}' },
    visualMap: {
      min: 0,
      max,
      left: 24,
      bottom: 24,
      calculable: true,
      textStyle: { color: '#9cc3ff' },
      inRange: { color: ['#0b2a5b', '#1f6fd1', '#39c6ff'] },
    },
    series: [
      {
        name: label,
        type: 'map',
        map: MAP,
        roam: false,
        label: { show: false, color: '#cfe3ff', fontSize: 12 },
        itemStyle: { borderColor: '#4aa3ff', borderWidth: 1, areaColor: '#0b2a5b' },
        emphasis: { label: { show: true, color: '#fff' }, itemStyle: { areaColor: '#2a8cff' } },
        data: [...byName].map(([name, value]) =>
          name === own
            ? {
                name,
                value,
                itemStyle: { borderColor: OWN, borderWidth: 3 },
                label: { show: true, color: OWN, fontWeight: 'bold', fontSize: 16 },
              }
            : { name, value },
        ),
      },
    ],
  };
}

/**
 * The district map: one ECharts instance for the page's life, its option replaced on each refresh
 * (`notMerge`), disposed on unmount — a wall screen refreshing for days keeps one chart, not one per refresh.
 */
export function CockpitMap({ option }: { option: EChartsCoreOption }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);
  const latest = useRef(option);
  latest.current = option;

  useEffect(() => {
    let disposed = false;
    void loadMap().then(() => {
      const el = box.current;
      if (disposed || !el) return;
      chart.current = init(el);
      chart.current.setOption(latest.current, true);
    });
    return () => {
      disposed = true;
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, true);
  }, [option]);

  return <div ref={box} style={{ width: '100%', height: '100%' }} data-testid="cockpit-map-chart" />;
}
