import type { WordFields, WordOutput, WordTemplate } from '@shuzhi/contracts/diy-word';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  sources: vi.fn(),
  fields: vi.fn(),
  upload: vi.fn(),
  remove: vi.fn(),
  record: vi.fn(),
  batch: vi.fn(),
  bulletin: vi.fn(),
  outputs: vi.fn(),
  records: vi.fn(),
  downloadTemplate: vi.fn(),
  download: vi.fn(),
  previewUrl: (id: number) => `/api/sysFile/preview/${id}`,
}));
vi.mock('./diy-word.api.ts', async (original) => ({
  ...(await original<typeof import('./diy-word.api.ts')>()),
  wordApi: api,
}));

const { default: DiyWordPage } = await import('./diy-word.page.tsx');

vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 15_000 });

const TEMPLATE: WordTemplate = {
  id: 5,
  name: '检查通知书',
  tableId: 9,
  tableTitle: '安全生产检查记录',
  sourceKind: 'form',
  fileId: 50,
  fileName: '通知书.docx',
  size: 2048,
  placeholders: ['$org', '#hazards', 'desc'],
  remark: null,
  createTime: '2026-11-20 10:00:00',
  createUserName: '管理员',
};
const FIELDS: WordFields = {
  tableId: 9,
  tableTitle: '安全生产检查记录',
  sourceKind: 'form',
  names: [
    { name: '$org', label: '填报单位', kind: 'value', inner: [] },
    { name: 'hazards', label: '隐患明细', kind: 'loop', inner: [{ name: 'desc', label: '隐患描述' }] },
  ],
  periods: [],
};
const OUTPUT: WordOutput = {
  id: 8,
  templateId: 5,
  kind: 'record',
  fileId: 80,
  fileName: '检查通知书-JC0001.docx',
  size: 4096,
  count: 1,
  recordId: 31,
  periodId: null,
  createTime: '2026-11-28 09:00:00',
  createUserName: '管理员',
};

function renderPage(path = '/diyword/index') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <MemoryRouter initialEntries={[path]}>
      <QueryClientProvider client={client}>
        <App>
          <DiyWordPage />
        </App>
      </QueryClientProvider>
    </MemoryRouter>,
  );
}

beforeEach(() => {
  api.list.mockReset().mockResolvedValue([TEMPLATE]);
  api.sources.mockReset().mockResolvedValue([{ id: 9, title: '安全生产检查记录', sourceKind: 'form' }]);
  api.fields.mockReset().mockResolvedValue(FIELDS);
  api.upload.mockReset();
  api.record.mockReset().mockResolvedValue(OUTPUT);
  api.records.mockReset().mockResolvedValue([
    {
      id: 31,
      dataNo: 'JC0001',
      createOrgName: '第一网格',
      periodName: null,
      createTime: '2026-11-01 09:00:00',
    },
  ]);
  api.outputs.mockReset().mockResolvedValue([OUTPUT]);
  api.remove.mockReset().mockResolvedValue(null);
});

describe('文书报告', () => {
  it('lists templates with their source; no upload, generate or delete without the permissions', async () => {
    useSessionStore.setState({ buttons: ['diyWord:page'] });
    renderPage('/diyword/index?id=9');
    expect(await screen.findByText('检查通知书')).toBeTruthy();
    expect(screen.getByText('个数：3')).toBeTruthy();
    expect(api.list).toHaveBeenCalledWith(9);
    expect(screen.queryByTestId('word-upload')).toBeNull();
    expect(screen.queryByTestId('word-generate')).toBeNull();
    expect(screen.queryByTestId('word-delete')).toBeNull();
    fireEvent.click(screen.getByTestId('word-help'));
    const help = await screen.findByTestId('word-help-table');
    expect(within(help).getByText('{#hazards}…{/hazards}')).toBeTruthy();
    expect(within(help).getByText(/隐患明细 — 循环，内含： \{desc\} 隐患描述/)).toBeTruthy();
  });

  it('shows the server’s list of bad placeholders when an upload is refused', async () => {
    useSessionStore.setState({ buttons: ['diyWord:page', 'diyWord:add'] });
    api.upload.mockRejectedValue(
      new HttpError('模板中的占位符没有对应的字段：nosuch, nope', 'W1003', {
        placeholders: ['nosuch', 'nope'],
      }),
    );
    renderPage('/diyword/index?id=9');
    fireEvent.click(await screen.findByTestId('word-upload'));
    fireEvent.change(await screen.findByTestId('word-upload-name'), { target: { value: '通知书' } });
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    const file = new File(['PK'], '上传.docx', {
      type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    fireEvent.change(input, { target: { files: [file] } });
    expect(await screen.findByText('上传.docx')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /^(确\s?定|OK)$/ }));
    expect((await screen.findByTestId('word-upload-error')).textContent).toContain('nosuch, nope');
    expect(api.upload).toHaveBeenCalledWith(file, '上传.docx', {
      tableId: 9,
      name: '通知书',
      remark: undefined,
    });
  });

  it('generates a record’s document and offers preview and download', async () => {
    useSessionStore.setState({ buttons: ['diyWord:page', 'diyWord:generate'] });
    renderPage();
    fireEvent.click(await screen.findByTestId('word-generate'));
    const dialog = await screen.findByRole('dialog');
    const ok = within(dialog).getByRole('button', { name: /^生\s?成$/ });
    fireEvent.click(ok);
    expect((await screen.findByTestId('word-generate-error')).textContent).toBe('请选择记录');
    const select = await screen.findByTestId('word-generate-record');
    fireEvent.mouseDown(within(select).getByRole('combobox'));
    fireEvent.click(await screen.findByText('JC0001 · 第一网格 · 2026-11-01'));
    fireEvent.click(ok);
    await waitFor(() => expect(api.record).toHaveBeenCalledWith(5, 31));
    const last = await screen.findByTestId('word-last-output');
    expect(within(last).getByText('检查通知书-JC0001.docx')).toBeTruthy();
    expect(within(last).getByTestId('word-output-preview')).toBeTruthy();
  });
});
