import type { AnyField } from '@shuzhi/contracts/diy-form';
import { useMemo } from 'react';
import { useDict } from '../../platform/dict/dict.store.ts';

export type ChoiceOption = { value: string; label: string };

const NO_CODE = '\u0000';

/** The options of a choice field: its own list, or the enabled items of its dictionary (from the cache). */
export function useChoiceOptions(field: AnyField): ChoiceOption[] {
  const source = field.options;
  const items = useDict(source?.source === 'dict' ? source.dictCode : NO_CODE);
  return useMemo(() => {
    if (!source) return [];
    if (source.source === 'options') return source.items.map((o) => ({ value: o.value, label: o.label }));
    return items.map((item) => ({ value: item.value, label: item.label }));
  }, [source, items]);
}

/** Chosen values as their labels (an unknown value shows as it is). */
export function choiceLabels(options: readonly ChoiceOption[], value: unknown): string[] {
  const list = Array.isArray(value)
    ? value
    : value === null || value === undefined || value === ''
      ? []
      : [value];
  return list.map((v) => options.find((o) => o.value === String(v))?.label ?? String(v));
}
