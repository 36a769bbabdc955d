import type { AnyField, FieldType } from '@shuzhi/contracts/diy-form';
import { Divider, Switch } from 'antd';
import type { ReactNode } from 'react';
import styles from './designer.module.css';

/** What a part of the property panel edits: the selected field, patched (the same `key` is one undo step). */
export type FieldEditorProps = {
  field: AnyField;
  onPatch: (patch: Partial<AnyField>, key: string) => void;
};

/** A small switch with its label beside it (the label toggles it too). */
export function SwitchItem(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  testId: string;
}) {
  return (
    <span className={styles.switchItem}>
      <Switch
        size="small"
        id={props.testId}
        checked={props.checked}
        onChange={props.onChange}
        data-testid={props.testId}
      />
      <label htmlFor={props.testId}>{props.label}</label>
    </span>
  );
}

/** A titled group of the panel. */
export function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Divider titlePlacement="start" plain style={{ margin: '14px 0 10px', fontSize: 13 }}>
        {title}
      </Divider>
      {children}
    </>
  );
}

export const num = (value: number | null) => (value === null ? undefined : value);

/** The format a date bound or default of each date type is typed in. */
export const DATE_HINT: Partial<Record<FieldType, string>> = {
  date: '2026-01-01',
  datetime: '2026-01-01 08:00:00',
  month: '2026-01',
  quarter: '2026-Q1',
  year: '2026',
};
