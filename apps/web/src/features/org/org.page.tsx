import type { OrgListItem } from '@shuzhi/contracts/org';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Result, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { orgApi } from '../../components/org-tree/org.api.ts';
import { useOrgTree } from '../../components/org-tree/use-org-tree.ts';
import { resourceKeys } from '../../platform/data/resource.ts';
import { useOrgColumns } from './org-columns.tsx';
import { OrgFormModal } from './org-form-modal.tsx';
import { OrgSearch, OrgToolbar } from './org-toolbar.tsx';
import { type Filters, type FormValues, useOrgActions } from './use-org-actions.ts';

/** The ids of the first two levels, so that a district opens on its streets and departments. */
function topKeys(rows: readonly OrgListItem[]): number[] {
  return rows.flatMap((r) => [r.id, ...(rows.length === 1 ? (r.children ?? []).map((c) => c.id) : [])]);
}

/** 机构管理 (issue 3 §1): the visible org tree as a tree table, with its writes. */
export default function OrgPage() {
  const { t } = useTranslation();
  const tree = useOrgTree();
  const [searchForm] = Form.useForm<Filters>();
  const [editForm] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<Filters>({});
  const [expanded, setExpanded] = useState<readonly React.Key[] | null>(null);
  const actions = useOrgActions(editForm, filters);
  const columns = useOrgColumns(actions);

  const list = useQuery({
    queryKey: resourceKeys.list('sysOrg', filters),
    queryFn: () => orgApi.list(filters),
  });
  const filtered = Boolean(filters.Name || filters.Code || filters.Type);
  const rows = useMemo(() => {
    // antd shows an expander for any `children` array: leaves get none.
    const strip = (items: OrgListItem[]): OrgListItem[] =>
      items.map(({ children, ...row }) =>
        children && children.length > 0 ? { ...row, children: strip(children) } : row,
      );
    return strip(list.data ?? []);
  }, [list.data]);

  const search = (values: Filters) => {
    const clean = Object.fromEntries(
      Object.entries(values).filter(([, v]) => v !== undefined && v !== null && String(v).trim() !== ''),
    ) as Filters;
    setFilters(clean);
    setExpanded(null);
  };

  const expandedKeys = expanded ?? (filtered ? [] : topKeys(rows));

  return (
    <Card title={t('sysOrg.title')} data-testid="org-page">
      <OrgSearch form={searchForm} onSearch={search} />
      <OrgToolbar
        exporting={actions.exporting}
        onAdd={() => actions.openAdd(null)}
        onExport={actions.exportXlsx}
        onCollapse={() => setExpanded(null)}
        onRefresh={() => void actions.refresh()}
      />
      {list.isError ? (
        <Result
          status="warning"
          subTitle={t('crud.loadFailed')}
          extra={<Button onClick={() => void list.refetch()}>{t('common.retry')}</Button>}
        />
      ) : (
        <Table<OrgListItem>
          rowKey="id"
          size="middle"
          loading={list.isFetching}
          columns={columns}
          dataSource={rows}
          pagination={false}
          scroll={{ x: 1100 }}
          expandable={{
            expandedRowKeys: expandedKeys as React.Key[],
            onExpandedRowsChange: (keys) => setExpanded(keys),
          }}
          footer={() => t('sysOrg.count', { count: countRows(rows) })}
          data-testid="org-table"
        />
      )}
      <OrgFormModal
        form={editForm}
        editing={actions.editing}
        saving={actions.saving}
        tree={tree.data}
        onCancel={actions.closeEdit}
        onSave={actions.save}
      />
    </Card>
  );
}

function countRows(rows: readonly OrgListItem[]): number {
  return rows.reduce((n, r) => n + 1 + countRows(r.children ?? []), 0);
}
