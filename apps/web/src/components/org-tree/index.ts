export { OrgTree, type OrgTreeProps } from './org-tree.tsx';
export { OrgTreeSelect, type OrgTreeSelectProps } from './org-tree-select.tsx';
export { filterOrgTree, indexOrgTree, ORG_TREE_KEY, useOrgTree } from './use-org-tree.ts';
