import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { serverText } from '../i18n/text-key.ts';
import { useSessionStore } from '../session/session.store.ts';
import { filterMenuTree, retitleMenuTree } from './menu-routes.ts';

/** The signed-in user's menu tree: role-filtered, with unchanged seeded titles in the UI language. */
export function useMenuTree() {
  const { t } = useTranslation();
  const menus = useSessionStore((state) => state.menus);
  const userInfo = useSessionStore((state) => state.userInfo);
  return useMemo(() => {
    const roles = [...(userInfo?.roles ?? []), ...(userInfo?.roleCodes ?? [])];
    // A seeded title shows in the UI language; a title an admin has changed shows as they wrote it.
    return retitleMenuTree(filterMenuTree(menus, roles), (node) => {
      const key = `menus.${node.name}`;
      const seeded = serverText(t, key, { lng: 'zh-CN', defaultValue: '' });
      return seeded && seeded === node.meta.title
        ? serverText(t, key, { defaultValue: node.meta.title })
        : node.meta.title;
    });
  }, [menus, userInfo, t]);
}
