import type { RollupData, RollupInfo, RollupRow } from '@shuzhi/contracts/diy-rollup';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { changePercent, figureIn, recordsPath } from '../../components/diy-rollup/rollup.model.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { HttpError } from '../../platform/http/http-client.ts';

const api = vi.hoisted(() => ({
  info: vi.fn(),
  data: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  sources: vi.fn(),
  fields: vi.fn(),
}));
vi.mock('../../components/diy-rollup/diy-rollup.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-rollup/diy-rollup.api.ts')>()),
  rollupApi: api,
}));
// The load table asks which kind of item it shows: a roll-up here.
vi.mock('../../components/diy-query/diy-query.api.ts', async (original) => {
  const real = await original<typeof import('../../components/diy-query/diy-query.api.ts')>();
  return { ...real, queryApi: { ...real.queryApi, kind: async () => ({ reportType: 2 }) } };
});
const periods = vi.hoisted(() => ({ list: vi.fn() }));
vi.mock('../../components/diy-period/diy-period.api.ts', async (original) => {
  const real = await original<typeof import('../../components/diy-period/diy-period.api.ts')>();
  return { ...real, periodApi: { ...real.periodApi, list: periods.list } };
});

const checkFormPwd = vi.hoisted(() => vi.fn());
vi.mock('../../components/diy-report/diy-report.api.ts', async (original) => {
  const real = await original<typeof import('../../components/diy-report/diy-report.api.ts')>();
  return { ...real, diyReportApi: { ...real.diyReportApi, checkFormPwd } };
});
vi.mock('../../platform/session/session.api.ts', async (original) => {
  const real = await original<typeof import('../../platform/session/session.api.ts')>();
  return { ...real, sessionApi: { ...real.sessionApi, loginConfig: async () => ({ publicKey: 'pk' }) } };
});
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

const { default: LoadTablePage } = await import('./load-table.page.tsx');

configure({ asyncUtilTimeout: 10_000 });

const INFO: RollupInfo = {
  id: 5,
  title: '社区人口月报汇总',
  sourceTableId: 9,
  sourceTitle: '社区人口月报',
  periodic: true,
  canEdit: false,
  regionFieldLabel: null,
  categoryId: null,
  remark: null,
  config: {
    sourceTableId: 9,
    dimension: 'org',
    orgType: 'street',
    regionLevel: 4,
    regionField: null,
    statuses: 'submitted',
    measures: [
      { id: 'm1', label: '户籍人口', agg: 'sum', field: 'huji' },
      { id: 'm2', label: '份数', agg: 'count', field: null },
    ],
  },
};

const rowOf = (key: string, name: string, m1: number | null, extra: Partial<RollupRow> = {}): RollupRow => ({
  key,
  name,
  hasChildren: true,
  figures: { m1, m2: m1 === null ? 0 : 1 },
  last: { m1: 200, m2: 1 },
  lastYear: { m1: null, m2: 0 },
  records: m1 === null ? 0 : 1,
  pending: 0,
  expectedUnits: 2,
  missingUnits: m1 === null ? 2 : 1,
  ...extra,
});

const TOP: RollupData = {
  period: { id: 31, name: '2026年11月' },
  lastPeriod: { id: 30, name: '2026年10月' },
  lastYearPeriod: null,
  path: [],
  rows: [rowOf('100', '南京东路街道', 300, { pending: 2 }), rowOf('200', '外滩街道', null)],
  total: rowOf('', '', 300, { hasChildren: false, pending: 2, expectedUnits: 4, missingUnits: 3 }),
  missing: [{ orgId: 7, orgName: '第一网格', orgPath: '外滩街道/金陵东路居民委员会/第一网格' }],
  outside: 0,
};
const DRILLED: RollupData = {
  ...TOP,
  path: [{ key: '100', name: '南京东路街道' }],
  rows: [rowOf('110', '贵州路居民委员会', 300, { hasChildren: false })],
};

function Where() {
  const location = useLocation();
  return <div data-testid="where">{`${location.pathname}${location.search}`}</div>;
}

function wrap(children: ReactNode, at = '/diyLoad/index/loadTable?id=5') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>
        <App>
          <Routes>
            <Route path="*" element={children} />
          </Routes>
          <Where />
        </App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

beforeEach(() => {
  // Toasts would open antd's static message root, outside the rendered tree: its timers outlive the file.
  for (const kind of ['success', 'error', 'warning', 'info'] as const)
    vi.spyOn(feedback, kind).mockImplementation(() => undefined);
  api.info.mockImplementation(async () => INFO);
  api.data.mockImplementation(async (_id: number, body: { parent?: string }) =>
    body.parent === '100' ? DRILLED : TOP,
  );
  periods.list.mockImplementation(async () => [
    { id: 31, name: '2026年11月', state: 'open' },
    { id: 30, name: '2026年10月', state: 'closed' },
  ]);
});
afterEach(() => {
  vi.clearAllMocks();
});

describe('roll-up model', () => {
  it('computes the change in % and leaves it out without a base', () => {
    expect(changePercent(300, 200)).toBe(50);
    expect(changePercent(100, -200)).toBe(150);
    expect(changePercent(300, 0)).toBeNull();
    expect(changePercent(null, 10)).toBeNull();
    const row = rowOf('1', 'x', 300);
    expect(figureIn(row, 'm1', 'last')).toBe(200);
    expect(figureIn(row, 'm1', 'mom')).toBe(50);
    expect(figureIn(row, 'm1', 'yoy')).toBeNull();
  });

  it('links a figure to the records of its org or region prefix and period', () => {
    expect(recordsPath(INFO, 31, { key: '100', name: '南京东路街道' })).toBe(
      `/diyReport/index/formTable?id=9&periodId=31&orgId=100&orgName=${encodeURIComponent('南京东路街道').replace(/%20/g, '+')}`,
    );
    const region = { ...INFO, config: { ...INFO.config, dimension: 'region' as const, regionField: 'area' } };
    expect(recordsPath(region, null, { key: '310101', name: '黄浦区' })).toBe(
      '/diyReport/index/formTable?id=9&filter=area%3Aprefix%3A310101',
    );
    expect(recordsPath(INFO, 31, null)).toBe('/diyReport/index/formTable?id=9&periodId=31');
    expect(recordsPath(INFO, 31, { key: '100', name: '南京东路街道（本级）', own: true })).toBe(
      `/diyReport/index/formTable?id=9&periodId=31&orgId=100&orgOwn=1&orgName=${encodeURIComponent('南京东路街道（本级）')}`,
    );
  });
});

describe('汇总表 page', { timeout: 60_000 }, () => {
  it('shows the rows, the total, the counts and the units missing', async () => {
    render(wrap(<LoadTablePage />));
    const table = await screen.findByTestId('rollup-table');
    expect(within(table).getByTestId('rollup-fig-100-m1').textContent).toBe('300');
    expect(within(table).getByTestId('rollup-fig-200-m1').textContent).toBe('—');
    expect(within(table).getByTestId('rollup-total-m1').textContent).toBe('300');
    expect(screen.getByTestId('rollup-count-pending').textContent).toContain('2');
    expect(screen.getByTestId('rollup-partial')).toBeTruthy();
    fireEvent.click(screen.getByTestId('rollup-missing-button'));
    expect((await screen.findByTestId('rollup-missing-list')).textContent).toContain(
      '外滩街道/金陵东路居民委员会/第一网格',
    );
    expect(api.data).toHaveBeenCalledWith(5, { compare: false });
    expect(screen.queryByTestId('rollup-outside')).toBeNull();
  });

  it('says how many records of units outside the level are left out', async () => {
    api.data.mockImplementation(async () => ({ ...TOP, outside: 1 }));
    render(wrap(<LoadTablePage />));
    expect((await screen.findByTestId('rollup-outside')).textContent).toBe(
      '另有 1 条记录来自不在本级统计范围内的单位（如区级部门），未计入各行和合计',
    );
  });

  it('drills down by a row name and back up by the breadcrumb', async () => {
    render(wrap(<LoadTablePage />));
    fireEvent.click(await screen.findByTestId('rollup-drill-100'));
    await screen.findByTestId('rollup-name-110');
    expect(api.data).toHaveBeenLastCalledWith(5, { parent: '100', compare: false });
    expect(screen.getByTestId('rollup-crumb-0').textContent).toBe('南京东路街道');
    fireEvent.click(screen.getByTestId('rollup-crumb-top'));
    await screen.findByTestId('rollup-drill-100');
  });

  it('compares with last period in % and opens the records behind a figure', async () => {
    render(wrap(<LoadTablePage />));
    await screen.findByTestId('rollup-table');
    fireEvent.click(screen.getByText('环比%'));
    await waitFor(() => expect(api.data).toHaveBeenLastCalledWith(5, { compare: true }));
    await waitFor(() => expect(screen.getByTestId('rollup-row-100').textContent).toContain('+50%'));
    expect(screen.getByTestId('rollup-mode-period').textContent).toContain('2026年10月');
    fireEvent.click(screen.getByText('本期'));
    fireEvent.click(await screen.findByTestId('rollup-fig-100-m1'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toMatch(
        /^\/diyReport\/index\/formTable\?id=9&periodId=31&orgId=100&orgName=/,
      ),
    );
  });

  it('asks for the source form’s password when the figures need it, then shows them', async () => {
    let verified = false;
    api.data.mockImplementation(async () => {
      if (!verified) throw new HttpError('请先验证表单密码', 'F1007');
      return TOP;
    });
    checkFormPwd.mockImplementation(async () => {
      verified = true;
      return null;
    });
    render(wrap(<LoadTablePage />));
    expect((await screen.findByTestId('rollup-locked')).textContent).toContain('社区人口月报');
    const field = await screen.findByTestId('form-pwd-input');
    fireEvent.change(field, { target: { value: 'Pop#2026' } });
    fireEvent.keyDown(field, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(checkFormPwd).toHaveBeenCalledWith(9, 'enc(Pop#2026,pk)'));
    expect(await screen.findByText('南京东路街道')).toBeTruthy();
    expect(screen.queryByTestId('rollup-locked')).toBeNull();
    expect(feedback.success).toHaveBeenCalledWith('验证成功');
  });

  it('says when the roll-up is not the caller’s, and when nothing is there', async () => {
    api.info.mockImplementation(async () => {
      throw new HttpError('汇总表不存在或您无权查看', 'F1000');
    });
    const { unmount } = render(wrap(<LoadTablePage />));
    expect((await screen.findByTestId('rollup-error')).textContent).toContain('汇总表不存在或您无权查看');
    unmount();
    api.info.mockImplementation(async () => INFO);
    api.data.mockImplementation(async () => ({ ...TOP, rows: [] }));
    render(wrap(<LoadTablePage />));
    expect((await screen.findByTestId('rollup-empty')).textContent).toContain('本期没有可汇总的数据');
  });
});
