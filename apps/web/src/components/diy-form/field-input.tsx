import { CalculatorOutlined, NumberOutlined } from '@ant-design/icons';
import type { AnyField } from '@shuzhi/contracts/diy-form';
import { roundTo } from '@shuzhi/contracts/diy-formula';
import { digitsOnly, formatThousands, moneyToChinese, trimInput } from '@shuzhi/contracts/formatters';
import { Checkbox, DatePicker, Input, InputNumber, Radio, Select, Tooltip, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useChoiceOptions } from './choices.ts';
import { FileField, type FileOpener } from './file-field.tsx';
import { PickerSelect } from './pickers.tsx';
import { RegionField } from './region-field.tsx';

const RichTextEditor = lazy(() =>
  import('../rich-text/rich-text-editor.tsx').then((m) => ({ default: m.RichTextEditor })),
);

/** What every widget gets: the field, its value and what to do when it changes or is left. */
export type FieldInputProps = {
  field: AnyField;
  value: unknown;
  onChange: (value: unknown) => void;
  onBlur: () => void;
  disabled?: boolean;
  invalid?: boolean;
  /** A sub-table cell: no capitals line, smaller pickers. */
  compact?: boolean;
  recordId?: number | null;
  onOpenFile?: FileOpener;
  /** DOM id of the control (the label points at it). */
  id: string;
};

const DATE_FORMATS = {
  date: 'YYYY-MM-DD',
  datetime: 'YYYY-MM-DD HH:mm:ss',
  month: 'YYYY-MM',
  year: 'YYYY',
} as const;

/** A stored date text (the contract's formats, `2024-Q3` for quarters) as a dayjs value. */
function parseDateValue(type: string, value: unknown): Dayjs | null {
  if (typeof value !== 'string' || !value) return null;
  if (type === 'quarter') {
    const m = /^(\d{4})-Q([1-4])$/.exec(value);
    return m ? dayjs(`${m[1]}-${String((Number(m[2]) - 1) * 3 + 1).padStart(2, '0')}-01`) : null;
  }
  const parsed = dayjs(type === 'year' ? `${value}-01-01` : value);
  return parsed.isValid() ? parsed : null;
}

/** A dayjs value as the stored text of a date field. */
function formatDateValue(type: string, value: Dayjs | null): string | null {
  if (!value) return null;
  if (type === 'quarter') return `${value.year()}-Q${Math.floor(value.month() / 3) + 1}`;
  return value.format(DATE_FORMATS[type as keyof typeof DATE_FORMATS] ?? DATE_FORMATS.date);
}

/** Decimal places a number field keeps. */
const placesOf = (field: AnyField) => (field.type === 'integer' ? 0 : (field.precision ?? 2));

/** A number as shown: thousands separators for money, fixed places, % for percent. */
export function formatNumber(field: AnyField, value: unknown): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) {
      return formatNumber(field, Number(value));
    }
    return '';
  }
  const places = field.type === 'formula' || field.type !== 'integer' ? (field.precision ?? 2) : 0;
  const fixed = value.toFixed(places);
  if (field.type === 'money' || field.type === 'formula') return formatThousands(fixed);
  if (field.type === 'percent') return `${fixed}%`;
  return fixed;
}

/** Typing helpers of SPEC §5 per formatted type (applied while typing; trimming when the field is left). */
const TYPING: Partial<Record<string, (text: string) => string>> = {
  mobile: digitsOnly,
  postcode: digitsOnly,
  landline: (text) => text.replace(/[^\d-]/g, ''),
  idCard: (text) => text.toUpperCase().replace(/[^\dX]/g, ''),
  licensePlate: (text) => text.toUpperCase().replace(/\s/g, ''),
  email: (text) => text.replace(/\s/g, ''),
};
const MAX_LENGTHS: Partial<Record<string, number>> = {
  mobile: 11,
  postcode: 6,
  idCard: 18,
  licensePlate: 8,
  landline: 20,
};
const INPUT_MODES: Partial<Record<string, 'numeric' | 'tel' | 'email' | 'url'>> = {
  mobile: 'tel',
  landline: 'tel',
  postcode: 'numeric',
  email: 'email',
  url: 'url',
};

export function FieldInput(props: FieldInputProps) {
  const { t } = useTranslation();
  const { field, value, onChange, onBlur, invalid, id } = props;
  const disabled = props.disabled || field.readOnly === true;
  const status = invalid ? ('error' as const) : undefined;
  const type = field.type;
  const inputPlaceholder = field.placeholder ?? t('diyFormRenderer.inputPlaceholder', { label: field.label });
  const selectPlaceholder =
    field.placeholder ?? t('diyFormRenderer.selectPlaceholder', { label: field.label });
  const testId = `diy-input-${id}`;
  const text = typeof value === 'string' || typeof value === 'number' ? String(value) : '';

  switch (type) {
    case 'text':
    case 'mobile':
    case 'landline':
    case 'idCard':
    case 'email':
    case 'url':
    case 'postcode':
    case 'licensePlate': {
      const typing = TYPING[type];
      const maxLength = field.maxLength ?? MAX_LENGTHS[type] ?? 255;
      return (
        <Input
          id={id}
          data-testid={testId}
          value={text}
          onChange={(e) => onChange(typing ? typing(e.target.value) : e.target.value)}
          onBlur={(e) => {
            const trimmed = trimInput(e.target.value);
            if (trimmed !== text) onChange(trimmed === '' ? null : trimmed);
            onBlur();
          }}
          maxLength={maxLength}
          showCount={type === 'text' && !!field.maxLength && !props.compact}
          inputMode={INPUT_MODES[type]}
          placeholder={inputPlaceholder}
          disabled={disabled}
          status={status}
          allowClear={!props.compact}
          autoComplete="off"
        />
      );
    }
    case 'textarea':
      return (
        <Input.TextArea
          id={id}
          data-testid={testId}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          onBlur={onBlur}
          maxLength={field.maxLength ?? 2000}
          showCount
          autoSize={{ minRows: props.compact ? 1 : 3, maxRows: 10 }}
          placeholder={inputPlaceholder}
          disabled={disabled}
          status={status}
        />
      );
    case 'integer':
    case 'decimal':
    case 'money':
    case 'percent': {
      const places = placesOf(field);
      const number =
        typeof value === 'number'
          ? value
          : text !== '' && Number.isFinite(Number(text))
            ? Number(text)
            : null;
      const capital = type === 'money' && field.moneyCapital && number !== null && !props.compact;
      return (
        <>
          <InputNumber<number>
            id={id}
            data-testid={testId}
            value={number}
            onChange={(next) =>
              onChange(typeof next === 'number' && Number.isFinite(next) ? roundTo(next, places) : null)
            }
            onBlur={onBlur}
            formatter={(v, info) => {
              if (info.userTyping) return info.input;
              if (v === undefined || v === null || (v as unknown) === '') return '';
              const fixed = Number(v).toFixed(places);
              return type === 'money' ? formatThousands(fixed) : fixed;
            }}
            parser={(v) => Number((v ?? '').replace(/[,\s%]/g, ''))}
            suffix={type === 'percent' ? '%' : undefined}
            prefix={type === 'money' && !props.compact ? '¥' : undefined}
            placeholder={inputPlaceholder}
            disabled={disabled}
            status={status}
            style={{ width: '100%' }}
            keyboard
          />
          {capital ? (
            <Typography.Text type="secondary" data-testid={`diy-capital-${id}`} style={{ fontSize: 12 }}>
              {t('diyFormRenderer.capital', { text: moneyToChinese(number) })}
            </Typography.Text>
          ) : null}
        </>
      );
    }
    case 'date':
    case 'datetime':
    case 'month':
    case 'quarter':
    case 'year': {
      const picker = type === 'datetime' ? 'date' : type;
      const bound = (edge: unknown) => (typeof edge === 'string' && edge ? edge : null);
      const [min, max] = [bound(field.min), bound(field.max)];
      return (
        <DatePicker
          id={id}
          data-testid={testId}
          picker={picker}
          showTime={type === 'datetime' ? { format: 'HH:mm:ss' } : undefined}
          value={parseDateValue(type, value)}
          onChange={(next) => onChange(formatDateValue(type, next))}
          onBlur={onBlur}
          onOpenChange={(open) => !open && onBlur()}
          disabledDate={
            min || max
              ? (d) => {
                  const stored = formatDateValue(type, d) ?? '';
                  return (min !== null && stored < min) || (max !== null && stored > max);
                }
              : undefined
          }
          placeholder={selectPlaceholder}
          disabled={disabled}
          status={status}
          style={{ width: '100%' }}
        />
      );
    }
    case 'select':
    case 'multiSelect':
      return <ChoiceSelect {...props} disabled={disabled} placeholder={selectPlaceholder} testId={testId} />;
    case 'radio':
    case 'checkbox':
      return <ChoiceGroup {...props} disabled={disabled} testId={testId} />;
    case 'region':
      return (
        <RegionField
          value={value}
          onChange={(code) => {
            onChange(code);
            onBlur();
          }}
          disabled={disabled}
          placeholder={selectPlaceholder}
          data-testid={testId}
        />
      );
    case 'org':
    case 'user':
    case 'enterprise':
      return (
        <PickerSelect
          id={id}
          data-testid={testId}
          kind={type}
          value={value}
          multiple={field.multiple === true}
          onChange={onChange}
          onBlur={onBlur}
          disabled={disabled}
          status={status}
          placeholder={selectPlaceholder}
        />
      );
    case 'attachment':
    case 'image':
      return (
        <FileField
          kind={type}
          value={value}
          onChange={(ids) => {
            onChange(ids);
            onBlur();
          }}
          accept={field.accept}
          maxFiles={field.maxFiles}
          recordId={props.recordId}
          disabled={disabled}
          onOpen={props.onOpenFile}
          data-testid={testId}
        />
      );
    case 'richText':
      return (
        <Suspense
          fallback={
            <Typography.Text type="secondary">{t('diyFormRenderer.richTextLoading')}</Typography.Text>
          }
        >
          <fieldset
            aria-label={field.label}
            onBlur={onBlur}
            style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}
          >
            <RichTextEditor
              value={text}
              onChange={(html) => onChange(html === '' ? null : html)}
              placeholder={field.placeholder ?? undefined}
              disabled={disabled}
              minHeight={props.compact ? 80 : 180}
              aria-label={field.label}
              data-testid={testId}
            />
          </fieldset>
        </Suspense>
      );
    case 'formula':
      return (
        <Input
          id={id}
          data-testid={testId}
          value={formatNumber(field, value)}
          readOnly
          variant="filled"
          tabIndex={-1}
          suffix={
            <Tooltip
              title={
                field.formula
                  ? `${t('diyFormRenderer.formulaHint')}: ${field.formula}`
                  : t('diyFormRenderer.formulaHint')
              }
            >
              <CalculatorOutlined style={{ color: 'var(--ant-color-text-tertiary)' }} />
            </Tooltip>
          }
        />
      );
    case 'serialNo':
      return (
        <Input
          id={id}
          data-testid={testId}
          value={text}
          placeholder={t('diyFormRenderer.serialPending')}
          readOnly
          variant="filled"
          tabIndex={-1}
          prefix={<NumberOutlined style={{ color: 'var(--ant-color-text-tertiary)' }} />}
        />
      );
    default:
      return <Typography.Text type="danger">{t('diyFormRenderer.unknownType', { type })}</Typography.Text>;
  }
}

function ChoiceSelect(props: FieldInputProps & { placeholder: string; testId: string }) {
  const { field, value } = props;
  const options = useChoiceOptions(field);
  const multiple = field.type === 'multiSelect';
  const list = Array.isArray(value)
    ? value.map(String)
    : value === null || value === undefined || value === ''
      ? []
      : [String(value)];
  return (
    <Select<string | string[]>
      id={props.id}
      data-testid={props.testId}
      mode={multiple ? 'multiple' : undefined}
      value={multiple ? list : (list[0] ?? undefined)}
      onChange={(next) => {
        const chosen = Array.isArray(next) ? next : next === undefined || next === null ? [] : [next];
        props.onChange(multiple ? (chosen.length ? chosen : null) : (chosen[0] ?? null));
      }}
      onBlur={props.onBlur}
      options={options}
      allowClear
      showSearch={{ optionFilterProp: 'label' }}
      placeholder={props.placeholder}
      disabled={props.disabled}
      status={props.invalid ? 'error' : undefined}
      style={{ width: '100%' }}
    />
  );
}

function ChoiceGroup(props: FieldInputProps & { testId: string }) {
  const { field, value } = props;
  const options = useChoiceOptions(field);
  if (field.type === 'radio') {
    return (
      <Radio.Group
        id={props.id}
        data-testid={props.testId}
        value={value === null || value === undefined ? undefined : String(value)}
        onChange={(e) => {
          props.onChange(e.target.value);
          props.onBlur();
        }}
        options={options}
        disabled={props.disabled}
      />
    );
  }
  const list = Array.isArray(value) ? value.map(String) : [];
  return (
    <Checkbox.Group
      data-testid={props.testId}
      value={list}
      onChange={(next) => {
        props.onChange(next.length ? next.map(String) : null);
        props.onBlur();
      }}
      options={options}
      disabled={props.disabled}
    />
  );
}
