import { Tag } from 'antd';
import { findDictItem, useDict } from '../../platform/dict/dict.store.ts';

/** Dictionary `tagType` → antd Tag colour; Element-style names of older clients map to the nearest one. */
const TAG_COLORS: Record<string, string> = {
  success: 'success',
  processing: 'processing',
  primary: 'processing',
  warning: 'warning',
  error: 'error',
  danger: 'error',
  info: 'default',
  default: 'default',
};

export const TAG_TYPES = ['default', 'processing', 'success', 'warning', 'error'] as const;

export function tagColor(tagType: string | null | undefined): string {
  if (!tagType) return 'default';
  return TAG_COLORS[tagType] ?? tagType;
}

export type DictTagProps = { code: string; value: unknown; 'data-testid'?: string };

/** A dictionary value as its label in the item's colour; an unknown value shows as it is. */
export function DictTag({ code, value, 'data-testid': testId }: DictTagProps) {
  const items = useDict(code);
  const item = findDictItem(items, value);
  if (value === null || value === undefined || value === '') return null;
  if (!item) return <span data-testid={testId}>{String(value)}</span>;
  return (
    <Tag
      color={tagColor(item.tagType)}
      data-testid={testId}
      data-value={item.value}
      style={{ marginInlineEnd: 0 }}
    >
      {item.label}
    </Tag>
  );
}
