import { Col, Form, type FormInstance, Input, Modal, Row } from 'antd';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { WithId } from '../../platform/data/resource.ts';
import type { CrudOptions } from './crud-options.ts';
import type { CrudFormContext } from './crud-types.ts';
import type { CrudActions } from './use-crud-actions.ts';

function renderInput<T>(
  input: ReactNode | ((context: CrudFormContext<T>) => ReactNode),
  context: CrudFormContext<T>,
  label: string,
  testId: string,
  t: (key: string, options?: Record<string, unknown>) => string,
): ReactNode {
  if (typeof input === 'function') return input(context);
  if (input !== undefined) return input;
  return <Input allowClear placeholder={t('crud.inputPlaceholder', { label })} data-testid={testId} />;
}

/** The add / edit dialog: the resource's form fields, filled from the record or the defaults. */
export function CrudFormModal<T extends WithId, F extends object>({
  options,
  actions,
  form,
}: {
  options: CrudOptions<T, F>;
  actions: CrudActions<T>;
  form: FormInstance;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const { entityName, formFields, formDefaults, toFormValues, testId } = options;
  const { editing, saving } = actions;

  const context: CrudFormContext<T> | null = editing ? { mode: editing.mode, record: editing.record } : null;
  const initialValues = editing
    ? editing.record
      ? toFormValues
        ? toFormValues(editing.record)
        : (editing.record as Record<string, unknown>)
      : {
          ...Object.fromEntries(
            formFields.filter((f) => f.initialValue !== undefined).map((f) => [f.name, f.initialValue]),
          ),
          ...(formDefaults ?? {}),
        }
    : undefined;

  return (
    <Modal
      open={editing !== null}
      title={
        editing?.mode === 'edit'
          ? t('crud.editTitle', { name: entityName })
          : t('crud.addTitle', { name: entityName })
      }
      width={options.modalWidth}
      onCancel={actions.closeModal}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ htmlType: 'submit', form: formId, 'data-testid': `${testId}-form-submit` }}
      cancelButtonProps={{ disabled: saving }}
      destroyOnHidden
      mask={{ closable: !saving }}
      keyboard
      data-testid={`${testId}-modal`}
    >
      {editing && context ? (
        <Form
          key={editing.key}
          id={formId}
          form={form}
          layout="vertical"
          initialValues={initialValues}
          onFinish={actions.submit}
          disabled={saving}
          data-testid={`${testId}-form`}
          style={{ marginTop: 16 }}
        >
          <Row gutter={16}>
            {formFields
              .filter((field) => !field.hidden?.(context))
              .map((field) => (
                <Col span={field.half ? 12 : 24} key={field.name}>
                  <Form.Item
                    name={field.name}
                    label={field.label}
                    rules={field.rules}
                    valuePropName={field.valuePropName}
                    tooltip={field.tooltip}
                    extra={field.extra}
                  >
                    {renderInput(field.input, context, field.label, `${testId}-field-${field.name}`, t)}
                  </Form.Item>
                </Col>
              ))}
          </Row>
        </Form>
      ) : null}
    </Modal>
  );
}
