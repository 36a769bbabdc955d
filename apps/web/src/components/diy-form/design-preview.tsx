import { DesktopOutlined, MobileOutlined } from '@ant-design/icons';
import type { RecordValues } from '@shuzhi/contracts/diy-form';
import type { Filler } from '@shuzhi/contracts/diy-validate';
import { Alert, Button, Empty, Segmented, Space } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Design, newRecordValues } from './diy-form.model.ts';
import { type FormCheck, FormRenderer, type FormRendererHandle } from './form-renderer.tsx';

export type PreviewWidth = 'desktop' | 'phone';

export type DesignPreviewProps = {
  design: Design;
  /** Whose defaults the preview starts with (the designer: the signed-in user). */
  filler?: Filler;
  width?: PreviewWidth;
  onWidthChange?: (width: PreviewWidth) => void;
};

/** A phone's content width in CSS pixels. */
const PHONE_WIDTH = 375;

/**
 * The designer's preview: the form as fillers will see it, at desktop or phone width, to be tried out —
 * typing, show-when, formulas and the submit check all run as on the filling page; nothing is saved.
 */
export function DesignPreview({ design, filler, ...props }: DesignPreviewProps) {
  const { t } = useTranslation();
  const [ownWidth, setOwnWidth] = useState<PreviewWidth>('desktop');
  const width = props.width ?? ownWidth;
  const setWidth = (next: PreviewWidth) => {
    setOwnWidth(next);
    props.onWidthChange?.(next);
  };
  const start = useMemo(() => (filler ? newRecordValues(design, filler) : {}), [design, filler]);
  const [values, setValues] = useState<RecordValues>(start);
  const [result, setResult] = useState<FormCheck | null>(null);
  const ref = useRef<FormRendererHandle>(null);

  const reset = () => {
    setValues(start);
    setResult(null);
    ref.current?.clearErrors();
  };

  return (
    <div data-testid="diy-design-preview">
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }} wrap>
        <Segmented<PreviewWidth>
          value={width}
          onChange={setWidth}
          options={[
            { value: 'desktop', label: t('diyFormRenderer.desktop'), icon: <DesktopOutlined /> },
            { value: 'phone', label: t('diyFormRenderer.phone'), icon: <MobileOutlined /> },
          ]}
          data-testid="diy-preview-width"
        />
        <Space>
          <Button onClick={reset} data-testid="diy-preview-reset">
            {t('diyFormRenderer.reset')}
          </Button>
          <Button
            type="primary"
            onClick={() => setResult(ref.current?.check() ?? null)}
            data-testid="diy-preview-check"
          >
            {t('diyFormRenderer.check')}
          </Button>
        </Space>
      </Space>
      {result ? (
        <Alert
          style={{ marginBottom: 12 }}
          showIcon
          closable={{ onClose: () => setResult(null) }}
          type={result.ok ? 'success' : 'error'}
          title={
            result.ok
              ? t('diyFormRenderer.checkPassed')
              : t('diyFormRenderer.errorCount', { count: result.messages.length })
          }
          description={
            result.ok ? undefined : (
              <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                {result.messages.slice(0, 10).map((m) => (
                  <li key={m.path}>{m.text}</li>
                ))}
              </ul>
            )
          }
          data-testid="diy-preview-result"
        />
      ) : null}
      <div
        style={
          width === 'phone'
            ? {
                width: PHONE_WIDTH + 2 * 12,
                margin: '0 auto',
                padding: 12,
                border: '1px solid var(--ant-color-border)',
                borderRadius: 24,
                boxShadow: 'var(--ant-box-shadow-tertiary)',
              }
            : undefined
        }
      >
        <FormRenderer
          ref={ref}
          design={design}
          values={values}
          onChange={(next) => setValues(next)}
          width={width}
          idPrefix="diy-preview-"
          empty={<Empty description={t('diyFormRenderer.previewEmpty')} />}
        />
      </div>
    </div>
  );
}
