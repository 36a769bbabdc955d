import type { AnyField } from '@shuzhi/contracts/diy-form';
import { moneyToChinese } from '@shuzhi/contracts/formatters';
import { Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { choiceLabels, useChoiceOptions } from './choices.ts';
import { isEmptyValue } from './diy-form.model.ts';
import { formatNumber } from './field-input.tsx';
import { FileField, type FileOpener } from './file-field.tsx';
import { LocationView } from './location-field.tsx';
import { PickerText } from './pickers.tsx';
import { RegionName } from './region-field.tsx';

const RichTextView = lazy(() =>
  import('../rich-text/rich-text-view.tsx').then((m) => ({ default: m.RichTextView })),
);

export type FieldViewProps = {
  field: AnyField;
  value: unknown;
  /** The server's display label of the value (record `labels`), preferred for coded values. */
  label?: string;
  recordId?: number | null;
  onOpenFile?: FileOpener;
  id: string;
};

const safeHref = (url: string) => (/^https?:\/\//i.test(url) ? url : null);

/** A value as text: labels for choices, names for regions and pickers, links for files. */
export function FieldView(props: FieldViewProps) {
  const { t } = useTranslation();
  const { field, value, label } = props;
  const testId = `diy-view-${props.id}`;
  const empty = <span data-testid={testId}>{t('diyFormRenderer.empty')}</span>;
  const type = field.type;

  if (type === 'serialNo')
    return (
      <span data-testid={testId}>{isEmptyValue(value) ? t('diyFormRenderer.empty') : String(value)}</span>
    );
  if (isEmptyValue(value) && type !== 'formula') return empty;

  switch (type) {
    case 'integer':
    case 'decimal':
    case 'money':
    case 'percent':
    case 'formula': {
      const text = formatNumber(field, value);
      if (!text) return empty;
      return (
        <span data-testid={testId}>
          {text}
          {type === 'money' && field.moneyCapital ? (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8 }}>
              {t('diyFormRenderer.capital', { text: moneyToChinese(Number(value)) })}
            </Typography.Text>
          ) : null}
        </span>
      );
    }
    case 'select':
    case 'multiSelect':
    case 'radio':
    case 'checkbox':
      return <ChoiceText field={field} value={value} label={label} testId={testId} />;
    case 'region':
      return (
        <span data-testid={testId}>
          <RegionName code={value} fallback={label} />
        </span>
      );
    case 'org':
    case 'user':
    case 'enterprise':
      return (
        <span data-testid={testId}>
          <PickerText kind={type} value={value} fallback={label} />
        </span>
      );
    case 'attachment':
    case 'image':
      return (
        <FileField
          kind={type}
          value={value}
          readOnly
          recordId={props.recordId}
          onOpen={props.onOpenFile}
          data-testid={testId}
        />
      );
    case 'location':
      return <LocationView value={value} testId={testId} />;
    case 'richText':
      return (
        <Suspense fallback={null}>
          <RichTextView html={String(value)} data-testid={testId} />
        </Suspense>
      );
    case 'url': {
      const href = safeHref(String(value));
      return href ? (
        <a href={href} target="_blank" rel="noopener noreferrer" data-testid={testId}>
          {String(value)}
        </a>
      ) : (
        <span data-testid={testId}>{String(value)}</span>
      );
    }
    case 'email':
      return (
        <a href={`mailto:${String(value)}`} data-testid={testId}>
          {String(value)}
        </a>
      );
    default:
      return (
        <span data-testid={testId} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
          {typeof value === 'object' ? JSON.stringify(value) : String(value)}
        </span>
      );
  }
}

function ChoiceText({
  field,
  value,
  label,
  testId,
}: {
  field: AnyField;
  value: unknown;
  label?: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const options = useChoiceOptions(field);
  const chosen = Array.isArray(value) ? value : [value];
  // Labels in the reader's language from the options; the server's label when an option is gone.
  const known = chosen.every((v) => options.some((o) => o.value === String(v)));
  return (
    <span data-testid={testId}>
      {!known && label ? label : choiceLabels(options, value).join(t('diyFormRenderer.listSeparator'))}
    </span>
  );
}
