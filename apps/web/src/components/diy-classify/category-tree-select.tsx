import { useQuery } from '@tanstack/react-query';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { buildTree, type TreeNode } from './category-tree.ts';
import { CLASSIFY_KEYS, type ClassifyOption, classifyApi } from './diy-classify.api.ts';

type Option = { value: number; title: string; disabled?: boolean; children?: Option[] };

type Linked = { id: number; pid: number; orderNo: number; label: string };

function toOptions(nodes: TreeNode<Linked>[], disabled: ReadonlySet<number>): Option[] {
  return nodes.map((node) => ({
    value: node.id,
    title: node.label,
    disabled: disabled.has(node.id),
    children: node.children ? toOptions(node.children, disabled) : undefined,
  }));
}

/** The enabled categories as a tree (`GET /api/diyTableClassify/options`). */
function useCategoryOptions(enabled = true) {
  return useQuery({
    queryKey: CLASSIFY_KEYS.options,
    queryFn: classifyApi.options,
    staleTime: 30_000,
    enabled,
  });
}

export type CategoryTreeSelectProps = Omit<
  TreeSelectProps<number | null>,
  'treeData' | 'value' | 'onChange'
> & {
  value?: number | null;
  onChange?(value: number | null): void;
  /** Overrides the enabled categories (e.g. every category of the administration page). */
  options?: readonly ClassifyOption[];
  /** Ids that may not be picked (a category's own subtree as its parent). */
  disabledIds?: ReadonlySet<number>;
  /** Shown for a value outside the tree (a disabled category the form still belongs to). */
  fallbackLabel?: string | null;
};

/** A category picker usable as a Form.Item control; type to search by name. */
export function CategoryTreeSelect({
  value,
  onChange,
  options,
  disabledIds,
  fallbackLabel,
  ...rest
}: CategoryTreeSelectProps) {
  const { t } = useTranslation();
  const query = useCategoryOptions(options === undefined);
  const source = options ?? query.data;
  const treeData = useMemo(() => {
    const rows = (source ?? []).map((o) => ({ id: o.value, pid: o.pid, orderNo: o.orderNo, label: o.label }));
    const tree = toOptions(buildTree(rows), disabledIds ?? new Set());
    if (typeof value === 'number' && !rows.some((r) => r.id === value))
      tree.push({ value, title: fallbackLabel ?? String(value), disabled: true });
    return tree;
  }, [source, disabledIds, value, fallbackLabel]);
  return (
    <TreeSelect<number | null>
      showSearch
      allowClear
      treeDefaultExpandAll
      treeNodeFilterProp="title"
      placeholder={t('formClassify.pickCategory')}
      loading={options === undefined && query.isPending}
      notFoundContent={t('formClassify.noCategory')}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
      {...rest}
      value={value ?? null}
      onChange={(next) => onChange?.(next ?? null)}
      treeData={treeData}
    />
  );
}
