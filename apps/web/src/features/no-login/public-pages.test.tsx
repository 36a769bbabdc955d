import type { PageResult } from '@shuzhi/contracts/envelope';
import type { PublicScene, PublicStatement, Statement } from '@shuzhi/contracts/no-login-pages';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  publicPage: { statement: vi.fn(), scene: vi.fn() },
  statement: {
    page: vi.fn(),
    add: vi.fn(),
    edit: vi.fn(),
    withdraw: vi.fn(),
    remove: vi.fn(),
    design: vi.fn(),
  },
}));
vi.mock('./public-pages.api.ts', async (original) => ({
  ...(await original<typeof import('./public-pages.api.ts')>()),
  publicPageApi: api.publicPage,
  statementApi: api.statement,
}));
vi.mock('../../platform/profile/profile.ts', () => ({ useBranding: () => ({ systemTitle: '数智' }) }));

const { default: StatementPage } = await import('./statement.page.tsx');
const { default: CustomScenePage } = await import('./custom-scene.page.tsx');
const { default: StatementsPage } = await import('./statements.page.tsx');

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

function wrap(children: ReactNode, url = '/') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <App>{children}</App>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const STATEMENT: PublicStatement = {
  title: '违规摊位公示',
  intro: '以下摊位已整改',
  kind: 'dataset',
  tableTitle: '摊位登记表',
  fields: [
    { id: 'name', type: 'text', label: '摊主' },
    {
      id: 'kind',
      type: 'select',
      label: '类别',
      options: { source: 'options', items: [{ value: 'a', label: '早餐' }] },
    },
  ] as PublicStatement['fields'],
  records: [
    {
      id: 1,
      dataNo: 'N-1',
      values: { name: '张三', kind: 'a' },
      labels: {},
      createTime: '2026-11-01 10:00:00',
    },
    {
      id: 2,
      dataNo: 'N-2',
      values: { name: '李四', kind: null },
      labels: {},
      createTime: '2026-11-02 10:00:00',
    },
  ],
  truncated: false,
  publishTime: '2026-11-20 09:00:00',
  expireTime: '2026-12-20 09:00:00',
};

afterEach(() => {
  vi.resetAllMocks();
});

describe('/statement', () => {
  it('shows the chosen fields of the records as a table, with option labels, and prints', async () => {
    api.publicPage.statement.mockResolvedValue(STATEMENT);
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    render(wrap(<StatementPage />, '/statement?loadCodedate=abc'));
    const table = await screen.findByTestId('statement-table');
    expect(api.publicPage.statement).toHaveBeenCalledWith('abc');
    expect(table.querySelectorAll('th')).toHaveLength(3);
    expect(table.textContent).toContain('张三');
    expect(table.textContent).toContain('早餐');
    // A phone's screen shows a card per record instead (print CSS hides the cards on paper).
    expect(screen.getByTestId('statement-cards').textContent).toContain('李四');
    expect(screen.getByText('以下摊位已整改')).toBeTruthy();
    expect(screen.getByText('共 2 条')).toBeTruthy();
    fireEvent.click(screen.getByTestId('statement-print'));
    expect(print).toHaveBeenCalled();
    const styles = [...document.querySelectorAll('style')].map((s) => s.textContent).join('');
    expect(styles).toContain('@media print');
  });

  it('shows one record as a list of its fields', async () => {
    api.publicPage.statement.mockResolvedValue({
      ...STATEMENT,
      kind: 'record',
      records: [STATEMENT.records[0]],
    });
    render(wrap(<StatementPage />, '/statement?loadCodedate=abc'));
    const record = await screen.findByTestId('statement-record');
    expect(record.textContent).toContain('摊主');
    expect(record.textContent).toContain('张三');
  });

  it.each([
    ['N1020', 'withdrawn'],
    ['N1021', 'expired'],
    ['N1000', 'invalid'],
    ['N1005', 'invalid'],
  ])('ends on its own screen for %s', async (code, ending) => {
    api.publicPage.statement.mockRejectedValue(new HttpError('x', code));
    render(wrap(<StatementPage />, '/statement?loadCodedate=abc'));
    expect(await screen.findByTestId(`statement-${ending}`)).toBeTruthy();
  });
});

describe('/customScene', () => {
  const SCENE: PublicScene = {
    title: '垃圾分类宣传周',
    intro: '欢迎参加',
    bannerUrl: '/api/noLogin/sceneBanner?id=s1',
    entries: [
      { type: 'form', title: '我要报名', note: null, url: '/scancode?QrCodeType=form&code=c1' },
      { type: 'statement', title: '报名名单', note: null, url: null },
      { type: 'link', title: '活动介绍', note: '外部网站', url: 'https://example.org/' },
    ],
    expireTime: '2026-12-20 09:00:00',
  };

  it('shows the banner, intro and entries; an ended entry has no address; external ones open apart', async () => {
    api.publicPage.scene.mockResolvedValue(SCENE);
    render(wrap(<CustomScenePage />, '/customScene?id=s1'));
    expect(await screen.findByTestId('scene-intro')).toBeTruthy();
    expect(api.publicPage.scene).toHaveBeenCalledWith('s1');
    expect(screen.getByTestId('scene-banner').getAttribute('src')).toContain(
      '/api/noLogin/sceneBanner?id=s1',
    );
    expect(screen.getByTestId('scene-entry-0').getAttribute('href')).toBe(
      '/scancode?QrCodeType=form&code=c1',
    );
    expect(screen.getByTestId('scene-entry-0').getAttribute('target')).toBeNull();
    expect(screen.getByTestId('scene-entry-1').getAttribute('href')).toBeNull();
    expect(screen.getByTestId('scene-entry-1').textContent).toContain('已结束');
    const external = screen.getByTestId('scene-entry-2');
    expect(external.getAttribute('target')).toBe('_blank');
    expect(external.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('shows the withdrawn screen (N1022)', async () => {
    api.publicPage.scene.mockRejectedValue(new HttpError('x', 'N1022'));
    render(wrap(<CustomScenePage />, '/customScene?id=s1'));
    expect(await screen.findByTestId('scene-withdrawn')).toBeTruthy();
  });
});

describe('公示发布', () => {
  const ROW: Statement = {
    id: 3,
    title: '违规摊位公示',
    intro: null,
    kind: 'dataset',
    tableId: 9,
    tableTitle: '摊位登记表',
    recordId: null,
    fields: ['name'],
    filter: null,
    expireTime: '2026-12-20 09:00:00',
    state: 'active',
    viewCount: 12,
    url: '/statement?loadCodedate=abc',
    createTime: '2026-11-20 09:00:00',
    createUserName: '管理员',
    withdrawTime: null,
  };
  const pageOf = (items: Statement[]): PageResult<Statement> => ({
    page: 1,
    pageSize: 20,
    total: items.length,
    totalPages: 1,
    items,
    hasPrevPage: false,
    hasNextPage: false,
  });

  it('lists statements; withdraws after confirmation; no create without the permission', async () => {
    api.statement.page.mockResolvedValue(pageOf([ROW]));
    api.statement.withdraw.mockResolvedValue(null);
    useSessionStore.setState({ buttons: ['sysStatement:page', 'sysStatement:withdraw'] });
    render(wrap(<StatementsPage />));
    expect(await screen.findByText('违规摊位公示')).toBeTruthy();
    expect(screen.getByTestId('statements-state').textContent).toBe('有效');
    expect(screen.getByTestId('statements-open').getAttribute('href')).toBe('/statement?loadCodedate=abc');
    expect(screen.queryByTestId('statements-create')).toBeNull();
    expect(screen.queryByTestId('statements-edit')).toBeNull();
    fireEvent.click(screen.getByTestId('statements-withdraw'));
    fireEvent.click(await screen.findByRole('button', { name: /^(确\s?定|OK)$/ }));
    await waitFor(() => expect(api.statement.withdraw).toHaveBeenCalledWith(3));
  });
});
