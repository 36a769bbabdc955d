import { DeleteOutlined, FundOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ROLLUP_AGGS,
  ROLLUP_ORG_TYPES,
  ROLLUP_REGION_LEVELS,
  type RollupAgg,
  type RollupConfig,
} from '@shuzhi/contracts/diy-rollup';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  type ButtonProps,
  Form,
  Input,
  Modal,
  Radio,
  Select,
  Space,
  Tooltip,
  Typography,
} from 'antd';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { CategoryTreeSelect } from '../diy-classify/category-tree-select.tsx';
import { type DialogReportKind, NewReportButton, useDialogReportRows } from '../report-entry.tsx';
import { useReclickGuard } from '../use-reclick-guard.ts';
import { type ColumnOption, ROLLUP_KEYS, rollupApi, rollupPath } from './diy-rollup.api.ts';
import { MEASURE_FIELD_TYPES } from './rollup.model.ts';

/** A roll-up to edit (`id`), or a new one (no id). */
export type RollupTarget = {
  id?: number;
  title?: string;
  categoryId?: number | null;
  remark?: string | null;
  config?: RollupConfig | null;
} | null;

type MeasureValues = { id?: string; label: string; agg: RollupAgg; field?: string | null };
type Values = {
  title: string;
  categoryId?: number | null;
  remark?: string | null;
  config: {
    sourceTableId?: number;
    dimension: 'org' | 'region';
    orgType: RollupConfig['orgType'];
    regionField?: string | null;
    regionLevel: number;
    statuses: RollupConfig['statuses'];
    measures: MeasureValues[];
  };
};

const DEFAULTS: Values['config'] = {
  dimension: 'org',
  orgType: 'street',
  regionField: null,
  regionLevel: 4,
  statuses: 'submitted',
  measures: [],
};

/** Keeps the ids measures had; new ones take the next free `m<n>`. */
function withIds(measures: MeasureValues[]): RollupConfig['measures'] {
  const used = new Set(measures.map((m) => m.id).filter((id): id is string => !!id));
  let next = 1;
  return measures.map((m) => {
    let id = m.id;
    if (!id) {
      while (used.has(`m${next}`)) next += 1;
      id = `m${next}`;
      used.add(id);
    }
    return { id, label: m.label.trim(), agg: m.agg, field: m.field ?? null };
  });
}

/** `config.measures.0.field` → `['config', 'measures', 0, 'field']`. */
const namePath = (path: string) => path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * 新建 / 编辑汇总表: title, category, the source form (published forms the caller administers), grouping
 * (org level, or a region field and level), measures (name, function, number field) and which records count.
 * Server field errors (F1041, validation) are shown beside the fields.
 */
export function RollupConfigModal({
  target,
  onClose,
  onSaved,
}: {
  target: RollupTarget;
  onClose: () => void;
  onSaved: (id: number, isNew: boolean) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const open = target !== null;
  const isNew = !target?.id;

  const sources = useQuery({ queryKey: ROLLUP_KEYS.sources, queryFn: rollupApi.sources, enabled: open });
  const sourceId = Form.useWatch(['config', 'sourceTableId'], form);
  const dimension = Form.useWatch(['config', 'dimension'], form);
  const fields = useQuery({
    queryKey: ROLLUP_KEYS.fields(sourceId ?? 0),
    queryFn: () => rollupApi.fields(sourceId as number),
    enabled: open && typeof sourceId === 'number',
  });
  const top = useMemo(() => (fields.data ?? []).filter((f) => f.parent === null), [fields.data]);
  const numberFields = useMemo(() => top.filter((f) => MEASURE_FIELD_TYPES.includes(f.type)), [top]);
  const regionFields = useMemo(() => top.filter((f) => f.type === 'region'), [top]);

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue({
      title: target?.title ?? '',
      categoryId: target?.categoryId ?? null,
      remark: target?.remark ?? null,
      config: target?.config ? { ...DEFAULTS, ...target.config } : { ...DEFAULTS },
    });
  }, [open, target, form]);

  const fillNumbers = useCallback(
    (list: ColumnOption[]) => {
      const measures: MeasureValues[] = [
        ...list.map((f) => ({ label: f.label, agg: 'sum' as const, field: f.value })),
        { label: t('diyLoad.countLabel'), agg: 'count', field: null },
      ];
      form.setFieldValue(['config', 'measures'], measures);
    },
    [form, t],
  );

  // A new roll-up (or a new source) starts with the sums of the source's number fields and a record count.
  useEffect(() => {
    if (!open || !fields.data) return;
    const current = (form.getFieldValue(['config', 'measures']) as MeasureValues[] | undefined) ?? [];
    if (current.length === 0) fillNumbers(numberFields);
  }, [open, fields.data, numberFields, form, fillNumbers]);

  const save = useReclickGuard(() => {
    void (async () => {
      let values: Values;
      try {
        values = await form.validateFields();
      } catch {
        return;
      }
      setSaving(true);
      setFailure(null);
      const config = {
        ...values.config,
        sourceTableId: values.config.sourceTableId as number,
        regionField: values.config.dimension === 'region' ? (values.config.regionField ?? null) : null,
        measures: withIds(values.config.measures ?? []),
      } as RollupConfig;
      const body = {
        title: values.title.trim(),
        categoryId: values.categoryId ?? null,
        remark: values.remark ?? null,
        config,
      };
      try {
        let id = target?.id;
        if (id) await rollupApi.update({ ...body, id });
        else id = await rollupApi.add(body);
        message.success(isNew ? t('diyLoad.created') : t('diyLoad.saved'));
        onSaved(id, isNew);
        onClose();
      } catch (error) {
        if (error instanceof UnauthorizedError) return;
        const errors = error instanceof HttpError ? error.errors : null;
        if (errors && typeof errors === 'object') {
          form.setFields(
            Object.entries(errors).map(([path, list]) => ({
              name: namePath(path) as never,
              errors: [list].flat(),
            })),
          );
        }
        setFailure(error instanceof Error && error.message ? error.message : t('diyLoad.loadFailed'));
      } finally {
        setSaving(false);
      }
    })();
  });

  const fieldOptions = numberFields.map((f) => ({ value: f.value, label: f.label }));

  return (
    <Modal
      open={open}
      title={isNew ? t('diyLoad.addRollup') : t('diyLoad.editRollup')}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      width={760}
      // The footer stays in sight at 1366×768: the fields scroll inside.
      styles={{ body: { maxHeight: 'calc(100vh - 230px)', overflowY: 'auto', paddingRight: 4 } }}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'rollup-save' } as ButtonProps}
      data-testid="rollup-config-modal"
    >
      {failure ? (
        <Alert
          type="error"
          showIcon
          title={failure}
          style={{ marginBottom: 12 }}
          data-testid="rollup-failure"
        />
      ) : null}
      <Form<Values> form={form} layout="horizontal" labelCol={{ flex: '96px' }} wrapperCol={{ flex: 1 }}>
        <Form.Item
          name="title"
          label={t('diyLoad.titleLabel')}
          rules={[{ required: true, whitespace: true, message: t('diyLoad.titleRequired') }, { max: 128 }]}
        >
          <Input maxLength={128} data-testid="rollup-title" />
        </Form.Item>
        <Form.Item name="categoryId" label={t('diyLoad.category')}>
          <CategoryTreeSelect allowClear data-testid="rollup-category" />
        </Form.Item>
        <Form.Item
          name={['config', 'sourceTableId']}
          label={t('diyLoad.sourceForm')}
          extra={t('diyLoad.sourceHint')}
          rules={[{ required: true, message: t('diyLoad.sourceRequired') }]}
        >
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            loading={sources.isLoading}
            options={(sources.data ?? []).map((s) => ({ value: s.id, label: s.title }))}
            onChange={() => {
              form.setFieldValue(['config', 'regionField'], null);
              form.setFieldValue(['config', 'measures'], []);
            }}
            data-testid="rollup-source"
          />
        </Form.Item>
        {fields.isError ? (
          <Alert type="error" showIcon title={t('diyLoad.fieldsFailed')} style={{ marginBottom: 12 }} />
        ) : null}
        <Form.Item name={['config', 'dimension']} label={t('diyLoad.dimension')}>
          <Radio.Group
            optionType="button"
            options={[
              { value: 'org', label: t('diyLoad.dimOrg') },
              { value: 'region', label: t('diyLoad.dimRegion') },
            ]}
            data-testid="rollup-dimension"
          />
        </Form.Item>
        {dimension === 'region' ? (
          <Space size={16} align="start" style={{ display: 'flex' }}>
            <Form.Item
              name={['config', 'regionField']}
              label={t('diyLoad.regionFieldLabel')}
              rules={[{ required: true, message: t('diyLoad.regionFieldRequired') }]}
              extra={fields.data && regionFields.length === 0 ? t('diyLoad.noRegionField') : undefined}
              style={{ minWidth: 330 }}
            >
              <Select
                options={regionFields.map((f) => ({ value: f.value, label: f.label }))}
                data-testid="rollup-region-field"
              />
            </Form.Item>
            <Form.Item name={['config', 'regionLevel']} label={t('diyLoad.regionLevel')}>
              <Select
                style={{ width: 160 }}
                options={ROLLUP_REGION_LEVELS.map((l) => ({
                  value: l,
                  label: t(`diyLoad.regionLevels.${l}`),
                }))}
                data-testid="rollup-region-level"
              />
            </Form.Item>
          </Space>
        ) : (
          <Form.Item name={['config', 'orgType']} label={t('diyLoad.orgType')}>
            <Radio.Group
              options={ROLLUP_ORG_TYPES.map((type) => ({
                value: type,
                label: t(`diyLoad.orgTypes.${type}`),
              }))}
              data-testid="rollup-org-type"
            />
          </Form.Item>
        )}
        <Form.Item name={['config', 'statuses']} label={t('diyLoad.statuses')}>
          <Radio.Group
            options={[
              { value: 'submitted', label: t('diyLoad.statusSubmitted') },
              { value: 'approved', label: t('diyLoad.statusApproved') },
            ]}
            data-testid="rollup-statuses"
          />
        </Form.Item>
        <Form.Item label={t('diyLoad.measures')} required>
          {fields.data && numberFields.length === 0 ? (
            <Typography.Text type="secondary">{t('diyLoad.noNumberField')}</Typography.Text>
          ) : null}
          <Form.List
            name={['config', 'measures']}
            rules={[
              {
                validator: async (_, list: unknown[] | undefined) => {
                  if (!list || list.length === 0) throw new Error(t('diyLoad.measuresRequired'));
                },
              },
            ]}
          >
            {(items, { add, remove }, { errors }) => (
              <div data-testid="rollup-measures">
                {items.map((item, index) => (
                  <MeasureLine
                    key={item.key}
                    index={index}
                    name={item.name}
                    fieldOptions={fieldOptions}
                    onRemove={() => remove(item.name)}
                  />
                ))}
                <Space wrap>
                  <Button
                    size="small"
                    icon={<PlusOutlined />}
                    onClick={() => add({ label: '', agg: 'sum', field: null })}
                    disabled={items.length >= 20}
                    data-testid="rollup-add-measure"
                  >
                    {t('diyLoad.addMeasure')}
                  </Button>
                  <Button
                    size="small"
                    onClick={() => fillNumbers(numberFields)}
                    disabled={numberFields.length === 0}
                    data-testid="rollup-all-numbers"
                  >
                    {t('diyLoad.addAllNumbers')}
                  </Button>
                </Space>
                <Form.ErrorList errors={errors} />
              </div>
            )}
          </Form.List>
        </Form.Item>
        <Form.Item name="remark" label={t('diyLoad.remark')}>
          <Input maxLength={256} />
        </Form.Item>
        {isNew ? <Typography.Text type="secondary">{t('diyLoad.viewersHint')}</Typography.Text> : null}
      </Form>
    </Modal>
  );
}

function MeasureLine({
  index,
  name,
  fieldOptions,
  onRemove,
}: {
  index: number;
  name: number;
  fieldOptions: { value: string; label: string }[];
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<Values>();
  const agg = Form.useWatch(['config', 'measures', name, 'agg'], form) as RollupAgg | undefined;
  return (
    <Space align="start" size={8} style={{ display: 'flex' }} data-testid={`rollup-measure-${index}`}>
      <Form.Item name={[name, 'id']} hidden>
        <Input />
      </Form.Item>
      <Form.Item
        name={[name, 'label']}
        rules={[{ required: true, whitespace: true, message: t('diyLoad.measureLabelRequired') }]}
        style={{ marginBottom: 8 }}
      >
        <Input placeholder={t('diyLoad.measureLabel')} maxLength={64} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name={[name, 'agg']} style={{ marginBottom: 8 }}>
        <Select
          style={{ width: 96 }}
          aria-label={t('diyLoad.measureAgg')}
          options={ROLLUP_AGGS.map((a) => ({ value: a, label: t(`diyLoad.aggs.${a}`) }))}
        />
      </Form.Item>
      <Form.Item
        name={[name, 'field']}
        style={{ marginBottom: 8 }}
        rules={agg === 'count' ? [] : [{ required: true, message: t('diyLoad.measureFieldRequired') }]}
      >
        <Select
          style={{ width: 200 }}
          allowClear={agg === 'count'}
          aria-label={t('diyLoad.measureField')}
          placeholder={agg === 'count' ? t('diyLoad.measureFieldCount') : t('diyLoad.measureField')}
          options={fieldOptions}
          showSearch={{ optionFilterProp: 'label' }}
        />
      </Form.Item>
      <Tooltip title={t('diyLoad.removeMeasure')}>
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={t('diyLoad.removeMeasure')}
          onClick={onRemove}
        />
      </Tooltip>
    </Space>
  );
}

const ROLLUP_KIND: DialogReportKind<NonNullable<RollupTarget>> = {
  reportType: 2,
  Modal: RollupConfigModal,
  path: rollupPath,
  load: (row) => ({
    id: row.id,
    title: row.title,
    categoryId: row.categoryId,
    remark: row.remark,
    config: row.rollup,
  }),
};

/** 新建汇总表 in 表单管理's toolbar (diyTable:add): the config modal, then the new roll-up can be opened. */
export function RollupAddButton({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <NewReportButton
      kind={ROLLUP_KIND}
      icon={<FundOutlined />}
      label={t('diyLoad.addRollup')}
      createdTitle={t('diyLoad.created')}
      openLabel={t('diyLoad.open')}
      testId="rollup-add"
      onSaved={onSaved}
    />
  );
}

/** 表单管理's rows of roll-ups (report type 2): the config modal and the roll-up page (useDialogReportRows). */
export const useRollupRows = (onSaved: () => void) => useDialogReportRows(ROLLUP_KIND, onSaved);
