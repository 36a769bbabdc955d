import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../session/session.store.ts';
import { filterMenuTree, retitleMenuTree } from './menu-routes.ts';

/** The signed-in user's menu tree: role-filtered, with seeded titles in the UI language. */
export function useMenuTree() {
  const { t } = useTranslation();
  const menus = useSessionStore((state) => state.menus);
  const userInfo = useSessionStore((state) => state.userInfo);
  return useMemo(() => {
    const roles = [...(userInfo?.roles ?? []), ...(userInfo?.roleCodes ?? [])];
    return retitleMenuTree(filterMenuTree(menus, roles), (node) =>
      t(`menus.${node.name}`, { defaultValue: node.meta.title }),
    );
  }, [menus, userInfo, t]);
}
