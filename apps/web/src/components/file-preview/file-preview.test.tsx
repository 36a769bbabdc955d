import * as XLSX from '@e965/xlsx';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, Button } from 'antd';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { type FilePreviewTarget, useFilePreview } from './file-preview.tsx';
import { isApiUrl, resolveFileUrl } from './file-url.ts';

const io = vi.hoisted(() => ({ fetchFileBlob: vi.fn(), downloadPreviewFile: vi.fn() }));
vi.mock('./file-url.ts', async (original) => ({
  ...(await original<typeof import('./file-url.ts')>()),
  fetchFileBlob: io.fetchFileBlob,
  downloadPreviewFile: io.downloadPreviewFile,
}));

/** A real workbook: two sheets, a merged title row. */
function workbook(): Blob {
  const book = XLSX.utils.book_new();
  const sheet = XLSX.utils.aoa_to_sheet([
    ['2026年报表', null, null],
    ['区县', '数量', '备注'],
    ['黄浦区', 42, '按月'],
  ]);
  sheet['!merges'] = [{ s: { r: 0, c: 0 }, e: { r: 0, c: 2 } }];
  XLSX.utils.book_append_sheet(book, sheet, '汇总');
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['明细值']]), '明细');
  const bytes = XLSX.write(book, { type: 'array', bookType: 'xlsx' }) as ArrayBuffer;
  return new Blob([bytes]);
}

function Harness({ target }: { target: FilePreviewTarget }) {
  const { preview, element } = useFilePreview();
  return (
    <>
      <Button onClick={() => preview(target)}>open</Button>
      {element}
    </>
  );
}

function open(target: FilePreviewTarget) {
  render(
    <App>
      <Harness target={target} />
    </App>,
  );
  fireEvent.click(screen.getByText('open'));
}

beforeAll(() => {
  URL.createObjectURL = vi.fn(() => 'blob:preview');
  URL.revokeObjectURL = vi.fn();
});

afterEach(() => {
  io.fetchFileBlob.mockReset();
  io.downloadPreviewFile.mockReset();
});

describe('file addresses', () => {
  it('prefixes relative paths with the API base and keeps absolute http links', () => {
    expect(resolveFileUrl('/api/sysFile/preview/1', '')).toBe('/api/sysFile/preview/1');
    expect(resolveFileUrl('upload/a.pdf', 'https://api.example.cn/')).toBe(
      'https://api.example.cn/upload/a.pdf',
    );
    expect(resolveFileUrl('/api/sysFile/preview/1', 'https://api.example.cn')).toBe(
      'https://api.example.cn/api/sysFile/preview/1',
    );
    expect(resolveFileUrl('https://cdn.example.cn/a.pdf', 'https://api.example.cn')).toBe(
      'https://cdn.example.cn/a.pdf',
    );
    expect(resolveFileUrl('HTTP://cdn.example.cn/a.pdf', '')).toBe('HTTP://cdn.example.cn/a.pdf');
    expect(isApiUrl('/api/x', '')).toBe(true);
    expect(isApiUrl('https://api.example.cn/api/x', 'https://api.example.cn')).toBe(true);
    expect(isApiUrl('https://cdn.example.cn/a.pdf', 'https://api.example.cn')).toBe(false);
    expect(isApiUrl('https://cdn.example.cn/a.pdf', '')).toBe(false);
  });
});

// Rendering antd dialogs and reading workbooks is slow on a busy machine; nothing here is timed.
describe('FilePreviewModal', { timeout: 30_000 }, () => {
  it('shows a pdf in a frame, 80% wide and 60vh high, with full screen, close and 下载文件', async () => {
    io.fetchFileBlob.mockResolvedValue(new Blob(['%PDF-1.4'], { type: 'application/pdf' }));
    io.downloadPreviewFile.mockResolvedValue(undefined);
    open({ url: '/api/sysFile/preview/5', fileName: '报告.pdf' });
    const frame = await screen.findByTestId('file-preview-pdf');
    expect(frame.getAttribute('src')).toBe('blob:preview');
    expect(io.fetchFileBlob).toHaveBeenCalledWith('/api/sysFile/preview/5');
    expect(screen.getByText('文件预览')).toBeTruthy();
    const body = frame.closest('.ant-modal-body') as HTMLElement;
    expect(body.style.height).toBe('60vh');
    expect((frame.closest('.ant-modal') as HTMLElement).style.width).toBe('80%');

    fireEvent.click(screen.getByTestId('file-preview-fullscreen'));
    await waitFor(() => expect(body.style.height).toBe('calc(100vh - 130px)'));
    fireEvent.click(screen.getByTestId('file-preview-fullscreen'));
    await waitFor(() => expect(body.style.height).toBe('60vh'));

    fireEvent.click(screen.getByText('下载文件'));
    await waitFor(() =>
      expect(io.downloadPreviewFile).toHaveBeenCalledWith('/api/sysFile/preview/5', '报告.pdf'),
    );
    fireEvent.click(screen.getByTestId('file-preview-close'));
    await waitFor(() => expect(screen.queryByTestId('file-preview-pdf')).toBeNull());
  });

  it('shows a workbook as sheet tabs over a grid with row numbers, column letters and merged cells', async () => {
    io.fetchFileBlob.mockResolvedValue(workbook());
    open({ url: '/api/sysFile/preview/6', fileName: '报表.xlsx' });
    const grid = await screen.findByTestId('file-preview-sheet-grid', {}, { timeout: 20_000 });
    expect(grid.textContent).toContain('黄浦区');
    expect(grid.textContent).toContain('42');
    const letters = [...grid.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(letters).toEqual(['', 'A', 'B', 'C']);
    const rowNumbers = [...grid.querySelectorAll('tbody th')].map((th) => th.textContent);
    expect(rowNumbers).toEqual(['1', '2', '3']);
    expect(screen.getByText('42').style.textAlign).toBe('right');
    expect(screen.getByText('黄浦区').style.textAlign).toBe('');
    const title = screen.getByText('2026年报表');
    expect(title.getAttribute('colspan')).toBe('3');

    await act(async () => {
      fireEvent.click(screen.getByText('明细'));
    });
    await waitFor(() =>
      expect(screen.getByTestId('file-preview-sheet-grid').textContent).toContain('明细值'),
    );
  });

  it('says 文件渲染失败 when a spreadsheet or a document cannot be rendered', async () => {
    io.fetchFileBlob.mockResolvedValue(new Blob([new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5])]));
    open({ url: '/api/sysFile/preview/7', fileName: 'broken.xlsx' });
    const failed = await screen.findByTestId('file-preview-failed', {}, { timeout: 20_000 });
    expect(failed.textContent).toContain('文件渲染失败');
  });

  it('says 文件渲染失败 for a docx that is not one', async () => {
    io.fetchFileBlob.mockResolvedValue(new Blob(['not a zip at all']));
    open({ url: '/api/sysFile/preview/8', fileName: 'broken.docx' });
    const failed = await screen.findByTestId('file-preview-failed', {}, { timeout: 20_000 });
    expect(failed.textContent).toContain('文件渲染失败');
  });

  it('shows the server’s message when the file cannot be loaded', async () => {
    io.fetchFileBlob.mockRejectedValue(new Error('记录不存在'));
    open({ url: '/api/sysFile/preview/9', fileName: 'gone.pdf' });
    const failed = await screen.findByTestId('file-preview-failed');
    expect(failed.textContent).toContain('文件加载失败');
    expect(failed.textContent).toContain('记录不存在');
  });

  it('offers to download other types: 提示, 该文件不支持预览，确定下载此文件, 确定下载 / 关闭', async () => {
    io.downloadPreviewFile.mockResolvedValue(undefined);
    open({ url: 'https://cdn.example.cn/readme.txt', fileName: 'readme.txt' });
    expect(await screen.findByText('该文件不支持预览，确定下载此文件')).toBeTruthy();
    expect(document.querySelector('.ant-modal-confirm-title')?.textContent).toBe('提示');
    expect(screen.getByTestId('file-preview-confirm-close').textContent?.replace(/\s/g, '')).toBe('关闭');
    expect(io.fetchFileBlob).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('file-preview-confirm-download'));
    await waitFor(() =>
      expect(io.downloadPreviewFile).toHaveBeenCalledWith('https://cdn.example.cn/readme.txt', 'readme.txt'),
    );
    expect(screen.queryByTestId('file-preview')).toBeNull();
  });
});
