import { type FormDesign, formDesignSchema } from '@shuzhi/contracts/diy-form';
import type { FormDesignForFilling } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, configure, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../../platform/session/session.store.ts';
import { formatSize, LEDGER_EXPORT_URL } from './export-ledger.tsx';
import FormTablePage from './form-table.page.tsx';

const api = vi.hoisted(() => ({
  design: vi.fn(),
  page: vi.fn(),
  detail: vi.fn(),
  history: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
}));
vi.mock('../../../components/diy-record/diy-record.api.ts', async (original) => ({
  ...(await original<typeof import('../../../components/diy-record/diy-record.api.ts')>()),
  diyRecordApi: api,
}));
const download = vi.hoisted(() => ({ downloadFile: vi.fn() }));
vi.mock('../../../platform/data/download.ts', async (original) => ({
  ...(await original<typeof import('../../../platform/data/download.ts')>()),
  downloadFile: download.downloadFile,
}));

vi.setConfig({ testTimeout: 90_000 });
configure({ asyncUtilTimeout: 15_000 });

const DESIGN: FormDesign = formDesignSchema.parse({
  fields: [{ id: 'name', type: 'text', label: '单位名称' }],
});

const formWith = (canExport: boolean): FormDesignForFilling => ({
  version: 1,
  design: DESIGN,
  item: {
    id: 9,
    title: '企业用工情况月报',
    reportType: 1,
    isEnable: true,
    isShowPwd: false,
    lastUpdateTime: null,
    isTip: false,
    query: null,
    defaultHideDataList: [],
    myAuth: {
      query: true,
      add: false,
      update: false,
      delete: false,
      audit: false,
      export: canExport,
      import: false,
      design: false,
    },
    categoryId: null,
    categoryName: null,
    ownerOrgId: null,
    ownerOrgName: null,
    version: 1,
    hasDraft: false,
    recordCount: 0,
    periodKind: 'none',
    currentPeriod: null,
  },
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <MemoryRouter initialEntries={['/diyReport/index/formTable?id=9']}>
          <Routes>
            <Route path="/diyReport/index/formTable" element={<FormTablePage />} />
          </Routes>
        </MemoryRouter>
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.page.mockResolvedValue({ page: 1, pageSize: 20, total: 0, totalPages: 0, items: [] });
  useSessionStore.setState({
    userInfo: { id: 7, orgId: 5, realName: '张伟', regionId: null, areaCode: null } as never,
  });
});
afterEach(() => vi.clearAllMocks());

describe('导出 (Excel ledger)', () => {
  it('is offered only with myAuth.export', async () => {
    api.design.mockResolvedValue(formWith(false));
    renderPage();
    await screen.findByTestId('diy-record-list');
    expect(screen.queryByTestId('diy-record-export')).toBeNull();
  });

  it('posts the current filters, shows the bytes received and saves through the download helper', async () => {
    api.design.mockResolvedValue(formWith(true));
    let finish: (name: string) => void = () => {};
    download.downloadFile.mockImplementation(
      () =>
        new Promise<string>((resolve) => {
          finish = resolve;
        }),
    );
    renderPage();
    const search = (await screen.findByTestId('diy-record-keyword')).querySelector(
      'input',
    ) as HTMLInputElement;
    fireEvent.change(search, { target: { value: '数智' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() =>
      expect(api.page).toHaveBeenLastCalledWith(9, expect.objectContaining({ keyword: '数智' })),
    );

    fireEvent.click(screen.getByTestId('diy-record-export'));
    await waitFor(() => expect(download.downloadFile).toHaveBeenCalledTimes(1));
    const [url, fileName, options] = download.downloadFile.mock.calls[0] as [
      string,
      string,
      { method: string; body: unknown; onProgress: (p: number | null, loaded: number) => void },
    ];
    expect(url).toBe(LEDGER_EXPORT_URL);
    expect(fileName).toBe('企业用工情况月报.xlsx');
    expect(options.method).toBe('post');
    expect(options.body).toEqual({ tableId: 9, keyword: '数智' });
    expect(screen.getByTestId('diy-record-export').textContent).toContain('正在导出');

    act(() => options.onProgress(null, 2.5 * 1024 * 1024));
    await waitFor(() => expect(screen.getByTestId('diy-record-export').textContent).toContain('2.5 MB'));
    // A second click while it runs starts nothing.
    fireEvent.click(screen.getByTestId('diy-record-export'));
    expect(download.downloadFile).toHaveBeenCalledTimes(1);

    await act(async () => finish('企业用工情况月报_20261122.xlsx'));
    expect(await screen.findByText('已导出 企业用工情况月报_20261122.xlsx')).toBeTruthy();
    expect(screen.getByTestId('diy-record-export').textContent?.replace(/\s/g, '')).toBe('导出');
  });

  it('formats sizes', () => {
    expect(formatSize(512)).toBe('512 B');
    expect(formatSize(20_480)).toBe('20 KB');
    expect(formatSize(3 * 1024 * 1024)).toBe('3.0 MB');
  });
});
