import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { STATUS } from '@shuzhi/contracts/envelope';
import type { OrgListItem } from '@shuzhi/contracts/org';
import { Button, Popconfirm, Space, Switch, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { RowDeleteAction } from '../../components/crud-page/row-delete-action.tsx';
import { DictTag } from '../../components/dict/dict-tag.tsx';
import { Auth, useCan } from '../../platform/access/access.tsx';
import type { OrgActions } from './use-org-actions.ts';

/** The org table's columns: name (full path as tooltip), code, type, order, status switch, and the writes. */
export function useOrgColumns(actions: OrgActions): ColumnsType<OrgListItem> {
  const { t } = useTranslation();
  const { can } = useCan();
  const { pending, setStatus, openAdd, openEdit, remove } = actions;
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
          <RowDeleteAction
            permission="sysOrg:delete"
            testId="org-delete"
            description={t('sysOrg.confirmDelete', { name: row.name })}
            okText={t('common.ok')}
            loading={pending === row.id}
            onConfirm={() => remove(row)}
          />
        </Space>
      ),
    });
  }
  return columns;
}
