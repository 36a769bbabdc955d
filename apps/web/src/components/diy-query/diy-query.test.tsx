import type { QueryData, QueryInfo } from '@shuzhi/contracts/diy-query';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { chartOption, defaultParams, formatCell, nextId, paramsBody } from './query.model.ts';

const api = vi.hoisted(() => ({
  info: vi.fn(),
  data: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  kind: vi.fn(),
}));
vi.mock('./diy-query.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-query.api.ts')>()),
  queryApi: api,
}));
const download = vi.hoisted(() => vi.fn());
vi.mock('../../platform/data/download.ts', async (original) => ({
  ...(await original<typeof import('../../platform/data/download.ts')>()),
  downloadFile: download,
}));

const { default: QueryReportView } = await import('./query-report-view.tsx');

configure({ asyncUtilTimeout: 10_000 });

const INFO: QueryInfo = {
  id: 7,
  title: '人口与安全检查',
  config: {
    sources: [
      { alias: 's1', tableId: 1 },
      { alias: 's2', tableId: 2 },
    ],
    join: 'unitPeriod',
    columns: [
      { id: 'c1', label: '周期', source: 's1', field: '$period', hidden: false },
      { id: 'c2', label: '单位', source: 's1', field: '$org', hidden: false },
      { id: 'c3', label: '户籍', source: 's1', field: 'huji', hidden: false },
      { id: 'c4', label: '合计人口', formula: '{c3} * 2', hidden: false },
    ],
    params: [
      { id: 'p1', kind: 'period', label: '周期', source: 's1' },
      { id: 'p2', kind: 'keyword', label: '关键字', source: 's2' },
    ],
    groupBy: ['c1', 'c2'],
    sort: [],
    statuses: 'submitted',
    chart: { type: 'bar', category: 'c2', values: ['c3'] },
  },
  sources: [
    { alias: 's1', tableId: 1, title: '社区人口月报', periodic: true },
    { alias: 's2', tableId: 2, title: '安全生产检查记录', periodic: true },
  ],
  columns: [
    { id: 'c1', label: '周期', kind: 'text', precision: 0 },
    { id: 'c2', label: '单位', kind: 'text', precision: 0 },
    { id: 'c3', label: '户籍', kind: 'number', precision: 0 },
    { id: 'c4', label: '合计人口', kind: 'number', precision: 2 },
  ],
  paramOptions: {
    p1: [
      { value: '31', label: '2026年11月' },
      { value: '30', label: '2026年10月' },
    ],
  },
  canEdit: false,
  categoryId: null,
  remark: null,
};

const DATA: QueryData = {
  rows: [
    { kind: 'row', cells: { c1: '2026年11月', c2: '贵州路', c3: 1200, c4: 2400 } },
    { kind: 'row', cells: { c1: '2026年11月', c2: '福州路', c3: 800, c4: 1600 } },
    { kind: 'subtotal', cells: { c1: '2026年11月', c2: null, c3: 2000, c4: 4000 } },
  ],
  total: { c1: null, c2: null, c3: 2000, c4: 4000 },
  count: 2,
  page: 1,
  pageSize: 20,
};

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/diyLoad/index/loadTable?id=7']}>
        <App>{children}</App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  for (const kind of ['success', 'error', 'warning', 'info'] as const)
    vi.spyOn(feedback, kind).mockImplementation(() => undefined);
  api.info.mockReset().mockResolvedValue(INFO);
  api.data.mockReset().mockResolvedValue(DATA);
  download.mockReset().mockResolvedValue('人口与安全检查.xlsx');
});

describe('query report model', () => {
  it('gives new columns and parameters the next free id', () => {
    expect(nextId('c', ['c1', 'c2', 'c4'])).toBe('c3');
    expect(nextId('p', [])).toBe('p1');
  });

  it('sends only the parameters set, and opens on the newest period', () => {
    expect(paramsBody({ p1: '31', p2: '', p3: null, p4: [null, null], p5: ['2026-01-01', null] })).toEqual({
      p1: '31',
      p5: ['2026-01-01', null],
    });
    expect(defaultParams(INFO)).toEqual({ p1: '31' });
  });

  it('shows numbers with their places and empty cells as a dash', () => {
    expect(formatCell(1234.5, 'number', 2, 'en')).toBe('1,234.5');
    expect(formatCell(null, 'number', 2)).toBe('—');
    expect(formatCell('贵州路', 'text', 0)).toBe('贵州路');
  });

  it('builds the chart from the rows, leaving subtotals out', () => {
    const option = chartOption({ type: 'bar', category: 'c2', values: ['c3'] }, INFO, DATA) as {
      xAxis: { data: string[] };
      series: { name: string; data: number[] }[];
    };
    expect(option.xAxis.data).toEqual(['贵州路', '福州路']);
    expect(option.series).toEqual([expect.objectContaining({ name: '户籍', data: [1200, 800] })]);
    const pie = chartOption({ type: 'pie', category: 'c2', values: ['c3'] }, INFO, DATA) as {
      series: { data: { name: string; value: number }[] }[];
    };
    expect(pie.series[0]?.data).toEqual([
      { name: '贵州路', value: 1200 },
      { name: '福州路', value: 800 },
    ]);
  });
});

describe('query report page', () => {
  it('shows the rows, the subtotal and the total, on the newest period', async () => {
    render(wrap(<QueryReportView id={7} />));
    const table = await screen.findByTestId('query-table');
    expect(await within(table).findByText('贵州路')).toBeTruthy();
    expect(within(table).getByText('小计')).toBeTruthy();
    expect(within(screen.getByTestId('query-total')).getByText('合计')).toBeTruthy();
    expect(within(screen.getByTestId('query-total')).getByText('4,000')).toBeTruthy();
    expect(api.data).toHaveBeenCalledWith(7, { params: { p1: '31' }, page: 1, pageSize: 20 });
  });

  it('runs again with a keyword and exports with the same parameters', async () => {
    render(wrap(<QueryReportView id={7} />));
    await screen.findByTestId('query-table');
    const search = within(screen.getByTestId('query-param-p2')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: '王' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.data).toHaveBeenLastCalledWith(7, { params: { p1: '31', p2: '王' }, page: 1, pageSize: 20 }),
    );
    fireEvent.click(screen.getByTestId('query-export'));
    await waitFor(() =>
      expect(download).toHaveBeenCalledWith('/api/diyQuery/7/export', '人口与安全检查.xlsx', {
        method: 'post',
        body: { params: { p1: '31', p2: '王' } },
      }),
    );
  });

  it('ends on a result page when the report is not the caller’s', async () => {
    api.info.mockRejectedValue(new HttpError('查询报表不存在或您无权查看', 'Q1000'));
    render(wrap(<QueryReportView id={7} />));
    expect(
      await screen.findByText('查询报表不存在或您无权查看', { selector: '.ant-result-title' }),
    ).toBeTruthy();
  });
});
