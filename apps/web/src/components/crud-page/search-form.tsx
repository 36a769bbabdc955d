import { ReloadOutlined } from '@ant-design/icons';
import { Button, Form, type FormInstance, Space, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchActions } from './search-actions.tsx';

/**
 * A page's search row: its fields inline, then 查询 and 重置 (`SearchActions`, with its test ids). 查询 and
 * Enter search with the form's values; 重置 clears the fields and searches with none unless `onReset` does
 * something else.
 */
export function SearchForm<V extends object>({
  form,
  onSearch,
  onReset,
  testId,
  actionsTestId,
  submitTestId,
  children,
}: {
  form: FormInstance<V>;
  onSearch: (values: V) => void;
  onReset?: () => void;
  /** The form's own test id. */
  testId?: string;
  /** `SearchActions`' testId: `<id>-search-submit` / `<id>-search-reset`. */
  actionsTestId?: string;
  submitTestId?: string;
  children: ReactNode;
}) {
  const reset = () => {
    form.resetFields();
    onSearch({} as V);
  };
  return (
    <Form<V>
      form={form}
      layout="inline"
      onFinish={onSearch}
      style={{ rowGap: 12, marginBottom: 16 }}
      data-testid={testId}
    >
      {children}
      <SearchActions testId={actionsTestId} submitTestId={submitTestId} onReset={onReset ?? reset} />
    </Form>
  );
}

/**
 * The row above a table with selectable rows, on the right: how many are selected (when any), the page's
 * batch actions, and 刷新. Test ids: `<testId>-toolbar`, `<testId>-selected`, `<testId>-refresh`.
 */
export function SelectionToolbar({
  testId,
  selected,
  onRefresh,
  children,
}: {
  testId: string;
  selected: number;
  onRefresh: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div
      style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 12, flexWrap: 'wrap' }}
      data-testid={`${testId}-toolbar`}
    >
      <div style={{ flex: '1 1 auto' }} />
      <Space wrap size={8}>
        {selected > 0 ? (
          <Typography.Text type="secondary" data-testid={`${testId}-selected`}>
            {t('crud.selected', { count: selected })}
          </Typography.Text>
        ) : null}
        {children}
        <Tooltip title={t('crud.refresh')}>
          <Button
            icon={<ReloadOutlined />}
            aria-label={t('crud.refresh')}
            onClick={onRefresh}
            data-testid={`${testId}-refresh`}
          />
        </Tooltip>
      </Space>
    </div>
  );
}
