import { Badge, Select, type SelectProps } from 'antd';
import { useMemo } from 'react';
import { useDict } from '../../platform/dict/dict.store.ts';
import { tagColor } from './dict-tag.tsx';

export type DictSelectProps = Omit<SelectProps, 'options'> & {
  code: string;
  /** Values as numbers (e.g. status, sysFlag columns); dictionary values are text otherwise. */
  numeric?: boolean;
};

/** A Select of the enabled items of one dictionary type, from the dictionary cache. */
export function DictSelect({ code, numeric = false, ...props }: DictSelectProps) {
  const items = useDict(code);
  const options = useMemo(
    () =>
      items.map((item) => ({
        value: numeric ? Number(item.value) : item.value,
        label: item.label,
        title: item.label,
        tagType: item.tagType,
      })),
    [items, numeric],
  );
  return (
    <Select
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      {...props}
      options={options}
      optionRender={(option) => (
        <span data-testid="dict-option" data-value={String(option.value)}>
          {option.data.tagType ? (
            <Badge status={badgeStatus(option.data.tagType)} style={{ marginInlineEnd: 6 }} />
          ) : null}
          {option.label}
        </span>
      )}
    />
  );
}

function badgeStatus(tagType: string | null | undefined) {
  const color = tagColor(tagType);
  return (['success', 'processing', 'warning', 'error'] as const).find((s) => s === color) ?? 'default';
}
