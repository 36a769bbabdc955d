import { type FormDesign, type FormField, storageKindOf, valueFields } from '@shuzhi/contracts/diy-form';
import { estimateColumnsWidth, estimateColumnWidth } from '@shuzhi/contracts/formatters';
import { Typography } from 'antd';
import type { ReactNode } from 'react';
import type { DiyRecord } from '../../../components/diy-record/diy-record.api.ts';
import { type SummaryWords, valueText } from '../../../components/diy-record/record-format.ts';
import { RecordFlags, RecordStatusTag } from '../../../components/diy-record/record-status-tag.tsx';

/** Room for the sort arrows of a sortable header. */
export const SORTER_ROOM = 24;

/** System columns of the list, before the form's own fields (编号, 状态) and after them (填报人 …). */
const SYSTEM_COLUMNS = ['dataNo', 'status', 'createUserName', 'createOrgName', 'submitTime'] as const;
export type SystemColumn = (typeof SYSTEM_COLUMNS)[number];

export type RecordColumn = {
  key: string;
  title: string;
  width: number;
  /** The server's sort field, or null when the column cannot be sorted (JSON-stored values). */
  sort: string | null;
  render: (record: DiyRecord) => ReactNode;
  /** A form field's column (false: a system column). */
  field: boolean;
};

/**
 * A column's width by SPEC §9 (`estimateColumnWidth`: letters 8 px, Chinese 25 px, other 10 px, 100–650):
 * the widest of the cells shown, and of the header plus the sort arrows.
 */
export function columnWidth(title: string, cells: readonly unknown[], sortable: boolean): number {
  return Math.max(estimateColumnsWidth(cells), estimateColumnWidth(title) + (sortable ? SORTER_ROOM : 0));
}

/** Whether the server sorts by the field (its column is not JSON). */
function isSortable(field: FormField): boolean {
  return storageKindOf(field.type, field.multiple ?? false) !== 'json';
}

/** Field columns hidden at first: the form's `defaultHideDataList`, the route's, and `listHidden` fields. */
export function initialHidden(
  design: Pick<FormDesign, 'fields'>,
  ...lists: (readonly string[] | string | null | undefined)[]
): string[] {
  const hidden = new Set<string>();
  for (const list of lists) {
    const ids = typeof list === 'string' ? list.split(',') : (list ?? []);
    for (const id of ids) if (id.trim()) hidden.add(id.trim());
  }
  for (const field of design.fields) if (field.listHidden) hidden.add(field.id);
  return [...hidden];
}

type Texts = {
  system: Record<SystemColumn, string>;
  statusText: (status: number) => string;
  words: SummaryWords;
  /** Periodic forms: the title of the period column (none otherwise). */
  period?: string;
  /** Words of the 零报告 / 逾期提交 tags beside the status (room for them in the column). */
  flags?: { zero: string; late: string };
};

/** The period column's key (records of periodic forms). */
const PERIOD_COLUMN = 'periodName';

const cellTitle = (text: string) =>
  text ? (
    <Typography.Text title={text} style={{ whiteSpace: 'nowrap' }}>
      {text}
    </Typography.Text>
  ) : (
    ''
  );

/** Every column of the record list (hidden ones included), widths from the header and the rows shown. */
export function buildRecordColumns(
  design: Pick<FormDesign, 'fields'>,
  rows: readonly DiyRecord[],
  texts: Texts,
): RecordColumn[] {
  const system = (
    key: SystemColumn,
    text: (r: DiyRecord) => string,
    render?: (r: DiyRecord) => ReactNode,
  ) => ({
    key,
    title: texts.system[key],
    width: columnWidth(texts.system[key], rows.map(text), true),
    sort: key,
    render: render ?? ((r: DiyRecord) => cellTitle(text(r))),
    field: false,
  });
  const fields: RecordColumn[] = valueFields(design).map((field) => {
    const text = (r: DiyRecord) => valueText(field, r.values[field.id], r.labels[field.id], texts.words);
    const sortable = isSortable(field);
    return {
      key: field.id,
      title: field.label,
      width: columnWidth(field.label, rows.map(text), sortable),
      sort: sortable ? field.id : null,
      render: (r: DiyRecord) => cellTitle(text(r)),
      field: true,
    };
  });
  return [
    system('dataNo', (r) => r.dataNo ?? ''),
    system(
      'status',
      (r) =>
        [
          texts.statusText(r.status),
          r.isZero ? (texts.flags?.zero ?? '') : '',
          r.late ? (texts.flags?.late ?? '') : '',
        ]
          .filter(Boolean)
          .join('　'),
      (r) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          <RecordStatusTag status={r.status} />
          <RecordFlags record={r} />
        </span>
      ),
    ),
    ...(texts.period
      ? [
          {
            key: PERIOD_COLUMN,
            title: texts.period,
            width: columnWidth(
              texts.period,
              rows.map((r) => r.periodName ?? ''),
              false,
            ),
            sort: null,
            render: (r: DiyRecord) => cellTitle(r.periodName ?? ''),
            field: false,
          },
        ]
      : []),
    ...fields,
    system('createUserName', (r) => r.createUserName ?? ''),
    system('createOrgName', (r) => r.createOrgName ?? ''),
    system('submitTime', (r) => r.submitTime ?? ''),
  ];
}
