import {
  AimOutlined,
  CalculatorOutlined,
  CalendarOutlined,
  CloudUploadOutlined,
  DownOutlined,
  PlusOutlined,
} from '@ant-design/icons';
import { type AnyField, CHOICE_TYPES, DATE_TYPES, PICKER_TYPES } from '@shuzhi/contracts/diy-form';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './designer.module.css';

const SELECT_LIKE = new Set<string>(['select', 'multiSelect', 'region', ...PICKER_TYPES]);

/** How a field's input will look, drawn without a live input (the canvas is for arranging, not typing). */
export function FieldMock({
  field,
  refLabels,
}: {
  field: AnyField;
  /** Labels of formula references (`{amount}` shows as `{金额}`). */
  refLabels?: ReadonlyMap<string, string>;
}) {
  const { t } = useTranslation();
  const label = field.label;
  const select = SELECT_LIKE.has(field.type) || DATE_TYPES.includes(field.type);
  const placeholder =
    field.placeholder ||
    (select
      ? t('diyFormRenderer.selectPlaceholder', { label })
      : t('diyFormRenderer.inputPlaceholder', { label }));

  if ((field.type === 'radio' || field.type === 'checkbox') && field.options?.source === 'dict') {
    return (
      <div className={styles.mockChoices}>
        <span className={styles.mockMuted}>
          {t('diyDesigner.canvas.dictOptions', { code: field.options.dictCode })}
        </span>
      </div>
    );
  }
  if ((field.type === 'radio' || field.type === 'checkbox') && field.options?.source === 'options') {
    const items = field.options.items.map((o) => o.label);
    return (
      <div className={styles.mockChoices}>
        {items.slice(0, 6).map((item) => (
          <span key={item} className={styles.mockChoice}>
            <span className={field.type === 'radio' ? styles.mockRadio : styles.mockCheck} />
            {item}
          </span>
        ))}
        {items.length > 6 ? <span className={styles.mockMuted}>…</span> : null}
      </div>
    );
  }
  if (field.type === 'textarea') {
    return <div className={`${styles.mockInput} ${styles.mockArea}`}>{placeholder}</div>;
  }
  if (field.type === 'richText') {
    return (
      <div className={styles.mockRich}>
        <div className={styles.mockRichBar}>B I U H2 • 1.</div>
        <div className={styles.mockRichBody}>{field.placeholder || t('diyDesigner.canvas.richText')}</div>
      </div>
    );
  }
  if (field.type === 'attachment' || field.type === 'image') {
    return (
      <div className={field.type === 'image' ? styles.mockImage : styles.mockUpload}>
        {field.type === 'image' ? <PlusOutlined /> : <CloudUploadOutlined />}
        <span>
          {t(field.type === 'image' ? 'diyFormRenderer.uploadImage' : 'diyFormRenderer.uploadFile')}
        </span>
      </div>
    );
  }
  if (field.type === 'location') {
    return (
      <div className={styles.mockInput}>
        <span className={styles.mockEllipsis}>{t('diyFormRenderer.location.locate')}</span>
        <AimOutlined />
      </div>
    );
  }
  if (field.type === 'formula') {
    return (
      <div className={`${styles.mockInput} ${styles.mockReadonly}`}>
        <span className={styles.mockEllipsis}>
          {field.formula
            ? t('diyDesigner.canvas.formula', {
                formula: field.formula.replace(/\{([a-z0-9.]+)\}/g, (whole, ref: string) =>
                  refLabels?.has(ref) ? `{${refLabels.get(ref)}}` : whole,
                ),
                interpolation: { escapeValue: false },
              })
            : t('diyFormRenderer.formulaHint')}
        </span>
        <CalculatorOutlined />
      </div>
    );
  }
  if (field.type === 'serialNo') {
    return (
      <div className={`${styles.mockInput} ${styles.mockReadonly}`}>{t('diyDesigner.canvas.serial')}</div>
    );
  }
  const suffix = DATE_TYPES.includes(field.type) ? (
    <CalendarOutlined />
  ) : select ? (
    <DownOutlined />
  ) : field.type === 'money' ? (
    '¥'
  ) : field.type === 'percent' ? (
    '%'
  ) : null;
  return (
    <div className={`${styles.mockInput} ${field.readOnly ? styles.mockReadonly : ''}`}>
      <span className={styles.mockEllipsis}>
        {CHOICE_TYPES.includes(field.type) && field.options?.source === 'dict' ? (
          <Tag>{field.options.dictCode}</Tag>
        ) : null}
        {placeholder}
      </span>
      {suffix ? <span className={styles.mockSuffix}>{suffix}</span> : null}
    </div>
  );
}
