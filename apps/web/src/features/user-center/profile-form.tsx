import type { BaseInfo, UpdateBaseInfoInput } from '@shuzhi/contracts/user-center';
import { isEmail, isIdCard, isMobile } from '@shuzhi/contracts/validators';
import { Button, Col, Form, Input, Radio, Row } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverFieldErrors } from '../../platform/data/field-errors.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { userCenterApi } from './user-center.api.ts';

type Fields = Omit<UpdateBaseInfoInput, 'sex'> & { sex?: 1 | 2 | null };
const FIELDS = ['realName', 'nickName', 'phone', 'email', 'sex', 'idCardNum', 'address', 'remark'] as const;

/** A format rule for an optional field: empty is fine, anything else must pass `check`. */
const format = (check: (value: string) => boolean, message: string) => ({
  validator: (_: unknown, value: string | undefined) =>
    !value?.trim() || check(value.trim()) ? Promise.resolve() : Promise.reject(new Error(message)),
});

function fieldsOf(info: BaseInfo): Fields {
  return {
    realName: info.realName,
    nickName: info.nickName,
    phone: info.phone,
    email: info.email,
    sex: info.sex === 1 || info.sex === 2 ? info.sex : null,
    idCardNum: info.idCardNum,
    address: info.address,
    remark: info.remark,
  };
}

/** The own profile; the server validates again and its field errors land on the fields. */
export function ProfileForm({ info, onSaved }: { info: BaseInfo; onSaved: () => Promise<void> | void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);

  // The profile is read again after an avatar or signature upload: a field the person has changed keeps what they
  // typed; the others take the new answer.
  const loaded = useRef<Fields | null>(null);
  useEffect(() => {
    const next = fieldsOf(info);
    const before = loaded.current;
    loaded.current = next;
    if (before === null) {
      form.setFieldsValue(next);
      return;
    }
    const current = form.getFieldsValue(FIELDS as unknown as (keyof Fields)[]) as Fields;
    const untouched = FIELDS.filter((name) => (current[name] ?? null) === (before[name] ?? null));
    form.setFieldsValue(Object.fromEntries(untouched.map((name) => [name, next[name]])));
  }, [form, info]);

  const submit = async (values: Fields) => {
    setSaving(true);
    try {
      await userCenterApi.saveBaseInfo({ ...values, sex: values.sex ?? null });
      feedback.success(t('userProfile.saved'));
      await onSaved();
    } catch (error) {
      const { fields } = serverFieldErrors(error, FIELDS);
      if (fields.length > 0)
        form.setFields(fields.map((f) => ({ name: f.name as keyof Fields, errors: f.errors })));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Form<Fields>
      form={form}
      layout="vertical"
      onFinish={submit}
      requiredMark
      autoComplete="off"
      data-testid="profile-form"
      style={{ maxWidth: 760 }}
    >
      <Row gutter={24}>
        <Col xs={24} md={12}>
          <Form.Item
            name="realName"
            label={t('userCenter.realName')}
            rules={[{ required: true, whitespace: true, message: t('userProfile.realNameRequired') }]}
          >
            <Input maxLength={32} data-testid="profile-realName" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="nickName" label={t('userProfile.nickName')}>
            <Input maxLength={32} data-testid="profile-nickName" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="phone"
            label={t('userCenter.phone')}
            rules={[format(isMobile, t('userProfile.phoneInvalid'))]}
          >
            <Input maxLength={11} data-testid="profile-phone" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="email"
            label={t('userProfile.email')}
            rules={[format(isEmail, t('userProfile.emailInvalid'))]}
          >
            <Input maxLength={64} data-testid="profile-email" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="sex" label={t('userProfile.sex')}>
            <Radio.Group
              options={[
                { value: 1, label: t('userProfile.male') },
                { value: 2, label: t('userProfile.female') },
              ]}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="idCardNum"
            label={t('userCenter.idCard')}
            rules={[format((value) => isIdCard(value), t('userProfile.idCardInvalid'))]}
          >
            <Input maxLength={18} data-testid="profile-idCardNum" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="address" label={t('userCenter.address')}>
            <Input maxLength={256} data-testid="profile-address" />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('userProfile.remark')}>
            <Input.TextArea maxLength={256} rows={2} showCount />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="profile-submit">
          {t('common.save')}
        </Button>
      </Form.Item>
    </Form>
  );
}
