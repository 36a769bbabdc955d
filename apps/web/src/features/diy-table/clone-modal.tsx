import { App, type ButtonProps, Form, Input, Modal, Radio, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { type FormRow, formApi } from './diy-table.api.ts';

type Values = { title: string; withRecords: boolean };

/**
 * 复制 a form: a new title (default 「<title>（副本）」) and what to copy — the design only, or the design with
 * its records. `onCloned` gets the new form's id.
 */
export function CloneModal({
  source,
  onClose,
  onCloned,
}: {
  source: FormRow | null;
  onClose(): void;
  onCloned(id: number): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (source)
      form.setFieldsValue({ title: t('formAdmin.copyTitle', { title: source.title }), withRecords: false });
  }, [source, form, t]);

  const submit = async (values: Values) => {
    if (!source || saving) return;
    setSaving(true);
    try {
      const id = await formApi.clone({
        id: source.id,
        title: values.title.trim(),
        withRecords: values.withRecords,
      });
      message.success(t('formAdmin.cloned'));
      onCloned(id);
      onClose();
    } catch (error) {
      if (error instanceof UnauthorizedError) return;
      const { fields, rest } = serverFieldErrors(error, ['title', 'withRecords']);
      if (fields.length > 0) form.setFields(fields as Parameters<typeof form.setFields>[0]);
      const text = rest[0] ?? (fields.length === 0 && error instanceof Error ? error.message : null);
      if (text) message.error(text);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={source !== null}
      title={t('formAdmin.cloneTitle', { title: source?.title ?? '' })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('formAdmin.clone')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'form-clone-ok' } as ButtonProps}
      cancelButtonProps={{ disabled: saving }}
      mask={{ closable: !saving }}
      forceRender
      width={520}
      data-testid="form-clone"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        disabled={saving}
        style={{ marginTop: 16 }}
      >
        <Form.Item
          name="title"
          label={t('formAdmin.cloneNewTitle')}
          rules={[{ required: true, whitespace: true, message: t('formAdmin.titleRequired') }]}
        >
          <Input maxLength={128} showCount data-testid="form-clone-title" />
        </Form.Item>
        <Form.Item name="withRecords" label={t('formAdmin.cloneWhat')}>
          <Radio.Group
            options={[
              {
                value: false,
                label: <span data-testid="form-clone-design">{t('formAdmin.cloneDesign')}</span>,
              },
              {
                value: true,
                label: <span data-testid="form-clone-records">{t('formAdmin.cloneWithRecords')}</span>,
              },
            ]}
          />
        </Form.Item>
        {source && source.recordCount > 0 ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('formAdmin.cloneRecordsHint', { count: source.recordCount })}
          </Typography.Text>
        ) : null}
      </Form>
    </Modal>
  );
}
