import type { MenuNode } from '@shuzhi/contracts/menu';
import { Menu, type MenuProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { MenuIcon } from '../../components/menu-icon.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { isDynamicPath } from '../../platform/views/menu-routes.ts';
import { useHomePath } from '../home-route.tsx';
import { DASHBOARD_PATH } from '../navigation.ts';
import { useRouteTable } from '../route-table.ts';

type Items = NonNullable<MenuProps['items']>;

/** `skip`: a page left out (/dashboard for an enterprise account, whose home is its portal). */
function toItems(nodes: readonly MenuNode[], skip: string | null): Items {
  const items: Items = [];
  for (const node of nodes) {
    if (node.meta.isHide || isDynamicPath(node.path) || node.path === skip) continue;
    const children = toItems(node.children ?? [], skip);
    if (children.length > 0) {
      items.push({
        key: `dir:${node.id}`,
        label: node.meta.title,
        icon: <MenuIcon name={node.meta.icon} />,
        children,
      });
    } else if (node.type === 2 || node.meta.isLink) {
      items.push({ key: node.path, label: node.meta.title, icon: <MenuIcon name={node.meta.icon} /> });
    }
  }
  return items;
}

function containsPath(nodes: readonly MenuNode[], path: string): boolean {
  return nodes.some((node) => node.path === path || containsPath(node.children ?? [], path));
}

/** Ancestor directory keys of the current page, so the side menu opens on it. */
function openKeysFor(nodes: readonly MenuNode[], path: string, trail: string[] = []): string[] {
  for (const node of nodes) {
    if (node.path === path) return trail;
    const found = openKeysFor(node.children ?? [], path, [...trail, `dir:${node.id}`]);
    if (found.length > 0) return found;
  }
  return [];
}

export function AppMenu({ mode, theme }: { mode: 'horizontal' | 'inline'; theme: 'light' | 'dark' }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { menuTree, menuRoutes } = useRouteTable();
  const home = useHomePath();

  const items = useMemo(() => {
    const staff = home === DASHBOARD_PATH;
    const built = toItems(menuTree, staff ? null : DASHBOARD_PATH);
    // The home page is always reachable, even when an admin left it out of the menu tree.
    if (!containsPath(menuTree, home)) {
      built.unshift({
        key: home,
        label: t(staff ? 'routes.home' : 'enterprise.routes.home'),
        icon: <MenuIcon name="home" />,
      });
    }
    return built;
  }, [menuTree, home, t]);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    const route = menuRoutes.find((r) => r.path === key);
    if (route?.link && !route.isIframe) {
      window.open(route.link, '_blank', 'noopener,noreferrer');
      feedback.info(t('layout.linkOpened', { title: route.title }));
      return;
    }
    navigate(key);
  };

  const defaultOpenKeys = mode === 'inline' ? openKeysFor(menuTree, location.pathname) : undefined;

  return (
    <Menu
      mode={mode}
      theme={theme}
      items={items}
      selectedKeys={[location.pathname]}
      defaultOpenKeys={defaultOpenKeys}
      onClick={onClick}
      className={mode === 'horizontal' ? 'app-top-menu' : undefined}
      style={
        mode === 'horizontal'
          ? { flex: '1 1 auto', minWidth: 0, borderBottom: 'none', background: 'transparent' }
          : { borderInlineEnd: 'none' }
      }
      data-testid={mode === 'horizontal' ? 'top-menu' : 'side-menu'}
    />
  );
}
