import { ArrowLeftOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type AnyField,
  CHOICE_TYPES,
  DATE_TYPES,
  type DEFAULT_KINDS,
  FIELD_ID_PATTERN,
  FILE_TYPES,
  type FieldType,
  FORMATTED_TYPES,
  type FormDesign,
  LAYOUT_TYPES,
  MULTI_CHOICE_TYPES,
  NUMBER_TYPES,
  PICKER_TYPES,
  SERVER_VALUE_TYPES,
  UNIQUE_SCOPES,
} from '@shuzhi/contracts/diy-form';
import {
  Alert,
  Button,
  Divider,
  Form,
  Input,
  InputNumber,
  Segmented,
  Select,
  Slider,
  Switch,
  Tag,
  Typography,
} from 'antd';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { allIds, canBeColumn, type FieldPath, fieldAt, PALETTE, pathKey } from './designer.model.ts';
import styles from './designer.module.css';
import { FieldIcon } from './field-icons.tsx';
import { FormulaEditor, OptionsEditor, ShowWhenEditor } from './rule-editors.tsx';

const UNIQUE_LABELS = {
  none: 'diyDesigner.props.uniqueNone',
  form: 'diyDesigner.props.uniqueForm',
  period: 'diyDesigner.props.uniquePeriod',
} as const;

type DefaultKind = (typeof DEFAULT_KINDS)[number];

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

const SPANS = [6, 8, 12, 16, 24];
const TEXT_LIKE: readonly FieldType[] = ['text', 'textarea', ...FORMATTED_TYPES];
const UNIQUE_TYPES: readonly FieldType[] = [
  'text',
  'integer',
  'decimal',
  'money',
  ...FORMATTED_TYPES,
  'serialNo',
];

function defaultKinds(type: FieldType): DefaultKind[] {
  const kinds: DefaultKind[] = ['none'];
  if (
    !FILE_TYPES.includes(type) &&
    !SERVER_VALUE_TYPES.includes(type) &&
    !PICKER_TYPES.includes(type) &&
    type !== 'region' &&
    type !== 'richText' &&
    type !== 'subTable'
  ) {
    kinds.push('constant');
  }
  if (type === 'org') kinds.push('fillerOrg');
  if (type === 'region') kinds.push('fillerRegion');
  if (type === 'text' || type === 'user') kinds.push('fillerName');
  if (DATE_TYPES.includes(type)) kinds.push('today', 'period');
  return kinds;
}

function SwitchItem(props: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  testId: string;
}) {
  return (
    <span className={styles.switchItem}>
      <Switch
        size="small"
        id={props.testId}
        checked={props.checked}
        onChange={props.onChange}
        data-testid={props.testId}
      />
      <label htmlFor={props.testId}>{props.label}</label>
    </span>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <Divider titlePlacement="start" plain style={{ margin: '14px 0 10px', fontSize: 13 }}>
        {title}
      </Divider>
      {children}
    </>
  );
}

const num = (value: number | null) => (value === null ? undefined : value);

/** The selected field's settings: what it is called, how wide, its rules, options, default, show-when, formula. */
export function PropertyPanel(props: PropertyPanelProps) {
  const { t } = useTranslation();
  const { design, path, onPatch } = props;
  const field = fieldAt(design, path);
  const key = pathKey(path);
  const [idDraft, setIdDraft] = useState(path.column ?? path.id);
  useEffect(() => setIdDraft(path.column ?? path.id), [path.column, path.id]);
  if (!field) return null;

  const type = field.type;
  const isColumn = !!path.column;
  const layout = LAYOUT_TYPES.includes(type);
  const valueType = !layout && type !== 'subTable';
  const serverValue = SERVER_VALUE_TYPES.includes(type);
  const locked = props.locked.has(key);
  const taken = allIds(design);
  taken.delete(path.column ?? path.id);
  const idError = !FIELD_ID_PATTERN.test(idDraft)
    ? t('diyDesigner.props.idInvalid')
    : taken.has(idDraft)
      ? t('diyDesigner.props.idTaken')
      : null;
  const commitId = () => {
    if (!idError && idDraft !== (path.column ?? path.id)) props.onRename(idDraft);
  };
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
  const defaultKind = field.default?.kind ?? 'none';
  const choiceValues =
    field.options?.source === 'options'
      ? field.options.items.map((o) => ({ value: o.value, label: o.label }))
      : null;

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
          <Form.Item
            label={t(type === 'section' ? 'diyDesigner.props.subtitle' : 'diyDesigner.props.content')}
          >
            <Input.TextArea
              autoSize={{ minRows: 2, maxRows: 8 }}
              maxLength={5000}
              value={field.content ?? ''}
              onChange={(e) => onPatch({ content: e.target.value || undefined }, 'content')}
              data-testid="designer-prop-content"
            />
          </Form.Item>
        ) : null}
        {valueType &&
        !serverValue &&
        !FILE_TYPES.includes(type) &&
        type !== 'radio' &&
        type !== 'checkbox' ? (
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
                  onClick={() => props.onSelect({ id: path.id, column: column.id })}
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
              onChange={(ty) => props.onAddColumn(path.id, ty)}
              data-testid="designer-add-column"
            />
          </Section>
        ) : null}
        {kinds.length > 1 ? (
          <Section title={t('diyDesigner.props.sectionDefault')}>
            <Form.Item label={t('diyDesigner.props.defaultKind')}>
              <Select<DefaultKind>
                value={defaultKind}
                options={kinds.map((k) => ({ value: k, label: t(`diyDesigner.props.defaultKinds.${k}`) }))}
                onChange={(kind) =>
                  onPatch({ default: kind === 'none' ? undefined : { kind } }, 'default:kind')
                }
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
        ) : null}
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

const DATE_HINT: Partial<Record<FieldType, string>> = {
  date: '2026-01-01',
  datetime: '2026-01-01 08:00:00',
  month: '2026-01',
  quarter: '2026-Q1',
  year: '2026',
};
