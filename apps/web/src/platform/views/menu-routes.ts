import type { MenuNode } from '@shuzhi/contracts/menu';
import { matchViewKey } from './view-registry.ts';

const MENU_TYPE_DIR = 1;
const MENU_TYPE_MENU = 2;
const STATUS_ENABLED = 1;

export type Crumb = { title: string; path: string };

/** One navigable page built from the login menu tree. */
export type MenuRoute = {
  id: number;
  name: string;
  path: string;
  title: string;
  icon: string | null;
  viewKey: string | null;
  isKeepAlive: boolean;
  isAffix: boolean;
  isHide: boolean;
  isIframe: boolean;
  link: string | null;
  /** Paths with a `/:` segment take parameters and cannot be opened from the menu directly. */
  isDynamic: boolean;
  redirect: string | null;
  crumbs: Crumb[];
};

export function isDynamicPath(path: string): boolean {
  return path.includes('/:');
}

/** Meta roles restrict a menu to users holding one of them (by role name or code). */
function allowedByRoles(node: MenuNode, userRoles: readonly string[]): boolean {
  const roles = node.meta.roles;
  if (!roles || roles.length === 0) return true;
  return roles.some((role) => userRoles.includes(role));
}

/** Keeps the enabled directories and menus the user's roles allow, dropping emptied directories. */
export function filterMenuTree(nodes: readonly MenuNode[], userRoles: readonly string[]): MenuNode[] {
  const out: MenuNode[] = [];
  for (const node of nodes) {
    if (node.type !== MENU_TYPE_DIR && node.type !== MENU_TYPE_MENU) continue;
    if (node.status !== undefined && node.status !== STATUS_ENABLED) continue;
    if (!allowedByRoles(node, userRoles)) continue;
    const children = filterMenuTree(node.children ?? [], userRoles);
    if (node.type === MENU_TYPE_DIR && children.length === 0 && !node.meta.isLink) continue;
    out.push({ ...node, children });
  }
  return out;
}

/** Replaces menu titles, e.g. with translations keyed by menu name. */
export function retitleMenuTree(nodes: readonly MenuNode[], title: (node: MenuNode) => string): MenuNode[] {
  return nodes.map((node) => ({
    ...node,
    meta: { ...node.meta, title: title(node) },
    children: retitleMenuTree(node.children ?? [], title),
  }));
}

/** Flattens the (already filtered) tree into pages, each with its breadcrumb trail. */
export function buildMenuRoutes(
  nodes: readonly MenuNode[],
  viewKeys: readonly string[],
  parents: Crumb[] = [],
): MenuRoute[] {
  const routes: MenuRoute[] = [];
  for (const node of nodes) {
    const crumbs = [...parents, { title: node.meta.title, path: node.path }];
    if (node.type === MENU_TYPE_MENU && node.path) {
      routes.push({
        id: node.id,
        name: node.name,
        path: node.path.startsWith('/') || /^https?:/.test(node.path) ? node.path : `/${node.path}`,
        title: node.meta.title,
        icon: node.meta.icon,
        viewKey: matchViewKey(viewKeys, node.component),
        isKeepAlive: node.meta.isKeepAlive,
        isAffix: node.meta.isAffix,
        isHide: node.meta.isHide,
        isIframe: node.meta.isIframe,
        link: node.meta.isLink || null,
        isDynamic: isDynamicPath(node.path),
        redirect: node.redirect,
        crumbs,
      });
    }
    routes.push(...buildMenuRoutes(node.children ?? [], viewKeys, crumbs));
  }
  return routes;
}

/** Finds the page for a location, matching `/:param` segments. */
export function findMenuRoute(routes: readonly MenuRoute[], pathname: string): MenuRoute | undefined {
  const exact = routes.find((route) => route.path === pathname);
  if (exact) return exact;
  return routes.find((route) => route.isDynamic && pathPattern(route.path).test(pathname));
}

function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}$`);
}
