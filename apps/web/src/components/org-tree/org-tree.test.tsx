import type { OrgNode } from '@shuzhi/contracts/org';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import '../../platform/i18n/i18n.ts';
import { OrgTree } from './org-tree.tsx';
import { filterOrgTree } from './use-org-tree.ts';

const api = vi.hoisted(() => ({ treeAll: vi.fn(), list: vi.fn() }));
vi.mock('./org.api.ts', () => ({ orgApi: api }));

const node = (id: number, pid: number, code: string, name: string, children: OrgNode[] = [], extra = {}) => ({
  id,
  pid,
  code,
  name,
  type: 'street',
  level: 1,
  status: 1,
  orderNo: id,
  outOfScope: false,
  children,
  ...extra,
});

const TREE: OrgNode[] = [
  node(1, 0, '310101', '黄浦区', [
    node(2, 1, '310101002', '南京东路街道', [
      node(4, 2, '310101002001', '贵州路居民委员会', [node(6, 4, '31010100200101', '第一网格')]),
      node(5, 2, '310101002002', '福州路居民委员会'),
    ]),
    node(3, 1, '310101013', '外滩街道', [node(7, 3, '310101013001', '金陵东路居民委员会')]),
  ]),
];
api.treeAll.mockImplementation(async () => TREE);

function wrap(children: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: 0 } } });
  return (
    <QueryClientProvider client={client}>
      <App>{children}</App>
    </QueryClientProvider>
  );
}

const search = async (text: string) => {
  const box = screen.getByPlaceholderText('搜索机构名称或编码');
  await act(async () => {
    fireEvent.change(box, { target: { value: text } });
  });
};

describe('filterOrgTree', () => {
  it('keeps matches with their ancestors and opens the ancestors', () => {
    const { nodes, expanded, matches } = filterOrgTree(TREE, '居民委员会');
    expect(nodes[0]?.children.map((n) => n.name)).toEqual(['南京东路街道', '外滩街道']);
    expect(nodes[0]?.children[0]?.children.map((n) => n.name)).toEqual([
      '贵州路居民委员会',
      '福州路居民委员会',
    ]);
    expect([...matches].sort()).toEqual([4, 5, 7]);
    expect(expanded.sort()).toEqual([1, 2, 3]);
  });

  it('matches a code prefix and keeps everything for an empty keyword', () => {
    expect([...filterOrgTree(TREE, '310101013').matches].sort()).toEqual([3, 7]);
    expect(filterOrgTree(TREE, '  ').nodes).toEqual(TREE);
    expect(filterOrgTree(TREE, '没有这个').nodes).toEqual([]);
  });
});

describe('OrgTree', () => {
  it('shows the tree, filters it by the search box and opens the matches', async () => {
    render(wrap(<OrgTree onSelect={() => {}} />));
    expect(await screen.findByText('南京东路街道')).toBeTruthy();
    expect(screen.getByText('外滩街道')).toBeTruthy();
    // The third level is closed at first.
    expect(screen.queryByText('第一网格')).toBeNull();

    await search('第一网格');
    await waitFor(() => expect(screen.getByTestId('org-node-6')).toBeTruthy());
    expect(screen.queryByText('外滩街道')).toBeNull();
    expect(screen.queryByText('福州路居民委员会')).toBeNull();
    // The match is highlighted.
    expect(screen.getByTestId('org-node-6').querySelector('.org-tree-hit')?.textContent).toBe('第一网格');

    await search('找不到');
    expect(await screen.findByText('没有匹配的机构')).toBeTruthy();

    await search('');
    await waitFor(() => expect(screen.getByText('外滩街道')).toBeTruthy());
  });

  it('selects an org and clears the selection on a second click', async () => {
    const onSelect = vi.fn();
    const { rerender } = render(wrap(<OrgTree selectedId={null} onSelect={onSelect} />));
    fireEvent.click(await screen.findByText('外滩街道'));
    expect(onSelect).toHaveBeenLastCalledWith(expect.objectContaining({ id: 3, code: '310101013' }));
    rerender(wrap(<OrgTree selectedId={3} onSelect={onSelect} />));
    fireEvent.click(await screen.findByText('外滩街道'));
    expect(onSelect).toHaveBeenLastCalledWith(null);
  });

  it('does not let an out-of-scope ancestor be picked, and keeps hidden checks while searching', async () => {
    const scoped: OrgNode[] = [
      node(
        1,
        0,
        '310101',
        '黄浦区',
        [node(2, 1, '310101002', '南京东路街道'), node(8, 1, 'HPQ-FGW', '区发改委')],
        {
          outOfScope: true,
        },
      ),
    ];
    const onSelect = vi.fn();
    const onCheck = vi.fn();
    const { unmount } = render(wrap(<OrgTree nodes={scoped} onSelect={onSelect} />));
    fireEvent.click(await screen.findByText('黄浦区'));
    expect(onSelect).not.toHaveBeenCalled();
    unmount();

    render(wrap(<OrgTree nodes={scoped} checkable checkedIds={[8]} onCheck={onCheck} />));
    await search('南京');
    await waitFor(() => expect(screen.queryByText('区发改委')).toBeNull());
    const box = document.querySelector('[data-testid="org-node-2"]')?.closest('.ant-tree-treenode');
    const checkbox = box?.querySelector('.ant-tree-checkbox') as HTMLElement;
    fireEvent.click(checkbox);
    expect(onCheck).toHaveBeenLastCalledWith(expect.arrayContaining([8, 2]));
  });
});
