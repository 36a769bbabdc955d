import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  QUERY_AGGS,
  QUERY_ALIASES,
  QUERY_PARAM_KINDS,
  type QueryConfigInput,
  type QueryParamKind,
} from '@shuzhi/contracts/diy-query';
import { Button, Checkbox, Form, type FormInstance, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { CategoryTreeSelect } from '../diy-classify/category-tree-select.tsx';
import type { ColumnOption } from '../diy-rollup/diy-rollup.api.ts';
import { nextId } from './query.model.ts';

/** The lists of the query report builder (`query-config-modal.tsx`): sources, columns, parameters, sorting. */

export type Values = {
  title: string;
  categoryId?: number | null;
  remark?: string | null;
  config: QueryConfigInput;
};

/** Field types a keyword parameter may search (text columns of the search index). */
const TEXT_TYPES = ['text', 'textarea', 'email', 'phone', 'idCard', 'url'];
const PARAM_FIELD_TYPES: Record<string, string[]> = {
  region: ['region'],
  option: ['select', 'radio', 'multiSelect', 'checkbox'],
  dateRange: ['date', 'datetime'],
  keyword: TEXT_TYPES,
};

export type FieldsOf = (alias: string | undefined) => ColumnOption[];

/** Title, category and which records count. */
export function TitleFields() {
  const { t } = useTranslation();
  return (
    <Space wrap align="start">
      <Form.Item
        name="title"
        label={t('diyQuery.title')}
        rules={[{ required: true, whitespace: true, message: t('diyQuery.titleRequired') }]}
      >
        <Input maxLength={128} style={{ width: 300 }} data-testid="query-title-input" />
      </Form.Item>
      <Form.Item name="categoryId" label={t('diyQuery.category')}>
        <CategoryTreeSelect style={{ width: 200 }} />
      </Form.Item>
      <Form.Item name={['config', 'statuses']} label={t('diyQuery.statuses')}>
        <Select
          style={{ width: 180 }}
          options={(['submitted', 'approved', 'all'] as const).map((v) => ({
            value: v,
            label: t(`diyQuery.statusOptions.${v}`),
          }))}
        />
      </Form.Item>
    </Space>
  );
}

/** 来源表单: up to four forms (the first is the base), each with its key field when joining on one. */
export function SourceList({
  join,
  forms,
  loading,
  fieldsOf,
}: {
  join: string | undefined;
  forms: { id: number; title: string }[];
  loading: boolean;
  fieldsOf: FieldsOf;
}) {
  const { t } = useTranslation();
  return (
    <Form.List name={['config', 'sources']}>
      {(items, { add, remove }) => (
        <>
          {items.map((item, i) => (
            <Space key={item.key} align="start" wrap style={{ display: 'flex' }}>
              <Tag color={i === 0 ? 'blue' : 'default'} style={{ marginTop: 6 }}>
                {QUERY_ALIASES[i]} {i === 0 ? t('diyQuery.baseSource') : ''}
              </Tag>
              <Form.Item
                name={[item.name, 'tableId']}
                rules={[{ required: true, message: t('diyQuery.sourceRequired') }]}
                style={{ marginBottom: 8 }}
              >
                <Select
                  style={{ width: 300 }}
                  showSearch={{ optionFilterProp: 'label' }}
                  aria-label={t('diyQuery.source')}
                  placeholder={t('diyQuery.source')}
                  loading={loading}
                  options={forms.map((f) => ({
                    value: f.id,
                    label: f.title,
                  }))}
                  data-testid={`query-source-${i}`}
                />
              </Form.Item>
              {join === 'field' ? (
                <Form.Item name={[item.name, 'key']} style={{ marginBottom: 8 }}>
                  <Select
                    style={{ width: 200 }}
                    placeholder={t('diyQuery.key')}
                    aria-label={t('diyQuery.key')}
                    options={fieldsOf(QUERY_ALIASES[i]).map((f) => ({ value: f.value, label: f.label }))}
                  />
                </Form.Item>
              ) : null}
              {i > 0 ? (
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('diyQuery.remove')}
                  onClick={() => remove(item.name)}
                />
              ) : null}
            </Space>
          ))}
          {items.length < QUERY_ALIASES.length ? (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ alias: QUERY_ALIASES[items.length] })}
              data-testid="query-add-source"
            >
              {t('diyQuery.addSource')}
            </Button>
          ) : null}
        </>
      )}
    </Form.List>
  );
}

/** 分组 / 排序 / 图表. */
export function GroupSortChart({ columnOptions }: { columnOptions: Options }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name={['config', 'groupBy']} label={t('diyQuery.groupBy')} extra={t('diyQuery.groupByHint')}>
        <Select
          mode="multiple"
          maxCount={2}
          style={{ width: 400 }}
          options={columnOptions}
          data-testid="query-group"
        />
      </Form.Item>
      <Form.List name={['config', 'sort']}>
        {(items, { add, remove }) => (
          <Form.Item label={t('diyQuery.sort')}>
            {items.map((item) => (
              <Space key={item.key} style={{ display: 'flex' }}>
                <Form.Item name={[item.name, 'column']} style={{ marginBottom: 8 }}>
                  <Select style={{ width: 220 }} options={columnOptions} aria-label={t('diyQuery.sort')} />
                </Form.Item>
                <Form.Item name={[item.name, 'desc']} style={{ marginBottom: 8 }}>
                  <Select
                    style={{ width: 100 }}
                    options={[
                      { value: false, label: t('diyQuery.asc') },
                      { value: true, label: t('diyQuery.desc') },
                    ]}
                  />
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('diyQuery.remove')}
                  onClick={() => remove(item.name)}
                />
              </Space>
            ))}
            {items.length < 3 ? (
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ desc: false })}>
                {t('diyQuery.addSort')}
              </Button>
            ) : null}
          </Form.Item>
        )}
      </Form.List>
      <Space wrap align="start">
        <Form.Item name={['config', 'chart', 'type']} label={t('diyQuery.chart')}>
          <Select
            allowClear
            style={{ width: 140 }}
            placeholder={t('diyQuery.chartNone')}
            options={(['bar', 'line', 'pie'] as const).map((v) => ({
              value: v,
              label: t(`diyQuery.chartTypes.${v}`),
            }))}
            data-testid="query-chart-type"
          />
        </Form.Item>
        <Form.Item name={['config', 'chart', 'category']} label={t('diyQuery.chartCategory')}>
          <Select allowClear style={{ width: 200 }} options={columnOptions} />
        </Form.Item>
        <Form.Item name={['config', 'chart', 'values']} label={t('diyQuery.chartValues')}>
          <Select mode="multiple" maxCount={6} style={{ width: 320 }} options={columnOptions} />
        </Form.Item>
      </Space>
    </>
  );
}

export type Options = { value: string | undefined; label: string }[];

export function ColumnList({
  form,
  fieldsOf,
  sourceOptions,
  systemOptions,
}: {
  form: FormInstance<Values>;
  fieldsOf: FieldsOf;
  sourceOptions: Options;
  systemOptions: { value: string; label: string }[];
}) {
  const { t } = useTranslation();
  const columns = (Form.useWatch(['config', 'columns'], { form, preserve: true }) ?? []) as {
    id: string;
    source?: string;
    formula?: string | null;
    field?: string;
  }[];
  const grouped =
    ((Form.useWatch(['config', 'groupBy'], { form, preserve: true }) ?? []) as string[]).length > 0;
  const ids = () => ((form.getFieldValue(['config', 'columns']) ?? []) as { id: string }[]).map((c) => c?.id);
  return (
    <Form.List name={['config', 'columns']}>
      {(items, { add, remove }) => (
        <>
          {items.map((item, i) => {
            const column = columns[i];
            const computed = typeof column?.formula === 'string';
            return (
              <Space key={item.key} align="start" wrap style={{ display: 'flex' }} data-testid="query-column">
                <Tag style={{ marginTop: 6, minWidth: 36 }}>{column?.id}</Tag>
                <Form.Item
                  name={[item.name, 'label']}
                  rules={[{ required: true, whitespace: true, message: t('diyQuery.columnLabelRequired') }]}
                  style={{ marginBottom: 8 }}
                >
                  <Input
                    style={{ width: 140 }}
                    placeholder={t('diyQuery.columnLabel')}
                    aria-label={t('diyQuery.columnLabel')}
                  />
                </Form.Item>
                {computed ? (
                  <Tooltip title={t('diyQuery.formulaHint')}>
                    <Form.Item
                      name={[item.name, 'formula']}
                      rules={[{ required: true, whitespace: true, message: t('diyQuery.formulaRequired') }]}
                      style={{ marginBottom: 8 }}
                    >
                      <Input
                        style={{ width: 372 }}
                        placeholder="{c2} / {c3} * 100"
                        aria-label={t('diyQuery.formula')}
                      />
                    </Form.Item>
                  </Tooltip>
                ) : (
                  <>
                    <Form.Item name={[item.name, 'source']} style={{ marginBottom: 8 }}>
                      <Select
                        style={{ width: 140 }}
                        options={sourceOptions}
                        aria-label={t('diyQuery.source')}
                      />
                    </Form.Item>
                    <Form.Item
                      name={[item.name, 'field']}
                      rules={[{ required: true, message: t('diyQuery.columnFieldRequired') }]}
                      style={{ marginBottom: 8 }}
                    >
                      <Select
                        style={{ width: 220 }}
                        showSearch={{ optionFilterProp: 'label' }}
                        aria-label={t('diyQuery.columnField')}
                        placeholder={t('diyQuery.columnField')}
                        options={[
                          ...systemOptions,
                          ...fieldsOf(column?.source).map((f) => ({ value: f.value, label: f.label })),
                        ]}
                        onChange={(value: string) => {
                          const label = form.getFieldValue(['config', 'columns', item.name, 'label']);
                          if (label) return;
                          const found =
                            systemOptions.find((o) => o.value === value) ??
                            fieldsOf(column?.source).find((f) => f.value === value);
                          if (found)
                            form.setFieldValue(['config', 'columns', item.name, 'label'], found.label);
                        }}
                        data-testid={`query-column-field-${i}`}
                      />
                    </Form.Item>
                  </>
                )}
                {grouped && !computed ? (
                  <Form.Item name={[item.name, 'agg']} style={{ marginBottom: 8 }}>
                    <Select
                      allowClear
                      style={{ width: 100 }}
                      placeholder={t('diyQuery.agg')}
                      options={QUERY_AGGS.map((a) => ({ value: a, label: t(`diyQuery.aggs.${a}`) }))}
                    />
                  </Form.Item>
                ) : null}
                <Form.Item name={[item.name, 'hidden']} valuePropName="checked" style={{ marginBottom: 8 }}>
                  <Checkbox>{t('diyQuery.hidden')}</Checkbox>
                </Form.Item>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('diyQuery.remove')}
                  onClick={() => remove(item.name)}
                />
              </Space>
            );
          })}
          <Space>
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ id: nextId('c', ids()), label: '', source: 's1' })}
              data-testid="query-add-column"
            >
              {t('diyQuery.addColumn')}
            </Button>
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => add({ id: nextId('c', ids()), label: '', formula: '' })}
              data-testid="query-add-formula"
            >
              {t('diyQuery.addFormula')}
            </Button>
          </Space>
        </>
      )}
    </Form.List>
  );
}

export function ParamList({
  form,
  fieldsOf,
  sourceOptions,
}: {
  form: FormInstance<Values>;
  fieldsOf: FieldsOf;
  sourceOptions: Options;
}) {
  const { t } = useTranslation();
  const params = (Form.useWatch(['config', 'params'], { form, preserve: true }) ?? []) as {
    kind?: string;
    source?: string;
  }[];
  const ids = () => ((form.getFieldValue(['config', 'params']) ?? []) as { id: string }[]).map((p) => p?.id);
  return (
    <Form.List name={['config', 'params']}>
      {(items, { add, remove }) => (
        <>
          {items.map((item, i) => {
            const kind = params[i]?.kind ?? 'period';
            const types = PARAM_FIELD_TYPES[kind];
            const fieldOptions = types
              ? fieldsOf(params[i]?.source).filter((f) => types.includes(f.type))
              : [];
            return (
              <Space key={item.key} align="start" wrap style={{ display: 'flex' }} data-testid="query-param">
                <Form.Item name={[item.name, 'kind']} style={{ marginBottom: 8 }}>
                  <Select
                    style={{ width: 150 }}
                    aria-label={t('diyQuery.paramKind')}
                    options={QUERY_PARAM_KINDS.map((k) => ({
                      value: k,
                      label: t(`diyQuery.paramKinds.${k}`),
                    }))}
                    onChange={(value: QueryParamKind) => {
                      form.setFieldValue(
                        ['config', 'params', item.name, 'label'],
                        t(`diyQuery.paramKinds.${value}`),
                      );
                      form.setFieldValue(['config', 'params', item.name, 'field'], null);
                    }}
                  />
                </Form.Item>
                <Form.Item
                  name={[item.name, 'label']}
                  rules={[{ required: true, whitespace: true }]}
                  style={{ marginBottom: 8 }}
                >
                  <Input style={{ width: 140 }} aria-label={t('diyQuery.paramLabel')} />
                </Form.Item>
                <Form.Item name={[item.name, 'source']} style={{ marginBottom: 8 }}>
                  <Select style={{ width: 140 }} options={sourceOptions} aria-label={t('diyQuery.source')} />
                </Form.Item>
                {types ? (
                  <Form.Item
                    name={[item.name, 'field']}
                    rules={
                      kind === 'keyword'
                        ? []
                        : [{ required: true, message: t('diyQuery.columnFieldRequired') }]
                    }
                    style={{ marginBottom: 8 }}
                  >
                    <Select
                      allowClear={kind === 'keyword'}
                      style={{ width: 200 }}
                      aria-label={t('diyQuery.paramField')}
                      placeholder={kind === 'keyword' ? t('diyQuery.paramAllText') : t('diyQuery.paramField')}
                      options={[
                        ...(kind === 'dateRange'
                          ? [{ value: '$submitTime', label: t('diyQuery.system.$submitTime') }]
                          : []),
                        ...fieldOptions.map((f) => ({ value: f.value, label: f.label })),
                      ]}
                    />
                  </Form.Item>
                ) : null}
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('diyQuery.remove')}
                  onClick={() => remove(item.name)}
                />
              </Space>
            );
          })}
          {items.length < 10 ? (
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() =>
                add({
                  id: nextId('p', ids()),
                  kind: 'period',
                  label: t('diyQuery.paramKinds.period'),
                  source: 's1',
                })
              }
              data-testid="query-add-param"
            >
              {t('diyQuery.addParam')}
            </Button>
          ) : null}
        </>
      )}
    </Form.List>
  );
}
