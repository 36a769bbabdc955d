import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  type AnyField,
  DATE_TYPES,
  FILE_TYPES,
  type FieldType,
  type FormDesign,
  LAYOUT_TYPES,
  NUMBER_TYPES,
  PICKER_TYPES,
  SERVER_VALUE_TYPES,
} from '@shuzhi/contracts/diy-form';
import { Alert, Button, Form, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { type FieldPath, fieldAt, pathKey } from './designer.model.ts';
import styles from './designer.module.css';
import { FieldIcon } from './field-icons.tsx';
import { BasicProps, LayoutProps } from './property-basics.tsx';
import { Section } from './property-parts.tsx';
import { RuleProps } from './property-rules.tsx';
import { ChoiceProps, type DefaultKind, DefaultProps, SubTableProps } from './property-values.tsx';
import { FormulaEditor, ShowWhenEditor } from './rule-editors.tsx';

export type PropertyPanelProps = {
  design: FormDesign;
  path: FieldPath;
  /** Published paths: their id is fixed. */
  locked: ReadonlySet<string>;
  problems?: string[];
  /** Edits of the selected field; the same `key` in a row is one undo step. */
  onPatch: (patch: Partial<AnyField>, key: string) => void;
  onRename: (next: string) => void;
  onSelect: (path: FieldPath) => void;
  onAddColumn: (sub: string, type: FieldType) => void;
};

function defaultKinds(type: FieldType): DefaultKind[] {
  const kinds: DefaultKind[] = ['none'];
  if (
    !FILE_TYPES.includes(type) &&
    !SERVER_VALUE_TYPES.includes(type) &&
    !PICKER_TYPES.includes(type) &&
    type !== 'region' &&
    type !== 'richText' &&
    type !== 'subTable' &&
    type !== 'location'
  ) {
    kinds.push('constant');
  }
  if (type === 'org') kinds.push('fillerOrg');
  if (type === 'region') kinds.push('fillerRegion');
  if (type === 'text' || type === 'user') kinds.push('fillerName');
  if (DATE_TYPES.includes(type)) kinds.push('today', 'period');
  return kinds;
}

/**
 * The selected field's settings: what it is called, how wide, its rules, options, default, show-when, formula.
 * Each group is a component of its own (`property-basics`, `-rules`, `-values`); this panel picks them.
 */
export function PropertyPanel(props: PropertyPanelProps) {
  const { t } = useTranslation();
  const { design, path, onPatch } = props;
  const field = fieldAt(design, path);
  const key = pathKey(path);
  if (!field) return null;

  const type = field.type;
  const isColumn = !!path.column;
  const layout = LAYOUT_TYPES.includes(type);
  const valueType = !layout && type !== 'subTable';
  const serverValue = SERVER_VALUE_TYPES.includes(type);
  const parent = isColumn ? design.fields.find((f) => f.id === path.id) : undefined;
  const siblings: AnyField[] = isColumn ? (parent?.columns ?? []) : design.fields;
  const candidates = [...siblings, ...(isColumn ? design.fields : [])].filter((f) => f.id !== field.id);
  const references = [
    ...siblings
      .filter((f) => f.id !== field.id && (NUMBER_TYPES.includes(f.type) || f.type === 'formula'))
      .map((f) => ({ ref: f.id, label: f.label })),
    ...(isColumn
      ? []
      : design.fields
          .filter((f) => f.type === 'subTable')
          .flatMap((s) => [
            { ref: s.id, label: s.label },
            ...(s.columns ?? [])
              .filter((c) => NUMBER_TYPES.includes(c.type) || c.type === 'formula')
              .map((c) => ({ ref: `${s.id}.${c.id}`, label: `${s.label}.${c.label}` })),
          ])),
  ];
  const kinds = defaultKinds(type);
  const editor = { field, onPatch };

  return (
    <div className={styles.propBody} data-testid="designer-props">
      {isColumn && parent ? (
        <Button
          size="small"
          type="link"
          icon={<ArrowLeftOutlined />}
          onClick={() => props.onSelect({ id: parent.id })}
          style={{ paddingLeft: 0, marginBottom: 6 }}
        >
          {t('diyDesigner.props.backToTable', { label: parent.label })}
        </Button>
      ) : null}
      <div className={styles.propType}>
        <span className={styles.propTypeIcon}>
          <FieldIcon type={type} />
        </span>
        <span>{t(`diyDesigner.types.${type}`)}</span>
        <Tag className={styles.propTypeId}>{key}</Tag>
      </div>
      {props.problems?.length ? (
        <Alert
          type="error"
          showIcon
          title={props.problems.join('；')}
          style={{ marginBottom: 12 }}
          data-testid="designer-props-problems"
        />
      ) : null}
      <Form layout="vertical" size="small" className={styles.propForm} onFinish={() => undefined}>
        <BasicProps
          {...editor}
          design={design}
          path={path}
          locked={props.locked.has(key)}
          layout={layout}
          valueType={valueType}
          serverValue={serverValue}
          onRename={props.onRename}
        />
        <LayoutProps {...editor} isColumn={isColumn} valueType={valueType} serverValue={serverValue} />
        <RuleProps {...editor} />
        <ChoiceProps {...editor} fieldKey={key} />
        {type === 'formula' ? (
          <Section title={t('diyDesigner.props.sectionFormula')}>
            <FormulaEditor
              value={field.formula ?? ''}
              references={references}
              onChange={(formula, k) => onPatch({ formula }, k)}
            />
          </Section>
        ) : null}
        {type === 'subTable' && !isColumn ? (
          <SubTableProps
            {...editor}
            design={design}
            path={path}
            onSelect={props.onSelect}
            onAddColumn={props.onAddColumn}
          />
        ) : null}
        {kinds.length > 1 ? <DefaultProps {...editor} kinds={kinds} /> : null}
        {type !== 'section' ? (
          <Section title={t('diyDesigner.props.sectionShowWhen')}>
            <ShowWhenEditor
              value={field.showWhen}
              candidates={candidates}
              onChange={(showWhen, k) => onPatch({ showWhen }, k)}
            />
          </Section>
        ) : null}
      </Form>
    </div>
  );
}
