import type { OrgNode } from '@shuzhi/contracts/org';
import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrgTree } from './use-org-tree.ts';

type Option = { value: number; title: string; disabled: boolean; children: Option[] };

function toOptions(nodes: readonly OrgNode[]): Option[] {
  return nodes.map((org) => ({
    value: org.id,
    title: org.name,
    // Ancestors outside the caller's scope only connect the tree.
    disabled: org.outOfScope,
    children: toOptions(org.children),
  }));
}

export type OrgTreeSelectProps = Omit<
  TreeSelectProps<number | number[] | null>,
  'treeData' | 'multiple' | 'value' | 'onChange'
> & {
  value?: number | number[] | null;
  onChange?(value: number | number[] | null): void;
  /** Several orgs (value is an array of ids). */
  multiple?: boolean;
  /** Overrides the server tree. */
  nodes?: readonly OrgNode[];
};

/**
 * An org picker over the caller's visible org tree, usable as a Form.Item control (`value` / `onChange` with
 * org ids); type to search by name.
 */
export function OrgTreeSelect({ multiple = false, nodes, value, onChange, ...rest }: OrgTreeSelectProps) {
  const { t } = useTranslation();
  const query = useOrgTree();
  const treeData = useMemo(() => toOptions(nodes ?? query.data ?? []), [nodes, query.data]);
  return (
    <TreeSelect<number | number[] | null>
      showSearch
      allowClear
      treeNodeFilterProp="title"
      treeDefaultExpandedKeys={treeData.length === 1 && treeData[0] ? [treeData[0].value] : undefined}
      placeholder={t('sysOrg.tree.pickPlaceholder')}
      loading={!nodes && query.isPending}
      notFoundContent={t('sysOrg.tree.noMatch')}
      popupMatchSelectWidth={false}
      style={{ width: '100%' }}
      {...rest}
      multiple={multiple}
      value={value ?? (multiple ? [] : null)}
      onChange={(next) => onChange?.(next ?? (multiple ? [] : null))}
      treeData={treeData}
    />
  );
}
