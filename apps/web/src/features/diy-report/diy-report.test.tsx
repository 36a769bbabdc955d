import type { ClassifyOption, FormItem } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { ALL_KEY, buildCategoryTree, NONE_KEY, visibleItems } from './diy-report.model.ts';

const api = vi.hoisted(() => ({
  tableList: vi.fn(),
  clearTip: vi.fn(),
  checkFormPwd: vi.fn(),
  classifyOptions: vi.fn(),
}));
vi.mock('../../components/diy-report/diy-report.api.ts', async (original) => ({
  ...(await original<typeof import('../../components/diy-report/diy-report.api.ts')>()),
  diyReportApi: api,
}));

vi.mock('../../platform/session/session.api.ts', () => ({
  sessionApi: { loginConfig: async () => ({ publicKey: 'pk' }) },
}));
vi.mock('../../platform/crypto/password-cipher.ts', () => ({
  encryptPassword: (text: string, key: string) => `enc(${text},${key})`,
}));

const { default: DiyReportPage } = await import('./diy-report.page.tsx');

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

function item(id: number, patch: Partial<FormItem> = {}): FormItem {
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
    ownerOrgName: '黄浦区发改委',
    version: 1,
    hasDraft: false,
    recordCount: 0,
    periodKind: 'none',
    currentPeriod: null,
    ...patch,
  };
}

const OPTIONS: ClassifyOption[] = [
  { value: 10, label: '经济运行', pid: 0, orderNo: 1, formCount: 3 },
  { value: 11, label: '工业', pid: 10, orderNo: 1, formCount: 1 },
  { value: 20, label: '安全生产', pid: 0, orderNo: 2, formCount: 1 },
  { value: 30, label: '空分类', pid: 0, orderNo: 3, formCount: 0 },
];

const ITEMS = [
  item(1, {
    title: '企业用工情况月报',
    categoryId: 10,
    categoryName: '经济运行',
    isTip: true,
    recordCount: 12,
  }),
  item(2, { title: '工业产值季报', categoryId: 11, categoryName: '工业', isShowPwd: true }),
  item(3, { title: '安全隐患排查', categoryId: 20, categoryName: '安全生产', isEnable: false }),
  item(4, { title: '临时统计', categoryId: null }),
];

function Where() {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
}

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/diyReport']}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  <DiyReportPage />
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

const cards = () => screen.queryAllByTestId('form-item-card');

describe('category tree and filtering', () => {
  it('counts each category with its subtree, drops empty ones and gathers the rest under 未分类', () => {
    const tree = buildCategoryTree(ITEMS, OPTIONS, { uncategorized: '未分类' });
    expect(tree.map((n) => [n.label, n.count])).toEqual([
      ['经济运行', 2],
      ['安全生产', 1],
      ['未分类', 1],
    ]);
    expect(tree[0].children.map((n) => [n.label, n.count])).toEqual([['工业', 1]]);
    expect(
      visibleItems(ITEMS, tree, '10', '', 'title')
        .map((i) => i.id)
        .sort(),
    ).toEqual([1, 2]);
    expect(visibleItems(ITEMS, tree, NONE_KEY, '', 'title').map((i) => i.id)).toEqual([4]);
    expect(visibleItems(ITEMS, tree, ALL_KEY, '工业', 'title').map((i) => i.id)).toEqual([2]);
  });

  it('builds a flat tree from the forms when the categories could not be loaded', () => {
    const tree = buildCategoryTree(ITEMS, undefined, { uncategorized: '未分类' });
    expect(tree.map((n) => [n.label, n.count])).toEqual([
      ['安全生产', 1],
      ['工业', 1],
      ['经济运行', 1],
      ['未分类', 1],
    ]);
  });

  it('puts updated forms first when sorting by recent', () => {
    const items = [
      item(1, { lastUpdateTime: '2026-11-03 08:00:00' }),
      item(2, { lastUpdateTime: '2026-11-01 08:00:00', isTip: true }),
      item(3, { lastUpdateTime: '2026-11-02 08:00:00' }),
    ];
    expect(visibleItems(items, [], ALL_KEY, '', 'recent').map((i) => i.id)).toEqual([2, 1, 3]);
  });
});

describe('报表填报 page', () => {
  beforeEach(() => {
    for (const fn of Object.values(api)) fn.mockReset();
    api.classifyOptions.mockResolvedValue(OPTIONS);
    api.clearTip.mockResolvedValue(null);
    window.sessionStorage.clear();
  });

  it('lists the forms with their marks, counts per category, search and category filters', async () => {
    api.tableList.mockResolvedValue(ITEMS);
    renderPage();
    await waitFor(() => expect(cards()).toHaveLength(4));
    const first = cards().find((c) => c.textContent?.includes('企业用工情况月报')) as HTMLElement;
    expect(within(first).getByTestId('form-item-new').textContent).toBe('新');
    expect(within(first).getByTestId('form-item-count').textContent).toBe('12 条记录');
    const locked = cards().find((c) => c.textContent?.includes('工业产值季报')) as HTMLElement;
    expect(within(locked).getByTestId('form-item-lock')).toBeTruthy();
    const disabled = cards().find((c) => c.textContent?.includes('安全隐患排查')) as HTMLElement;
    expect(disabled.getAttribute('aria-disabled')).toBe('true');
    expect(within(disabled).getByText('已停用')).toBeTruthy();

    const tree = screen.getByTestId('diy-report-categories');
    expect(within(tree).getByText('全部').parentElement?.textContent).toBe('全部4');
    expect(within(tree).getByText('经济运行').parentElement?.textContent).toBe('经济运行2');
    expect(within(tree).queryByText('空分类')).toBeNull();

    fireEvent.click(within(tree).getByText('安全生产'));
    await waitFor(() => expect(cards()).toHaveLength(1));
    fireEvent.click(within(tree).getByText('全部'));
    await waitFor(() => expect(cards()).toHaveLength(4));

    fireEvent.change(screen.getByTestId('diy-report-search'), { target: { value: '季报' } });
    await waitFor(() => expect(cards()).toHaveLength(1));
    fireEvent.change(screen.getByTestId('diy-report-search'), { target: { value: '没有这张表' } });
    expect(await screen.findByText('没有符合条件的表单')).toBeTruthy();
  });

  it('opens a form on click and clears its tip; a disabled one stays shut', async () => {
    api.tableList.mockResolvedValue(ITEMS);
    renderPage();
    await waitFor(() => expect(cards()).toHaveLength(4));
    fireEvent.click(cards().find((c) => c.textContent?.includes('安全隐患排查')) as HTMLElement);
    expect(screen.getByTestId('where').textContent).toBe('/diyReport');
    fireEvent.click(cards().find((c) => c.textContent?.includes('企业用工情况月报')) as HTMLElement);
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/diyReport/index/formTable?id=1'),
    );
    expect(api.clearTip).toHaveBeenCalledWith(1);
  });

  it('opens with Enter, asking for the password of a locked form first', async () => {
    api.tableList.mockResolvedValue(ITEMS);
    api.checkFormPwd.mockResolvedValue(null);
    renderPage();
    await waitFor(() => expect(cards()).toHaveLength(4));
    const locked = cards().find((c) => c.textContent?.includes('工业产值季报')) as HTMLElement;
    fireEvent.keyDown(locked, { key: 'Enter' });
    const field = await screen.findByTestId('form-pwd-input');
    expect(screen.getByTestId('where').textContent).toBe('/diyReport');
    fireEvent.change(field, { target: { value: 'Form#2026' } });
    fireEvent.click(screen.getByTestId('form-pwd-ok'));
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/diyReport/index/formTable?id=2'),
    );
    expect(api.checkFormPwd).toHaveBeenCalledWith(2, 'enc(Form#2026,pk)');
  });

  it('shows the current period and due date of periodic forms, marking an overdue one', async () => {
    api.tableList.mockResolvedValue([
      item(1, {
        title: '企业用工情况月报',
        periodKind: 'month',
        currentPeriod: { id: 31, name: '2026年11月', dueDate: '2026-12-05', state: 'open' },
      }),
      item(2, {
        title: '工业产值季报',
        periodKind: 'quarter',
        currentPeriod: { id: 40, name: '2026年第3季度', dueDate: '2026-10-15', state: 'overdue' },
      }),
      item(3, { title: '临时统计' }),
    ]);
    renderPage();
    await waitFor(() => expect(cards()).toHaveLength(3));
    const card = (title: string) => cards().find((c) => c.textContent?.includes(title)) as HTMLElement;
    const monthly = within(card('企业用工情况月报')).getByTestId('current-period');
    expect(monthly.textContent).toContain('本期：2026年11月');
    expect(monthly.textContent).toContain('截止 2026-12-05');
    expect(within(monthly).queryByTestId('period-state')).toBeNull();
    const quarterly = within(card('工业产值季报')).getByTestId('current-period');
    expect(within(quarterly).getByTestId('period-state').textContent).toBe('已逾期');
    expect(within(card('临时统计')).queryByTestId('current-period')).toBeNull();
  });

  it('shows the empty state when there is nothing to fill in', async () => {
    api.tableList.mockResolvedValue([]);
    renderPage();
    expect(await screen.findByText('暂无可填报的表单')).toBeTruthy();
  });

  it('shows the error with a retry, and still lists forms when the categories fail', async () => {
    api.tableList.mockRejectedValueOnce(new HttpError('服务暂不可用', 500));
    api.classifyOptions.mockRejectedValue(new HttpError('Not Found', 404));
    renderPage();
    expect(await screen.findByText('表单加载失败')).toBeTruthy();
    expect(screen.getByText('服务暂不可用')).toBeTruthy();
    api.tableList.mockResolvedValue(ITEMS);
    fireEvent.click(screen.getByText('重 试').closest('button') ?? screen.getByText('重试'));
    await waitFor(() => expect(cards()).toHaveLength(4));
    expect(screen.getByText('分类暂不可用，按表单所带分类显示')).toBeTruthy();
  });
});
