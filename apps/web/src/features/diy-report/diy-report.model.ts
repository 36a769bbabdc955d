import type { ClassifyOption, FormItem } from '@shuzhi/contracts/diy-table';

/** The 全部 node of the category tree and the node of forms without a (known) category. */
export const ALL_KEY = 'all';
export const NONE_KEY = 'none';

export type CategoryNode = {
  key: string;
  /** null for 全部 and 未分类. */
  id: number | null;
  label: string;
  count: number;
  children: CategoryNode[];
};

export type SortKey = 'recent' | 'title';

/**
 * The category tree of 报表填报: the tenant's categories (by `pid`, in `orderNo`), each counting the caller's
 * forms in it and below it; categories without forms of the caller's are left out. Forms whose category is
 * unknown (none, or not among the options) gather under 未分类. Without options (the list failed) the tree is
 * built flat from the categories the forms carry.
 */
export function buildCategoryTree(
  items: readonly FormItem[],
  options: readonly ClassifyOption[] | undefined,
  labels: { uncategorized: string },
): CategoryNode[] {
  const own = new Map<number, number>();
  for (const item of items) {
    if (item.categoryId !== null) own.set(item.categoryId, (own.get(item.categoryId) ?? 0) + 1);
  }
  const known = new Set<number>();
  let nodes: CategoryNode[];
  if (options) {
    const byParent = new Map<number, ClassifyOption[]>();
    const ids = new Set(options.map((o) => o.value));
    for (const option of options) {
      const parent = ids.has(option.pid) && option.pid !== option.value ? option.pid : 0;
      byParent.set(parent, [...(byParent.get(parent) ?? []), option]);
    }
    const seen = new Set<number>();
    const build = (pid: number): CategoryNode[] =>
      (byParent.get(pid) ?? [])
        .filter((o) => !seen.has(o.value))
        .sort((a, b) => a.orderNo - b.orderNo || a.label.localeCompare(b.label))
        .map((o) => {
          seen.add(o.value);
          known.add(o.value);
          const children = build(o.value);
          const count = (own.get(o.value) ?? 0) + children.reduce((sum, c) => sum + c.count, 0);
          return { key: String(o.value), id: o.value, label: o.label, count, children };
        })
        .filter((node) => node.count > 0);
    nodes = build(0);
  } else {
    const names = new Map<number, string>();
    for (const item of items) {
      if (item.categoryId !== null) names.set(item.categoryId, item.categoryName ?? String(item.categoryId));
    }
    nodes = [...names.entries()]
      .sort((a, b) => a[1].localeCompare(b[1]))
      .map(([id, label]) => {
        known.add(id);
        return { key: String(id), id, label, count: own.get(id) ?? 0, children: [] };
      });
  }
  const unknown = items.filter((item) => item.categoryId === null || !known.has(item.categoryId)).length;
  if (unknown > 0)
    nodes.push({ key: NONE_KEY, id: null, label: labels.uncategorized, count: unknown, children: [] });
  return nodes;
}

/** The category ids of a node and its subtree. */
function subtreeIds(nodes: readonly CategoryNode[], key: string): Set<number> | null {
  for (const node of nodes) {
    if (node.key === key) {
      const ids = new Set<number>();
      const walk = (n: CategoryNode) => {
        if (n.id !== null) ids.add(n.id);
        n.children.forEach(walk);
      };
      walk(node);
      return ids;
    }
    const found = subtreeIds(node.children, key);
    if (found) return found;
  }
  return null;
}

function allIds(nodes: readonly CategoryNode[]): Set<number> {
  const ids = new Set<number>();
  const walk = (n: CategoryNode) => {
    if (n.id !== null) ids.add(n.id);
    n.children.forEach(walk);
  };
  nodes.forEach(walk);
  return ids;
}

/** The items of the chosen category (with its subtree) whose title holds the keyword, sorted. */
export function visibleItems(
  items: readonly FormItem[],
  tree: readonly CategoryNode[],
  categoryKey: string,
  keyword: string,
  sort: SortKey,
): FormItem[] {
  const needle = keyword.trim().toLowerCase();
  let inCategory: (item: FormItem) => boolean = () => true;
  if (categoryKey === NONE_KEY) {
    const known = allIds(tree);
    inCategory = (item) => item.categoryId === null || !known.has(item.categoryId);
  } else if (categoryKey !== ALL_KEY) {
    const ids = subtreeIds(tree, categoryKey) ?? new Set<number>();
    inCategory = (item) => item.categoryId !== null && ids.has(item.categoryId);
  }
  const chosen = items.filter(
    (item) => inCategory(item) && (!needle || item.title.toLowerCase().includes(needle)),
  );
  return chosen.sort((a, b) => {
    if (sort === 'title') return a.title.localeCompare(b.title, 'zh-CN');
    // Updated forms the caller has not seen first, then the most recently updated.
    if (a.isTip !== b.isTip) return a.isTip ? -1 : 1;
    return (
      (b.lastUpdateTime ?? '').localeCompare(a.lastUpdateTime ?? '') ||
      a.title.localeCompare(b.title, 'zh-CN')
    );
  });
}
