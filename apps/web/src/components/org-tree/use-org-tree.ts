import type { OrgNode } from '@shuzhi/contracts/org';
import { useQuery } from '@tanstack/react-query';
import { orgApi } from './org.api.ts';

/**
 * Query key of the visible org tree. It starts with the service name, so invalidating
 * `resourceKeys.all('sysOrg')` after any org write refreshes every tree and picker.
 */
export const ORG_TREE_KEY = ['sysOrg', 'treeAll'] as const;

/** The caller's visible org tree (`GET /api/sysOrg/treeAll`), shared by every tree and picker on the page. */
export function useOrgTree() {
  return useQuery({ queryKey: ORG_TREE_KEY, queryFn: orgApi.treeAll, staleTime: 60_000 });
}

/**
 * The tree cut down to the nodes whose name contains `keyword` (or whose code starts with it), with their
 * ancestors; `expanded` lists the ancestors to open so that every match shows. An empty keyword keeps all.
 */
export function filterOrgTree(
  nodes: readonly OrgNode[],
  keyword: string,
): { nodes: OrgNode[]; expanded: number[]; matches: Set<number> } {
  const text = keyword.trim().toLowerCase();
  const matches = new Set<number>();
  if (!text) return { nodes: [...nodes], expanded: [], matches };
  const expanded: number[] = [];
  const keep = (list: readonly OrgNode[]): OrgNode[] => {
    const out: OrgNode[] = [];
    for (const node of list) {
      const hit = node.name.toLowerCase().includes(text) || node.code.toLowerCase().startsWith(text);
      const children = keep(node.children);
      if (hit) matches.add(node.id);
      if (children.length > 0) expanded.push(node.id);
      if (hit || children.length > 0) out.push({ ...node, children });
    }
    return out;
  };
  return { nodes: keep(nodes), expanded, matches };
}
