import { Select, Space } from 'antd';
import { useMemo } from 'react';
import { MenuIcon, menuIconComponent } from '../../components/menu-icon.tsx';

/**
 * Icon names an admin can pick, as antd icon names. The shell draws menu icons through `MenuIcon`, which maps
 * names onto its bundled set; the picker shows each option through the same mapping (and one option per
 * distinct icon), so what is picked is what the sidebar shows.
 */
const CANDIDATES = [
  'AppstoreOutlined',
  'HomeOutlined',
  'DashboardOutlined',
  'BarChartOutlined',
  'IdcardOutlined',
  'TeamOutlined',
  'UserOutlined',
  'ApartmentOutlined',
  'ClusterOutlined',
  'MenuOutlined',
  'SettingOutlined',
  'ToolOutlined',
  'BookOutlined',
  'DatabaseOutlined',
  'FieldTimeOutlined',
  'FileSearchOutlined',
  'BellOutlined',
  'TableOutlined',
  'FormOutlined',
  'FileTextOutlined',
  'FolderOutlined',
  'PrinterOutlined',
  'CodeOutlined',
  'TagsOutlined',
  'SafetyOutlined',
  'GlobalOutlined',
  'LinkOutlined',
  'InfoCircleOutlined',
] as const;

export const ICON_OPTIONS: string[] = (() => {
  const seen = new Set<unknown>();
  return CANDIDATES.filter((name) => {
    const icon = menuIconComponent(name);
    if (seen.has(icon)) return false;
    seen.add(icon);
    return true;
  });
})();

export function IconPicker({
  value,
  onChange,
  placeholder,
  ...rest
}: {
  value?: string | null;
  onChange?: (value: string | null) => void;
  placeholder?: string;
  'data-testid'?: string;
}) {
  // A stored name outside the list (another icon set) stays selectable as it is.
  const options = useMemo(() => {
    const names = value && !ICON_OPTIONS.includes(value) ? [value, ...ICON_OPTIONS] : ICON_OPTIONS;
    return names.map((name) => ({
      value: name,
      label: (
        <Space size={8}>
          <MenuIcon name={name} />
          <span>{name}</span>
        </Space>
      ),
    }));
  }, [value]);
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'value' }}
      value={value ?? undefined}
      onChange={(next: string | undefined) => onChange?.(next ?? null)}
      options={options}
      placeholder={placeholder}
      data-testid={rest['data-testid']}
    />
  );
}
