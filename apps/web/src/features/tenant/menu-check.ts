import { type MenuNode, PLATFORM_ONLY_MENUS } from '@shuzhi/contracts/menu';

/**
 * Check state of the tenant grant tree. The server stores a tenant's menus together with their ancestors
 * (`ownMenuList`), while the antd Tree conducts checks from the leaves up: so the Tree is given the stored
 * leaves only, and a page or directory shows checked when all of its leaves are, half-checked when some are.
 * Saving sends the checked and half-checked ids, which is again "granted ids plus ancestors".
 */

type Node = { id: number; children: Node[] };

export function flattenMenus<N extends Node>(nodes: readonly N[]): N[] {
  return nodes.flatMap((node) => [node, ...flattenMenus(node.children as N[])]);
}

/** The tree a tenant may be granted: disabled nodes and the platform-only pages are left out. */
export function grantableTree(nodes: readonly MenuNode[]): MenuNode[] {
  const platform = new Set<string>(PLATFORM_ONLY_MENUS);
  return nodes
    .filter((node) => node.status === 1 && !(node.type !== 3 && platform.has(node.name)))
    .map((node) => ({ ...node, children: grantableTree(node.children) }));
}

export function leafIds(nodes: readonly Node[]): number[] {
  return flattenMenus(nodes)
    .filter((node) => node.children.length === 0)
    .map((node) => node.id);
}

export function parentIds(nodes: readonly Node[]): number[] {
  return flattenMenus(nodes)
    .filter((node) => node.children.length > 0)
    .map((node) => node.id);
}

/** The checked keys to give the Tree for a tenant's stored menu ids. */
export function checkedFromOwn(nodes: readonly Node[], own: readonly number[]): number[] {
  const stored = new Set(own);
  return leafIds(nodes).filter((id) => stored.has(id));
}

/** Checked and half-checked parents for a set of checked leaves (the Tree's own conduction). */
export function conduct(
  nodes: readonly Node[],
  checkedLeaves: readonly number[],
): { checked: number[]; halfChecked: number[] } {
  const leaves = new Set(checkedLeaves);
  const checked: number[] = [];
  const halfChecked: number[] = [];
  const walk = (node: Node): 'all' | 'some' | 'none' => {
    if (node.children.length === 0) {
      if (!leaves.has(node.id)) return 'none';
      checked.push(node.id);
      return 'all';
    }
    const states = node.children.map(walk);
    if (states.every((s) => s === 'all')) {
      checked.push(node.id);
      return 'all';
    }
    if (states.some((s) => s !== 'none')) {
      halfChecked.push(node.id);
      return 'some';
    }
    return 'none';
  };
  for (const node of nodes) walk(node);
  return { checked, halfChecked };
}

/** What `grantMenu` is sent: the checked nodes and the half-checked parents that lead to them. */
export function grantPayload(nodes: readonly Node[], checkedKeys: readonly number[]): number[] {
  const known = new Set(leafIds(nodes));
  const { checked, halfChecked } = conduct(
    nodes,
    checkedKeys.filter((id) => known.has(id)),
  );
  return [...checked, ...halfChecked].sort((a, b) => a - b);
}
