import { Button, Checkbox, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type ColumnChooserProps = {
  columns: { key: string; title: ReactNode }[];
  hidden: string[];
  onChange: (hidden: string[]) => void;
  /** The form's own choice of hidden columns (列显隐 → 默认). */
  defaultHidden: () => string[];
};

/** 列设置: which of the form's columns the record table shows. */
export function ColumnChooser({ columns, hidden, onChange, defaultHidden }: ColumnChooserProps) {
  const { t } = useTranslation();
  return (
    <div style={{ maxHeight: 360, overflow: 'auto', minWidth: 200 }} data-testid="diy-columns-chooser">
      <Checkbox.Group
        style={{ display: 'flex', flexDirection: 'column', gap: 4 }}
        value={columns.map((c) => c.key).filter((key) => !hidden.includes(key))}
        onChange={(keys) => onChange(columns.map((c) => c.key).filter((key) => !keys.includes(key)))}
        options={columns.map((c) => ({
          value: c.key,
          label: <span data-testid={`diy-column-toggle-${c.key}`}>{c.title}</span>,
        }))}
      />
      <Space style={{ marginTop: 8 }}>
        <Button size="small" onClick={() => onChange([])} data-testid="diy-columns-all">
          {t('diyFormTable.columnsAll')}
        </Button>
        <Button size="small" onClick={() => onChange(defaultHidden())} data-testid="diy-columns-default">
          {t('diyFormTable.columnsDefault')}
        </Button>
      </Space>
    </div>
  );
}
