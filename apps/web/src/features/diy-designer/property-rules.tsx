import {
  DATE_TYPES,
  type FieldType,
  FORMATTED_TYPES,
  MULTI_CHOICE_TYPES,
  NUMBER_TYPES,
} from '@shuzhi/contracts/diy-form';
import { Form, Input, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import styles from './designer.module.css';
import { DATE_HINT, type FieldEditorProps, num, Section, SwitchItem } from './property-parts.tsx';

const TEXT_LIKE: readonly FieldType[] = ['text', 'textarea', ...FORMATTED_TYPES];

/** 校验: bounds of numbers and dates, precision, lengths and the text pattern, as the field's type has them. */
export function RuleProps({ field, onPatch }: FieldEditorProps) {
  const { t } = useTranslation();
  const type = field.type;
  return (
    <>
      {NUMBER_TYPES.includes(type) || type === 'formula' || MULTI_CHOICE_TYPES.includes(type) ? (
        <Section title={t('diyDesigner.props.sectionRules')}>
          <div className={styles.pairRow}>
            <Form.Item label={t('diyDesigner.props.min')}>
              <InputNumber
                style={{ width: '100%' }}
                value={typeof field.min === 'number' ? field.min : null}
                onChange={(v) => onPatch({ min: num(v as number | null) }, 'min')}
                data-testid="designer-prop-min"
              />
            </Form.Item>
            <Form.Item label={t('diyDesigner.props.max')}>
              <InputNumber
                style={{ width: '100%' }}
                value={typeof field.max === 'number' ? field.max : null}
                onChange={(v) => onPatch({ max: num(v as number | null) }, 'max')}
                data-testid="designer-prop-max"
              />
            </Form.Item>
          </div>
          {type === 'integer' || MULTI_CHOICE_TYPES.includes(type) ? null : (
            <Form.Item label={t('diyDesigner.props.precision')}>
              <InputNumber
                min={0}
                max={6}
                precision={0}
                value={field.precision ?? 2}
                onChange={(v) => onPatch({ precision: num(v as number | null) }, 'precision')}
                data-testid="designer-prop-precision"
              />
            </Form.Item>
          )}
          {type === 'money' ? (
            <div className={styles.switchRow}>
              <SwitchItem
                checked={field.moneyCapital ?? false}
                onChange={(moneyCapital) => onPatch({ moneyCapital }, 'moneyCapital')}
                label={t('diyDesigner.props.moneyCapital')}
                testId="designer-prop-capital"
              />
            </div>
          ) : null}
        </Section>
      ) : null}
      {DATE_TYPES.includes(type) ? (
        <Section title={t('diyDesigner.props.sectionRules')}>
          <div className={styles.pairRow}>
            <Form.Item label={t('diyDesigner.props.minDate')}>
              <Input
                value={typeof field.min === 'string' ? field.min : ''}
                placeholder={DATE_HINT[type]}
                onChange={(e) => onPatch({ min: e.target.value || undefined }, 'min')}
                data-testid="designer-prop-min"
              />
            </Form.Item>
            <Form.Item label={t('diyDesigner.props.maxDate')}>
              <Input
                value={typeof field.max === 'string' ? field.max : ''}
                placeholder={DATE_HINT[type]}
                onChange={(e) => onPatch({ max: e.target.value || undefined }, 'max')}
                data-testid="designer-prop-max"
              />
            </Form.Item>
          </div>
        </Section>
      ) : null}
      {TEXT_LIKE.includes(type) || type === 'richText' ? (
        <Section title={t('diyDesigner.props.sectionRules')}>
          <div className={styles.pairRow}>
            <Form.Item label={t('diyDesigner.props.minLength')}>
              <InputNumber
                min={0}
                precision={0}
                style={{ width: '100%' }}
                value={field.minLength ?? null}
                onChange={(v) => onPatch({ minLength: num(v as number | null) }, 'minLength')}
                data-testid="designer-prop-minlength"
              />
            </Form.Item>
            <Form.Item label={t('diyDesigner.props.maxLength')}>
              <InputNumber
                min={1}
                precision={0}
                style={{ width: '100%' }}
                value={field.maxLength ?? null}
                onChange={(v) => onPatch({ maxLength: num(v as number | null) }, 'maxLength')}
                data-testid="designer-prop-maxlength"
              />
            </Form.Item>
          </div>
          {type === 'text' || type === 'textarea' ? (
            <>
              <Form.Item label={t('diyDesigner.props.pattern')}>
                <Input
                  value={field.pattern?.regex ?? ''}
                  placeholder="^[A-Z]{2}\d{6}$"
                  className={styles.mono}
                  onChange={(e) =>
                    onPatch(
                      {
                        pattern: e.target.value
                          ? { regex: e.target.value, message: field.pattern?.message }
                          : undefined,
                      },
                      'pattern',
                    )
                  }
                  data-testid="designer-prop-pattern"
                />
              </Form.Item>
              {field.pattern?.regex ? (
                <Form.Item label={t('diyDesigner.props.patternMessage')}>
                  <Input
                    value={field.pattern.message ?? ''}
                    maxLength={200}
                    onChange={(e) =>
                      onPatch(
                        {
                          pattern: {
                            regex: field.pattern?.regex ?? '',
                            message: e.target.value || undefined,
                          },
                        },
                        'patternMessage',
                      )
                    }
                  />
                </Form.Item>
              ) : null}
            </>
          ) : null}
        </Section>
      ) : null}
    </>
  );
}
