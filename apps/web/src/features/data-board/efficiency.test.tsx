import type { EfficiencyFigures } from '@shuzhi/contracts/efficiency';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import type { Efficiency } from './efficiency.api.ts';
import { figureSorter, formatRate, rateBarsOption, trendOption } from './efficiency.model.ts';

const api = vi.hoisted(() => ({ data: vi.fn(), exportXlsx: vi.fn() }));
vi.mock('./efficiency.api.ts', async (original) => ({
  ...(await original<typeof import('./efficiency.api.ts')>()),
  efficiencyApi: api,
}));
// Canvas charts do not draw in jsdom: the chart shows its first series' data.
vi.mock('./board-chart.tsx', () => ({
  BoardChart: ({ option }: { option: { series: { data: unknown[] }[] } }) => (
    <div data-testid="chart">{JSON.stringify(option.series[0]?.data)}</div>
  ),
}));

const { default: EfficiencyPage } = await import('./efficiency.page.tsx');

configure({ asyncUtilTimeout: 10_000 });

const figures = (over: Partial<EfficiencyFigures> = {}): EfficiencyFigures => ({
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
  ...over,
});

const TOTAL = figures({
  expected: 3,
  submitted: 2,
  onTime: 1,
  late: 1,
  onTimeRate: 0.3333,
  avgDaysBeforeDue: 0.5,
  returnsPerRecord: 1,
  avgReviewHours: 2,
  records: 1,
  fillers: 1,
  recordsPerFiller: 1,
});

const DATA: Efficiency = {
  from: '2026-01',
  to: '2026-02',
  tasks: 1,
  total: TOTAL,
  levels: [{ orgType: 'community', ...TOTAL }],
  forms: [{ tableId: 9, title: '社区人口月报', ...TOTAL }],
  trend: [
    { month: '2026-01', ...figures() },
    { month: '2026-02', ...TOTAL },
  ],
  units: [
    {
      orgId: 1,
      orgName: '贵州路居民委员会',
      orgType: 'community',
      tasks: 1,
      ...figures({ expected: 1, submitted: 1, onTime: 1, onTimeRate: 1, avgDaysBeforeDue: 2, records: 1 }),
    },
    {
      orgId: 2,
      orgName: '宁波路居民委员会',
      orgType: 'community',
      tasks: 1,
      ...figures({ expected: 1, onTimeRate: 0 }),
    },
    {
      orgId: 3,
      orgName: '福州路居民委员会',
      orgType: 'community',
      tasks: 1,
      ...figures({ expected: 1, submitted: 1, late: 1, onTimeRate: 0, avgDaysBeforeDue: -1 }),
    },
  ],
  formOptions: [{ tableId: 9, title: '社区人口月报' }],
};

describe('efficiency model', () => {
  it('formats rates and builds the charts from the figures', () => {
    expect(formatRate(0.3333)).toBe('33.3%');
    expect(formatRate(null)).toBe('—');
    const trend = trendOption(DATA.trend, { rate: 'r', late: 'l' }).series as { data: unknown[] }[];
    expect(trend.map((s) => s.data)).toEqual([
      [null, 33.3],
      [0, 1],
    ]);
    const bars = rateBarsOption([{ ...TOTAL, name: '社区' }], 'r');
    expect((bars.series as { data: unknown[] }[])[0]?.data).toEqual([33.3]);
    expect((bars.xAxis as { data: string[] }).data).toEqual(['社区']);
  });

  it('sorts a figure with the rows without one lowest', () => {
    const rows = [figures({ avgDaysBeforeDue: 2 }), figures(), figures({ avgDaysBeforeDue: -1 })];
    expect([...rows].sort(figureSorter('avgDaysBeforeDue')).map((r) => r.avgDaysBeforeDue)).toEqual([
      null,
      -1,
      2,
    ]);
  });
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <EfficiencyPage />
      </App>
    </QueryClientProvider>,
  );
}

const names = () =>
  within(screen.getByTestId('efficiency-ranking'))
    .getAllByRole('row')
    .slice(1)
    .map((r) => r.querySelectorAll('td')[1]?.textContent);

afterEach(() => vi.clearAllMocks());

describe('效率分析', () => {
  it('shows the key figures, the charts and the ranking, sortable by a figure', async () => {
    api.data.mockResolvedValue(DATA);
    renderPage();
    expect((await screen.findByTestId('efficiency-kpi-onTimeRate')).textContent).toContain('33.3%');
    expect(screen.getByTestId('efficiency-kpi-onTimeRate').textContent).toContain('应报 3 项，已报 2 项');
    expect(screen.getByTestId('efficiency-kpi-avgReviewHours').textContent).toContain('2');
    expect(screen.getByTestId('efficiency-counts').textContent).toBe('任务数：1 · 单位数：3');
    expect(screen.getByTestId('efficiency-trend').textContent).toContain('[null,33.3]');
    expect(names()).toEqual(['贵州路居民委员会', '宁波路居民委员会', '福州路居民委员会']);
    // Sorted by days before due, lowest first: none, then −1, then 2.
    const header = within(screen.getByTestId('efficiency-ranking'))
      .getAllByRole('columnheader')
      .find((th) => th.textContent === '平均提前天数');
    fireEvent.click(header as HTMLElement);
    expect(names()).toEqual(['宁波路居民委员会', '福州路居民委员会', '贵州路居民委员会']);
    // The last 12 months by default.
    const query = api.data.mock.calls[0]?.[0] as { from: string; to: string };
    expect(query.to.slice(0, 4)).toMatch(/^\d{4}$/);
    expect(Object.keys(query)).toEqual(['from', 'to']);
  });

  it('asks again with the level chosen', async () => {
    api.data.mockResolvedValue(DATA);
    renderPage();
    await screen.findByTestId('efficiency-ranking');
    const level = screen.getByTestId('efficiency-level');
    fireEvent.mouseDown(within(level).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('街道'));
    await waitFor(() =>
      expect(api.data).toHaveBeenLastCalledWith(expect.objectContaining({ orgType: 'street' })),
    );
  });

  it('says so when nothing was asked of the units in scope', async () => {
    api.data.mockResolvedValue({ ...DATA, tasks: 0, total: figures(), units: [], levels: [], forms: [] });
    renderPage();
    expect((await screen.findByTestId('efficiency-empty')).textContent).toContain(
      '没有下发给您数据范围内单位的任务',
    );
    expect(screen.queryByTestId('efficiency-ranking')).toBeNull();
  });

  it('shows the server’s refusal with a retry', async () => {
    const { HttpError } = await import('../../platform/http/http-client.ts');
    api.data.mockRejectedValue(new HttpError('统计月份范围有误', 'B1010'));
    renderPage();
    const error = await screen.findByTestId('efficiency-error');
    expect(error.textContent).toContain('统计月份范围有误');
    api.data.mockResolvedValue(DATA);
    fireEvent.click(within(error).getByRole('button'));
    expect(await screen.findByTestId('efficiency-ranking')).toBeTruthy();
  });
});
