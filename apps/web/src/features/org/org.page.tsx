import {
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { STATUS } from '@shuzhi/contracts/envelope';
import { type OrgListItem, type OrgNode, orgAddInputSchema } from '@shuzhi/contracts/org';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Result,
  Row,
  Space,
  Switch,
  Table,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchActions } from '../../components/crud-page/search-actions.tsx';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { orgApi, orgResource } from '../../components/org-tree/org.api.ts';
import { OrgTreeSelect } from '../../components/org-tree/org-tree-select.tsx';
import { ORG_TREE_KEY, useOrgTree } from '../../components/org-tree/use-org-tree.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { resourceKeys } from '../../platform/data/resource.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';

type Filters = { Name?: string; Code?: string; Type?: string };
type Editing = { mode: 'add'; parent: OrgListItem | null } | { mode: 'edit'; record: OrgListItem };
type FormValues = {
  pid: number | null;
  name: string;
  code: string;
  type: string;
  regionCode?: string | null;
  orderNo: number;
  remark?: string | null;
};

const FORM_FIELDS = ['pid', 'name', 'code', 'type', 'regionCode', 'orderNo', 'remark'];

/** The tree without `id`'s subtree: an org cannot move under itself (the server answers D2002 too). */
function without(nodes: readonly OrgNode[], id: number): OrgNode[] {
  return nodes.filter((n) => n.id !== id).map((n) => ({ ...n, children: without(n.children, id) }));
}

/** The ids of the first two levels, so that a district opens on its streets and departments. */
function topKeys(rows: readonly OrgListItem[]): number[] {
  return rows.flatMap((r) => [r.id, ...(rows.length === 1 ? (r.children ?? []).map((c) => c.id) : [])]);
}

/** 机构管理 (issue 3 §1): the visible org tree as a tree table, with its writes. */
export default function OrgPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can } = useCan();
  const client = useQueryClient();
  const tree = useOrgTree();
  const [searchForm] = Form.useForm<Filters>();
  const [editForm] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<Filters>({});
  const [expanded, setExpanded] = useState<readonly React.Key[] | null>(null);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<number | null>(null);
  const [exporting, setExporting] = useState(false);

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

  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: resourceKeys.all('sysOrg') }),
      client.invalidateQueries({ queryKey: ORG_TREE_KEY }),
    ]);
  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const search = (values: Filters) => {
    const clean = Object.fromEntries(
      Object.entries(values).filter(([, v]) => v !== undefined && v !== null && String(v).trim() !== ''),
    ) as Filters;
    setFilters(clean);
    setExpanded(null);
  };

  const openAdd = (parent: OrgListItem | null) => {
    setEditing({ mode: 'add', parent });
    editForm.resetFields();
    editForm.setFieldsValue({ pid: parent?.id ?? null, orderNo: 100 });
  };
  const openEdit = (record: OrgListItem) => {
    setEditing({ mode: 'edit', record });
    editForm.resetFields();
    editForm.setFieldsValue({
      pid: record.pid || null,
      name: record.name,
      code: record.code,
      type: record.type,
      regionCode: record.regionCode,
      orderNo: record.orderNo,
      remark: record.remark,
    });
  };

  const save = async () => {
    if (!editing) return;
    let values: FormValues;
    try {
      values = await editForm.validateFields();
    } catch {
      return;
    }
    const payload = {
      ...values,
      pid: values.pid ?? 0,
      regionCode: values.regionCode || null,
      remark: values.remark || null,
    };
    setSaving(true);
    try {
      if (editing.mode === 'add') await orgResource.add({ ...payload, status: STATUS.enabled });
      else await orgResource.update({ ...payload, id: editing.record.id });
      message.success(t('crud.saved'));
      setEditing(null);
      await refresh();
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, FORM_FIELDS);
      if (fields.length > 0) {
        editForm.setFields(fields as Parameters<typeof editForm.setFields>[0]);
        if (rest.length > 0) message.error(rest.join('; '));
      } else showError(error);
    } finally {
      setSaving(false);
    }
  };

  const remove = async (row: OrgListItem) => {
    setPending(row.id);
    try {
      await orgResource.remove(row.id);
      message.success(t('crud.deleted'));
      await refresh();
    } catch (error) {
      // D2000 / D2001 say why (children, users): shown as the server words it.
      showError(error);
    } finally {
      setPending(null);
    }
  };

  const setStatus = async (row: OrgListItem, status: 1 | 2) => {
    setPending(row.id);
    try {
      await orgResource.setStatus(row.id, status);
      message.success(t('crud.statusChanged'));
      await refresh();
    } catch (error) {
      showError(error);
    } finally {
      setPending(null);
    }
  };

  const exportXlsx = async () => {
    setExporting(true);
    try {
      await orgResource.exportFile(
        {
          page: 1,
          pageSize: 20,
          descStr: 'descending',
          name: filters.Name,
          code: filters.Code,
          type: filters.Type,
          field: 'level',
          order: 'ascending',
        },
        `${t('sysOrg.exportName')}.xlsx`,
      );
      message.success(t('crud.exported'));
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  const columns: ColumnsType<OrgListItem> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('sysOrg.name'),
      width: 300,
      ellipsis: true,
      sorter: (a, b) => a.name.localeCompare(b.name, 'zh-CN'),
      render: (name: string, row) => (
        <Tooltip title={row.fullNames} placement="topLeft">
          <span data-testid={`org-row-${row.code}`}>{name}</span>
        </Tooltip>
      ),
    },
    {
      key: 'code',
      dataIndex: 'code',
      title: t('sysOrg.code'),
      width: 190,
      sorter: (a, b) => a.code.localeCompare(b.code),
    },
    {
      key: 'type',
      dataIndex: 'type',
      title: t('sysOrg.type'),
      width: 100,
      render: (value: string) => <DictTag code="org_type" value={value} />,
    },
    {
      key: 'orderNo',
      dataIndex: 'orderNo',
      title: t('sysOrg.orderNo'),
      width: 80,
      align: 'right',
      sorter: (a, b) => a.orderNo - b.orderNo,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('crud.status'),
      width: 100,
      align: 'center',
      render: (status: number, row) => {
        const enabled = status === STATUS.enabled;
        const view = (
          <Switch
            size="small"
            checked={enabled}
            loading={pending === row.id}
            disabled={!can('sysOrg:setStatus')}
            checkedChildren={t('crud.enabled')}
            unCheckedChildren={t('crud.disabled')}
            data-testid="org-status-switch"
          />
        );
        if (!can('sysOrg:setStatus')) return view;
        return (
          <Popconfirm
            title={t(enabled ? 'crud.confirmDisable' : 'crud.confirmEnable')}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => setStatus(row, enabled ? STATUS.disabled : STATUS.enabled)}
          >
            {view}
          </Popconfirm>
        );
      },
    },
    { key: 'remark', dataIndex: 'remark', title: t('sysOrg.remark'), ellipsis: true },
    { key: 'createTime', dataIndex: 'createTime', title: t('sysOrg.createTime'), width: 170 },
  ];
  if (can('sysOrg:add') || can('sysOrg:update') || can('sysOrg:delete')) {
    columns.push({
      key: 'actions',
      title: t('crud.actions'),
      width: 280,
      fixed: 'right',
      render: (_: unknown, row) => (
        <Space size={0}>
          <Auth value="sysOrg:add">
            <Button
              type="link"
              size="small"
              icon={<PlusOutlined />}
              onClick={() => openAdd(row)}
              data-testid="org-add-child"
            >
              {t('sysOrg.addChild')}
            </Button>
          </Auth>
          <Auth value="sysOrg:update">
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => openEdit(row)}
              data-testid="org-edit"
            >
              {t('crud.edit')}
            </Button>
          </Auth>
          <Auth value="sysOrg:delete">
            <Popconfirm
              title={t('crud.confirmDeleteTitle')}
              description={t('sysOrg.confirmDelete', { name: row.name })}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              okButtonProps={{ danger: true, ...{ 'data-testid': 'org-delete-ok' } }}
              onConfirm={() => remove(row)}
            >
              <Button
                type="link"
                size="small"
                danger
                icon={<DeleteOutlined />}
                loading={pending === row.id}
                data-testid="org-delete"
              >
                {t('crud.delete')}
              </Button>
            </Popconfirm>
          </Auth>
        </Space>
      ),
    });
  }

  const editingId = editing?.mode === 'edit' ? editing.record.id : null;
  const parentNodes = useMemo(
    () => (editingId === null ? tree.data : without(tree.data ?? [], editingId)),
    [tree.data, editingId],
  );
  const expandedKeys = expanded ?? (filtered ? [] : topKeys(rows));
  const mayAddRoot = (tree.data ?? []).every((n) => !n.outOfScope);

  return (
    <Card title={t('sysOrg.title')} data-testid="org-page">
      <Form form={searchForm} layout="inline" onFinish={search} style={{ rowGap: 12, marginBottom: 16 }}>
        <Form.Item name="Name" label={t('sysOrg.name')}>
          <Input
            allowClear
            placeholder={t('crud.inputPlaceholder', { label: t('sysOrg.name') })}
            style={{ width: 180 }}
            data-testid="org-search-name"
          />
        </Form.Item>
        <Form.Item name="Code" label={t('sysOrg.code')}>
          <Input
            allowClear
            placeholder={t('crud.inputPlaceholder', { label: t('sysOrg.code') })}
            style={{ width: 180 }}
            data-testid="org-search-code"
          />
        </Form.Item>
        <Form.Item name="Type" label={t('sysOrg.type')}>
          <DictSelect
            code="org_type"
            placeholder={t('crud.selectPlaceholder', { label: t('sysOrg.type') })}
            style={{ width: 140 }}
            data-testid="org-search-type"
          />
        </Form.Item>
        <SearchActions
          submitTestId="org-search"
          onReset={() => {
            searchForm.resetFields();
            search({});
          }}
        />
      </Form>
      <Row justify="space-between" style={{ marginBottom: 12 }}>
        <Col>
          <Space>
            <Auth value="sysOrg:add">
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => openAdd(null)}
                data-testid="org-add"
              >
                {t('crud.add')}
              </Button>
            </Auth>
            <Auth value="sysOrg:export">
              <Button
                icon={<DownloadOutlined />}
                loading={exporting}
                onClick={exportXlsx}
                data-testid="org-export"
              >
                {t('crud.export')}
              </Button>
            </Auth>
          </Space>
        </Col>
        <Col>
          <Space>
            <Button onClick={() => setExpanded(null)}>{t('sysOrg.collapse')}</Button>
            <Tooltip title={t('crud.refresh')}>
              <Button
                icon={<ReloadOutlined />}
                onClick={() => void refresh()}
                aria-label={t('crud.refresh')}
              />
            </Tooltip>
          </Space>
        </Col>
      </Row>
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
      <Modal
        open={editing !== null}
        title={
          editing?.mode === 'edit'
            ? t('crud.editTitle', { name: t('sysOrg.entity') })
            : t('crud.addTitle', { name: t('sysOrg.entity') })
        }
        width={720}
        onCancel={() => setEditing(null)}
        onOk={save}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={saving}
        forceRender
        data-testid="org-form-modal"
      >
        <Form form={editForm} layout="vertical" preserve={false} requiredMark>
          <Row gutter={16}>
            <Col span={24}>
              <Form.Item
                name="pid"
                label={t('sysOrg.parent')}
                extra={mayAddRoot ? t('sysOrg.parentHelp') : undefined}
                // Only who sees the whole tenant may add a top-level org (the server answers D2003).
                rules={
                  mayAddRoot
                    ? []
                    : [{ required: true, message: t('crud.requiredSelect', { label: t('sysOrg.parent') }) }]
                }
              >
                <OrgTreeSelect nodes={parentNodes} data-testid="org-field-pid" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="name"
                label={t('sysOrg.name')}
                rules={[
                  {
                    required: true,
                    whitespace: true,
                    message: t('crud.required', { label: t('sysOrg.name') }),
                  },
                ]}
              >
                <Input allowClear maxLength={64} data-testid="org-field-name" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="code"
                label={t('sysOrg.code')}
                rules={[
                  {
                    required: true,
                    whitespace: true,
                    message: t('crud.required', { label: t('sysOrg.code') }),
                  },
                  {
                    validator: (_: unknown, value: unknown) =>
                      !value || orgAddInputSchema.shape.code.safeParse(value).success
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('sysOrg.codeRule'))),
                  },
                ]}
              >
                <Input allowClear maxLength={64} data-testid="org-field-code" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="type"
                label={t('sysOrg.type')}
                rules={[{ required: true, message: t('crud.requiredSelect', { label: t('sysOrg.type') }) }]}
              >
                <DictSelect code="org_type" data-testid="org-field-type" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item
                name="regionCode"
                label={t('sysOrg.regionCode')}
                rules={[{ pattern: /^[0-9]*$/, message: t('sysOrg.regionCodeRule') }]}
              >
                <Input allowClear maxLength={32} data-testid="org-field-region" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="orderNo" label={t('sysOrg.orderNo')} initialValue={100}>
                <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="remark" label={t('sysOrg.remark')}>
                <Input.TextArea rows={2} maxLength={256} showCount />
              </Form.Item>
            </Col>
          </Row>
        </Form>
      </Modal>
    </Card>
  );
}

function countRows(rows: readonly OrgListItem[]): number {
  return rows.reduce((n, r) => n + 1 + countRows(r.children ?? []), 0);
}
