import { DATE_PARTS, type FormDesign, type Numbering } from '@shuzhi/contracts/diy-form';
import { Alert, Form, Input, InputNumber, Select, Slider, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { sampleNumber } from './designer.model.ts';
import styles from './designer.module.css';

const DEFAULT_NUMBERING: Numbering = { prefix: '', datePart: 'yyyyMMdd', digits: 4 };

/** Settings of the whole form (nothing selected): label width and record numbering with a sample number. */
export function FormPanel({
  design,
  onChange,
}: {
  design: FormDesign;
  onChange: (next: FormDesign, key: string) => void;
}) {
  const { t } = useTranslation();
  const numbering = design.numbering ?? null;
  const setNumbering = (patch: Partial<Numbering>, key: string) =>
    onChange({ ...design, numbering: { ...(numbering ?? DEFAULT_NUMBERING), ...patch } }, `numbering:${key}`);
  return (
    <div className={styles.propBody} data-testid="designer-form-panel">
      <Typography.Paragraph type="secondary">
        {t('diyDesigner.props.formInfo', { count: design.fields.length })}
      </Typography.Paragraph>
      <Form layout="vertical" size="small" className={styles.propForm}>
        <Form.Item label={`${t('diyDesigner.props.labelWidth')}（${design.labelWidth ?? 120}px）`}>
          <Slider
            min={40}
            max={400}
            step={10}
            value={design.labelWidth ?? 120}
            onChange={(labelWidth) => onChange({ ...design, labelWidth }, 'labelWidth')}
            data-testid="designer-form-labelwidth"
          />
        </Form.Item>
        <Form.Item label={t('diyDesigner.props.numbering')}>
          <Switch
            size="small"
            checked={numbering !== null}
            onChange={(on) =>
              onChange({ ...design, numbering: on ? DEFAULT_NUMBERING : null }, 'numbering:on')
            }
            data-testid="designer-form-numbering"
          />
        </Form.Item>
        {numbering ? (
          <>
            <Form.Item label={t('diyDesigner.props.prefix')}>
              <Input
                value={numbering.prefix ?? ''}
                maxLength={20}
                onChange={(e) => setNumbering({ prefix: e.target.value }, 'prefix')}
                data-testid="designer-form-prefix"
              />
            </Form.Item>
            <div className={styles.pairRow}>
              <Form.Item label={t('diyDesigner.props.datePart')}>
                <Select
                  value={numbering.datePart ?? 'yyyyMMdd'}
                  options={DATE_PARTS.map((p) => ({
                    value: p,
                    label: t(`diyDesigner.props.dateParts.${p}`),
                  }))}
                  onChange={(datePart) => setNumbering({ datePart }, 'datePart')}
                  data-testid="designer-form-datepart"
                />
              </Form.Item>
              <Form.Item label={t('diyDesigner.props.digits')}>
                <InputNumber
                  min={1}
                  max={12}
                  precision={0}
                  style={{ width: '100%' }}
                  value={numbering.digits ?? 4}
                  onChange={(digits) => setNumbering({ digits: digits ?? 4 }, 'digits')}
                  data-testid="designer-form-digits"
                />
              </Form.Item>
            </div>
            <Alert
              type="info"
              title={t('diyDesigner.props.sample', { no: sampleNumber(numbering) })}
              data-testid="designer-form-sample"
            />
          </>
        ) : null}
      </Form>
    </div>
  );
}
