import { TableOutlined } from '@ant-design/icons';
import {
  QUERY_ALIASES,
  QUERY_SYSTEM_FIELDS,
  type QueryConfig,
  type QueryConfigInput,
} from '@shuzhi/contracts/diy-query';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Alert, App, type ButtonProps, Divider, Form, Input, Modal, Radio } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { type ColumnOption, ROLLUP_KEYS, rollupApi } from '../diy-rollup/diy-rollup.api.ts';
import { type DialogReportKind, NewReportButton, useDialogReportRows } from '../report-entry.tsx';
import { useReclickGuard } from '../use-reclick-guard.ts';
import { queryApi, queryPath } from './diy-query.api.ts';
import { namePath } from './query.model.ts';
import {
  ColumnList,
  GroupSortChart,
  ParamList,
  SourceList,
  TitleFields,
  type Values,
} from './query-config-lists.tsx';

/** A query report to edit (`id`), or a new one (no id). */
export type QueryTarget = {
  id?: number;
  title?: string;
  categoryId?: number | null;
  remark?: string | null;
  config?: QueryConfig | null;
} | null;

const DEFAULTS: QueryConfigInput = {
  sources: [{ alias: 's1', tableId: undefined as unknown as number }],
  join: 'unitPeriod',
  columns: [{ id: 'c1', label: '', source: 's1', field: '$org' }],
  params: [],
  groupBy: [],
  sort: [],
  statuses: 'submitted',
  chart: null,
};

/** The config as saved: aliases in order, computed columns without a field, no chart without a type. */
function toConfig(values: Values): QueryConfigInput {
  return {
    ...values.config,
    sources: values.config.sources.map((s, i) => ({ ...s, alias: QUERY_ALIASES[i] as 's1' })),
    columns: values.config.columns.map((c) => ({
      ...c,
      source: c.formula ? null : c.source,
      field: c.formula ? null : c.field,
    })),
    chart: values.config.chart?.type ? values.config.chart : null,
  };
}

/**
 * 新建 / 编辑查询报表: title, category, the source forms (published forms the caller administers, the first is the
 * base) and how they join, the columns (fields, system values, computed columns with their ids for formulas), the
 * parameters, grouping, sorting, counted records and the chart. Server field errors (Q1002, validation) are shown
 * beside the fields.
 */
export function QueryConfigModal({
  target,
  onClose,
  onSaved,
}: {
  target: QueryTarget;
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

  const forms = useQuery({ queryKey: ROLLUP_KEYS.sources, queryFn: rollupApi.sources, enabled: open });
  const sources = (Form.useWatch(['config', 'sources'], { form, preserve: true }) ?? []) as {
    alias: string;
    tableId?: number;
  }[];
  const join = Form.useWatch(['config', 'join'], { form, preserve: true });
  const columns = (Form.useWatch(['config', 'columns'], { form, preserve: true }) ?? []) as {
    id: string;
    label?: string;
  }[];
  const fieldLists = useQueries({
    queries: sources.map((s) => ({
      queryKey: ROLLUP_KEYS.fields(s?.tableId ?? 0),
      queryFn: () => rollupApi.fields(s.tableId as number),
      enabled: open && typeof s?.tableId === 'number',
    })),
  });
  const fieldsOf = (alias: string | undefined): ColumnOption[] => {
    const i = sources.findIndex((s) => s?.alias === alias);
    return (fieldLists[i]?.data ?? []).filter((f) => f.parent === null && f.type !== 'subTable');
  };
  const systemOptions = QUERY_SYSTEM_FIELDS.map((f) => ({ value: f, label: t(`diyQuery.system.${f}`) }));
  const sourceOptions = sources.map((s, i) => ({
    value: s?.alias,
    label: `${s?.alias} ${forms.data?.find((f) => f.id === s?.tableId)?.title ?? ''}`.trim() || String(i),
  }));
  const columnOptions = columns.map((c) => ({ value: c?.id, label: `${c?.id} ${c?.label ?? ''}` }));

  useEffect(() => {
    if (!open) return;
    setFailure(null);
    form.resetFields();
    form.setFieldsValue({
      title: target?.title ?? '',
      categoryId: target?.categoryId ?? null,
      remark: target?.remark ?? null,
      config: (target?.config ?? DEFAULTS) as QueryConfigInput,
    });
  }, [open, target, form]);

  const save = useReclickGuard(() => {
    void (async () => {
      let values: Values;
      try {
        await form.validateFields();
        // Every value, also those without a control of their own (the ids of columns and parameters).
        values = form.getFieldsValue(true) as Values;
      } catch {
        return;
      }
      setSaving(true);
      setFailure(null);
      const config = toConfig(values);
      const body = {
        title: values.title.trim(),
        categoryId: values.categoryId ?? null,
        remark: values.remark ?? null,
        config,
      };
      try {
        let id = target?.id;
        if (id) await queryApi.update({ ...body, id });
        else id = await queryApi.add(body);
        message.success(isNew ? t('diyQuery.created') : t('diyQuery.saved'));
        onSaved(id, isNew);
        onClose();
      } catch (error) {
        if (error instanceof UnauthorizedError) return;
        const errors = error instanceof HttpError ? error.errors : null;
        if (errors && typeof errors === 'object')
          form.setFields(
            Object.entries(errors).map(([path, list]) => ({
              name: namePath(path) as never,
              errors: [list].flat(),
            })),
          );
        setFailure(error instanceof Error && error.message ? error.message : t('diyQuery.loadFailed'));
      } finally {
        setSaving(false);
      }
    })();
  });

  return (
    <Modal
      open={open}
      title={isNew ? t('diyQuery.addTitle') : t('diyQuery.editTitle')}
      width={980}
      onCancel={onClose}
      onOk={save}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'query-save' } as ButtonProps}
      destroyOnHidden
      data-testid="query-config"
    >
      {failure ? <Alert type="error" showIcon title={failure} style={{ marginBottom: 12 }} /> : null}
      <Form form={form} layout="vertical" requiredMark>
        <TitleFields />

        <Divider titlePlacement="start">{t('diyQuery.sources')}</Divider>
        <Form.Item name={['config', 'join']} label={t('diyQuery.join')}>
          <Radio.Group
            options={[
              { value: 'unitPeriod', label: t('diyQuery.joinUnitPeriod') },
              { value: 'field', label: t('diyQuery.joinField') },
            ]}
          />
        </Form.Item>
        <SourceList join={join} forms={forms.data ?? []} loading={forms.isLoading} fieldsOf={fieldsOf} />

        <Divider titlePlacement="start">{t('diyQuery.columns')}</Divider>
        <ColumnList
          form={form}
          fieldsOf={fieldsOf}
          sourceOptions={sourceOptions}
          systemOptions={systemOptions}
        />

        <Divider titlePlacement="start">{t('diyQuery.params')}</Divider>
        <ParamList form={form} fieldsOf={fieldsOf} sourceOptions={sourceOptions} />

        <Divider titlePlacement="start">{`${t('diyQuery.groupBy')} / ${t('diyQuery.sort')} / ${t('diyQuery.chart')}`}</Divider>
        <GroupSortChart columnOptions={columnOptions} />
        <Form.Item name="remark" label={t('diyQuery.remark')}>
          <Input.TextArea maxLength={256} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

const QUERY_KIND: DialogReportKind<NonNullable<QueryTarget>> = {
  reportType: 3,
  Modal: QueryConfigModal,
  path: queryPath,
  // The list row has no query config: it is read from the server.
  load: (row) =>
    queryApi.info(row.id).then((info) => ({
      id: row.id,
      title: info.title,
      categoryId: info.categoryId,
      remark: info.remark,
      config: info.config,
    })),
};

/** 新建查询报表 in 表单管理's toolbar (diyTable:add): the builder, then the new report can be opened. */
export function QueryAddButton({ onSaved }: { onSaved: () => void }) {
  const { t } = useTranslation();
  return (
    <NewReportButton
      kind={QUERY_KIND}
      icon={<TableOutlined />}
      label={t('diyQuery.add')}
      createdTitle={t('diyQuery.created')}
      openLabel={t('diyQuery.open')}
      testId="query-add"
      onSaved={onSaved}
    />
  );
}

/** 表单管理's rows of query reports (report type 3): the builder and the report page (useDialogReportRows). */
export const useQueryRows = (onSaved: () => void) => useDialogReportRows(QUERY_KIND, onSaved);
