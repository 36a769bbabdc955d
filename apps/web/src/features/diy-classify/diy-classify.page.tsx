import { EditOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Col,
  Empty,
  Form,
  Input,
  InputNumber,
  Modal,
  Popconfirm,
  Radio,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tooltip,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LoadFailedAlert } from '../../components/crud-page/load-failed-alert.tsx';
import { RowDeleteAction } from '../../components/crud-page/row-delete-action.tsx';
import { SearchForm } from '../../components/crud-page/search-form.tsx';
import {
  buildTree,
  filterTree,
  subtreeIds,
  type TreeNode,
} from '../../components/diy-classify/category-tree.ts';
import { CategoryTreeSelect } from '../../components/diy-classify/category-tree-select.tsx';
import {
  CLASSIFY_KEYS,
  type ClassifyRow,
  classifyApi,
  classifyResource,
} from '../../components/diy-classify/diy-classify.api.ts';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';

type Node = TreeNode<ClassifyRow>;
type Values = { pid: number | null; name: string; orderNo: number; status: 1 | 2; remark?: string | null };
type Editing = { mode: 'add'; pid: number } | { mode: 'edit'; row: Node };
type Filters = { name?: string; status?: number };

const FIELDS = ['pid', 'name', 'orderNo', 'status', 'remark'];

/** 表单分类 (issue 5): the tree of form categories — add (also below a category), edit, enable, delete. */
export default function ClassifyPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can } = useCan();
  const client = useQueryClient();
  const formId = useId();
  const [searchForm] = Form.useForm<Filters>();
  const [form] = Form.useForm<Values>();
  const [filters, setFilters] = useState<Filters>({});
  const [editing, setEditing] = useState<Editing | null>(null);
  const [saving, setSaving] = useState(false);
  const [pending, setPending] = useState<number | null>(null);

  const query = useQuery({ queryKey: CLASSIFY_KEYS.list, queryFn: classifyApi.list });
  const rows = query.data ?? [];
  const tree = useMemo(() => buildTree(rows), [rows]);
  const shown = useMemo(() => {
    const name = filters.name?.trim().toLowerCase();
    if (!name && !filters.status) return tree;
    return filterTree(
      tree,
      (row) =>
        (!name || row.name.toLowerCase().includes(name)) &&
        (!filters.status || row.status === filters.status),
    );
  }, [tree, filters]);
  // Every category starts expanded; the user folds what they do not need.
  const [collapsed, setCollapsed] = useState<ReadonlySet<number>>(new Set());
  const expanded = useMemo(
    () => rows.map((row) => row.id).filter((id) => !collapsed.has(id)),
    [rows, collapsed],
  );
  const parentOptions = useMemo(
    () =>
      rows.map((r) => ({
        value: r.id,
        label: r.name,
        pid: r.pid,
        orderNo: r.orderNo,
        formCount: r.formCount,
      })),
    [rows],
  );

  const refresh = () => void client.invalidateQueries({ queryKey: CLASSIFY_KEYS.all });
  const fail = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const open = (next: Editing) => {
    setEditing(next);
    form.resetFields();
    form.setFieldsValue(
      next.mode === 'add'
        ? { pid: next.pid || null, name: '', orderNo: 100, status: 1, remark: '' }
        : {
            pid: next.row.pid || null,
            name: next.row.name,
            orderNo: next.row.orderNo,
            status: next.row.status as 1 | 2,
            remark: next.row.remark ?? '',
          },
    );
  };

  const save = useReclickGuard(async (values: Values) => {
    if (!editing || saving) return;
    const body = {
      pid: values.pid ?? 0,
      name: values.name.trim(),
      orderNo: values.orderNo,
      status: values.status,
      remark: values.remark?.trim() || null,
    };
    setSaving(true);
    try {
      if (editing.mode === 'add') await classifyResource.add(body);
      else await classifyResource.update({ ...body, id: editing.row.id });
      message.success(t('crud.saved'));
      setEditing(null);
      refresh();
    } catch (error) {
      const { fields, rest } = serverFieldErrors(error, FIELDS);
      if (fields.length > 0) {
        form.setFields(fields as Parameters<typeof form.setFields>[0]);
        if (rest.length > 0) message.error(rest.join('; '));
      } else fail(error);
    } finally {
      setSaving(false);
    }
  });

  const act = useReclickGuard(async (id: number, work: () => Promise<unknown>, done: string) => {
    setPending(id);
    try {
      await work();
      message.success(done);
      refresh();
    } catch (error) {
      fail(error);
    } finally {
      setPending(null);
    }
  });

  const columns: ColumnsType<Node> = [
    {
      key: 'name',
      dataIndex: 'name',
      title: t('formClassify.name'),
      ellipsis: true,
      sorter: (a, b) => a.name.localeCompare(b.name, 'zh-CN'),
      render: (name: string) => <span data-testid="classify-name">{name}</span>,
    },
    {
      key: 'orderNo',
      dataIndex: 'orderNo',
      title: t('formClassify.orderNo'),
      width: 90,
      align: 'right',
      sorter: (a, b) => a.orderNo - b.orderNo,
    },
    {
      key: 'status',
      dataIndex: 'status',
      title: t('crud.status'),
      width: 100,
      render: (status: number, row) => {
        const enabled = status === 1;
        const props = {
          size: 'small' as const,
          checked: enabled,
          checkedChildren: t('crud.enabled'),
          unCheckedChildren: t('crud.disabled'),
        };
        if (!can('diyTableClassify:update')) return <Switch {...props} disabled />;
        return (
          <Popconfirm
            title={t(enabled ? 'formClassify.confirmDisable' : 'formClassify.confirmEnable', {
              name: row.name,
            })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() =>
              act(
                row.id,
                () => classifyResource.update({ id: row.id, status: enabled ? 2 : 1 }),
                t('crud.statusChanged'),
              )
            }
            okButtonProps={{ 'data-testid': 'classify-status-ok' } as ButtonProps}
          >
            <Switch {...props} loading={pending === row.id} data-testid="classify-status" />
          </Popconfirm>
        );
      },
    },
    {
      key: 'formCount',
      dataIndex: 'formCount',
      title: t('formClassify.formCount'),
      width: 100,
      align: 'right',
      sorter: (a, b) => a.formCount - b.formCount,
      render: (count: number) => <span data-testid="classify-form-count">{count}</span>,
    },
    {
      key: 'remark',
      dataIndex: 'remark',
      title: t('formClassify.remark'),
      ellipsis: true,
      render: (remark: string | null) => remark || '—',
    },
    {
      key: 'updateTime',
      dataIndex: 'updateTime',
      title: t('formClassify.updateTime'),
      width: 170,
      render: (time: string | null, row) => time ?? row.createTime,
    },
    {
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: 240,
      render: (_: unknown, row) => (
        <Space size={0}>
          <Auth value="diyTableClassify:add">
            <Button
              type="link"
              size="small"
              icon={<PlusOutlined />}
              onClick={() => open({ mode: 'add', pid: row.id })}
              data-testid="classify-add-child"
            >
              {t('formClassify.addChild')}
            </Button>
          </Auth>
          <Auth value="diyTableClassify:update">
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              onClick={() => open({ mode: 'edit', row })}
              data-testid="classify-edit"
            >
              {t('crud.edit')}
            </Button>
          </Auth>
          <RowDeleteAction
            permission="diyTableClassify:delete"
            testId="classify-delete"
            description={t('formClassify.confirmDelete', { name: row.name })}
            busy={pending === row.id}
            onConfirm={() => act(row.id, () => classifyResource.remove(row.id), t('crud.deleted'))}
          />
        </Space>
      ),
    },
  ];

  const disabledParents = useMemo(() => {
    if (editing?.mode !== 'edit') return undefined;
    const find = (nodes: Node[]): Node | undefined => {
      for (const node of nodes) {
        if (node.id === editing.row.id) return node;
        const hit = node.children ? find(node.children) : undefined;
        if (hit) return hit;
      }
      return undefined;
    };
    const node = find(tree);
    return new Set(node ? subtreeIds(node) : [editing.row.id]);
  }, [editing, tree]);

  return (
    <Card title={t('formClassify.title')} data-testid="classify-page">
      <SearchForm<Filters>
        form={searchForm}
        onSearch={setFilters}
        testId="classify-search"
        submitTestId="classify-search-submit"
      >
        <Form.Item name="name" label={t('formClassify.name')}>
          <Input
            allowClear
            placeholder={t('crud.inputPlaceholder', { label: t('formClassify.name') })}
            style={{ width: 180 }}
            data-testid="classify-search-name"
          />
        </Form.Item>
        <Form.Item name="status" label={t('crud.status')}>
          <Select
            allowClear
            style={{ width: 120 }}
            placeholder={t('crud.selectPlaceholder', { label: t('crud.status') })}
            options={[
              { value: 1, label: t('crud.enabled') },
              { value: 2, label: t('crud.disabled') },
            ]}
          />
        </Form.Item>
      </SearchForm>
      <div style={{ display: 'flex', justifyContent: 'flex-end', gap: 8, marginBottom: 12 }}>
        <Auth value="diyTableClassify:add">
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => open({ mode: 'add', pid: 0 })}
            data-testid="classify-add"
          >
            {t('formClassify.add')}
          </Button>
        </Auth>
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('crud.refresh')}
            loading={query.isFetching && !query.isPending}
            onClick={() => void query.refetch()}
          />
        </Tooltip>
      </div>
      {query.isError ? (
        <LoadFailedAlert error={query.error} onRetry={() => void query.refetch()} testId="classify-error" />
      ) : null}
      <Table<Node>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={shown}
        loading={query.isFetching}
        pagination={false}
        scroll={{ x: 'max-content' }}
        expandable={{
          expandedRowKeys: expanded,
          onExpand: (open, row) =>
            setCollapsed((current) => {
              const next = new Set(current);
              if (open) next.delete(row.id);
              else next.add(row.id);
              return next;
            }),
        }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} /> }}
        onRow={(row) => ({ 'data-row-id': row.id }) as never}
        data-testid="classify-table"
      />
      <Modal
        open={editing !== null}
        title={
          editing?.mode === 'edit'
            ? t('crud.editTitle', { name: t('formClassify.entity') })
            : t('crud.addTitle', { name: t('formClassify.entity') })
        }
        width={560}
        onCancel={() => setEditing(null)}
        okText={t('common.save')}
        cancelText={t('common.cancel')}
        confirmLoading={saving}
        okButtonProps={
          { htmlType: 'submit', form: formId, 'data-testid': 'classify-form-submit' } as ButtonProps
        }
        mask={{ closable: !saving }}
        forceRender
        data-testid="classify-modal"
      >
        <Form<Values>
          id={formId}
          form={form}
          layout="vertical"
          onFinish={save}
          disabled={saving}
          style={{ marginTop: 16 }}
        >
          <Form.Item name="pid" label={t('formClassify.parent')} extra={t('formClassify.parentHint')}>
            <CategoryTreeSelect
              options={parentOptions}
              disabledIds={disabledParents}
              placeholder={t('formClassify.root')}
              data-testid="classify-field-pid"
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('formClassify.name')}
            rules={[{ required: true, whitespace: true, message: t('formClassify.nameRequired') }]}
          >
            <Input maxLength={64} showCount data-testid="classify-field-name" />
          </Form.Item>
          <Row gutter={16}>
            <Col span={12}>
              <Form.Item name="orderNo" label={t('formClassify.orderNo')} rules={[{ required: true }]}>
                <InputNumber min={0} max={1_000_000} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="status" label={t('crud.status')}>
                <Radio.Group
                  optionType="button"
                  options={[
                    { value: 1, label: t('crud.enabled') },
                    { value: 2, label: t('crud.disabled') },
                  ]}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item name="remark" label={t('formClassify.remark')}>
            <Input.TextArea maxLength={256} showCount autoSize={{ minRows: 2, maxRows: 4 }} />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  );
}
