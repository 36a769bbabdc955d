/** A category node of a tree built from flat rows linked by `pid` (0 or a missing parent: a root). */
export type TreeNode<T> = T & { children?: TreeNode<T>[] };

type Linked = { id: number; pid: number; orderNo: number };

/** Builds the tree, siblings by order then id; a row whose parent is missing becomes a root. */
export function buildTree<T extends Linked>(rows: readonly T[]): TreeNode<T>[] {
  const byId = new Map<number, TreeNode<T>>(rows.map((row) => [row.id, { ...row }]));
  const roots: TreeNode<T>[] = [];
  for (const node of byId.values()) {
    const parent = node.pid ? byId.get(node.pid) : undefined;
    if (parent && parent !== node) {
      parent.children ??= [];
      parent.children.push(node);
    } else roots.push(node);
  }
  const order = (nodes: TreeNode<T>[]) => {
    nodes.sort((a, b) => a.orderNo - b.orderNo || a.id - b.id);
    for (const node of nodes) if (node.children) order(node.children);
  };
  order(roots);
  return roots;
}

/** Keeps the nodes that match and every ancestor of a match (a search in a tree still shows the path). */
export function filterTree<T>(nodes: readonly TreeNode<T>[], match: (node: T) => boolean): TreeNode<T>[] {
  const out: TreeNode<T>[] = [];
  for (const node of nodes) {
    const children = node.children ? filterTree(node.children, match) : [];
    if (match(node) || children.length > 0)
      out.push({ ...node, children: children.length > 0 ? children : undefined });
  }
  return out;
}

/** The ids of a node and everything below it. */
export function subtreeIds<T extends { id: number }>(node: TreeNode<T>): number[] {
  return [node.id, ...(node.children ?? []).flatMap((child) => subtreeIds(child))];
}
