import type { MyFiling } from '@shuzhi/contracts/diy-collect';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../platform/i18n/i18n.ts';
import { todayInZone } from '../../platform/time/time-zone.ts';
import { daysToDue, isFiled, isLate } from './my-filings.model.ts';

const api = vi.hoisted(() => ({ myFilings: vi.fn() }));
vi.mock('./home.api.ts', async (original) => ({
  ...(await original<typeof import('./home.api.ts')>()),
  homeApi: api,
}));

const { MyFilingsCard } = await import('./my-filings-card.tsx');

configure({ asyncUtilTimeout: 10_000 });
vi.setConfig({ testTimeout: 60_000 });

/** `today` in the product's zone shifted by `days`, as `YYYY-MM-DD`. */
function dayFromToday(days: number): string {
  const [y, m, d] = todayInZone().split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

function filing(id: number, patch: Partial<MyFiling> = {}): MyFiling {
  return {
    id,
    title: `表单${id}`,
    reportType: 1,
    isEnable: true,
    isShowPwd: false,
    lastUpdateTime: null,
    isTip: false,
    query: null,
    defaultHideDataList: [],
    myAuth: {
      query: true,
      add: true,
      update: true,
      delete: true,
      audit: false,
      export: false,
      import: true,
      design: false,
    },
    categoryId: null,
    categoryName: null,
    ownerOrgId: 1,
    ownerOrgName: '区民政局',
    version: 1,
    hasDraft: false,
    recordCount: 0,
    periodKind: 'month',
    currentPeriod: { id: 100 + id, name: '2026年11月', dueDate: dayFromToday(3), state: 'open' },
    recordId: null,
    recordStatus: null,
    late: false,
    recordTime: null,
    ...patch,
  };
}

const FILINGS: MyFiling[] = [
  filing(1, { title: '社区人口月报' }),
  filing(2, {
    title: '安全生产月报',
    recordId: 21,
    recordStatus: 0,
    recordTime: '2026-11-20 09:30:00',
    currentPeriod: { id: 102, name: '2026年10月', dueDate: dayFromToday(-2), state: 'grace' },
  }),
  filing(3, { title: '统计季报', recordId: 31, recordStatus: 3, recordTime: '2026-11-21 10:00:00' }),
  filing(4, { title: '人员月报', recordId: 41, recordStatus: 1, late: true }),
  filing(5, {
    title: '经济年报',
    recordId: 51,
    recordStatus: 2,
    currentPeriod: { id: 105, name: '2026年', dueDate: dayFromToday(0), state: 'open' },
  }),
];

function Where() {
  const location = useLocation();
  return <span data-testid="where">{`${location.pathname}${location.search}`}</span>;
}

function renderCard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/dashboard']}>
          <Routes>
            <Route
              path="*"
              element={
                <>
                  <MyFilingsCard />
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

const rows = () => screen.getAllByTestId('my-filing');
const row = (title: string) => rows().find((r) => r.textContent?.includes(title)) as HTMLElement;

beforeEach(() => {
  api.myFilings.mockReset();
});
afterEach(async () => {
  await i18n.changeLanguage('zh-cn');
});

describe('my filings model', () => {
  it('counts days to the due date and tells filed and late apart', () => {
    expect(daysToDue('2026-12-05', '2026-11-30')).toBe(5);
    expect(daysToDue('2026-03-01', '2026-02-28')).toBe(1);
    expect(daysToDue('2026-11-30', '2026-11-30')).toBe(0);
    expect(daysToDue('2026-11-28', '2026-12-01')).toBe(-3);
    expect(FILINGS.map(isFiled)).toEqual([false, false, false, true, true]);
    // Late: a record submitted late, or not yet submitted once the due date passed (grace).
    expect(FILINGS.map(isLate)).toEqual([false, true, false, true, false]);
    expect(isLate({ ...(FILINGS[1] as MyFiling), recordStatus: 1 })).toBe(false);
  });
});

describe('本期填报 card', () => {
  it('shows each form with its period, due date, own state, late marker and an open button', async () => {
    api.myFilings.mockResolvedValue(FILINGS);
    renderCard();
    await screen.findAllByTestId('my-filing');
    expect(rows().map((r) => within(r).getByTestId('my-filing-title').textContent)).toEqual([
      '社区人口月报',
      '安全生产月报',
      '统计季报',
      '人员月报',
      '经济年报',
    ]);
    const cells = (title: string) => ({
      period: within(row(title)).getByTestId('my-filing-period').textContent,
      due: within(row(title)).getByTestId('my-filing-due').textContent,
      state: within(row(title)).getByTestId('diy-record-status').textContent,
      late: within(row(title)).queryByTestId('my-filing-late') !== null,
      button: within(row(title)).getByTestId('my-filing-open').textContent?.replace(/\s/g, ''),
    });
    expect(cells('社区人口月报')).toEqual({
      period: '2026年11月',
      due: `${dayFromToday(3)}剩 3 天`,
      state: '未填报',
      late: false,
      button: '去填报',
    });
    expect(cells('安全生产月报')).toEqual({
      period: '2026年10月',
      due: `${dayFromToday(-2)}已过 2 天`,
      state: '草稿',
      late: true,
      button: '继续填报',
    });
    expect(cells('统计季报')).toMatchObject({ state: '已退回', late: false, button: '继续填报' });
    expect(cells('人员月报')).toMatchObject({ state: '待审核', late: true, button: '查看' });
    expect(cells('经济年报')).toMatchObject({
      due: `${dayFromToday(0)}今天截止`,
      state: '已通过',
      button: '查看',
    });

    fireEvent.click(within(row('统计季报')).getByTestId('my-filing-open'));
    expect(screen.getByTestId('where').textContent).toBe('/diyReport/index/formTable?id=3');
  });

  it('speaks English and traditional Chinese', async () => {
    api.myFilings.mockResolvedValue(FILINGS.slice(0, 2));
    await i18n.changeLanguage('en');
    const view = renderCard();
    await screen.findAllByTestId('my-filing');
    expect(screen.getByTestId('my-filings').textContent).toContain('To file this period');
    expect(within(row('社区人口月报')).getByTestId('diy-record-status').textContent).toBe('Not filed');
    expect(within(row('社区人口月报')).getByTestId('my-filing-due').textContent).toContain('3 days left');
    expect(within(row('安全生产月报')).getByTestId('my-filing-late').textContent).toBe('Late');
    view.unmount();
    await i18n.changeLanguage('zh-tw');
    renderCard();
    await screen.findAllByTestId('my-filing');
    expect(screen.getByTestId('my-filings').textContent).toContain('本期填報');
    expect(within(row('社区人口月报')).getByTestId('diy-record-status').textContent).toBe('未填報');
  });

  it('says when there is nothing to file, and leads to the whole fill list', async () => {
    api.myFilings.mockResolvedValue([]);
    renderCard();
    expect((await screen.findByTestId('my-filings-empty')).textContent).toContain('本期没有需要您填报的报表');
    fireEvent.click(screen.getByTestId('my-filings-all'));
    expect(screen.getByTestId('where').textContent).toBe('/diyReport');
  });

  it('shows a loading state, then a failure with a retry that loads again', async () => {
    let fail: (error: Error) => void = () => undefined;
    api.myFilings.mockReturnValueOnce(
      new Promise((_, reject) => {
        fail = reject;
      }),
    );
    renderCard();
    expect(screen.getByTestId('my-filings-loading')).toBeTruthy();
    fail(new Error('网络错误'));
    const error = await screen.findByTestId('my-filings-error');
    expect(error.textContent).toContain('本期填报加载失败');
    expect(error.textContent).toContain('网络错误');
    api.myFilings.mockResolvedValue(FILINGS.slice(0, 1));
    fireEvent.click(within(error).getByRole('button'));
    await screen.findAllByTestId('my-filing');
    expect(api.myFilings).toHaveBeenCalledTimes(2);
  });
});
