import { ReloadOutlined } from '@ant-design/icons';
import type { OrgNode } from '@shuzhi/contracts/org';
import { Button, Empty, Input, Result, Spin, Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { type Key, type ReactNode, useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterOrgTree, useOrgTree } from './use-org-tree.ts';

export type OrgTreeProps = {
  /** The highlighted org (single-select mode). */
  selectedId?: number | null;
  /** Clicking an org selects it; clicking the selected org again clears the selection (null). */
  onSelect?(org: OrgNode | null): void;
  /** Check boxes instead of selection (e.g. a role's custom data scope). */
  checkable?: boolean;
  checkedIds?: readonly number[];
  onCheck?(ids: number[]): void;
  /** Checking a parent does not check its children (default true: each org is granted on its own). */
  checkStrictly?: boolean;
  /** Pixel height of the scrolling tree (virtual list, for large trees); none: grows with its content. */
  height?: number;
  /** Overrides the server tree (tests, dialogs that already hold one). */
  nodes?: readonly OrgNode[];
  /** Extra content beside the search box (e.g. a refresh button of the page). */
  extra?: ReactNode;
  className?: string;
};

type OrgDataNode = DataNode & { org: OrgNode };

function highlight(name: string, keyword: string): ReactNode {
  const text = keyword.trim();
  const at = text ? name.toLowerCase().indexOf(text.toLowerCase()) : -1;
  if (at < 0) return name;
  return (
    <>
      {name.slice(0, at)}
      <span className="org-tree-hit" style={{ color: 'var(--ant-color-error, #f5222d)' }}>
        {name.slice(at, at + text.length)}
      </span>
      {name.slice(at + text.length)}
    </>
  );
}

function toData(nodes: readonly OrgNode[], keyword: string, checkable: boolean): OrgDataNode[] {
  return nodes.map((org) => ({
    key: org.id,
    org,
    title: (
      <span
        data-testid={`org-node-${org.id}`}
        style={org.status === 2 || org.outOfScope ? { opacity: 0.55 } : undefined}
      >
        {highlight(org.name, keyword)}
      </span>
    ),
    // An ancestor outside the scope is only there to connect the tree: it cannot be picked.
    disabled: org.outOfScope,
    disableCheckbox: checkable && org.outOfScope,
    children: toData(org.children, keyword, checkable),
  }));
}

/** The first two levels open by default, so a district shows its streets. */
function defaultExpanded(nodes: readonly OrgNode[]): number[] {
  const keys: number[] = [];
  for (const root of nodes) {
    keys.push(root.id);
    for (const child of root.children)
      if (child.children.length > 0 && nodes.length === 1) keys.push(child.id);
  }
  return keys;
}

/**
 * The left-panel org tree: the caller's visible orgs (`useOrgTree`), a search box that filters the tree
 * to matching names or codes and opens their branches, single selection or check boxes.
 */
export function OrgTree({
  selectedId = null,
  onSelect,
  checkable = false,
  checkedIds,
  onCheck,
  checkStrictly = true,
  height,
  nodes: given,
  extra,
  className,
}: OrgTreeProps) {
  const { t } = useTranslation();
  const query = useOrgTree();
  const source = given ?? query.data;
  const [keyword, setKeyword] = useState('');
  const deferred = useDeferredValue(keyword);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const filtered = useMemo(() => filterOrgTree(source ?? [], deferred), [source, deferred]);
  const treeData = useMemo(
    () => toData(filtered.nodes, deferred, checkable),
    [filtered.nodes, deferred, checkable],
  );

  // A new search opens the branches of its matches; clearing it goes back to the default view.
  useEffect(() => {
    setExpanded(deferred.trim() ? filtered.expanded : null);
  }, [deferred, filtered.expanded]);

  const expandedKeys = expanded ?? defaultExpanded(source ?? []);
  const searchBox = (
    <div style={{ display: 'flex', gap: 8, marginBottom: 8 }}>
      <Input.Search
        allowClear
        value={keyword}
        onChange={(e) => setKeyword(e.target.value)}
        placeholder={t('sysOrg.tree.searchPlaceholder')}
        aria-label={t('sysOrg.tree.searchPlaceholder')}
        data-testid="org-tree-search"
      />
      {extra}
      {!given && (
        <Button
          icon={<ReloadOutlined />}
          title={t('sysOrg.tree.refresh')}
          aria-label={t('sysOrg.tree.refresh')}
          onClick={() => void query.refetch()}
        />
      )}
    </div>
  );

  let body: ReactNode;
  if (!given && query.isPending) {
    body = (
      <div style={{ padding: 24, textAlign: 'center' }}>
        <Spin />
      </div>
    );
  } else if (!given && query.isError) {
    body = (
      <Result
        status="warning"
        subTitle={t('sysOrg.tree.loadFailed')}
        extra={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  } else if (treeData.length === 0) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        description={deferred.trim() ? t('sysOrg.tree.noMatch') : t('common.empty')}
      />
    );
  } else {
    body = (
      <Tree<OrgDataNode>
        blockNode
        showIcon={false}
        treeData={treeData}
        height={height}
        expandedKeys={expandedKeys}
        onExpand={(keys) => setExpanded(keys)}
        selectedKeys={!checkable && selectedId != null ? [selectedId] : []}
        onSelect={(_, info) => {
          if (checkable) return;
          onSelect?.(info.selected ? info.node.org : null);
        }}
        checkable={checkable}
        checkStrictly={checkStrictly}
        checkedKeys={checkable ? [...(checkedIds ?? [])] : undefined}
        onCheck={(checked) => {
          const keys = Array.isArray(checked) ? checked : checked.checked;
          // Keys of orgs hidden by the search stay checked: the search only narrows what is shown.
          const shown = new Set<number>();
          const collect = (list: readonly OrgNode[]) => {
            for (const n of list) {
              shown.add(n.id);
              collect(n.children);
            }
          };
          collect(filtered.nodes);
          const kept = (checkedIds ?? []).filter((id) => !shown.has(id));
          onCheck?.([...kept, ...keys.map(Number)]);
        }}
      />
    );
  }

  return (
    <div className={className} data-testid="org-tree">
      {searchBox}
      {body}
    </div>
  );
}
