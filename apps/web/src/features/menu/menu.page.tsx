import {
  EditOutlined,
  ExportOutlined,
  NodeCollapseOutlined,
  NodeExpandOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import { DESC_STR_DEFAULT } from '@shuzhi/contracts/envelope';
import { MENU_TYPE } from '@shuzhi/contracts/menu';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Empty,
  Form,
  Input,
  Popconfirm,
  Select,
  Space,
  Switch,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { type Key, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RowDeleteAction } from '../../components/crud-page/row-delete-action.tsx';
import { SearchForm } from '../../components/crud-page/search-form.tsx';
import { MenuIcon } from '../../components/menu-icon.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { loadSession } from '../../platform/session/session-loader.ts';
import { MENU_KEYS, type MenuFilters, type MenuNode, menuApi, menuResource } from './menu.api.ts';
import { type MenuEditing, MenuFormModal, type MenuFormValues } from './menu-form.tsx';

const TYPE_COLORS: Record<number, string> = { 1: 'orange', 2: 'green', 3: 'default' };
const FORM_FIELDS = [
  'type',
  'pid',
  'title',
  'name',
  'path',
  'component',
  'redirect',
  'permission',
  'icon',
  'outLink',
  'orderNo',
  'remark',
];

/** Table rows: a node without children has none (so no expand arrow). */
type Row = Omit<MenuNode, 'children'> & { children?: Row[] };
function toRows(nodes: readonly MenuNode[]): Row[] {
  return nodes.map(({ children, ...node }) => ({
    ...node,
    ...(children.length > 0 ? { children: toRows(children) } : {}),
  }));
}
function branchIds(nodes: readonly MenuNode[]): number[] {
  return nodes.flatMap((n) => (n.children.length > 0 ? [n.id, ...branchIds(n.children)] : []));
}

/** 菜单管理 (issue 3 §1): the global tree of directories, pages and buttons; writes are the super admin's. */
export default function MenuPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { can } = useCan();
  const client = useQueryClient();
  const [searchForm] = Form.useForm<MenuFilters>();
  const [form] = Form.useForm<MenuFormValues>();
  const [filters, setFilters] = useState<MenuFilters>({});
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [editing, setEditing] = useState<MenuEditing | null>(null);
  const [exporting, setExporting] = useState(false);

  const tree = useQuery({ queryKey: MENU_KEYS.tree(filters), queryFn: () => menuApi.tree(filters) });
  const full = useQuery({ queryKey: MENU_KEYS.tree({}), queryFn: () => menuApi.tree({}) });
  const nodes = tree.data ?? [];
  const rows = useMemo(() => toRows(nodes), [nodes]);
  const filtered = Boolean(filters.title || filters.type);

  // Directories open at first; a search opens everything so every match shows.
  useEffect(() => {
    if (!tree.data) return;
    setExpanded(
      filtered ? branchIds(tree.data) : tree.data.filter((n) => n.type === MENU_TYPE.dir).map((n) => n.id),
    );
  }, [tree.data, filtered]);

  const showError = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  /** Menus changed: this page's trees, and the signed-in user's own sidebar and buttons. */
  const refreshAll = async () => {
    await client.invalidateQueries({ queryKey: ['sysMenu'] });
    await loadSession().catch(() => undefined);
  };

  const save = useMutation({
    mutationFn: (payload: Record<string, unknown>) =>
      editing?.mode === 'edit'
        ? menuResource.update({ ...payload, id: editing.record.id } as never)
        : menuResource.add(payload as never),
    onSuccess: async () => {
      message.success(t('crud.saved'));
      setEditing(null);
      await refreshAll();
    },
    onError: (error) => {
      const { fields, rest } = serverFieldErrors(error, FORM_FIELDS);
      if (fields.length > 0) {
        form.setFields(fields as never);
        if (rest.length > 0) message.error(rest.join('; '));
        return;
      }
      showError(error);
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => menuResource.remove(id),
    onSuccess: async () => {
      message.success(t('crud.deleted'));
      await refreshAll();
    },
    onError: showError,
  });
  const setStatus = useMutation({
    mutationFn: ({ id, status }: { id: number; status: 1 | 2 }) => menuResource.setStatus(id, status),
    onSuccess: async () => {
      message.success(t('crud.statusChanged'));
      await refreshAll();
    },
    onError: showError,
  });
  const openEdit = useMutation({
    mutationFn: (id: number) => menuResource.detail(id),
    onSuccess: (record) => setEditing({ mode: 'edit', record, key: Date.now() }),
    onError: showError,
  });

  const submit = useReclickGuard((values: MenuFormValues) => {
    if (save.isPending) return;
    const text = (v: string | null | undefined) => (v === undefined || v === '' ? null : v);
    const button = values.type === MENU_TYPE.button;
    save.mutate({
      type: values.type,
      pid: values.pid ?? 0,
      title: values.title,
      name: values.name,
      permission: button ? text(values.permission) : null,
      path: button ? null : text(values.path),
      component: button ? null : text(values.component),
      redirect: button ? null : text(values.redirect),
      icon: button ? null : text(values.icon),
      outLink: button ? null : text(values.outLink),
      isIframe: Boolean(values.isIframe),
      isHide: Boolean(values.isHide),
      isKeepAlive: Boolean(values.isKeepAlive),
      isAffix: Boolean(values.isAffix),
      orderNo: values.orderNo ?? 100,
      remark: text(values.remark),
    });
  });

  const runExport = useReclickGuard(async () => {
    setExporting(true);
    try {
      await menuResource.exportFile(
        { page: 1, pageSize: 20, descStr: DESC_STR_DEFAULT, ...filters },
        `${t('sysMenu.title')}.xlsx`,
      );
      message.success(t('crud.exported'));
    } catch (error) {
      if (!(error instanceof HttpError)) showError(error);
    } finally {
      setExporting(false);
    }
  });

  const search = (values: MenuFilters) => {
    const title = values.title?.trim();
    setFilters({ ...(title ? { title } : {}), ...(values.type ? { type: values.type } : {}) });
  };

  // A menu's type is a plain number on the wire; the server only stores 1–3 (MENU_TYPE).
  const typeLabel = (type: number) =>
    t(`sysMenu.types.${type as (typeof MENU_TYPE)[keyof typeof MENU_TYPE]}`);
  const hasActions = can('sysMenu:add') || can('sysMenu:update') || can('sysMenu:delete');
  const columns: ColumnsType<Row> = [
    {
      key: 'title',
      title: t('sysMenu.menuTitle'),
      width: 260,
      ellipsis: true,
      render: (_: unknown, row) => (
        <Space size={6} data-testid={`menu-row-${row.name}`}>
          {row.type === MENU_TYPE.button ? null : <MenuIcon name={row.meta.icon} />}
          <span>{row.meta.title}</span>
        </Space>
      ),
    },
    {
      key: 'type',
      title: t('sysMenu.type'),
      width: 80,
      align: 'center',
      render: (_: unknown, row) => (
        <Tag color={TYPE_COLORS[row.type]} bordered={false}>
          {typeLabel(row.type)}
        </Tag>
      ),
    },
    { key: 'orderNo', dataIndex: 'orderNo', title: t('sysMenu.orderNo'), width: 70, align: 'right' },
    {
      key: 'status',
      title: t('crud.status'),
      width: 90,
      render: (_: unknown, row) => {
        const enabled = row.status === 1;
        const view = (
          <Switch
            size="small"
            checked={enabled}
            disabled={!can('sysMenu:setStatus')}
            loading={setStatus.isPending && setStatus.variables?.id === row.id}
            checkedChildren={t('crud.enabled')}
            unCheckedChildren={t('crud.disabled')}
            data-testid="menu-status-switch"
          />
        );
        return can('sysMenu:setStatus') ? (
          <Popconfirm
            title={t(enabled ? 'crud.confirmDisable' : 'crud.confirmEnable')}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            okButtonProps={{ 'data-testid': 'menu-status-ok' }}
            onConfirm={() => setStatus.mutate({ id: row.id, status: enabled ? 2 : 1 })}
          >
            {view}
          </Popconfirm>
        ) : (
          view
        );
      },
    },
    {
      key: 'permission',
      dataIndex: 'permission',
      title: t('sysMenu.permission'),
      width: 170,
      ellipsis: true,
    },
    { key: 'name', dataIndex: 'name', title: t('sysMenu.name'), width: 150, ellipsis: true },
    { key: 'path', dataIndex: 'path', title: t('sysMenu.path'), width: 180, ellipsis: true },
    { key: 'component', dataIndex: 'component', title: t('sysMenu.component'), width: 200, ellipsis: true },
  ];
  if (hasActions) {
    columns.push({
      key: '__actions',
      title: t('crud.actions'),
      fixed: 'right',
      width: 280,
      render: (_: unknown, row) => (
        <Space size={0}>
          {row.type === MENU_TYPE.button ? null : (
            <Auth value="sysMenu:add">
              <Button
                type="link"
                size="small"
                icon={<PlusOutlined />}
                onClick={() =>
                  setEditing({ mode: 'add', parent: { ...row, children: [] } as MenuNode, key: Date.now() })
                }
                data-testid="menu-add-child"
              >
                {t('sysMenu.addChild')}
              </Button>
            </Auth>
          )}
          <Auth value="sysMenu:update">
            <Button
              type="link"
              size="small"
              icon={<EditOutlined />}
              loading={openEdit.isPending && openEdit.variables === row.id}
              onClick={() => openEdit.mutate(row.id)}
              data-testid="menu-edit"
            >
              {t('crud.edit')}
            </Button>
          </Auth>
          <RowDeleteAction
            permission="sysMenu:delete"
            testId="menu-delete"
            description={t('crud.confirmDelete')}
            busy={remove.isPending && remove.variables === row.id}
            onConfirm={() => remove.mutate(row.id)}
          />
        </Space>
      ),
    });
  }

  return (
    <Card data-testid="menu-page">
      <SearchForm<MenuFilters> form={searchForm} onSearch={search} testId="menu-search" actionsTestId="menu">
        <Form.Item name="title" label={t('sysMenu.menuTitle')} style={{ marginInlineEnd: 16 }}>
          <Input
            allowClear
            placeholder={t('crud.inputPlaceholder', { label: t('sysMenu.menuTitle') })}
            style={{ width: 180 }}
            data-testid="menu-search-title"
          />
        </Form.Item>
        <Form.Item name="type" label={t('sysMenu.type')} style={{ marginInlineEnd: 16 }}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('crud.selectPlaceholder', { label: t('sysMenu.type') })}
            options={[MENU_TYPE.dir, MENU_TYPE.menu, MENU_TYPE.button].map((v) => ({
              value: v,
              label: typeLabel(v),
            }))}
            data-testid="menu-search-type"
          />
        </Form.Item>
      </SearchForm>

      <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}>
        <div style={{ flex: '1 1 auto' }}>
          <Typography.Text strong style={{ fontSize: 15 }}>
            {t('sysMenu.title')}
          </Typography.Text>
        </div>
        <Space wrap size={8}>
          <Auth value="sysMenu:add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ mode: 'add', parent: null, key: Date.now() })}
              data-testid="menu-add"
            >
              {t('crud.add')}
            </Button>
          </Auth>
          <Button
            icon={<NodeExpandOutlined />}
            onClick={() => setExpanded(branchIds(nodes))}
            data-testid="menu-expand"
          >
            {t('sysMenu.expandAll')}
          </Button>
          <Button icon={<NodeCollapseOutlined />} onClick={() => setExpanded([])} data-testid="menu-collapse">
            {t('sysMenu.collapseAll')}
          </Button>
          <Auth value="sysMenu:export">
            <Button
              icon={<ExportOutlined />}
              loading={exporting}
              onClick={() => void runExport()}
              data-testid="menu-export"
            >
              {t(exporting ? 'crud.exporting' : 'crud.export')}
            </Button>
          </Auth>
          <Tooltip title={t('crud.refresh')}>
            <Button
              icon={<ReloadOutlined />}
              aria-label={t('crud.refresh')}
              loading={tree.isFetching && !tree.isLoading}
              onClick={() => void tree.refetch()}
              data-testid="menu-refresh"
            />
          </Tooltip>
        </Space>
      </div>

      {tree.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('crud.loadFailed')}
          action={
            <Button size="small" onClick={() => void tree.refetch()}>
              {t('common.retry')}
            </Button>
          }
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <Table<Row>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={rows}
        loading={tree.isLoading}
        pagination={false}
        scroll={{ x: 1300 }}
        expandable={{ expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]) }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.empty')} /> }}
        data-testid="menu-table"
      />
      <MenuFormModal
        editing={editing}
        tree={full.data ?? []}
        saving={save.isPending}
        form={form}
        onCancel={() => setEditing(null)}
        onSubmit={submit}
      />
    </Card>
  );
}
