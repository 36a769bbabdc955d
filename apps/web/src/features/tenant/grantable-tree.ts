import { type MenuNode, PLATFORM_ONLY_MENUS } from '@shuzhi/contracts/menu';
import type { GrantMenuNode } from '../../components/menu-grant-tree/menu-check.ts';

const BUTTON = 3;

/**
 * The tree a tenant may be granted, from the full menu list: disabled nodes and the platform-only pages are
 * left out, and each node is reduced to what the grant tree shows.
 */
export function grantableTree(nodes: readonly MenuNode[]): GrantMenuNode[] {
  const platform = new Set<string>(PLATFORM_ONLY_MENUS);
  return nodes
    .filter((node) => node.status === 1 && !(node.type !== BUTTON && platform.has(node.name)))
    .map((node) => ({
      id: node.id,
      type: node.type,
      name: node.name,
      title: node.meta.title,
      permission: node.permission,
      icon: node.meta.icon,
      children: grantableTree(node.children),
    }));
}
