import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormField } from '@shuzhi/contracts/diy-form';
import { Button, DatePicker, Empty, Input, InputNumber, Select, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useChoiceOptions } from '../../../components/diy-form/choices.ts';
import { FieldInput } from '../../../components/diy-form/field-input.tsx';
import { type BuilderOp, type FilterDraft, filterKindOf, OPS_BY_KIND } from './record-filters.ts';

type DateType = 'date' | 'datetime' | 'month' | 'quarter' | 'year';
const PICKER: Record<DateType, 'date' | 'month' | 'quarter' | 'year'> = {
  date: 'date',
  datetime: 'date',
  month: 'month',
  quarter: 'quarter',
  year: 'year',
};

/** A picked date as the form stores it (`2026-11-21`, `2026-11`, `2026-Q4`, `2026`). */
function dateText(type: DateType, d: Dayjs | null | undefined): string | null {
  if (!d) return null;
  if (type === 'month') return d.format('YYYY-MM');
  if (type === 'year') return d.format('YYYY');
  if (type === 'quarter') return `${d.year()}-Q${Math.floor(d.month() / 3) + 1}`;
  return d.format('YYYY-MM-DD');
}

function toDayjs(type: DateType, text: unknown): Dayjs | null {
  if (typeof text !== 'string' || !text) return null;
  const q = /^(\d{4})-Q([1-4])$/.exec(text);
  if (type === 'quarter' && q)
    return dayjs(`${q[1]}-${String((Number(q[2]) - 1) * 3 + 1).padStart(2, '0')}-01`);
  const d = dayjs(text);
  return d.isValid() ? d : null;
}

function ChoiceValue({
  field,
  value,
  onChange,
}: {
  field: FormField;
  value: unknown;
  onChange: (v: unknown) => void;
}) {
  const { t } = useTranslation();
  const options = useChoiceOptions(field);
  return (
    <Select
      mode="multiple"
      allowClear
      style={{ minWidth: 200 }}
      maxTagCount="responsive"
      placeholder={t('diyFormTable.filter.pick')}
      value={Array.isArray(value) ? value : []}
      onChange={onChange}
      options={options}
      data-testid="diy-filter-value"
    />
  );
}

function ValueInput({
  field,
  draft,
  onChange,
}: {
  field: FormField;
  draft: FilterDraft;
  onChange: (v: unknown) => void;
}) {
  const { t } = useTranslation();
  const kind = filterKindOf(field);
  if (draft.op === 'empty' || draft.op === 'notEmpty' || !kind || kind === 'presence') return null;
  const value = draft.value;
  if (kind === 'number') {
    if (draft.op === 'between') {
      const [from, to] = Array.isArray(value) ? value : [];
      return (
        <Space.Compact>
          <InputNumber
            placeholder={t('diyFormTable.filter.min')}
            value={(from as number | null) ?? null}
            onChange={(v) => onChange([v, to ?? null])}
            data-testid="diy-filter-from"
          />
          <InputNumber
            placeholder={t('diyFormTable.filter.max')}
            value={(to as number | null) ?? null}
            onChange={(v) => onChange([from ?? null, v])}
            data-testid="diy-filter-to"
          />
        </Space.Compact>
      );
    }
    return (
      <InputNumber
        value={(value as number | null) ?? null}
        onChange={onChange}
        data-testid="diy-filter-value"
      />
    );
  }
  if (kind === 'date') {
    const type = field.type as DateType;
    if (draft.op === 'between') {
      const [from, to] = Array.isArray(value) ? value : [];
      return (
        <DatePicker.RangePicker
          picker={PICKER[type]}
          allowEmpty={[true, true]}
          value={[toDayjs(type, from), toDayjs(type, to)]}
          onChange={(range) => onChange([dateText(type, range?.[0]), dateText(type, range?.[1])])}
          data-testid="diy-filter-range"
        />
      );
    }
    return (
      <DatePicker
        picker={PICKER[type]}
        value={toDayjs(type, value)}
        onChange={(d) => onChange(dateText(type, d))}
        data-testid="diy-filter-value"
      />
    );
  }
  if (kind === 'choice') return <ChoiceValue field={field} value={value} onChange={onChange} />;
  if (kind === 'picker' || kind === 'region') {
    return (
      <div style={{ minWidth: 220 }}>
        <FieldInput
          field={
            kind === 'picker' ? { ...field, multiple: true, required: false } : { ...field, required: false }
          }
          value={value ?? null}
          id={`diy-filter-${draft.key}`}
          onChange={onChange}
          onBlur={() => undefined}
        />
      </div>
    );
  }
  return (
    <Input
      allowClear
      style={{ width: 200 }}
      placeholder={t('diyFormTable.filter.value')}
      value={typeof value === 'string' ? value : ''}
      onChange={(e) => onChange(e.target.value)}
      data-testid="diy-filter-value"
    />
  );
}

export type FilterBuilderProps = {
  fields: readonly FormField[];
  drafts: FilterDraft[];
  onChange: (drafts: FilterDraft[]) => void;
};

/** Conditions on the form's fields: a field, an operator fitting its kind, and a value widget of its kind. */
export function FilterBuilder({ fields, drafts, onChange }: FilterBuilderProps) {
  const { t } = useTranslation();
  const usable = fields.filter((f) => filterKindOf(f) !== null);
  const add = () => {
    const field = usable[0];
    if (!field) return;
    const kind = filterKindOf(field);
    onChange([
      ...drafts,
      {
        key: Date.now() + Math.random(),
        field: field.id,
        op: kind ? (OPS_BY_KIND[kind][0] as BuilderOp) : 'eq',
      },
    ]);
  };
  const update = (key: number, patch: Partial<FilterDraft>) =>
    onChange(drafts.map((d) => (d.key === key ? { ...d, ...patch } : d)));

  return (
    <div data-testid="diy-filter-builder">
      {drafts.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('diyFormTable.filter.none')}
          style={{ margin: '8px 0' }}
        />
      ) : null}
      <Space orientation="vertical" style={{ width: '100%' }} size={8}>
        {drafts.map((draft, index) => {
          const field = usable.find((f) => f.id === draft.field);
          const kind = field ? filterKindOf(field) : null;
          return (
            <Space key={draft.key} wrap align="start" data-testid="diy-filter-row" data-field={draft.field}>
              <Typography.Text
                type="secondary"
                style={{ display: 'inline-block', width: 28, lineHeight: '32px' }}
              >
                {index === 0 ? t('diyFormTable.filter.where') : t('diyFormTable.filter.and')}
              </Typography.Text>
              <Select
                showSearch={{ optionFilterProp: 'label' }}
                style={{ width: 180 }}
                value={draft.field}
                options={usable.map((f) => ({ value: f.id, label: f.label }))}
                onChange={(id) => {
                  const next = usable.find((f) => f.id === id);
                  const nextKind = next ? filterKindOf(next) : null;
                  update(draft.key, {
                    field: id,
                    op: nextKind ? (OPS_BY_KIND[nextKind][0] as BuilderOp) : 'eq',
                    value: undefined,
                  });
                }}
                aria-label={t('diyFormTable.filter.field')}
                data-testid="diy-filter-field"
              />
              <Select
                style={{ width: 120 }}
                value={draft.op}
                options={(kind ? OPS_BY_KIND[kind] : []).map((op) => ({
                  value: op,
                  label: t(`diyFormTable.filter.op.${op}`),
                }))}
                onChange={(op: BuilderOp) => update(draft.key, { op, value: undefined })}
                aria-label={t('diyFormTable.filter.operator')}
                data-testid="diy-filter-op"
              />
              {field ? (
                <ValueInput field={field} draft={draft} onChange={(value) => update(draft.key, { value })} />
              ) : null}
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('diyFormTable.filter.remove')}
                onClick={() => onChange(drafts.filter((d) => d.key !== draft.key))}
                data-testid="diy-filter-remove"
              />
            </Space>
          );
        })}
        <Button
          type="dashed"
          icon={<PlusOutlined />}
          onClick={add}
          disabled={usable.length === 0 || drafts.length >= 20}
          data-testid="diy-filter-add"
        >
          {t('diyFormTable.filter.add')}
        </Button>
      </Space>
    </div>
  );
}
