import type { BoardData } from '@shuzhi/contracts/dashboard';
import type { RollupRow } from '@shuzhi/contracts/diy-rollup';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { boardRecordsPath, defaultMeasure, districtFigures, rankUnits } from './board.model.ts';
import { breakdownOption, mapOption, trendOption } from './board-options.ts';

const api = vi.hoisted(() => ({ list: vi.fn(), data: vi.fn(), exportXlsx: vi.fn() }));
vi.mock('./data-board.api.ts', async (original) => ({
  ...(await original<typeof import('./data-board.api.ts')>()),
  boardApi: api,
}));
// Canvas charts do not draw in jsdom: the chart shows the option it was given, and a click on it.
vi.mock('./board-chart.tsx', () => ({
  SHANGHAI_MAP: 'shanghai',
  loadShanghaiMap: async () => ['黄浦区', '徐汇区'],
  BoardChart: ({
    option,
    onClick,
  }: {
    option: { series: { data: unknown[] }[] };
    onClick?: (p: unknown) => void;
  }) => (
    <button
      type="button"
      data-testid="chart"
      onClick={() => onClick?.({ dataIndex: 0, name: '黄浦区', data: null })}
    >
      {JSON.stringify(option.series[0]?.data)}
    </button>
  ),
}));

const { default: DataBoardPage } = await import('./data-board.page.tsx');

configure({ asyncUtilTimeout: 10_000 });

const row = (key: string, name: string, value: number | null): RollupRow => ({
  key,
  name,
  hasChildren: false,
  figures: { m0: 1, m1: value },
  last: { m1: null },
  lastYear: { m1: null },
  records: 1,
  pending: 0,
  expectedUnits: null,
  missingUnits: null,
});

const BOARD: BoardData = {
  id: 9,
  title: '社区人口月报',
  reportType: 1,
  sourceTableId: 9,
  periodic: true,
  dimension: 'org',
  orgType: 'street',
  regionLevel: 4,
  regionField: null,
  measures: [
    { id: 'm0', label: '报送份数', agg: 'count' },
    { id: 'm1', label: '户籍人口', agg: 'sum' },
  ],
  data: {
    period: { id: 31, name: '2025年5月' },
    lastPeriod: { id: 30, name: '2025年4月' },
    lastYearPeriod: null,
    path: [],
    rows: [row('100', '南京东路街道', 300), row('101', '外滩街道', 50), row('102', '豫园街道', null)],
    total: { ...row('', '', 350), last: { m1: 280 }, lastYear: null, records: 3, pending: 2 },
    missing: [],
    outside: 1,
  },
  trend: [
    { periodId: 30, name: '2025年4月', figures: { m1: 280 }, records: 2 },
    { periodId: 31, name: '2025年5月', figures: { m1: 350 }, records: 3 },
  ],
};

describe('board model', () => {
  it('ranks units with a figure, top and bottom without repeating', () => {
    const rows = [row('1', 'a', 5), row('2', 'b', 9), row('3', 'c', null), row('4', 'd', 1)];
    expect(rankUnits(rows, 'm1', 2)).toEqual({
      top: [
        { key: '2', name: 'b', value: 9 },
        { key: '1', name: 'a', value: 5 },
      ],
      bottom: [{ key: '4', name: 'd', value: 1 }],
    });
    expect(rankUnits([], 'm1')).toEqual({ top: [], bottom: [] });
  });

  it('matches district rows to the map’s areas by name', () => {
    const rows = [row('7', '上海市黄浦区', 12)];
    expect(districtFigures(rows, 'm1', ['黄浦区', '徐汇区'])).toEqual([
      { name: '黄浦区', value: 12, key: '7' },
      { name: '徐汇区', value: null, key: null },
    ]);
  });

  it('opens the records behind a row in the shown period', () => {
    expect(boardRecordsPath(BOARD, { key: '100', name: '南京东路街道' })).toBe(
      `/diyReport/index/formTable?id=9&periodId=31&orgId=100&orgName=${encodeURIComponent('南京东路街道')}`,
    );
    expect(boardRecordsPath(BOARD, null)).toBe('/diyReport/index/formTable?id=9&periodId=31');
  });

  it('builds chart options from the figures, outlining the own district', () => {
    expect(trendOption(BOARD, 'm1', 'x').series).toMatchObject([{ type: 'line', data: [280, 350] }]);
    expect(breakdownOption(BOARD.data.rows, 'm1', 'x').series).toMatchObject([{ data: [300, 50, null] }]);
    const map = mapOption(
      'shanghai',
      [
        { name: '黄浦区', value: 3 },
        { name: '徐汇区', value: null },
      ],
      '黄浦区',
      'x',
    );
    expect((map.series as { data: { itemStyle?: object }[] }[])[0]?.data[0]?.itemStyle).toMatchObject({
      borderWidth: 3,
    });
    expect(defaultMeasure(BOARD.measures)).toBe('m1');
  });
});

function Where() {
  const location = useLocation();
  return <div data-testid="where">{location.pathname + location.search}</div>;
}

function renderPage(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route path="/dataBoard/form" element={<DataBoardPage />} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.clearAllMocks());

describe('数据看板', () => {
  it('shows key figures with the change, the trend, the breakdown, the ranking and the left-out records', async () => {
    api.list.mockResolvedValue([{ id: 9, title: '社区人口月报', reportType: 1 }]);
    api.data.mockResolvedValue(BOARD);
    renderPage('/dataBoard/form');
    const current = await screen.findByTestId('board-kpi-current');
    expect(current.textContent).toContain('350');
    expect(current.textContent).toContain('已上报 3 份');
    expect(screen.getByTestId('board-kpi-last').textContent).toContain('↑ 25.0%');
    expect(screen.getByTestId('board-kpi-lastYear').textContent).toContain('无对应周期');
    expect(screen.getByTestId('board-top').textContent).toContain('1. 南京东路街道');
    expect(screen.getByText(/另有 1 份记录/)).toBeTruthy();
    expect(api.data).toHaveBeenCalledWith({ id: 9 });
    // The map asks for the same figures by district.
    await waitFor(() => expect(api.data).toHaveBeenCalledWith({ id: 9, periodId: 31, orgType: 'district' }));
  });

  it('a bar opens the records behind it', async () => {
    api.list.mockResolvedValue([{ id: 9, title: '社区人口月报', reportType: 1 }]);
    api.data.mockResolvedValue(BOARD);
    renderPage('/dataBoard/form?id=9');
    await screen.findByTestId('board-breakdown');
    const charts = screen.getAllByTestId('chart');
    fireEvent.click(charts[1] as HTMLElement);
    expect((await screen.findByTestId('where')).textContent).toContain(
      '/diyReport/index/formTable?id=9&periodId=31&orgId=100',
    );
  });

  it('says plainly when the form is not the caller’s', async () => {
    const { HttpError } = await import('../../platform/http/http-client.ts');
    api.list.mockResolvedValue([]);
    api.data.mockRejectedValue(new HttpError('no', 'F1000'));
    renderPage('/dataBoard/form?id=5');
    expect((await screen.findByTestId('board-error')).textContent).toContain('表单不存在或您无权查看');
  });
});
