import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { SearchForm, SelectionToolbar } from './search-form.tsx';

type Values = { name?: string };

function Search({ onSearch, onReset }: { onSearch: (values: Values) => void; onReset?: () => void }) {
  const [form] = Form.useForm<Values>();
  return (
    <SearchForm<Values>
      form={form}
      onSearch={onSearch}
      onReset={onReset}
      testId="demo-search"
      actionsTestId="demo"
    >
      <Form.Item name="name" label="名称">
        <Input data-testid="demo-search-name" />
      </Form.Item>
    </SearchForm>
  );
}

describe('SearchForm', () => {
  it('searches with the values on 查询, and 重置 clears the fields and searches with none', async () => {
    const onSearch = vi.fn();
    render(<Search onSearch={onSearch} />);
    expect(screen.getByTestId('demo-search')).toBeTruthy();
    fireEvent.change(screen.getByTestId('demo-search-name'), { target: { value: '甲' } });
    fireEvent.click(screen.getByTestId('demo-search-submit'));
    await waitFor(() => expect(onSearch).toHaveBeenLastCalledWith({ name: '甲' }));
    fireEvent.click(screen.getByTestId('demo-search-reset'));
    await waitFor(() => expect(onSearch).toHaveBeenLastCalledWith({}));
    expect((screen.getByTestId('demo-search-name') as HTMLInputElement).value).toBe('');
  });

  it('leaves 重置 to the page when it says what to do', () => {
    const onSearch = vi.fn();
    const onReset = vi.fn();
    render(<Search onSearch={onSearch} onReset={onReset} />);
    fireEvent.click(screen.getByTestId('demo-search-reset'));
    expect(onReset).toHaveBeenCalledTimes(1);
    expect(onSearch).not.toHaveBeenCalled();
  });
});

describe('SelectionToolbar', () => {
  it('counts the selected rows when there are any, shows the page’s actions and refreshes', () => {
    const onRefresh = vi.fn();
    const { rerender } = render(
      <SelectionToolbar testId="demo" selected={0} onRefresh={onRefresh}>
        <button type="button">批量通过</button>
      </SelectionToolbar>,
    );
    expect(screen.getByTestId('demo-toolbar')).toBeTruthy();
    expect(screen.queryByTestId('demo-selected')).toBeNull();
    expect(screen.getByText('批量通过')).toBeTruthy();
    rerender(
      <SelectionToolbar testId="demo" selected={3} onRefresh={onRefresh}>
        <button type="button">批量通过</button>
      </SelectionToolbar>,
    );
    expect(screen.getByTestId('demo-selected').textContent).toBe('已选 3 项');
    fireEvent.click(screen.getByTestId('demo-refresh'));
    expect(onRefresh).toHaveBeenCalledTimes(1);
  });
});
