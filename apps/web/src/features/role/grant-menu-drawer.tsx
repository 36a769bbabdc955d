import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Empty, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type Key, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MenuIcon } from '../../components/menu-icon.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { checkedFromOwn, flattenMenus, grantPayload, leafIds, parentIds } from './menu-check.ts';
import { ROLE_KEYS, type RoleMenuNode, type RoleRow, roleApi } from './role.api.ts';

const DIRECTORY = 1;
const BUTTON = 3;

function toData(nodes: readonly RoleMenuNode[], buttonText: string): DataNode[] {
  return nodes.map((node) => ({
    key: node.id,
    title: (
      <span data-testid={`role-menu-${node.name}`}>
        {node.type === BUTTON ? (
          <>
            {node.title}{' '}
            <Tag bordered={false} style={{ marginInlineStart: 4 }}>
              {node.permission ?? buttonText}
            </Tag>
          </>
        ) : (
          node.title
        )}
      </span>
    ),
    icon: node.type === BUTTON || !node.icon ? undefined : <MenuIcon name={node.icon} />,
    isLeaf: node.children.length === 0,
    children: toData(node.children, buttonText),
  }));
}

/**
 * 授权菜单: the menus, pages and buttons the admin may grant, as a checkable tree. Buttons are leaves under
 * their page; a parent shows half-checked when only some of what lies below it is granted.
 */
export function GrantMenuDrawer({ role, onClose }: { role: RoleRow | null; onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const open = role !== null;
  const tree = useQuery({ queryKey: ROLE_KEYS.menuTree, queryFn: roleApi.menuTree, enabled: open });
  const own = useQuery({
    queryKey: ROLE_KEYS.ownMenus(role?.id ?? 0),
    queryFn: () => roleApi.ownMenuList(role?.id ?? 0),
    enabled: open,
    staleTime: 0,
  });
  const [checked, setChecked] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);

  const nodes = tree.data ?? [];
  const data = useMemo(() => toData(nodes, t('sysRole.button')), [nodes, t]);
  const leaves = useMemo(() => leafIds(nodes), [nodes]);
  const parents = useMemo(() => parentIds(nodes), [nodes]);

  // The role's state, each time the drawer opens on a role (and once both lists are there).
  useEffect(() => {
    if (!open || !tree.data || !own.data) return;
    setChecked(checkedFromOwn(tree.data, own.data));
    // Directories open, pages closed: every page shows, its buttons one click away.
    setExpanded(
      flattenMenus(tree.data)
        .filter((n) => n.type === DIRECTORY)
        .map((n) => n.id),
    );
  }, [open, tree.data, own.data]);

  const save = useMutation({
    mutationFn: roleApi.grantMenu,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: ['sysRole'] });
      message.success(t('sysRole.granted'));
      onClose();
    },
  });
  const submit = useReclickGuard(() => {
    if (!role || save.isPending) return;
    save.mutate({ id: role.id, menuIdList: grantPayload(nodes, checked) });
  });

  const loading = tree.isPending || own.isPending;
  const failed = tree.isError || own.isError;
  const checkedLeaves = checked.filter((id) => leaves.includes(id)).length;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={520}
      destroyOnHidden
      title={role ? t('sysRole.grantMenuTitle', { name: role.name }) : null}
      data-testid="role-grant-menu"
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            onClick={submit}
            loading={save.isPending}
            disabled={loading || failed}
            data-testid="role-grant-menu-save"
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      <Space wrap style={{ marginBottom: 12 }}>
        <Button size="small" onClick={() => setExpanded(parents)} data-testid="role-menu-expand">
          {t('sysRole.expandAll')}
        </Button>
        <Button size="small" onClick={() => setExpanded([])} data-testid="role-menu-collapse">
          {t('sysRole.collapseAll')}
        </Button>
        <Button size="small" onClick={() => setChecked(leaves)} data-testid="role-menu-check-all">
          {t('sysRole.checkAll')}
        </Button>
        <Button size="small" onClick={() => setChecked([])} data-testid="role-menu-uncheck-all">
          {t('sysRole.uncheckAll')}
        </Button>
        <Typography.Text type="secondary">
          {t('sysRole.menuSummary', { count: checkedLeaves })}
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
        <Empty description={t('sysRole.menuEmpty')} />
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
          data-testid="role-menu-tree"
        />
      )}
    </Drawer>
  );
}
