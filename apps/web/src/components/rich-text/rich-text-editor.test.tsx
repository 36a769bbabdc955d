import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { RichTextEditor } from './rich-text-editor.tsx';

function content(): HTMLElement {
  return screen.getByTestId('rich-text-content');
}

/** A form-like owner of the value: it may replace it from outside. */
function Host() {
  const [value, setValue] = useState('<p>一</p>');
  return (
    <>
      <button type="button" onClick={() => setValue('<p>二</p>')}>
        replace
      </button>
      <RichTextEditor value={value} onChange={setValue} />
    </>
  );
}

describe('RichTextEditor', { timeout: 20_000 }, () => {
  it('shows the value and a toolbar with translated labels', async () => {
    render(<RichTextEditor value="<p>你好<strong>世界</strong></p>" />);
    await waitFor(() => expect(content().innerHTML).toContain('<strong>世界</strong>'));
    for (const label of [
      '加粗',
      '斜体',
      '下划线',
      '删除线',
      '一级标题',
      '二级标题',
      '三级标题',
      '无序列表',
      '有序列表',
      '引用',
      '链接',
      '撤销',
      '重做',
      '清除格式',
    ]) {
      expect(document.querySelector(`button[aria-label="${label}"]`), label).not.toBeNull();
    }
    expect(document.querySelector('[role="toolbar"][aria-label="格式工具栏"]')).not.toBeNull();
  });

  it('formats the selection and reports HTML; undo takes it back', async () => {
    const onChange = vi.fn();
    render(<RichTextEditor value="<p>通知正文</p>" onChange={onChange} />);
    await waitFor(() => expect(content().textContent).toBe('通知正文'));
    await act(async () => {
      content().focus();
      fireEvent.keyDown(content(), { key: 'a', ctrlKey: true });
    });
    fireEvent.click(screen.getByTestId('rte-bold'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p><strong>通知正文</strong></p>'));
    fireEvent.click(screen.getByTestId('rte-h2'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<h2><strong>通知正文</strong></h2>'));
    fireEvent.click(screen.getByTestId('rte-clear'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>通知正文</p>'));
    fireEvent.click(screen.getByTestId('rte-undo'));
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<h2><strong>通知正文</strong></h2>'));
  });

  it('takes a new value from outside, and refuses a javascript: link', async () => {
    render(<Host />);
    await waitFor(() => expect(content().textContent).toBe('一'));
    fireEvent.click(screen.getByText('replace'));
    await waitFor(() => expect(content().textContent).toBe('二'));

    await act(async () => {
      content().focus();
      fireEvent.keyDown(content(), { key: 'a', ctrlKey: true });
    });
    fireEvent.click(screen.getByTestId('rte-link'));
    const input = await screen.findByTestId('rte-link-input');
    fireEvent.change(input, { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByTestId('rte-link-ok'));
    expect(await screen.findByText(/请输入以 http/)).toBeTruthy();
    fireEvent.change(input, { target: { value: 'https://example.com' } });
    fireEvent.click(screen.getByTestId('rte-link-ok'));
    await waitFor(() => expect(content().innerHTML).toContain('href="https://example.com"'));
  });
});
