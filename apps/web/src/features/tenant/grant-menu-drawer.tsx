import { useTranslation } from 'react-i18next';
import { MenuGrantDrawer } from '../../components/menu-grant-tree/menu-grant-drawer.tsx';
import { grantableTree } from './grantable-tree.ts';
import { TENANT_KEYS, type TenantRow, tenantApi } from './tenant.api.ts';

const loadTree = () => tenantApi.menuTree().then(grantableTree);

/**
 * 授权菜单 of a tenant: every enabled menu except the platform-only pages. Saving replaces the tenant's menu
 * set.
 */
export function TenantGrantMenuDrawer({ tenant, onClose }: { tenant: TenantRow | null; onClose(): void }) {
  const { t } = useTranslation();
  return (
    <MenuGrantDrawer
      subject={tenant}
      onClose={onClose}
      texts="sysTenant"
      testId="tenant"
      treeKey={TENANT_KEYS.menuTree}
      loadTree={loadTree}
      ownKey={TENANT_KEYS.ownMenus}
      loadOwn={tenantApi.ownMenuList}
      save={tenantApi.grantMenu}
      invalidate={['sysTenant']}
      size={560}
      hint={t('sysTenant.menuHint')}
    />
  );
}
