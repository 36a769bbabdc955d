import { SearchOutlined, UndoOutlined } from '@ant-design/icons';
import { Button, Form, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * 查询 and 重置 closing a search form: 查询 submits the form (so does Enter in its fields), 重置 calls
 * `onReset`. Test ids are `<testId>-search-submit` / `<testId>-search-reset` unless given one by one;
 * `children` follow the two buttons (a refresh button, say).
 */
export function SearchActions({
  testId,
  submitTestId = testId ? `${testId}-search-submit` : undefined,
  resetTestId = testId ? `${testId}-search-reset` : undefined,
  onReset,
  children,
}: {
  testId?: string;
  submitTestId?: string;
  resetTestId?: string;
  onReset: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item style={{ marginInlineEnd: 0 }}>
      <Space>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid={submitTestId}>
          {t('crud.search')}
        </Button>
        <Button icon={<UndoOutlined />} onClick={onReset} data-testid={resetTestId}>
          {t('crud.reset')}
        </Button>
        {children}
      </Space>
    </Form.Item>
  );
}
