import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import dayjs from 'dayjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import type { FileRow } from './file.api.ts';
import { toServerRange } from './file.api.ts';
import FilePage from './file.page.tsx';
import { precheck } from './file-upload-modal.tsx';

const ROW: FileRow = {
  id: 11,
  fileName: '2026年统计报告.pdf',
  suffix: '.pdf',
  size: 1536,
  contentType: 'application/pdf',
  fileMd5: null,
  fileType: 'attachment',
  belongId: null,
  isPublic: 0,
  remark: null,
  createOrgId: 1,
  createTime: '2026-11-21 10:00:00',
  createUserId: 1,
  createUserName: '张伟',
  updateTime: null,
  updateUserName: null,
};

const page = vi.hoisted(() => vi.fn());
vi.mock('./file.api.ts', async (original) => {
  const real = await original<typeof import('./file.api.ts')>();
  return { ...real, fileResource: { ...real.fileResource, page } };
});
vi.mock('../../platform/session/session.api.ts', async (original) => {
  const real = await original<typeof import('../../platform/session/session.api.ts')>();
  return {
    ...real,
    sessionApi: {
      ...real.sessionApi,
      clientConfig: async () => [
        { code: 'sys_file_max_size_mb', value: '50' },
        { code: 'sys_file_allowed_types', value: 'pdf,xlsx,docx' },
      ],
    },
  };
});
page.mockImplementation(async () => ({
  page: 1,
  pageSize: 20,
  total: 1,
  totalPages: 1,
  items: [ROW],
  hasPrevPage: false,
  hasNextPage: false,
}));

function show() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <FilePage />
      </App>
    </QueryClientProvider>,
  );
}

afterEach(() => {
  useSessionStore.setState({ buttons: [] });
});

describe('upload pre-check and filters', () => {
  const limits = { allowed: ['pdf', 'xlsx'], maxBytes: 1024 };
  it('refuses types and sizes the client config does not allow', () => {
    expect(precheck({ name: 'a.PDF', size: 10 }, limits)).toBeNull();
    expect(precheck({ name: 'a.exe', size: 10 }, limits)?.key).toBe('typeNotAllowed');
    expect(precheck({ name: 'noext', size: 10 }, limits)?.key).toBe('typeNotAllowed');
    expect(precheck({ name: 'a.pdf', size: 1025 }, limits)).toMatchObject({
      key: 'tooLarge',
      values: { max: '1 KB' },
    });
    expect(precheck({ name: 'a.pdf', size: 0 }, limits)?.key).toBe('empty');
    // Before the config arrived the server decides alone.
    expect(precheck({ name: 'a.exe', size: 10 }, { allowed: [], maxBytes: null })).toBeNull();
  });

  it('sends the picked upload dates as a yyyy-MM-dd range', () => {
    expect(toServerRange([dayjs('2026-11-01'), dayjs('2026-11-21')])).toEqual(['2026-11-01', '2026-11-21']);
    expect(toServerRange([null, dayjs('2026-11-21')])).toEqual(['', '2026-11-21']);
    expect(toServerRange(null)).toBeUndefined();
  });
});

describe('FilePage', { timeout: 30_000 }, () => {
  it('lists files with icon, size, uploader; buttons follow the permissions', async () => {
    useSessionStore.setState({
      buttons: ['sysFile:page', 'sysFile:upload', 'sysFile:download', 'sysFile:delete'],
    });
    show();
    const link = await screen.findByTestId('file-name-link', {}, { timeout: 20_000 });
    expect(link.textContent).toContain('2026年统计报告.pdf');
    const row = link.closest('tr') as HTMLElement;
    expect(within(row).getByText('1.5 KB')).toBeTruthy();
    expect(within(row).getByText('张伟')).toBeTruthy();
    expect(within(row).getByTestId('file-download')).toBeTruthy();
    expect(within(row).getByTestId('file-delete')).toBeTruthy();
    expect(within(row).queryByTestId('file-edit')).toBeNull();
    expect(screen.getByTestId('file-upload-open')).toBeTruthy();
  });

  it('hides upload, download, edit and delete without their permissions', async () => {
    useSessionStore.setState({ buttons: ['sysFile:page'] });
    show();
    const link = await screen.findByTestId('file-name-link', {}, { timeout: 20_000 });
    const row = link.closest('tr') as HTMLElement;
    await waitFor(() => expect(within(row).getByTestId('file-preview-open')).toBeTruthy());
    expect(within(row).queryByTestId('file-download')).toBeNull();
    expect(screen.queryByTestId('file-upload-open')).toBeNull();
    expect(within(row).queryByTestId('file-delete')).toBeNull();
    expect(within(row).queryByTestId('file-edit')).toBeNull();
  });
});
