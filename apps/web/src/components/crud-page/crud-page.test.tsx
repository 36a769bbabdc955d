import type { PageResult } from '@shuzhi/contracts/envelope';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Resource } from '../../platform/data/resource.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import '../../platform/i18n/i18n.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { CrudPage } from './crud-page.tsx';
import type { CrudColumn, CrudFormField } from './crud-types.ts';

type Row = { id: number; name: string; code: string; status: number };

const ALL = [
  'demo:add',
  'demo:update',
  'demo:delete',
  'demo:batchDelete',
  'demo:setStatus',
  'demo:export',
] as const;

function rows(count: number, from = 1): Row[] {
  return Array.from({ length: count }, (_, i) => ({
    id: from + i,
    name: `参数${from + i}`,
    code: `code_${from + i}`,
    status: 1,
  }));
}

function fakeResource(total = 45) {
  const page = vi.fn(
    async (body: { page: number; pageSize: number }): Promise<PageResult<Row>> => ({
      page: body.page,
      pageSize: body.pageSize,
      total,
      totalPages: Math.ceil(total / body.pageSize),
      items: rows(
        Math.min(body.pageSize, total - (body.page - 1) * body.pageSize),
        (body.page - 1) * body.pageSize + 1,
      ),
      hasPrevPage: body.page > 1,
      hasNextPage: body.page * body.pageSize < total,
    }),
  );
  const resource = {
    service: 'demo',
    page,
    list: vi.fn(),
    detail: vi.fn(),
    add: vi.fn(async () => 1),
    update: vi.fn(async () => undefined),
    remove: vi.fn(async () => undefined),
    batchRemove: vi.fn(async () => undefined),
    setStatus: vi.fn(async () => undefined),
    exportFile: vi.fn(async () => 'demo.xlsx'),
  };
  return resource as typeof resource & Resource<Row>;
}

const columns: CrudColumn<Row>[] = [
  { key: 'name', title: '名称', sort: true },
  { key: 'code', title: '编码', sort: 'codeField' },
];
const formFields: CrudFormField<Row>[] = [
  { name: 'name', label: '名称', rules: [{ required: true, message: '请输入名称' }] },
  { name: 'code', label: '编码' },
];
const permissions = {
  add: 'demo:add',
  update: 'demo:update',
  delete: 'demo:delete',
  batchDelete: 'demo:batchDelete',
  setStatus: 'demo:setStatus',
  export: 'demo:export',
};

const newClient = () => new QueryClient({ defaultOptions: { queries: { retry: 0 } } });

function wrap(children: ReactNode, client = newClient()) {
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

type Extra = Partial<Parameters<typeof CrudPage<Row>>[0]>;

function demoPage(resource: Resource<Row>, extra: Extra = {}) {
  return (
    <CrudPage<Row>
      resource={resource}
      entityName="参数"
      columns={columns}
      formFields={formFields}
      searchFields={[{ name: 'name', label: '名称' }]}
      permissions={permissions}
      statusField="status"
      testId="demo"
      {...extra}
    />
  );
}

function renderPage(resource: Resource<Row>, extra: Extra = {}) {
  return render(wrap(demoPage(resource, extra)));
}

const lastBody = (resource: ReturnType<typeof fakeResource>) => resource.page.mock.calls.at(-1)?.[0];

beforeEach(() => {
  useThemeStore.setState({ globalI18n: 'zh-cn' });
  useSessionStore.setState({ buttons: [...ALL] });
});
afterEach(() => useSessionStore.setState({ buttons: [] }));

describe('CrudPage', () => {
  it('renders the columns and rows of the first page and asks for it with the paging body', async () => {
    const resource = fakeResource();
    renderPage(resource, { fixedFilters: { dictTypeId: 7 } as never });
    await screen.findByText('参数1');
    expect(screen.getByText('名称', { selector: 'th *' })).toBeTruthy();
    expect(screen.getByText('编码', { selector: 'th *' })).toBeTruthy();
    expect(lastBody(resource)).toEqual({ page: 1, pageSize: 20, descStr: 'descending', dictTypeId: 7 });
    expect(screen.getByTestId('demo-total').textContent).toBe('共 45 条');
  });

  it('requests the page the user picks', async () => {
    const resource = fakeResource();
    renderPage(resource);
    await screen.findByText('参数1');
    fireEvent.click(screen.getByTitle('3'));
    await screen.findByText('参数41');
    expect(lastBody(resource)).toMatchObject({ page: 3, pageSize: 20 });
  });

  it('maps a header sort to field / order / descStr and a second click to descending', async () => {
    const resource = fakeResource();
    renderPage(resource);
    await screen.findByText('参数1');
    fireEvent.click(screen.getByText('编码', { selector: 'th *' }));
    await waitFor(() => expect(lastBody(resource)).toMatchObject({ field: 'codeField', order: 'ascending' }));
    fireEvent.click(screen.getByText('编码', { selector: 'th *' }));
    await waitFor(() =>
      expect(lastBody(resource)).toMatchObject({
        field: 'codeField',
        order: 'descending',
        descStr: 'descending',
      }),
    );
  });

  it('keeps the previous page on screen while the next one loads, but not the list of another fixed filter', async () => {
    const resource = fakeResource();
    const client = newClient();
    const page = (dictTypeId: number) =>
      wrap(demoPage(resource, { fixedFilters: { dictTypeId } as never }), client);
    const { rerender } = render(page(7));
    await screen.findByText('参数1');
    const pending: Array<(result: PageResult<Row>) => void> = [];
    resource.page.mockImplementation(() => new Promise((resolve) => pending.push(resolve)));

    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(screen.getByText('参数1')).toBeTruthy();
    expect(screen.getByTestId('demo-total').textContent).toBe('共 45 条');

    rerender(page(8));
    await waitFor(() => expect(lastBody(resource)).toMatchObject({ page: 1, dictTypeId: 8 }));
    expect(screen.queryByText('参数1')).toBeNull();
    expect(screen.queryByTestId('demo-total')).toBeNull();
    const items = rows(2, 100);
    act(() =>
      pending.at(-1)?.({
        page: 1,
        pageSize: 20,
        total: 2,
        totalPages: 1,
        items,
        hasPrevPage: false,
        hasNextPage: false,
      }),
    );
    await screen.findByText('参数100');
    expect(screen.getByTestId('demo-total').textContent).toBe('共 2 条');
  });

  it('searches on Enter and drops empty filters on reset', async () => {
    const resource = fakeResource();
    renderPage(resource);
    await screen.findByText('参数1');
    const input = screen.getByTestId('demo-search-name');
    fireEvent.change(input, { target: { value: 'sys' } });
    fireEvent.submit(input.closest('form') as HTMLFormElement);
    await waitFor(() => expect(lastBody(resource)).toMatchObject({ name: 'sys', page: 1 }));
    fireEvent.click(screen.getByTestId('demo-search-reset'));
    await waitFor(() => expect(lastBody(resource)).not.toHaveProperty('name'));
  });

  it('removes the buttons the user lacks from the DOM', async () => {
    useSessionStore.setState({ buttons: ['demo:update'] });
    const resource = fakeResource();
    renderPage(resource);
    await screen.findByText('参数1');
    expect(screen.queryByTestId('demo-add')).toBeNull();
    expect(screen.queryByTestId('demo-batch-delete')).toBeNull();
    expect(screen.queryByTestId('demo-export')).toBeNull();
    expect(screen.queryAllByTestId('demo-delete')).toHaveLength(0);
    expect(screen.queryAllByTestId('demo-edit').length).toBeGreaterThan(0);
    // Without setStatus the switch stays as read-only information.
    expect(screen.queryAllByTestId('crud-status-switch')).toHaveLength(0);
  });

  it('shows the server field errors on the form and keeps the dialog open', async () => {
    const resource = fakeResource();
    resource.add.mockRejectedValueOnce(
      new HttpError('code: 编码已存在', 400, { Code: ['编码已存在'] }) as never,
    );
    renderPage(resource);
    await screen.findByText('参数1');
    fireEvent.click(screen.getByTestId('demo-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('demo-field-name'), { target: { value: '新参数' } });
    fireEvent.change(within(dialog).getByTestId('demo-field-code'), { target: { value: 'dup' } });
    fireEvent.click(screen.getByTestId('demo-form-submit'));
    await within(dialog).findByText('编码已存在');
    expect(resource.add).toHaveBeenCalledWith({ name: '新参数', code: 'dup' });
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('checks the form rules before anything is sent', async () => {
    const resource = fakeResource();
    renderPage(resource);
    await screen.findByText('参数1');
    fireEvent.click(screen.getByTestId('demo-add'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(screen.getByTestId('demo-form-submit'));
    await within(dialog).findByText('请输入名称');
    expect(resource.add).not.toHaveBeenCalled();
  });

  it('deletes only after the confirmation', async () => {
    const resource = fakeResource();
    renderPage(resource);
    await screen.findByText('参数1');
    fireEvent.click(screen.getAllByTestId('demo-delete')[0]);
    await screen.findByText('确定删除该记录吗？删除后不可恢复。');
    expect(resource.remove).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('demo-delete-ok'));
    await waitFor(() => expect(resource.remove).toHaveBeenCalledWith(1));
  });

  it('keeps protected rows from being deleted', async () => {
    const resource = fakeResource(2);
    renderPage(resource, { canDelete: (row) => row.id !== 1 });
    await screen.findByText('参数1');
    const [first, second] = screen.getAllByTestId('demo-delete');
    expect((first as HTMLButtonElement).disabled).toBe(true);
    expect((second as HTMLButtonElement).disabled).toBe(false);
  });

  it('switches the status after a confirmation', async () => {
    const resource = fakeResource(1);
    renderPage(resource);
    await screen.findByText('参数1');
    fireEvent.click(screen.getByTestId('crud-status-switch'));
    await screen.findByText('确定停用该记录吗？');
    await act(async () => {
      fireEvent.click(screen.getByTestId('crud-status-ok'));
    });
    await waitFor(() => expect(resource.setStatus).toHaveBeenCalledWith(1, 2));
  });

  it('keeps the status switch of protected rows disabled, with the reason as tooltip', async () => {
    const resource = fakeResource(2);
    renderPage(resource, {
      canSetStatus: (row) => row.id !== 1,
      statusBlockedText: (row) => `${row.name}不能停用`,
    });
    await screen.findByText('参数1');
    const [first, second] = screen.getAllByTestId('crud-status-switch') as HTMLButtonElement[];
    expect(first.disabled).toBe(true);
    expect(first.getAttribute('aria-checked')).toBe('true');
    expect(second.disabled).toBe(false);
    fireEvent.click(first);
    fireEvent.mouseEnter(screen.getByTestId('crud-status-blocked'));
    expect(await screen.findByText('参数1不能停用')).toBeTruthy();
    expect(screen.queryByText('确定停用该记录吗？')).toBeNull();
    expect(resource.setStatus).not.toHaveBeenCalled();
    // The other row still switches.
    fireEvent.click(second);
    await screen.findByText('确定停用该记录吗？');
  });

  it('explains a blocked status switch with the default text when the page gives none', async () => {
    const resource = fakeResource(1);
    renderPage(resource, { canSetStatus: () => false });
    await screen.findByText('参数1');
    const only = screen.getByTestId('crud-status-switch') as HTMLButtonElement;
    expect(only.disabled).toBe(true);
    fireEvent.mouseEnter(screen.getByTestId('crud-status-blocked'));
    expect(await screen.findByText('该记录的状态不允许修改')).toBeTruthy();
  });

  it('offers a retry when the page cannot be loaded', async () => {
    const resource = fakeResource();
    resource.page.mockRejectedValueOnce(new Error('网络连接错误'));
    renderPage(resource);
    await screen.findByTestId('demo-error');
    fireEvent.click(screen.getByTestId('demo-retry'));
    await screen.findByText('参数1');
  });
});
