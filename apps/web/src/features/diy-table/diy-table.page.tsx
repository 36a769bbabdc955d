import {
  CopyOutlined,
  DatabaseOutlined,
  DeleteOutlined,
  DownOutlined,
  FormOutlined,
  LockOutlined,
  PlusOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  type ButtonProps,
  Card,
  Dropdown,
  type MenuProps,
  Select,
  Space,
  Tag,
  Tooltip,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CrudPage } from '../../components/crud-page/crud-page.tsx';
import type { CrudColumn } from '../../components/crud-page/crud-types.ts';
import { CategoryTreeSelect } from '../../components/diy-classify/category-tree-select.tsx';
import { CLASSIFY_KEYS } from '../../components/diy-classify/diy-classify.api.ts';
import { QueryAddButton, useQueryRows } from '../../components/diy-query/query-config-modal.tsx';
import { RollupAddButton, useRollupRows } from '../../components/diy-rollup/rollup-config-modal.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { Auth, useCan } from '../../platform/access/access.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { CloneModal } from './clone-modal.tsx';
import {
  FORM_KEYS,
  type FormFilters,
  type FormRow,
  formApi,
  formDataPath,
  formDesignPath,
  formResource,
} from './diy-table.api.ts';
import { FormSettingsDrawer, type SettingsTarget } from './form-settings-drawer.tsx';

/** The published version, or 未发布; a tag when the draft holds changes not yet published. */
function VersionCell({ row }: { row: FormRow }) {
  const { t } = useTranslation();
  if (row.version === 0)
    return (
      <Tag color="default" data-testid="form-version">
        {t('formAdmin.unpublished')}
      </Tag>
    );
  return (
    <Space size={4} data-testid="form-version">
      <Tag color="blue">v{row.version}</Tag>
      {row.hasDraft ? <Tag color="orange">{t('formAdmin.hasDraft')}</Tag> : null}
    </Space>
  );
}

/** Roll-ups (type 2) and query reports (type 3) are tagged in the list; forms are not. */
function ItemKindTag({ reportType }: { reportType: number }) {
  const { t } = useTranslation();
  if (reportType === 2)
    return (
      <Tag color="geekblue" data-testid="form-rollup-tag">
        {t('formAdmin.rollupTag')}
      </Tag>
    );
  if (reportType === 3)
    return (
      <Tag color="cyan" data-testid="form-query-tag">
        {t('diyQuery.tag')}
      </Tag>
    );
  return null;
}

/**
 * 表单管理 (issue 5): the forms the caller administers — search, paging, sorting, enable / disable, and per
 * permission 设计, 数据 (the filling page), 设置 (the settings drawer), 复制 and 删除 (to the recycle bin).
 */
export default function DiyTablePage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const { can } = useCan();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [settings, setSettings] = useState<SettingsTarget>(null);
  const [cloning, setCloning] = useState<FormRow | null>(null);

  const refresh = () => {
    void client.invalidateQueries({ queryKey: FORM_KEYS.all });
    // Categories show how many forms they hold.
    void client.invalidateQueries({ queryKey: CLASSIFY_KEYS.all });
  };
  // Roll-ups (type 2) and query reports (type 3) open their config dialog and their page instead.
  const rollups = useRollupRows(() => refresh());
  const queries = useQueryRows(() => refresh());
  const fail = (error: unknown) => {
    if (error instanceof UnauthorizedError) return;
    message.error(error instanceof Error && error.message ? error.message : t('crud.failed'));
  };

  const remove = useReclickGuard((row: FormRow) => {
    void modal.confirm({
      title: t('formAdmin.deleteTitle'),
      content: t('formAdmin.deleteConfirm', { title: row.title }),
      okText: t('crud.delete'),
      okButtonProps: { danger: true, 'data-testid': 'form-delete-ok' } as ButtonProps,
      cancelText: t('common.cancel'),
      onOk: async () => {
        try {
          await formApi.remove(row.id);
          message.success(t('formAdmin.deleted'));
          refresh();
        } catch (error) {
          fail(error);
        }
      },
    });
  });

  const created = (id: number, title: string) => {
    refresh();
    if (!can('diyTable:design')) return;
    void modal.confirm({
      title: t('formAdmin.createdTitle'),
      content: t('formAdmin.openDesigner', { title }),
      okText: t('formAdmin.goDesign'),
      cancelText: t('formAdmin.later'),
      okButtonProps: { 'data-testid': 'form-go-design' } as ButtonProps,
      cancelButtonProps: { 'data-testid': 'form-design-later' } as ButtonProps,
      onOk: () => navigate(formDesignPath(id)),
    });
  };

  const columns: CrudColumn<FormRow>[] = [
    {
      key: 'title',
      title: t('formAdmin.formTitle'),
      sort: true,
      width: 180,
      ellipsis: true,
      render: (title: string, row) => (
        <Space size={6} data-testid="form-row-title">
          {row.isShowPwd ? (
            <Tooltip title={t('formAdmin.hasPassword')}>
              <LockOutlined aria-label={t('formAdmin.hasPassword')} data-testid="form-lock" />
            </Tooltip>
          ) : null}
          <span>{title}</span>
          <ItemKindTag reportType={row.reportType} />
        </Space>
      ),
    },
    {
      key: 'categoryName',
      title: t('formAdmin.category'),
      width: 110,
      render: (name: string | null) => name ?? '—',
    },
    {
      key: 'ownerOrgName',
      title: t('formAdmin.ownerOrg'),
      width: 120,
      render: (name: string | null) => name ?? '—',
    },
    {
      key: 'version',
      title: t('formAdmin.version'),
      sort: true,
      width: 130,
      render: (_: number, row) => <VersionCell row={row} />,
    },
    {
      key: 'needsReview',
      title: t('formAdmin.needsReview'),
      width: 84,
      render: (value: boolean, row) =>
        row.reportType === 2 || row.reportType === 3 ? (
          t('formAdmin.notApplicable')
        ) : value ? (
          <Tag color="purple">{t('formAdmin.reviewYes')}</Tag>
        ) : (
          t('formAdmin.reviewNo')
        ),
    },
    {
      key: 'recordCount',
      title: t('formAdmin.recordCount'),
      sort: true,
      width: 84,
      align: 'right',
      render: (count: number, row) => (
        <span data-testid="form-record-count">
          {row.reportType === 2 || row.reportType === 3 ? t('formAdmin.notApplicable') : count}
        </span>
      ),
    },
    {
      key: 'updateTime',
      title: t('formAdmin.updateTime'),
      sort: true,
      width: 150,
      render: (time: string | null, row) => time ?? row.createTime,
    },
  ];

  const moreItems = (row: FormRow): MenuProps['items'] => [
    ...(can('diyTable:clone')
      ? [
          {
            key: 'clone',
            icon: <CopyOutlined />,
            label: <span data-testid="form-clone-action">{t('formAdmin.clone')}</span>,
            onClick: () => setCloning(row),
          },
        ]
      : []),
    ...(can('diyTable:delete')
      ? [
          {
            key: 'delete',
            danger: true,
            icon: <DeleteOutlined />,
            label: <span data-testid="form-delete">{t('formAdmin.delete')}</span>,
            onClick: () => remove(row),
          },
        ]
      : []),
  ];
  const hasMore = can('diyTable:clone') || can('diyTable:delete');

  return (
    <Card title={t('formAdmin.title')} data-testid="form-admin-page">
      <CrudPage<FormRow, FormFilters>
        resource={formResource}
        entityName={t('formAdmin.entity')}
        columns={columns}
        searchFields={[
          { name: 'title', label: t('formAdmin.formTitle') },
          {
            name: 'categoryId',
            label: t('formAdmin.category'),
            input: <CategoryTreeSelect style={{ width: 180 }} data-testid="form-search-category" />,
          },
          {
            name: 'status',
            label: t('crud.status'),
            input: (
              <Select
                allowClear
                style={{ width: 140 }}
                placeholder={t('crud.selectPlaceholder', { label: t('crud.status') })}
                options={[
                  { value: 1, label: t('crud.enabled') },
                  { value: 2, label: t('crud.disabled') },
                ]}
                data-testid="form-search-status"
              />
            ),
          },
        ]}
        permissions={{ setStatus: 'diyTable:update' }}
        statusField="status"
        invalidates={[CLASSIFY_KEYS.all]}
        toolbarExtra={
          <>
            <Auth value="diyTable:add">
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={() => setSettings({})}
                data-testid="form-add"
              >
                {t('formAdmin.add')}
              </Button>
            </Auth>
            <RollupAddButton onSaved={refresh} />
            <QueryAddButton onSaved={refresh} />
          </>
        }
        rowActions={(row) => (
          <Space size={0}>
            <Auth value="diyTable:design">
              <Button
                type="link"
                size="small"
                icon={<FormOutlined />}
                onClick={() => rollups.design(row) || queries.design(row) || navigate(formDesignPath(row.id))}
                data-testid="form-design"
              >
                {t('formAdmin.design')}
              </Button>
            </Auth>
            <Tooltip title={row.version === 0 ? t('formAdmin.dataUnpublished') : t('formAdmin.dataHint')}>
              <Button
                type="link"
                size="small"
                icon={<DatabaseOutlined />}
                disabled={row.version === 0}
                onClick={() => rollups.data(row) || queries.data(row) || navigate(formDataPath(row.id))}
                data-testid="form-data"
              >
                {t('formAdmin.data')}
              </Button>
            </Tooltip>
            <Auth value="diyTable:update">
              <Button
                type="link"
                size="small"
                icon={<SettingOutlined />}
                onClick={() => setSettings({ id: row.id })}
                data-testid="form-edit"
              >
                {t('formAdmin.settings')}
              </Button>
            </Auth>
            {hasMore ? (
              <Dropdown trigger={['click']} menu={{ items: moreItems(row) }}>
                <Button type="link" size="small" data-testid="form-more">
                  {t('formAdmin.more')} <DownOutlined />
                </Button>
              </Dropdown>
            ) : null}
          </Space>
        )}
        extraActionWidth={300}
        testId="form-admin"
      />
      <FormSettingsDrawer
        target={settings}
        onClose={() => setSettings(null)}
        onSaved={(id, isNew, title) => (isNew ? created(id, title) : refresh())}
      />
      <CloneModal source={cloning} onClose={() => setCloning(null)} onCloned={refresh} />
      {rollups.modal}
      {queries.modal}
    </Card>
  );
}
