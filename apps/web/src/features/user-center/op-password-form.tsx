import { LockOutlined, SafetyOutlined } from '@ant-design/icons';
import { checkPassword, PASSWORD_MAX_LENGTH } from '@shuzhi/contracts/password';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useSecurityConfig } from '../../platform/security/use-security-config.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { StrengthMeter } from './change-password-form.tsx';
import { userCenterApi } from './user-center.api.ts';

type Fields = { password: string; opPassword: string; opPasswordConfirm: string };

export const BASE_INFO_KEY = ['sysUser', 'baseInfo'] as const;

/**
 * Sets or changes the operation password: the sign-in password confirms the user; the new one follows the
 * password rules (the strong rule when configured). Used in the user centre and as its own menu page.
 */
export function OpPasswordForm() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);
  const client = useQueryClient();
  const security = useSecurityConfig(true);
  const info = useQuery({ queryKey: BASE_INFO_KEY, queryFn: userCenterApi.baseInfo });
  const config = useQuery({
    queryKey: ['sysAuth', 'loginConfig'],
    queryFn: sessionApi.loginConfig,
    staleTime: 60_000,
  });
  const newPassword = Form.useWatch('opPassword', form) ?? '';
  const isSet = info.data?.hasOpPassword ?? false;

  const submit = async (values: Fields) => {
    const publicKey = config.data?.publicKey ?? (await config.refetch()).data?.publicKey;
    if (!publicKey || saving) return;
    setSaving(true);
    try {
      await userCenterApi.setOpPassword({
        password: encryptPassword(values.password, publicKey),
        opPassword: encryptPassword(values.opPassword, publicKey),
      });
      form.resetFields();
      feedback.success(t('opPassword.saved'));
      await client.invalidateQueries({ queryKey: BASE_INFO_KEY });
    } catch {
      // The HTTP client already showed the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <div style={{ maxWidth: 520 }} data-testid="op-password-panel">
      <Alert
        type="info"
        showIcon
        icon={<SafetyOutlined />}
        title={t('opPassword.intro')}
        style={{ marginBottom: 16 }}
      />
      <Space style={{ marginBottom: 16 }}>
        <Typography.Text type="secondary">{t('opPassword.status')}</Typography.Text>
        {info.isSuccess ? (
          <Tag
            color={isSet ? 'success' : 'default'}
            data-testid="op-password-status"
            data-set={String(isSet)}
          >
            {isSet ? t('opPassword.statusSet') : t('opPassword.statusNotSet')}
          </Tag>
        ) : null}
      </Space>
      <Form<Fields>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark
        autoComplete="off"
        data-testid="op-password-form"
      >
        <Form.Item
          name="password"
          label={t('opPassword.loginPassword')}
          rules={[{ required: true, message: t('opPassword.loginRequired') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('opPassword.loginPasswordPlaceholder')}
            autoComplete="current-password"
            data-testid="op-login-password"
          />
        </Form.Item>
        <Form.Item
          name="opPassword"
          label={t('opPassword.newOp')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('opPassword.newRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) => {
                if (!value) return Promise.resolve();
                const problem = checkPassword(value, security.strongPassword);
                if (problem === 'length') return Promise.reject(new Error(t('userCenter.lengthRule')));
                if (problem === 'strong') return Promise.reject(new Error(t('userCenter.strongRule')));
                if (value === getFieldValue('password'))
                  return Promise.reject(new Error(t('opPassword.sameAsLogin')));
                return Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password
            prefix={<SafetyOutlined />}
            placeholder={t('opPassword.newOpPlaceholder')}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            data-testid="op-new-password"
          />
        </Form.Item>
        <div style={{ marginTop: -8, marginBottom: 16 }}>
          <StrengthMeter value={newPassword} />
        </div>
        <Form.Item
          name="opPasswordConfirm"
          label={t('opPassword.confirm')}
          dependencies={['opPassword']}
          rules={[
            { required: true, message: t('opPassword.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('opPassword')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('opPassword.mismatch'))),
            }),
          ]}
        >
          <Input.Password
            prefix={<SafetyOutlined />}
            placeholder={t('opPassword.confirmPlaceholder')}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            data-testid="op-confirm-password"
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="op-password-submit">
            {isSet ? t('opPassword.submitChange') : t('opPassword.submitSet')}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
