import { type FormField, valueFields } from '@shuzhi/contracts/diy-form';
import { NO_LOGIN_MAX_DAYS } from '@shuzhi/contracts/no-login';
import type { StatementAddInput, StatementEditInput } from '@shuzhi/contracts/no-login-pages';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Checkbox, DatePicker, Form, Input, InputNumber, Modal, Radio, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { NO_LOGIN_KEYS, noLoginLinkApi } from './no-login.api.ts';
import { showSaveError, useRequiredRule } from './page-dialog-errors.ts';
import { PUBLIC_PAGE_KEYS, type Statement, statementApi } from './public-pages.api.ts';

type Values = {
  title: string;
  intro?: string;
  tableId: number;
  kind: 'dataset' | 'record';
  recordId?: number;
  fields: string[];
  filterField?: string;
  filterValue?: string;
  createTime?: [Dayjs, Dayjs] | null;
  days: number;
};
const FIELD_NAMES = ['title', 'intro', 'tableId', 'kind', 'recordId', 'fields', 'days'];
const TEXT_TYPES = ['text', 'textarea'];

function toFilter(values: Values): StatementAddInput['filter'] {
  const filters =
    values.filterField && values.filterValue?.trim()
      ? [{ field: values.filterField, op: 'contains' as const, value: values.filterValue.trim() }]
      : [];
  const range = values.createTime;
  return {
    filters,
    ...(range
      ? { createTime: [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] as [string, string] }
      : {}),
  };
}

/** Edits `editing`, or adds a statement when it is null. */
function saveStatement(editing: Statement | null, values: Values) {
  const common = {
    title: values.title,
    intro: values.intro ?? '',
    fields: values.fields,
    filter: toFilter(values),
  };
  if (editing) return statementApi.edit({ id: editing.id, ...common } satisfies StatementEditInput);
  return statementApi.add({
    ...common,
    tableId: values.tableId,
    kind: values.kind,
    recordId: values.kind === 'record' ? values.recordId : undefined,
    days: values.days,
  });
}

/** A dataset's filter: a text field containing a value, and the dates records were filed between. */
function FilterFields({ fields }: { fields: readonly FormField[] }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="filterField" label={t('publicPages.fieldFilter')}>
        <Select
          allowClear
          options={fields
            .filter((f) => TEXT_TYPES.includes(f.type))
            .map((f) => ({ value: f.id, label: f.label }))}
        />
      </Form.Item>
      <Form.Item name="filterValue" label={t('publicPages.fieldFilterValue')}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="createTime" label={t('publicPages.fieldCreateTime')}>
        <DatePicker.RangePicker style={{ width: '100%' }} />
      </Form.Item>
    </>
  );
}

/** 新建公示 / 修改公示: what is published (a form's filed records, filtered, or one record) and which fields. */
export function StatementDialog({
  open,
  editing,
  onClose,
  onSaved,
}: {
  open: boolean;
  /** The statement edited; null to create one. */
  editing: Statement | null;
  onClose(): void;
  onSaved(statement: Statement): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const tableId = Form.useWatch('tableId', form) ?? editing?.tableId;
  const kind = Form.useWatch('kind', form) ?? editing?.kind ?? 'dataset';
  const forms = useQuery({
    queryKey: NO_LOGIN_KEYS.forms,
    queryFn: noLoginLinkApi.forms,
    enabled: open && !editing,
  });
  const design = useQuery({
    queryKey: PUBLIC_PAGE_KEYS.design(tableId ?? 0),
    queryFn: () => statementApi.design(tableId ?? 0),
    enabled: open && Boolean(tableId),
  });
  const fields = valueFields(design.data?.design ?? { fields: [] });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (editing) {
      const filter = editing.filter?.filters?.[0];
      const range = editing.filter?.createTime;
      form.setFieldsValue({
        title: editing.title,
        intro: editing.intro ?? '',
        fields: editing.fields,
        filterField: filter?.field,
        filterValue: filter ? String(filter.value ?? '') : undefined,
        createTime: range ? [dayjs(range[0]), dayjs(range[1])] : null,
      });
    }
  }, [open, editing, form]);
  const save = useMutation({
    mutationFn: (values: Values) => saveStatement(editing, values),
    onSuccess: (statement) => {
      feedback.success(t('publicPages.saved'));
      onSaved(statement);
    },
    onError: (error) => showSaveError(form, FIELD_NAMES, error),
  });
  const submit = useReclickGuard((values: Values) => save.mutate(values));
  const required = useRequiredRule();
  return (
    <Modal
      open={open}
      title={editing ? t('publicPages.editStatement') : t('publicPages.createStatement')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'statement-save' }}
      destroyOnHidden
      width={640}
      data-testid="statement-dialog"
    >
      <Form form={form} layout="vertical" onFinish={submit} initialValues={{ kind: 'dataset', days: 30 }}>
        <Form.Item
          name="title"
          label={t('publicPages.fieldTitle')}
          rules={required(t('publicPages.fieldTitle'))}
        >
          <Input maxLength={64} data-testid="statement-title" />
        </Form.Item>
        <Form.Item name="intro" label={t('publicPages.fieldIntro')}>
          <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
        {editing ? null : (
          <>
            <Form.Item
              name="tableId"
              label={t('publicPages.fieldForm')}
              rules={required(t('publicPages.fieldForm'))}
            >
              <Select
                showSearch
                optionFilterProp="label"
                loading={forms.isFetching}
                options={(forms.data ?? []).map((f) => ({ value: f.id, label: f.title }))}
                onChange={() => form.setFieldsValue({ fields: [], filterField: undefined })}
                data-testid="statement-form"
              />
            </Form.Item>
            <Form.Item name="kind" label={t('publicPages.fieldKind')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: 'dataset', label: t('publicPages.kind.dataset') },
                  { value: 'record', label: t('publicPages.kind.record') },
                ]}
              />
            </Form.Item>
            {kind === 'record' ? (
              <Form.Item
                name="recordId"
                label={t('publicPages.fieldRecord')}
                rules={required(t('publicPages.fieldRecord'))}
              >
                <InputNumber min={1} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            ) : null}
          </>
        )}
        <Form.Item
          name="fields"
          label={t('publicPages.fieldFields')}
          extra={t('publicPages.fieldsHint')}
          rules={required(t('publicPages.fieldFields'))}
        >
          <Checkbox.Group
            options={fields.map((f) => ({ value: f.id, label: f.label }))}
            data-testid="statement-fields"
          />
        </Form.Item>
        {kind === 'dataset' ? <FilterFields fields={fields} /> : null}
        {editing ? null : (
          <Form.Item
            name="days"
            label={t('publicPages.fieldDays')}
            rules={required(t('publicPages.fieldDays'))}
          >
            <InputNumber min={1} max={NO_LOGIN_MAX_DAYS} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
