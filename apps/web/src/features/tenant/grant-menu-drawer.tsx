import type { MenuNode } from '@shuzhi/contracts/menu';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Empty, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type Key, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuIcon } from '../../components/menu-icon.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import {
  checkedFromOwn,
  flattenMenus,
  grantableTree,
  grantPayload,
  leafIds,
  parentIds,
} from './menu-check.ts';
import { TENANT_KEYS, type TenantRow, tenantApi } from './tenant.api.ts';

const DIRECTORY = 1;
const BUTTON = 3;

function toData(nodes: readonly MenuNode[]): DataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: (
      <span data-testid={`tenant-menu-${node.name}`}>
        {node.meta.title}
        {node.type === BUTTON && node.permission ? (
          <Tag bordered={false} style={{ marginInlineStart: 8 }}>
            {node.permission}
          </Tag>
        ) : null}
      </span>
    ),
    icon: node.type === BUTTON || !node.meta.icon ? undefined : <MenuIcon name={node.meta.icon} />,
    isLeaf: node.children.length === 0,
    children: toData(node.children),
  }));
}

/**
 * 授权菜单 of a tenant: every enabled menu except the platform-only pages, as a checkable tree. A parent shows
 * half-checked when only some of what lies below it is granted; saving replaces the tenant's menu set.
 */
export function TenantGrantMenuDrawer({ tenant, onClose }: { tenant: TenantRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const open = tenant !== null;
  const tree = useQuery({ queryKey: TENANT_KEYS.menuTree, queryFn: tenantApi.menuTree, enabled: open });
  const own = useQuery({
    queryKey: TENANT_KEYS.ownMenus(tenant?.id ?? 0),
    queryFn: () => tenantApi.ownMenuList(tenant?.id ?? 0),
    enabled: open,
    staleTime: 0,
  });
  const [checked, setChecked] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);

  const nodes = useMemo(() => grantableTree(tree.data ?? []), [tree.data]);
  const data = useMemo(() => toData(nodes), [nodes]);
  const leaves = useMemo(() => leafIds(nodes), [nodes]);
  const parents = useMemo(() => parentIds(nodes), [nodes]);

  useEffect(() => {
    if (!open || !own.data || nodes.length === 0) return;
    setChecked(checkedFromOwn(nodes, own.data));
    // Directories open, pages closed: every page shows, its buttons one click away.
    setExpanded(
      flattenMenus(nodes)
        .filter((n) => n.type === DIRECTORY)
        .map((n) => n.id),
    );
  }, [open, nodes, own.data]);

  const save = useMutation({
    mutationFn: tenantApi.grantMenu,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['sysTenant'] });
      message.success(t('sysTenant.granted'));
      onClose();
    },
  });
  const submit = useReclickGuard(() => {
    if (!tenant || save.isPending) return;
    save.mutate({ id: tenant.id, menuIdList: grantPayload(nodes, checked) });
  });

  const loading = tree.isPending || own.isPending;
  const failed = tree.isError || own.isError;
  const leafSet = new Set(leaves);
  const checkedLeaves = checked.filter((id) => leafSet.has(id)).length;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={560}
      destroyOnHidden
      title={tenant ? t('sysTenant.grantMenuTitle', { name: tenant.name }) : null}
      data-testid="tenant-grant-menu"
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            onClick={submit}
            loading={save.isPending}
            disabled={loading || failed}
            data-testid="tenant-grant-menu-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Alert type="info" showIcon title={t('sysTenant.menuHint')} style={{ marginBottom: 12 }} />
      <Space wrap style={{ marginBottom: 12 }}>
        <Button size="small" onClick={() => setExpanded(parents)} data-testid="tenant-menu-expand">
          {t('sysTenant.expandAll')}
        </Button>
        <Button size="small" onClick={() => setExpanded([])} data-testid="tenant-menu-collapse">
          {t('sysTenant.collapseAll')}
        </Button>
        <Button size="small" onClick={() => setChecked(leaves)} data-testid="tenant-menu-check-all">
          {t('sysTenant.checkAll')}
        </Button>
        <Button size="small" onClick={() => setChecked([])} data-testid="tenant-menu-uncheck-all">
          {t('sysTenant.uncheckAll')}
        </Button>
        <Typography.Text type="secondary" data-testid="tenant-menu-summary">
          {t('sysTenant.menuSummary', { count: checkedLeaves })}
        </Typography.Text>
      </Space>
      {failed ? (
        <Alert
          type="error"
          showIcon
          title={t('crud.loadFailed')}
          action={
            <Button size="small" onClick={() => Promise.all([tree.refetch(), own.refetch()])}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : loading ? (
        <Spin style={{ display: 'block', margin: '48px auto' }} />
      ) : nodes.length === 0 ? (
        <Empty description={t('sysTenant.menuEmpty')} />
      ) : (
        <Tree
          checkable
          showIcon
          blockNode
          selectable={false}
          treeData={data}
          checkedKeys={checked}
          expandedKeys={expanded}
          onExpand={(keys) => setExpanded(keys)}
          onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(Number))}
          data-testid="tenant-menu-tree"
        />
      )}
    </Drawer>
  );
}
