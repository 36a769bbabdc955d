import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { RowDeleteAction } from './row-delete-action.tsx';

beforeEach(() => {
  useThemeStore.setState({ globalI18n: 'zh-cn' });
  useSessionStore.setState({ buttons: ['demo:delete'] });
});
afterEach(() => useSessionStore.setState({ buttons: [] }));

const button = () => screen.getByTestId('demo-delete') as HTMLButtonElement;

describe('RowDeleteAction', () => {
  it('asks first, then deletes: 删除确认 with the description and a danger OK button', async () => {
    const onConfirm = vi.fn();
    render(
      <RowDeleteAction
        permission="demo:delete"
        testId="demo-delete"
        description="删除「甲」？"
        onConfirm={onConfirm}
      />,
    );
    expect(button().textContent).toBe('删除');
    fireEvent.click(button());
    expect(await screen.findByText('删除确认')).toBeTruthy();
    expect(screen.getByText('删除「甲」？')).toBeTruthy();
    const ok = screen.getByTestId('demo-delete-ok');
    expect(ok.className).toContain('ant-btn-dangerous');
    // antd spaces out a two-character CJK button text.
    expect(ok.textContent).toBe('删 除');
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.click(ok);
    await waitFor(() => expect(onConfirm).toHaveBeenCalledTimes(1));
  });

  it('renders nothing without the permission, and needs none when not given one', () => {
    useSessionStore.setState({ buttons: [] });
    const { rerender } = render(
      <RowDeleteAction permission="demo:delete" testId="demo-delete" description="x" onConfirm={() => {}} />,
    );
    expect(screen.queryByTestId('demo-delete')).toBeNull();
    rerender(<RowDeleteAction testId="demo-delete" description="x" onConfirm={() => {}} />);
    expect(button()).toBeTruthy();
  });

  it('takes its own texts, and a disabled action does not open the confirmation', async () => {
    const onConfirm = vi.fn();
    const { rerender } = render(
      <RowDeleteAction
        testId="demo-delete"
        title="删除这条记录？"
        description="x"
        text="删除记录"
        okText="确定"
        disabled
        onConfirm={onConfirm}
      />,
    );
    expect(button().textContent).toBe('删除记录');
    expect(button().disabled).toBe(true);
    fireEvent.click(button());
    expect(screen.queryByText('删除这条记录？')).toBeNull();
    rerender(
      <RowDeleteAction
        testId="demo-delete"
        title="删除这条记录？"
        description="x"
        text="删除记录"
        okText="确定"
        onConfirm={onConfirm}
      />,
    );
    fireEvent.click(button());
    expect(await screen.findByText('删除这条记录？')).toBeTruthy();
    expect(screen.getByTestId('demo-delete-ok').textContent).toBe('确 定');
  });

  it("keeps a busy row's button disabled, and explains a row that may not be deleted", async () => {
    const { rerender } = render(
      <RowDeleteAction testId="demo-delete" description="x" busy onConfirm={() => {}} />,
    );
    expect(button().disabled).toBe(true);
    rerender(
      <RowDeleteAction
        testId="demo-delete"
        description="x"
        blockedText="内置数据不可删除"
        onConfirm={() => {}}
      />,
    );
    expect(button().disabled).toBe(true);
    expect(button().getAttribute('aria-label')).toBe('删除');
    fireEvent.click(button());
    expect(screen.queryByText('删除确认')).toBeNull();
  });

  it('shows only the icon in compact tables, the name as its label', () => {
    render(<RowDeleteAction testId="demo-delete" description="x" compact onConfirm={() => {}} />);
    expect(button().textContent).toBe('');
    expect(button().getAttribute('aria-label')).toBe('删除');
  });
});
