import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { textOf } from '../platform/i18n/text-key.ts';
import { buildMenuRoutes, type Crumb, findMenuRoute, type MenuRoute } from '../platform/views/menu-routes.ts';
import { useMenuTree } from '../platform/views/use-menu-tree.ts';
import { findStaticPage } from './static-routes.ts';
import { VIEW_KEYS } from './view-keys.ts';

export type PageInfo = {
  path: string;
  name: string;
  title: string;
  isKeepAlive: boolean;
  isAffix: boolean;
  crumbs: Crumb[];
  menu?: MenuRoute;
};

/** The user's menu tree (role-filtered) and every page it leads to, plus a resolver for the current path. */
export function useRouteTable() {
  const { t } = useTranslation();
  const menuTree = useMenuTree();

  return useMemo(() => {
    const menuRoutes = buildMenuRoutes(menuTree, VIEW_KEYS);

    const resolve = (pathname: string): PageInfo | undefined => {
      const page = findStaticPage(pathname);
      const menu = findMenuRoute(menuRoutes, pathname);
      if (page) {
        const title = textOf(t, page.titleKey);
        return {
          path: page.path,
          name: page.name,
          title,
          isKeepAlive: page.isKeepAlive || Boolean(menu?.isKeepAlive),
          isAffix: page.isAffix || Boolean(menu?.isAffix),
          crumbs: menu
            ? [...menu.crumbs.slice(0, -1), { title, path: page.path }]
            : [{ title, path: page.path }],
          menu,
        };
      }
      if (!menu) return undefined;
      return {
        path: pathname,
        name: menu.name,
        title: menu.title,
        isKeepAlive: menu.isKeepAlive,
        isAffix: menu.isAffix,
        crumbs: menu.crumbs,
        menu,
      };
    };

    return { menuTree, menuRoutes, resolve };
  }, [menuTree, t]);
}
