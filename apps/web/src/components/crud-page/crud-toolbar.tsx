import {
  ColumnHeightOutlined,
  DeleteOutlined,
  ExportOutlined,
  PlusOutlined,
  ReloadOutlined,
} from '@ant-design/icons';
import {
  Button,
  Dropdown,
  Form,
  type FormInstance,
  Input,
  Popconfirm,
  Space,
  Tooltip,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Auth } from '../../platform/access/access.tsx';
import type { WithId } from '../../platform/data/resource.ts';
import type { CrudOptions } from './crud-options.ts';
import type { CrudSearchField } from './crud-types.ts';
import { SearchActions } from './search-actions.tsx';
import type { CrudActions } from './use-crud-actions.ts';

export type Density = 'large' | 'middle' | 'small';

/** The search form above the table (none without search fields); 查询 applies it, 重置 clears it. */
export function CrudSearchBar({
  fields,
  form,
  onSearch,
  onReset,
  testId,
}: {
  fields: CrudSearchField[];
  form: FormInstance;
  onSearch: (values: Record<string, unknown>) => void;
  onReset: () => void;
  testId: string;
}) {
  const { t } = useTranslation();
  if (fields.length === 0) return null;
  return (
    <Form
      form={form}
      layout="inline"
      onFinish={onSearch}
      data-testid={`${testId}-search`}
      style={{ rowGap: 12, marginBottom: 16 }}
    >
      {fields.map((field) => (
        <Form.Item key={field.name} name={field.name} label={field.label} style={{ marginInlineEnd: 16 }}>
          {field.input ?? (
            <Input
              allowClear
              placeholder={t('crud.inputPlaceholder', { label: field.label })}
              style={{ width: field.width ?? 180 }}
              data-testid={`${testId}-search-${field.name}`}
            />
          )}
        </Form.Item>
      ))}
      <SearchActions testId={testId} onReset={onReset} />
    </Form>
  );
}

type ToolbarProps<T extends WithId, F extends object> = {
  options: CrudOptions<T, F>;
  actions: CrudActions<T>;
  selected: number[];
  /** The page is being fetched again (not its first load). */
  refreshing: boolean;
  onRefresh: () => void;
  density: Density;
  onDensity: (density: Density) => void;
};

/** Title, selection count, the resource's extra buttons, 新增, 批量删除, 导出, 刷新 and 密度. */
export function CrudToolbar<T extends WithId, F extends object>({
  options,
  actions,
  selected,
  refreshing,
  onRefresh,
  density,
  onDensity,
}: ToolbarProps<T, F>) {
  const { t } = useTranslation();
  const { title, permissions, enabled, testId } = options;
  const { exporting, exportPercent } = actions;
  const densityItems: { key: Density; label: string }[] = [
    { key: 'large', label: t('crud.densityLarge') },
    { key: 'middle', label: t('crud.densityMiddle') },
    { key: 'small', label: t('crud.densitySmall') },
  ];
  return (
    <div
      style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}
      data-testid={`${testId}-toolbar`}
    >
      <div style={{ flex: '1 1 auto', minWidth: 0 }}>
        {title ? (
          <Typography.Text strong style={{ fontSize: 15 }}>
            {title}
          </Typography.Text>
        ) : null}
      </div>
      <Space wrap size={8}>
        {selected.length > 0 ? (
          <Typography.Text type="secondary" data-testid={`${testId}-selected`}>
            {t('crud.selected', { count: selected.length })}
          </Typography.Text>
        ) : null}
        {options.toolbarExtra}
        {permissions.add && options.formFields.length > 0 ? (
          <Auth value={permissions.add}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={actions.openAdd}
              disabled={!enabled}
              data-testid={`${testId}-add`}
            >
              {t('crud.add')}
            </Button>
          </Auth>
        ) : null}
        {permissions.batchDelete ? (
          <Auth value={permissions.batchDelete}>
            <Popconfirm
              title={t('crud.confirmDeleteTitle')}
              description={t('crud.confirmBatchDelete', { count: selected.length })}
              okText={t('crud.delete')}
              okButtonProps={{ danger: true, 'data-testid': `${testId}-batch-delete-ok` }}
              cancelText={t('common.cancel')}
              onConfirm={actions.batchRemove}
              disabled={selected.length === 0}
            >
              <Button
                danger
                icon={<DeleteOutlined />}
                disabled={selected.length === 0 || actions.writes.batchRemove.isPending}
                loading={actions.writes.batchRemove.isPending}
                data-testid={`${testId}-batch-delete`}
              >
                {t('crud.batchDelete')}
              </Button>
            </Popconfirm>
          </Auth>
        ) : null}
        {permissions.export ? (
          <Auth value={permissions.export}>
            <Button
              icon={<ExportOutlined />}
              onClick={() => void actions.runExport()}
              loading={exporting}
              disabled={!enabled}
              data-testid={`${testId}-export`}
            >
              {exporting && exportPercent !== null
                ? t('crud.exportProgress', { percent: exportPercent })
                : t(exporting ? 'crud.exporting' : 'crud.export')}
            </Button>
          </Auth>
        ) : null}
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            onClick={onRefresh}
            disabled={!enabled}
            loading={refreshing}
            aria-label={t('crud.refresh')}
            data-testid={`${testId}-refresh`}
          />
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            items: densityItems,
            selectable: true,
            selectedKeys: [density],
            onClick: ({ key }) => onDensity(key as Density),
          }}
        >
          <Tooltip title={t('crud.density')}>
            <Button
              icon={<ColumnHeightOutlined />}
              aria-label={t('crud.density')}
              data-testid={`${testId}-density`}
            />
          </Tooltip>
        </Dropdown>
      </Space>
    </div>
  );
}
