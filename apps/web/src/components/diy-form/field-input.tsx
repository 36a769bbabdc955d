import { CalculatorOutlined, NumberOutlined } from '@ant-design/icons';
import type { AnyField } from '@shuzhi/contracts/diy-form';
import { roundTo } from '@shuzhi/contracts/diy-formula';
import { digitsOnly, formatThousands, moneyToChinese, trimInput } from '@shuzhi/contracts/formatters';
import { Checkbox, Input, InputNumber, Radio, Select, Tooltip, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useChoiceOptions } from './choices.ts';
import { DateInput } from './date-input.tsx';
import { FileField, type FileOpener } from './file-field.tsx';
import { LocationField } from './location-field.tsx';
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
  /**
   * A phone-width form (issue 22 §3): the phone's own date and month pickers, choices stacked as large
   * targets, the camera for image fields.
   */
  phone?: boolean;
};

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
            inputMode={type === 'integer' ? 'numeric' : 'decimal'}
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
    case 'year':
      return (
        <DateInput
          {...props}
          disabled={disabled}
          status={status}
          placeholder={selectPlaceholder}
          testId={testId}
        />
      );
    case 'select':
    case 'multiSelect':
      return <ChoiceSelect {...props} disabled={disabled} placeholder={selectPlaceholder} testId={testId} />;
    case 'radio':
    case 'checkbox':
      return <ChoiceGroup {...props} disabled={disabled} testId={testId} />;
    case 'region':
      return <RegionInput {...props} disabled={disabled} placeholder={selectPlaceholder} testId={testId} />;
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
          phone={props.phone}
          data-testid={testId}
        />
      );
    case 'location':
      return (
        <LocationField
          id={id}
          value={value}
          onChange={(next) => {
            onChange(next);
            onBlur();
          }}
          disabled={disabled}
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

function RegionInput(props: FieldInputProps & { placeholder: string; testId: string }) {
  return (
    <RegionField
      id={props.id}
      value={props.value}
      onChange={(code) => {
        props.onChange(code);
        props.onBlur();
      }}
      disabled={props.disabled}
      placeholder={props.placeholder}
      data-testid={props.testId}
    />
  );
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
      // On a phone, typing to search would open the keyboard over a short list: only long lists search.
      showSearch={props.phone && options.length <= 12 ? false : { optionFilterProp: 'label' }}
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
        style={props.phone ? STACKED : undefined}
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
      style={props.phone ? STACKED : undefined}
    />
  );
}

/** Choices one under another on a phone, each a full-width row a thumb can hit. */
const STACKED = { display: 'flex', flexDirection: 'column', gap: 4 } as const;
