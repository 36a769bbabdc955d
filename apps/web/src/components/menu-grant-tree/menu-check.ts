/**
 * Check state of a menu grant tree (a role's or a tenant's menus). The server stores granted menus together
 * with their ancestors (`ownMenuList`), and the antd Tree conducts checks from the leaves up: so the tree is
 * given the stored leaves only, and a page or directory shows checked when all of its leaves are, half-checked
 * when some are. Saving sends the checked and half-checked ids, which is again "granted ids plus ancestors":
 * re-opening shows the same state.
 */

/** A node of the grant tree: a directory (type 1), page (2) or button (3). */
export type GrantMenuNode = {
  id: number;
  type: number;
  name: string;
  title: string;
  permission: string | null;
  icon: string | null;
  children: GrantMenuNode[];
};

type Node = { id: number; children: readonly Node[] };

export function flattenMenus<N extends Node>(nodes: readonly N[]): N[] {
  return nodes.flatMap((node) => [node, ...flattenMenus(node.children as readonly N[])]);
}

/** Ids of the nodes without children (buttons, and pages or directories that have none). */
export function leafIds(nodes: readonly Node[]): number[] {
  return flattenMenus(nodes)
    .filter((node) => node.children.length === 0)
    .map((node) => node.id);
}

/** Ids of the nodes that have children (what "expand all" opens). */
export function parentIds(nodes: readonly Node[]): number[] {
  return flattenMenus(nodes)
    .filter((node) => node.children.length > 0)
    .map((node) => node.id);
}

/** The checked keys to give the Tree for the stored menu ids. */
export function checkedFromOwn(nodes: readonly Node[], own: readonly number[]): number[] {
  const stored = new Set(own);
  return leafIds(nodes).filter((id) => stored.has(id));
}

/**
 * Checked and half-checked state of every parent for a set of checked leaves (the Tree's own conduction, for
 * a summary and for the payload when the Tree has not reported half-checked keys yet).
 */
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
