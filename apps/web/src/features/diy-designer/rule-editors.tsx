import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  type AnyField,
  CONDITION_OPS,
  type ConditionOp,
  type FieldOption,
  LAYOUT_TYPES,
  type OptionsSource,
  type ShowWhen,
} from '@shuzhi/contracts/diy-form';
import { FORMULA_FUNCTIONS, FormulaError, parseFormula } from '@shuzhi/contracts/diy-formula';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Input, Segmented, Select, Space, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAllDicts } from '../../platform/dict/dict.store.ts';
import styles from './designer.module.css';
import { DESIGNER_KEYS, designerApi } from './diy-designer.api.ts';

/** A choice field's options: its own list (label and value) or a dictionary. */
export function OptionsEditor({
  value,
  onChange,
  testId,
}: {
  value: OptionsSource | null | undefined;
  onChange: (next: OptionsSource | undefined, key: string) => void;
  testId: string;
}) {
  const { t } = useTranslation();
  const [mode, setMode] = useState<OptionsSource['source']>(value?.source ?? 'options');
  const source = value?.source ?? mode;
  const items: FieldOption[] = value?.source === 'options' ? value.items : [];
  const dicts = useAllDicts();
  const types = useQuery({
    queryKey: DESIGNER_KEYS.dictTypes,
    queryFn: designerApi.dictTypes,
    enabled: source === 'dict',
    retry: 0,
    staleTime: 60_000,
  });
  // Without the dictionary admin's list, the codes of the signed-in user's dictionary cache still serve.
  const dictChoices = types.data
    ? types.data.map((d) => ({ value: d.code, label: `${d.name}（${d.code}）` }))
    : Object.keys(dicts.data ?? {}).map((code) => ({ value: code, label: code }));
  const setItems = (next: FieldOption[], key: string) =>
    onChange(next.length > 0 ? { source: 'options', items: next } : undefined, key);
  return (
    <div data-testid={testId}>
      <Segmented
        block
        size="small"
        value={source}
        onChange={(next) => {
          setMode(next as OptionsSource['source']);
          if (next === 'dict') {
            onChange(
              dictChoices[0] ? { source: 'dict', dictCode: dictChoices[0].value } : undefined,
              'options:dict',
            );
          } else {
            setItems(
              [1, 2, 3].map((n) => ({ label: `${t('diyDesigner.canvas.option')}${n}`, value: String(n) })),
              'options:source',
            );
          }
        }}
        options={[
          { value: 'options', label: t('diyDesigner.props.sourceOptions') },
          { value: 'dict', label: t('diyDesigner.props.sourceDict') },
        ]}
        style={{ marginBottom: 8 }}
        data-testid={`${testId}-source`}
      />
      {source === 'dict' ? (
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          style={{ width: '100%' }}
          placeholder={t('diyDesigner.props.dictPlaceholder')}
          value={value?.source === 'dict' ? value.dictCode : undefined}
          options={dictChoices}
          loading={types.isLoading}
          onChange={(code: string) => onChange({ source: 'dict', dictCode: code }, 'options:dict')}
          data-testid={`${testId}-dict`}
        />
      ) : (
        <>
          <div className={styles.optionHead}>
            <span>{t('diyDesigner.props.optionLabel')}</span>
            <span>{t('diyDesigner.props.optionValue')}</span>
          </div>
          {items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are edited in place; the position is the row.
            <Space.Compact key={index} block style={{ marginBottom: 4 }}>
              <Input
                size="small"
                value={item.label}
                aria-label={t('diyDesigner.props.optionLabel')}
                onChange={(e) =>
                  setItems(
                    items.map((o, i) => (i === index ? { ...o, label: e.target.value } : o)),
                    `options:${index}:label`,
                  )
                }
                data-testid={`${testId}-label-${index}`}
              />
              <Input
                size="small"
                value={item.value}
                aria-label={t('diyDesigner.props.optionValue')}
                onChange={(e) =>
                  setItems(
                    items.map((o, i) => (i === index ? { ...o, value: e.target.value } : o)),
                    `options:${index}:value`,
                  )
                }
                style={{ maxWidth: 72 }}
                data-testid={`${testId}-value-${index}`}
              />
              <Button
                size="small"
                icon={<DeleteOutlined />}
                aria-label={t('diyDesigner.props.removeOption')}
                onClick={() =>
                  setItems(
                    items.filter((_, i) => i !== index),
                    'options:remove',
                  )
                }
              />
            </Space.Compact>
          ))}
          <Button
            size="small"
            type="dashed"
            block
            icon={<PlusOutlined />}
            onClick={() => {
              const used = new Set(items.map((o) => o.value));
              let n = items.length + 1;
              while (used.has(String(n))) n++;
              setItems(
                [...items, { label: `${t('diyDesigner.canvas.option')}${n}`, value: String(n) }],
                'options:add',
              );
            }}
            data-testid={`${testId}-add`}
          >
            {t('diyDesigner.props.addOption')}
          </Button>
        </>
      )}
    </div>
  );
}

const NO_VALUE_OPS: readonly ConditionOp[] = ['empty', 'notEmpty'];
const LIST_OPS: readonly ConditionOp[] = ['in', 'notIn'];

/** "Show when": rules of field + operator + value, all or any of them. */
export function ShowWhenEditor({
  value,
  candidates,
  onChange,
}: {
  value: ShowWhen | null | undefined;
  /** Fields the rules may name (the same level, and for columns the form's fields too). */
  candidates: readonly AnyField[];
  onChange: (next: ShowWhen | undefined, key: string) => void;
}) {
  const { t } = useTranslation();
  const rules = value?.rules ?? [];
  const set = (next: ShowWhen['rules'], key: string, logic = value?.logic ?? 'and') =>
    onChange(next.length > 0 ? { logic, rules: next } : undefined, key);
  const fieldOptions = candidates
    .filter((f) => !LAYOUT_TYPES.includes(f.type) && f.type !== 'subTable')
    .map((f) => ({ value: f.id, label: f.label }));
  return (
    <div data-testid="designer-showwhen">
      {rules.length === 0 ? (
        <Typography.Text type="secondary">{t('diyDesigner.props.showWhenNone')}</Typography.Text>
      ) : (
        <Space size={4} style={{ marginBottom: 8 }}>
          <span>{t('diyDesigner.props.showWhenLogic')}</span>
          <Segmented
            size="small"
            value={value?.logic ?? 'and'}
            onChange={(logic) => set(rules, 'showWhen:logic', logic as 'and' | 'or')}
            options={[
              { value: 'and', label: t('diyDesigner.props.logicAnd') },
              { value: 'or', label: t('diyDesigner.props.logicOr') },
            ]}
          />
        </Space>
      )}
      {rules.map((rule, index) => {
        const target = candidates.find((f) => f.id === rule.field);
        const choices =
          target?.options?.source === 'options'
            ? target.options.items.map((o) => ({ value: o.value, label: o.label }))
            : null;
        const update = (patch: Partial<(typeof rules)[number]>, key: string) =>
          set(
            rules.map((r, i) => (i === index ? { ...r, ...patch } : r)),
            `showWhen:${index}:${key}`,
          );
        const list = LIST_OPS.includes(rule.op);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rules are edited in place; the position is the rule.
          <div key={index} className={styles.ruleRow} data-testid={`designer-showwhen-rule-${index}`}>
            <Select
              size="small"
              className={styles.ruleField}
              value={rule.field}
              options={fieldOptions}
              aria-label={t('diyDesigner.props.showWhenField')}
              onChange={(field: string) => update({ field, value: undefined }, 'field')}
              data-testid={`designer-showwhen-field-${index}`}
            />
            <Select
              size="small"
              className={styles.ruleOp}
              value={rule.op}
              aria-label="op"
              options={CONDITION_OPS.map((op) => ({ value: op, label: t(`diyDesigner.props.ops.${op}`) }))}
              onChange={(op: ConditionOp) =>
                update(
                  {
                    op,
                    value: NO_VALUE_OPS.includes(op) ? undefined : LIST_OPS.includes(op) ? [] : rule.value,
                  },
                  'op',
                )
              }
              data-testid={`designer-showwhen-op-${index}`}
            />
            {NO_VALUE_OPS.includes(rule.op) ? null : choices ? (
              <Select
                size="small"
                className={styles.ruleValue}
                mode={list ? 'multiple' : undefined}
                value={rule.value as string | string[] | undefined}
                options={choices}
                aria-label={t('diyDesigner.props.showWhenValue')}
                onChange={(next) => update({ value: next }, 'value')}
                data-testid={`designer-showwhen-value-${index}`}
              />
            ) : (
              <Input
                size="small"
                className={styles.ruleValue}
                value={Array.isArray(rule.value) ? rule.value.join(',') : String(rule.value ?? '')}
                placeholder={t('diyDesigner.props.showWhenValue')}
                onChange={(e) =>
                  update(
                    { value: list ? e.target.value.split(/[,，]/).filter(Boolean) : e.target.value },
                    'value',
                  )
                }
                data-testid={`designer-showwhen-value-${index}`}
              />
            )}
            <Button
              size="small"
              type="text"
              icon={<DeleteOutlined />}
              aria-label={t('diyDesigner.props.removeRule')}
              onClick={() =>
                set(
                  rules.filter((_, i) => i !== index),
                  'showWhen:remove',
                )
              }
            />
          </div>
        );
      })}
      <Button
        size="small"
        type="dashed"
        block
        icon={<PlusOutlined />}
        disabled={fieldOptions.length === 0 || rules.length >= 20}
        onClick={() =>
          set([...rules, { field: fieldOptions[0]?.value ?? '', op: 'eq', value: '' }], 'showWhen:add')
        }
        style={{ marginTop: 4 }}
        data-testid="designer-showwhen-add"
      >
        {t('diyDesigner.props.showWhenAdd')}
      </Button>
    </div>
  );
}

/** Why a formula does not parse, in the UI language (null: it parses). */
function formulaProblem(source: string, t: TFunction): string | null {
  if (!source.trim()) return t('diyDesigner.props.formulaEmpty');
  try {
    parseFormula(source);
    return null;
  } catch (error) {
    if (error instanceof FormulaError) {
      return t(`diyDesigner.props.formulaErrors.${error.code}`, { pos: error.position + 1 });
    }
    return t('diyDesigner.props.formulaErrors.syntax', { pos: 1 });
  }
}

/** A formula with buttons that insert `{field}` references and functions at the cursor, checked live. */
export function FormulaEditor({
  value,
  references,
  onChange,
}: {
  value: string;
  /** Fields the formula may use: `{id}` (and `{sub.col}` for sub-table columns). */
  references: { ref: string; label: string }[];
  onChange: (next: string, key: string) => void;
}) {
  const { t } = useTranslation();
  const area = useRef<HTMLTextAreaElement | null>(null);
  const problem = formulaProblem(value, t);
  const insert = (text: string) => {
    const element = area.current;
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    const next = `${value.slice(0, start)}${text}${value.slice(end)}`;
    onChange(next, 'formula:insert');
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(start + text.length, start + text.length);
    });
  };
  return (
    <div data-testid="designer-formula">
      <Input.TextArea
        ref={(instance) => {
          area.current = instance?.resizableTextArea?.textArea ?? null;
        }}
        autoSize={{ minRows: 2, maxRows: 6 }}
        value={value}
        placeholder={t('diyDesigner.props.formulaPlaceholder')}
        onChange={(e) => onChange(e.target.value, 'formula')}
        className={styles.formulaInput}
        status={problem && value.trim() ? 'error' : undefined}
        data-testid="designer-formula-input"
      />
      {value.trim() ? (
        <Alert
          type={problem ? 'error' : 'success'}
          showIcon
          title={problem ?? t('diyDesigner.props.formulaOk')}
          style={{ marginTop: 6, padding: '4px 8px', fontSize: 12 }}
          data-testid="designer-formula-status"
        />
      ) : null}
      <div className={styles.formulaGroup}>{t('diyDesigner.props.formulaInsert')}</div>
      <div className={styles.chipRow}>
        {references.map((r) => (
          <Button
            key={r.ref}
            size="small"
            onClick={() => insert(`{${r.ref}}`)}
            data-testid={`designer-formula-ref-${r.ref}`}
          >
            {r.label}
          </Button>
        ))}
      </div>
      <div className={styles.formulaGroup}>{t('diyDesigner.props.formulaFunctions')}</div>
      <div className={styles.chipRow}>
        {FORMULA_FUNCTIONS.map((name) => (
          <Button key={name} size="small" type="dashed" onClick={() => insert(`${name}()`)}>
            {name}
          </Button>
        ))}
      </div>
    </div>
  );
}
