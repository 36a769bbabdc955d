import type { MyReportItem } from '@shuzhi/contracts/diy-collect';
import type { ClassifyOption, FormItem } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ComponentType } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import {
  categoryTiles,
  countByState,
  inCategory,
  matchesKeyword,
  parseCategory,
  portalHref,
  reportState,
} from './enterprise.model.ts';

const api = vi.hoisted(() => ({
  myReports: vi.fn(),
  collectList: vi.fn(),
  collect: vi.fn(),
  detail: vi.fn(),
}));
const reportApi = vi.hoisted(() => ({
  tableList: vi.fn(),
  clearTip: vi.fn(),
  checkFormPwd: vi.fn(),
  classifyOptions: vi.fn(),
}));
vi.mock('./enterprise.api.ts', async (original) => ({
  ...(await original<typeof import('./enterprise.api.ts')>()),
  enterpriseApi: api,
}));
vi.mock('../../components/diy-report/diy-report.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-report/diy-report.api.ts')>()),
  diyReportApi: reportApi,
}));
vi.mock('../../platform/session/session.api.ts', () => ({
  sessionApi: { loginConfig: async () => ({ publicKey: 'pk' }) },
}));
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

const { default: HomePage } = await import('./enterprise-home.page.tsx');
const { default: ClassifyPage } = await import('./report-classify.page.tsx');
const { default: ListPage } = await import('./report-list.page.tsx');
const { default: SearchPage } = await import('./search.page.tsx');
const { default: DetailPage } = await import('./detail.page.tsx');

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

const AUTH = {
  query: true,
  add: true,
  update: true,
  delete: false,
  audit: false,
  export: false,
  import: false,
  design: false,
};

function form(id: number, patch: Partial<FormItem> = {}): FormItem {
  return {
    id,
    title: `表单${id}`,
    reportType: 1,
    isEnable: true,
    isShowPwd: false,
    lastUpdateTime: '2026-11-01 08:00:00',
    isTip: false,
    query: null,
    defaultHideDataList: [],
    myAuth: AUTH,
    categoryId: null,
    categoryName: null,
    ownerOrgId: 1,
    ownerOrgName: '区市场监督管理局',
    version: 1,
    hasDraft: false,
    recordCount: 0,
    periodKind: 'none',
    currentPeriod: null,
    ...patch,
  };
}

function report(id: number, patch: Partial<MyReportItem> = {}): MyReportItem {
  return {
    ...form(id),
    remark: null,
    collected: false,
    myRecordCount: 0,
    latestStatus: null,
    lastSubmitTime: null,
    ...patch,
  };
}

const OPTIONS: ClassifyOption[] = [
  { value: 10, label: '企业填报', pid: 0, orderNo: 1, formCount: 2 },
  { value: 11, label: '年报', pid: 10, orderNo: 1, formCount: 1 },
  { value: 20, label: '安全生产', pid: 0, orderNo: 2, formCount: 1 },
  { value: 30, label: '空分类', pid: 0, orderNo: 3, formCount: 0 },
];

const REPORTS = [
  report(1, {
    title: '企业基本情况登记表',
    categoryId: 10,
    categoryName: '企业填报',
    myRecordCount: 2,
    latestStatus: 1,
    lastSubmitTime: '2026-11-02 09:00:00',
    remark: '每年三月底前填报',
  }),
  report(2, { title: '企业年度报告', categoryId: 11, categoryName: '年报', isShowPwd: true }),
  report(3, {
    title: '安全生产检查记录',
    categoryId: 20,
    categoryName: '安全生产',
    myRecordCount: 1,
    latestStatus: 3,
    lastSubmitTime: '2026-11-01 10:00:00',
    collected: true,
  }),
  report(4, { title: '临时统计', latestStatus: 2, myRecordCount: 1, lastSubmitTime: '2026-10-01 10:00:00' }),
];

function Where() {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
}

function renderAt(Page: ComponentType, url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={[url]}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  <Page />
                  <Where />
                </>
              }
            />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

const where = () => screen.getByTestId('where').textContent;

describe('portal model', () => {
  it('maps record states, counts them and matches keywords on title and category', () => {
    expect(REPORTS.map(reportState)).toEqual(['submitted', 'none', 'returned', 'approved']);
    expect(reportState({ latestStatus: 0 })).toBe('draft');
    expect(countByState(REPORTS)).toEqual({ none: 1, draft: 0, submitted: 1, returned: 1, approved: 1 });
    expect(matchesKeyword(REPORTS[0] as MyReportItem, '登记')).toBe(true);
    expect(matchesKeyword(REPORTS[2] as MyReportItem, '安全')).toBe(true);
    expect(matchesKeyword(REPORTS[1] as MyReportItem, '年报')).toBe(true);
    expect(matchesKeyword(REPORTS[3] as MyReportItem, '年报')).toBe(false);
  });

  it('tiles top categories with their subtrees, keeps empty ones and gathers forms without one', () => {
    expect(categoryTiles(REPORTS, OPTIONS, '未分类')).toEqual([
      { id: 10, label: '企业填报', count: 2 },
      { id: 20, label: '安全生产', count: 1 },
      { id: 30, label: '空分类', count: 0 },
      { id: null, label: '未分类', count: 1 },
    ]);
    // Without the categories the forms' own category names are used.
    expect(categoryTiles(REPORTS, undefined, '未分类').map((t) => t.label)).toEqual([
      '企业填报',
      '年报',
      '安全生产',
      '未分类',
    ]);
    expect(inCategory(REPORTS[1] as MyReportItem, 10, OPTIONS)).toBe(true);
    expect(inCategory(REPORTS[1] as MyReportItem, 20, OPTIONS)).toBe(false);
    expect(inCategory(REPORTS[3] as MyReportItem, null, OPTIONS)).toBe(true);
  });

  it('reads category parameters and keeps the no-header mode in links', () => {
    expect(parseCategory('10')).toBe(10);
    expect(parseCategory('none')).toBeNull();
    expect(parseCategory('abc')).toBeUndefined();
    expect(parseCategory(null)).toBeUndefined();
    expect(
      portalHref('/enterprise/reportList', new URLSearchParams('openType=iframenoheader&x=1'), {
        category: '10',
      }),
    ).toBe('/enterprise/reportList?openType=iframenoheader&category=10');
    expect(portalHref('/enterprise', new URLSearchParams())).toBe('/enterprise');
  });
});

describe('portal pages', () => {
  beforeEach(() => {
    for (const fn of [...Object.values(api), ...Object.values(reportApi)]) fn.mockReset();
    api.myReports.mockResolvedValue(REPORTS);
    api.collectList.mockResolvedValue([REPORTS[2]]);
    api.collect.mockImplementation(async (tableId: number, collect: boolean) => ({
      tableId,
      collected: collect,
    }));
    reportApi.classifyOptions.mockResolvedValue(OPTIONS);
    reportApi.tableList.mockResolvedValue(REPORTS);
    reportApi.clearTip.mockResolvedValue(null);
    window.sessionStorage.clear();
    useSessionStore.setState({
      userInfo: { id: 7, realName: '马晓东', orgName: '上海黄浦数智科技有限公司' } as never,
    });
  });

  it('home: welcomes the enterprise, counts by state, shows favourites, categories, recent and to-do', async () => {
    renderAt(HomePage, '/enterprise?openType=iframenoheader');
    expect((await screen.findByTestId('enterprise-welcome')).textContent).toContain(
      '您好，上海黄浦数智科技有限公司',
    );
    const counts = screen
      .getAllByTestId('count-value')
      .map((c) => [c.getAttribute('data-state'), c.textContent]);
    expect(counts).toEqual([
      ['none', '1'],
      ['draft', '0'],
      ['submitted', '1'],
      ['returned', '1'],
      ['approved', '1'],
    ]);
    await waitFor(() => expect(screen.getAllByTestId('favourite-card')).toHaveLength(1));
    expect(screen.getByTestId('favourite-card').textContent).toContain('安全生产检查记录');
    const tiles = within(screen.getByTestId('enterprise-categories')).getAllByTestId('category-tile');
    expect(tiles.map((t) => t.getAttribute('data-label'))).toEqual(['企业填报', '安全生产', '未分类']);
    const recent = within(screen.getByTestId('enterprise-recent')).getAllByTestId('enterprise-report-row');
    expect(recent.map((r) => r.textContent?.slice(0, 4))).toEqual(['企业基本', '安全生产', '临时统计']);
    const todo = within(screen.getByTestId('enterprise-todo')).getAllByTestId('enterprise-report-row');
    expect(todo).toHaveLength(2);

    fireEvent.click(tiles[0] as HTMLElement);
    expect(where()).toBe('/enterprise/reportList?openType=iframenoheader&category=10');
  });

  it('home: a state count opens the list of that state; empty favourites say how to add one', async () => {
    api.collectList.mockResolvedValue([]);
    renderAt(HomePage, '/enterprise');
    expect(await screen.findByText('还没有收藏的表单，点表单旁的星标即可收藏')).toBeTruthy();
    const returned = screen
      .getAllByTestId('enterprise-count')
      .find((c) => c.getAttribute('data-label') === '已退回');
    fireEvent.keyDown(returned as HTMLElement, { key: 'Enter' });
    expect(where()).toBe('/enterprise/reportList?status=returned');
  });

  it('home: shows the error with a retry', async () => {
    api.myReports.mockRejectedValueOnce(new HttpError('服务器开小差了', 500));
    renderAt(HomePage, '/enterprise');
    expect(await screen.findByTestId('enterprise-error')).toBeTruthy();
    fireEvent.click(screen.getByText('重 试'));
    expect(await screen.findByTestId('enterprise-welcome')).toBeTruthy();
  });

  it('classify: tiles with counts lead to the filtered list; the nav keeps the mode', async () => {
    renderAt(ClassifyPage, '/enterprise/reportClassify?openType=iframenoheader');
    const grid = await screen.findByTestId('classify-grid');
    const tiles = within(grid).getAllByTestId('category-tile');
    expect(tiles.map((t) => within(t).getByTestId('category-count').textContent)).toEqual([
      '2 张表单',
      '1 张表单',
      '1 张表单',
    ]);
    fireEvent.click(tiles[1] as HTMLElement);
    expect(where()).toBe('/enterprise/reportList?openType=iframenoheader&category=20');
    fireEvent.click(within(screen.getByTestId('enterprise-nav')).getByText('搜索表单'));
    expect(where()).toBe('/enterprise/search?openType=iframenoheader');
  });

  it('list: filters by category and state from the URL, favourites and fills', async () => {
    renderAt(ListPage, '/enterprise/reportList?category=10');
    const table = await screen.findByTestId('report-list-table');
    await waitFor(() => expect(within(table).getAllByTestId('report-title')).toHaveLength(2));
    const first = within(table).getAllByTestId('report-title')[0]?.closest('tr') as HTMLElement;
    expect(within(first).getByTestId('report-state').textContent).toBe('待审核');
    expect(first.textContent).toContain('2026-11-02 09:00:00');

    fireEvent.click(within(first).getByTestId('collect-star'));
    await waitFor(() => expect(api.collect).toHaveBeenCalledWith(1, true));
    await waitFor(() => expect(api.myReports).toHaveBeenCalledTimes(2));

    fireEvent.click(within(first).getByTestId('report-fill'));
    await waitFor(() => expect(where()).toBe('/diyReport/index/formTable?id=1'));
  });

  it('list: shows the current period and due date, highlighting a form in its grace period', async () => {
    api.myReports.mockResolvedValue([
      report(1, {
        title: '企业用工情况月报',
        periodKind: 'month',
        currentPeriod: { id: 31, name: '2026年11月', dueDate: '2026-12-05', state: 'grace' },
      }),
      report(2, { title: '临时统计' }),
    ]);
    renderAt(ListPage, '/enterprise/reportList');
    const table = await screen.findByTestId('report-list-table');
    const rowOf = async (title: string) =>
      (await within(table).findByText(title)).closest('tr') as HTMLElement;
    const monthly = await rowOf('企业用工情况月报');
    const line = within(monthly).getByTestId('current-period');
    expect(line.textContent).toContain('2026年11月');
    expect(line.textContent).toContain('截止 2026-12-05');
    expect(within(line).getByTestId('period-state').textContent).toBe('宽限期');
    expect(monthly.getAttribute('style')).toContain('background');
    const plain = await rowOf('临时统计');
    expect(within(plain).queryByTestId('current-period')).toBeNull();
    expect(plain.getAttribute('style') ?? '').not.toContain('background');
  });

  it('list: a state filter narrows the rows, a locked form asks for its password before filling', async () => {
    const { unmount } = renderAt(ListPage, '/enterprise/reportList?status=returned');
    const table = await screen.findByTestId('report-list-table');
    await waitFor(() =>
      expect(
        within(table)
          .getAllByTestId('report-title')
          .map((n) => n.textContent),
      ).toEqual(['安全生产检查记录']),
    );
    unmount();
    renderAt(ListPage, '/enterprise/reportList?status=none');
    const rows = await screen.findAllByTestId('report-title');
    expect(rows.map((n) => n.textContent)).toEqual(['企业年度报告']);
    fireEvent.click(within(rows[0]?.closest('tr') as HTMLElement).getByTestId('report-fill'));
    expect(await screen.findByTestId('form-pwd-input')).toBeTruthy();
    expect(where()).toBe('/enterprise/reportList?status=none');
  });

  it('search: finds forms by title or category and offers detail and favourite', async () => {
    renderAt(SearchPage, '/enterprise/search');
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(4));
    const input = screen.getByTestId('search-input').querySelector('input') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '安全' } });
    fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(1));
    expect(screen.getByTestId('search-count').textContent).toBe('找到 1 张表单');
    expect(where()).toBe('/enterprise/search?keyword=%E5%AE%89%E5%85%A8');
    const star = within(screen.getByTestId('search-result')).getByTestId('collect-star');
    await waitFor(() => expect(star.getAttribute('data-collected')).toBe('1'));
    fireEvent.click(star);
    await waitFor(() => expect(api.collect).toHaveBeenCalledWith(3, false));
    fireEvent.click(screen.getByTestId('search-detail'));
    expect(where()).toBe('/enterprise/detail?id=3');
  });

  it('search: a keyword that matches nothing says so', async () => {
    renderAt(SearchPage, '/enterprise/search?keyword=zzz');
    expect(await screen.findByText('没有符合条件的表单')).toBeTruthy();
    expect(screen.getByTestId('search-count').textContent).toBe('找到 0 张表单');
  });

  it('detail: shows the form, the records summary, favourites and fills', async () => {
    api.detail.mockResolvedValue(REPORTS[0]);
    renderAt(DetailPage, '/enterprise/detail?id=1');
    expect((await screen.findByTestId('detail-title')).textContent).toBe('企业基本情况登记表');
    expect(api.detail).toHaveBeenCalledWith(1);
    const page = screen.getByTestId('enterprise-detail');
    expect(page.textContent).toContain('每年三月底前填报');
    expect(page.textContent).toContain('区市场监督管理局');
    expect(within(screen.getByTestId('detail-records')).getAllByTestId('report-state')[0]?.textContent).toBe(
      '待审核',
    );
    fireEvent.click(screen.getByTestId('detail-collect'));
    await waitFor(() => expect(api.collect).toHaveBeenCalledWith(1, true));
    fireEvent.click(screen.getByTestId('detail-fill'));
    await waitFor(() => expect(where()).toBe('/diyReport/index/formTable?id=1'));
  });

  it('detail: a form that is not the caller’s, or no id, shows why', async () => {
    api.detail.mockRejectedValue(new HttpError('表单不存在', 'F1000'));
    const { unmount } = renderAt(DetailPage, '/enterprise/detail?id=99');
    expect(await screen.findByTestId('detail-not-found')).toBeTruthy();
    unmount();
    renderAt(DetailPage, '/enterprise/detail');
    expect(await screen.findByTestId('detail-missing')).toBeTruthy();
    expect(api.detail).toHaveBeenCalledTimes(1);
  });
});
