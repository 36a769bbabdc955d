import {
  FIELD_ID_PATTERN,
  FILE_TYPES,
  type FieldType,
  FORMATTED_TYPES,
  type FormDesign,
  UNCARRIED_TYPES,
  UNIQUE_SCOPES,
} from '@shuzhi/contracts/diy-form';
import { Form, Input, Segmented, Slider, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { allIds, type FieldPath } from './designer.model.ts';
import styles from './designer.module.css';
import { type FieldEditorProps, SwitchItem } from './property-parts.tsx';

const UNIQUE_LABELS = {
  none: 'diyDesigner.props.uniqueNone',
  form: 'diyDesigner.props.uniqueForm',
  period: 'diyDesigner.props.uniquePeriod',
} as const;

const SPANS = [6, 8, 12, 16, 24];
const UNIQUE_TYPES: readonly FieldType[] = [
  'text',
  'integer',
  'decimal',
  'money',
  ...FORMATTED_TYPES,
  'serialNo',
];

type BasicEditorProps = FieldEditorProps & {
  design: FormDesign;
  path: FieldPath;
  /** The field's id is fixed (it was published). */
  locked: boolean;
  layout: boolean;
  valueType: boolean;
  serverValue: boolean;
  onRename: (next: string) => void;
};

/** 名称, 字段 id (renamed when a valid new one is committed), content, placeholder and help. */
export function BasicProps({
  field,
  onPatch,
  design,
  path,
  locked,
  layout,
  valueType,
  serverValue,
  onRename,
}: BasicEditorProps) {
  const { t } = useTranslation();
  const type = field.type;
  const [idDraft, setIdDraft] = useState(path.column ?? path.id);
  useEffect(() => setIdDraft(path.column ?? path.id), [path.column, path.id]);
  const taken = allIds(design);
  taken.delete(path.column ?? path.id);
  const idError = !FIELD_ID_PATTERN.test(idDraft)
    ? t('diyDesigner.props.idInvalid')
    : taken.has(idDraft)
      ? t('diyDesigner.props.idTaken')
      : null;
  const commitId = () => {
    if (!idError && idDraft !== (path.column ?? path.id)) onRename(idDraft);
  };
  return (
    <>
      <Form.Item label={t('diyDesigner.props.label')} required>
        <Input
          value={field.label}
          maxLength={128}
          onChange={(e) => onPatch({ label: e.target.value }, 'label')}
          data-testid="designer-prop-label"
        />
      </Form.Item>
      {layout ? null : (
        <Form.Item
          label={t('diyDesigner.props.id')}
          help={locked ? t('diyDesigner.props.idLocked') : (idError ?? t('diyDesigner.props.idHint'))}
          validateStatus={!locked && idError ? 'error' : undefined}
        >
          <Input
            value={idDraft}
            disabled={locked}
            maxLength={24}
            onChange={(e) => setIdDraft(e.target.value.trim())}
            onBlur={commitId}
            onPressEnter={commitId}
            data-testid="designer-prop-id"
          />
        </Form.Item>
      )}
      {type === 'section' || type === 'staticText' ? (
        <Form.Item label={t(type === 'section' ? 'diyDesigner.props.subtitle' : 'diyDesigner.props.content')}>
          <Input.TextArea
            autoSize={{ minRows: 2, maxRows: 8 }}
            maxLength={5000}
            value={field.content ?? ''}
            onChange={(e) => onPatch({ content: e.target.value || undefined }, 'content')}
            data-testid="designer-prop-content"
          />
        </Form.Item>
      ) : null}
      {valueType && !serverValue && !FILE_TYPES.includes(type) && type !== 'radio' && type !== 'checkbox' ? (
        <Form.Item label={t('diyDesigner.props.placeholder')}>
          <Input
            value={field.placeholder ?? ''}
            maxLength={128}
            onChange={(e) => onPatch({ placeholder: e.target.value || undefined }, 'placeholder')}
            data-testid="designer-prop-placeholder"
          />
        </Form.Item>
      ) : null}
      {layout ? null : (
        <Form.Item label={t('diyDesigner.props.help')}>
          <Input
            value={field.help ?? ''}
            maxLength={500}
            onChange={(e) => onPatch({ help: e.target.value || undefined }, 'help')}
            data-testid="designer-prop-help"
          />
        </Form.Item>
      )}
    </>
  );
}

type LayoutEditorProps = FieldEditorProps & { isColumn: boolean; valueType: boolean; serverValue: boolean };

/** 宽度, 必填 / 只读, 列表隐藏 and 唯一. */
export function LayoutProps({ field, onPatch, isColumn, valueType, serverValue }: LayoutEditorProps) {
  const { t } = useTranslation();
  const type = field.type;
  return (
    <>
      {isColumn || type === 'section' || type === 'subTable' ? null : (
        <Form.Item label={t('diyDesigner.props.span')}>
          <Segmented
            block
            size="small"
            value={SPANS.includes(field.span ?? 24) ? (field.span ?? 24) : -1}
            onChange={(span) => {
              if (span > 0) onPatch({ span }, 'span:preset');
            }}
            options={[
              { value: 6, label: '1/4' },
              { value: 8, label: '1/3' },
              { value: 12, label: '1/2' },
              { value: 16, label: '2/3' },
              { value: 24, label: t('diyDesigner.props.spanFull') },
            ]}
            data-testid="designer-prop-span"
          />
          <Slider
            min={1}
            max={24}
            value={field.span ?? 24}
            onChange={(span) => onPatch({ span }, 'span')}
            tooltip={{ formatter: (n) => t('diyDesigner.props.spanCols', { n }) }}
            data-testid="designer-prop-span-slider"
          />
        </Form.Item>
      )}
      {valueType && !serverValue ? (
        <div className={styles.switchRow}>
          <SwitchItem
            checked={field.required ?? false}
            onChange={(required) => onPatch({ required }, 'required')}
            label={t('diyDesigner.props.required')}
            testId="designer-prop-required"
          />
          <SwitchItem
            checked={field.readOnly ?? false}
            onChange={(readOnly) => onPatch({ readOnly }, 'readOnly')}
            label={t('diyDesigner.props.readOnly')}
            testId="designer-prop-readonly"
          />
        </div>
      ) : null}
      {valueType && !isColumn ? (
        <div className={styles.switchRow}>
          <SwitchItem
            checked={field.listHidden ?? false}
            onChange={(listHidden) => onPatch({ listHidden: listHidden || undefined }, 'listHidden')}
            label={t('diyDesigner.props.listHidden')}
            testId="designer-prop-listhidden"
          />
          {UNCARRIED_TYPES.includes(type) ? null : (
            <Tooltip title={t('diyDesigner.props.carryTip')}>
              <span>
                <SwitchItem
                  checked={field.carry ?? false}
                  onChange={(carry) => onPatch({ carry: carry || undefined }, 'carry')}
                  label={t('diyDesigner.props.carry')}
                  testId="designer-prop-carry"
                />
              </span>
            </Tooltip>
          )}
        </div>
      ) : null}
      {UNIQUE_TYPES.includes(type) && !isColumn ? (
        <Form.Item label={t('diyDesigner.props.unique')}>
          <Segmented
            block
            size="small"
            value={field.unique ?? 'none'}
            onChange={(unique) => onPatch({ unique }, 'unique')}
            options={UNIQUE_SCOPES.map((scope) => ({
              value: scope,
              label: t(UNIQUE_LABELS[scope]),
            }))}
            data-testid="designer-prop-unique"
          />
        </Form.Item>
      ) : null}
    </>
  );
}
