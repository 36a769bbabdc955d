import { DownloadOutlined, PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Col, Form, type FormInstance, Input, Row, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { SearchForm } from '../../components/crud-page/search-form.tsx';
import { DictSelect } from '../../components/dict/dict-select.tsx';
import { Auth } from '../../platform/access/access.tsx';
import type { Filters } from './use-org-actions.ts';

/** 名称, 编码 and 类型, with 查询 and 重置. */
export function OrgSearch({
  form,
  onSearch,
}: {
  form: FormInstance<Filters>;
  onSearch: (values: Filters) => void;
}) {
  const { t } = useTranslation();
  return (
    <SearchForm form={form} onSearch={onSearch} submitTestId="org-search">
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
    </SearchForm>
  );
}

/** 新增 and 导出 on the left; 收起 and 刷新 on the right. */
export function OrgToolbar({
  exporting,
  onAdd,
  onExport,
  onCollapse,
  onRefresh,
}: {
  exporting: boolean;
  onAdd: () => void;
  onExport: () => void;
  onCollapse: () => void;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Row justify="space-between" style={{ marginBottom: 12 }}>
      <Col>
        <Space>
          <Auth value="sysOrg:add">
            <Button type="primary" icon={<PlusOutlined />} onClick={onAdd} data-testid="org-add">
              {t('crud.add')}
            </Button>
          </Auth>
          <Auth value="sysOrg:export">
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={onExport}
              data-testid="org-export"
            >
              {t('crud.export')}
            </Button>
          </Auth>
        </Space>
      </Col>
      <Col>
        <Space>
          <Button onClick={onCollapse}>{t('sysOrg.collapse')}</Button>
          <Tooltip title={t('crud.refresh')}>
            <Button icon={<ReloadOutlined />} onClick={onRefresh} aria-label={t('crud.refresh')} />
          </Tooltip>
        </Space>
      </Col>
    </Row>
  );
}
