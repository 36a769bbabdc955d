import { PlusOutlined } from '@ant-design/icons';
import {
  CHOICE_TYPES,
  type DEFAULT_KINDS,
  FILE_TYPES,
  type FieldType,
  type FormDesign,
  MULTI_CHOICE_TYPES,
  NUMBER_TYPES,
  PICKER_TYPES,
} from '@shuzhi/contracts/diy-form';
import { Form, Input, InputNumber, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { canBeColumn, type FieldPath, PALETTE } from './designer.model.ts';
import styles from './designer.module.css';
import { FieldIcon } from './field-icons.tsx';
import { DATE_HINT, type FieldEditorProps, num, Section, SwitchItem } from './property-parts.tsx';
import { OptionsEditor } from './rule-editors.tsx';

export type DefaultKind = (typeof DEFAULT_KINDS)[number];

/** 多选 of pickers, 选项 of choices, and the accepted files of file fields. */
export function ChoiceProps({ field, onPatch, fieldKey }: FieldEditorProps & { fieldKey: string }) {
  const { t } = useTranslation();
  const type = field.type;
  const key = fieldKey;
  return (
    <>
      {PICKER_TYPES.includes(type) ? (
        <div className={styles.switchRow}>
          <SwitchItem
            checked={field.multiple ?? false}
            onChange={(multiple) => onPatch({ multiple }, 'multiple')}
            label={t('diyDesigner.props.multiple')}
            testId="designer-prop-multiple"
          />
        </div>
      ) : null}
      {CHOICE_TYPES.includes(type) ? (
        <Section title={t('diyDesigner.props.sectionOptions')}>
          <OptionsEditor
            key={key}
            value={field.options}
            onChange={(options, k) => onPatch({ options }, k)}
            testId="designer-options"
          />
        </Section>
      ) : null}
      {FILE_TYPES.includes(type) ? (
        <Section title={t('diyDesigner.props.sectionFiles')}>
          <Form.Item label={t('diyDesigner.props.accept')} help={t('diyDesigner.props.acceptHint')}>
            <Select
              mode="tags"
              value={field.accept ?? []}
              tokenSeparators={[',', '，', ' ']}
              onChange={(accept: string[]) => {
                const clean = accept
                  .map((a) => a.replace(/^\./, '').toLowerCase())
                  .filter((a) => /^[a-z0-9]{1,10}$/.test(a));
                onPatch({ accept: clean.length > 0 ? clean : undefined }, 'accept');
              }}
              data-testid="designer-prop-accept"
            />
          </Form.Item>
          <Form.Item label={t('diyDesigner.props.maxFiles')}>
            <InputNumber
              min={1}
              max={50}
              precision={0}
              value={field.maxFiles ?? null}
              onChange={(v) => onPatch({ maxFiles: num(v as number | null) }, 'maxFiles')}
            />
          </Form.Item>
        </Section>
      ) : null}
    </>
  );
}

type SubTableEditorProps = FieldEditorProps & {
  design: FormDesign;
  path: FieldPath;
  onSelect: (path: FieldPath) => void;
  onAddColumn: (sub: string, type: FieldType) => void;
};

/** A sub-table's 行数 bounds, its columns (each opens its own settings) and 添加列. */
export function SubTableProps({ field, onPatch, design, path, onSelect, onAddColumn }: SubTableEditorProps) {
  const { t } = useTranslation();
  return (
    <Section title={t('diyDesigner.props.sectionColumns')}>
      <div className={styles.pairRow}>
        <Form.Item label={t('diyDesigner.props.minRows')}>
          <InputNumber
            min={0}
            max={1000}
            precision={0}
            style={{ width: '100%' }}
            value={field.minRows ?? null}
            onChange={(v) => onPatch({ minRows: num(v as number | null) }, 'minRows')}
          />
        </Form.Item>
        <Form.Item label={t('diyDesigner.props.maxRows')}>
          <InputNumber
            min={1}
            max={1000}
            precision={0}
            style={{ width: '100%' }}
            value={field.maxRows ?? null}
            onChange={(v) => onPatch({ maxRows: num(v as number | null) }, 'maxRows')}
          />
        </Form.Item>
      </div>
      <div className={styles.columnList}>
        {(design.fields.find((f) => f.id === path.id)?.columns ?? []).map((column) => (
          <button
            type="button"
            key={column.id}
            className={styles.columnListItem}
            onClick={() => onSelect({ id: path.id, column: column.id })}
          >
            <FieldIcon type={column.type} />
            <span>{column.label}</span>
            <Typography.Text type="secondary">{t('diyDesigner.props.editColumn')}</Typography.Text>
          </button>
        ))}
      </div>
      <Select<FieldType>
        style={{ width: '100%' }}
        placeholder={
          <span>
            <PlusOutlined /> {t('diyDesigner.props.addColumn')}
          </span>
        }
        value={null}
        showSearch={{ optionFilterProp: 'label' }}
        options={PALETTE.filter((g) => g.types.some(canBeColumn)).map((g) => ({
          label: t(`diyDesigner.palette.groups.${g.key}`),
          title: g.key,
          options: g.types
            .filter(canBeColumn)
            .map((ty) => ({ value: ty, label: t(`diyDesigner.types.${ty}`) })),
        }))}
        onChange={(ty) => onAddColumn(path.id, ty)}
        data-testid="designer-add-column"
      />
    </Section>
  );
}

/** 默认值: its kind, and the constant of a constant default. */
export function DefaultProps({ field, onPatch, kinds }: FieldEditorProps & { kinds: DefaultKind[] }) {
  const { t } = useTranslation();
  const type = field.type;
  const defaultKind = field.default?.kind ?? 'none';
  const choiceValues =
    field.options?.source === 'options'
      ? field.options.items.map((o) => ({ value: o.value, label: o.label }))
      : null;
  return (
    <Section title={t('diyDesigner.props.sectionDefault')}>
      <Form.Item label={t('diyDesigner.props.defaultKind')}>
        <Select<DefaultKind>
          value={defaultKind}
          options={kinds.map((k) => ({ value: k, label: t(`diyDesigner.props.defaultKinds.${k}`) }))}
          onChange={(kind) => onPatch({ default: kind === 'none' ? undefined : { kind } }, 'default:kind')}
          data-testid="designer-prop-default-kind"
        />
      </Form.Item>
      {defaultKind === 'constant' ? (
        <Form.Item label={t('diyDesigner.props.defaultValue')}>
          {choiceValues ? (
            <Select
              mode={MULTI_CHOICE_TYPES.includes(type) ? 'multiple' : undefined}
              value={field.default?.value as string | string[] | undefined}
              options={choiceValues}
              onChange={(value) => onPatch({ default: { kind: 'constant', value } }, 'default:value')}
              data-testid="designer-prop-default-value"
            />
          ) : NUMBER_TYPES.includes(type) ? (
            <InputNumber
              style={{ width: '100%' }}
              value={typeof field.default?.value === 'number' ? field.default.value : null}
              onChange={(value) =>
                onPatch(
                  { default: { kind: 'constant', value: num(value as number | null) } },
                  'default:value',
                )
              }
              data-testid="designer-prop-default-value"
            />
          ) : (
            <Input
              value={typeof field.default?.value === 'string' ? field.default.value : ''}
              placeholder={DATE_HINT[type]}
              onChange={(e) =>
                onPatch(
                  { default: { kind: 'constant', value: e.target.value || undefined } },
                  'default:value',
                )
              }
              data-testid="designer-prop-default-value"
            />
          )}
        </Form.Item>
      ) : null}
    </Section>
  );
}
