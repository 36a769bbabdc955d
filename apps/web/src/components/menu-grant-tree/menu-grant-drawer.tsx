import { type QueryKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Drawer, Empty, Space, Spin, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type Key, type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TextsWith } from '../../platform/i18n/text-key.ts';
import { MenuIcon } from '../menu-icon.tsx';
import { useReclickGuard } from '../use-reclick-guard.ts';
import {
  checkedFromOwn,
  flattenMenus,
  type GrantMenuNode,
  grantPayload,
  leafIds,
  parentIds,
} from './menu-check.ts';

const DIRECTORY = 1;
const BUTTON = 3;

export interface MenuGrantDrawerProps {
  /** Whose menus are granted (a role, a tenant); null keeps the drawer closed. */
  subject: { id: number; name: string } | null;
  onClose(): void;
  /**
   * Top-level i18n key of the feature's texts (component locales are not merged, so the texts stay with the
   * feature), each of which holds these texts.
   */
  texts: TextsWith<
    | 'grantMenuTitle'
    | 'expandAll'
    | 'collapseAll'
    | 'checkAll'
    | 'uncheckAll'
    | 'menuSummary'
    | 'menuEmpty'
    | 'granted'
  >;
  /** Prefix of the test ids: `<testId>-grant-menu`, `<testId>-grant-menu-save`, `<testId>-menu-<name>`, ... */
  testId: string;
  /** The grantable tree and its query key. */
  treeKey: QueryKey;
  loadTree(): Promise<GrantMenuNode[]>;
  /** The subject's stored menu ids (granted ids plus their ancestors) and their query key. */
  ownKey(id: number): QueryKey;
  loadOwn(id: number): Promise<number[]>;
  save(body: { id: number; menuIdList: number[] }): Promise<unknown>;
  /** Queries refreshed after a save. */
  invalidate: QueryKey;
  size?: number;
  /** Shown above the tree. */
  hint?: ReactNode;
  /** Tag text of a button without a permission; without it such a button shows no tag. */
  buttonLabel?: string;
}

function toData(nodes: readonly GrantMenuNode[], testId: string, buttonLabel?: string): DataNode[] {
  return nodes.map((node) => {
    const tag = node.type === BUTTON ? (node.permission ?? buttonLabel) : undefined;
    return {
      key: node.id,
      title: (
        <span data-testid={`${testId}-menu-${node.name}`}>
          {tag ? (
            <>
              {node.title}{' '}
              <Tag bordered={false} style={{ marginInlineStart: 4 }}>
                {tag}
              </Tag>
            </>
          ) : (
            node.title
          )}
        </span>
      ),
      icon: node.type === BUTTON || !node.icon ? undefined : <MenuIcon name={node.icon} />,
      isLeaf: node.children.length === 0,
      children: toData(node.children, testId, buttonLabel),
    };
  });
}

/**
 * 授权菜单: the menus, pages and buttons that may be granted, as a checkable tree. Buttons are leaves under
 * their page; a parent shows half-checked when only some of what lies below it is granted; saving replaces the
 * subject's menu set with the checked and half-checked ids.
 */
export function MenuGrantDrawer(props: MenuGrantDrawerProps) {
  const { subject, onClose, texts, testId } = props;
  const { t } = useTranslation();
  const { message } = App.useApp();
  const client = useQueryClient();
  const open = subject !== null;
  const tree = useQuery({ queryKey: props.treeKey, queryFn: props.loadTree, enabled: open });
  const own = useQuery({
    queryKey: props.ownKey(subject?.id ?? 0),
    queryFn: () => props.loadOwn(subject?.id ?? 0),
    enabled: open,
    staleTime: 0,
  });
  const [checked, setChecked] = useState<number[]>([]);
  const [expanded, setExpanded] = useState<Key[]>([]);

  const nodes = tree.data ?? [];
  const data = useMemo(() => toData(nodes, testId, props.buttonLabel), [nodes, testId, props.buttonLabel]);
  const leaves = useMemo(() => leafIds(nodes), [nodes]);
  const parents = useMemo(() => parentIds(nodes), [nodes]);

  // The subject's state, each time the drawer opens on one (and once both lists are there).
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
    mutationFn: props.save,
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: props.invalidate });
      message.success(t(`${texts}.granted`));
      onClose();
    },
  });
  const submit = useReclickGuard(() => {
    if (!subject || save.isPending) return;
    save.mutate({ id: subject.id, menuIdList: grantPayload(nodes, checked) });
  });

  const loading = tree.isPending || own.isPending;
  const failed = tree.isError || own.isError;
  const leafSet = new Set(leaves);
  const checkedLeaves = checked.filter((id) => leafSet.has(id)).length;

  return (
    <Drawer
      open={open}
      onClose={onClose}
      size={props.size ?? 520}
      destroyOnHidden
      title={subject ? t(`${texts}.grantMenuTitle`, { name: subject.name }) : null}
      data-testid={`${testId}-grant-menu`}
      extra={
        <Space>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            onClick={submit}
            loading={save.isPending}
            disabled={loading || failed}
            data-testid={`${testId}-grant-menu-save`}
          >
            {t('common.save')}
          </Button>
        </Space>
      }
    >
      {props.hint ? <Alert type="info" showIcon title={props.hint} style={{ marginBottom: 12 }} /> : null}
      <Space wrap style={{ marginBottom: 12 }}>
        <Button size="small" onClick={() => setExpanded(parents)} data-testid={`${testId}-menu-expand`}>
          {t(`${texts}.expandAll`)}
        </Button>
        <Button size="small" onClick={() => setExpanded([])} data-testid={`${testId}-menu-collapse`}>
          {t(`${texts}.collapseAll`)}
        </Button>
        <Button size="small" onClick={() => setChecked(leaves)} data-testid={`${testId}-menu-check-all`}>
          {t(`${texts}.checkAll`)}
        </Button>
        <Button size="small" onClick={() => setChecked([])} data-testid={`${testId}-menu-uncheck-all`}>
          {t(`${texts}.uncheckAll`)}
        </Button>
        <Typography.Text type="secondary" data-testid={`${testId}-menu-summary`}>
          {t(`${texts}.menuSummary`, { count: checkedLeaves })}
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
        <Empty description={t(`${texts}.menuEmpty`)} />
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
          data-testid={`${testId}-menu-tree`}
        />
      )}
    </Drawer>
  );
}
