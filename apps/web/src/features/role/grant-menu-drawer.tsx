import { useTranslation } from 'react-i18next';
import { MenuGrantDrawer } from '../../components/menu-grant-tree/menu-grant-drawer.tsx';
import { ROLE_KEYS, type RoleRow, roleApi } from './role.api.ts';

/** 授权菜单 of a role: the menus, pages and buttons the admin may grant (the server's `menuTree`). */
export function GrantMenuDrawer({ role, onClose }: { role: RoleRow | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <MenuGrantDrawer
      subject={role}
      onClose={onClose}
      texts="sysRole"
      testId="role"
      treeKey={ROLE_KEYS.menuTree}
      loadTree={roleApi.menuTree}
      ownKey={ROLE_KEYS.ownMenus}
      loadOwn={roleApi.ownMenuList}
      save={roleApi.grantMenu}
      invalidate={['sysRole']}
      buttonLabel={t('sysRole.button')}
    />
  );
}
