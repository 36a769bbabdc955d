import type { ClassifyRow } from '@shuzhi/contracts/diy-table';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { buildTree, filterTree } from '../../components/diy-classify/category-tree.ts';
import { HttpError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';

const api = vi.hoisted(() => ({
  list: vi.fn(),
  options: vi.fn(),
  add: vi.fn(),
  update: vi.fn(),
  remove: vi.fn(),
}));
vi.mock('../../components/diy-classify/diy-classify.api.ts', async (original) => {
  const real = await original<typeof import('../../components/diy-classify/diy-classify.api.ts')>();
  return {
    ...real,
    classifyApi: { list: api.list, options: api.options },
    classifyResource: { ...real.classifyResource, add: api.add, update: api.update, remove: api.remove },
  };
});

const { default: ClassifyPage } = await import('./diy-classify.page.tsx');

configure({ asyncUtilTimeout: 10_000 });

const category = (id: number, pid: number, name: string, extra: Partial<ClassifyRow> = {}): ClassifyRow => ({
  id,
  pid,
  name,
  icon: null,
  orderNo: id,
  status: 1,
  remark: null,
  formCount: 0,
  createTime: '2026-11-20 09:00:00',
  updateTime: null,
  createUserId: 1,
  createUserName: '系统管理员',
  updateUserId: null,
  updateUserName: null,
  ...extra,
});
const ROWS = [
  category(1, 0, '安全生产', { formCount: 2 }),
  category(2, 1, '危化品'),
  category(3, 0, '统计报表', { orderNo: 0 }),
];

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <ClassifyPage />
      </App>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  api.list.mockImplementation(async () => ROWS);
  api.add.mockImplementation(async () => 9);
  api.remove.mockImplementation(async () => {
    throw new HttpError('分类下仍有表单或子分类，不能删除', 'F1016');
  });
});
afterEach(() => {
  useSessionStore.setState({ buttons: [] });
  vi.clearAllMocks();
});

describe('category tree helpers', () => {
  it('orders siblings, nests children and keeps the ancestors of a match', () => {
    const tree = buildTree(ROWS);
    expect(tree.map((n) => n.name)).toEqual(['统计报表', '安全生产']);
    expect(tree[1]?.children?.map((n) => n.name)).toEqual(['危化品']);
    const hit = filterTree(tree, (n) => n.name.includes('危'));
    expect(hit.map((n) => n.name)).toEqual(['安全生产']);
    expect(hit[0]?.children?.map((n) => n.name)).toEqual(['危化品']);
  });
});

describe('表单分类 page', { timeout: 60_000 }, () => {
  it('adds a child category under the chosen parent', async () => {
    useSessionStore.setState({ buttons: ['diyTableClassify:list', 'diyTableClassify:add'] });
    renderPage();
    const parent = (await screen.findByText('安全生产')).closest('tr') as HTMLElement;
    expect(screen.getByText('危化品')).toBeTruthy();
    expect(screen.queryByTestId('classify-delete')).toBeNull();
    fireEvent.click(within(parent).getByTestId('classify-add-child'));
    fireEvent.click(await screen.findByTestId('classify-form-submit'));
    expect(await screen.findByText('请输入分类名称')).toBeTruthy();
    fireEvent.change(screen.getByTestId('classify-field-name'), { target: { value: ' 烟花爆竹 ' } });
    fireEvent.click(screen.getByTestId('classify-form-submit'));
    await waitFor(() =>
      expect(api.add).toHaveBeenCalledWith({
        pid: 1,
        name: '烟花爆竹',
        orderNo: 100,
        status: 1,
        remark: null,
      }),
    );
  });

  it('shows the refusal of a category that still holds forms', async () => {
    useSessionStore.setState({ buttons: ['diyTableClassify:list', 'diyTableClassify:delete'] });
    renderPage();
    const row = (await screen.findByText('安全生产')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('classify-form-count').textContent).toBe('2');
    fireEvent.click(within(row).getByTestId('classify-delete'));
    fireEvent.click(await screen.findByTestId('classify-delete-ok'));
    await waitFor(() => expect(api.remove).toHaveBeenCalledWith(1));
    expect(await screen.findByText('分类下仍有表单或子分类，不能删除')).toBeTruthy();
  });
});
