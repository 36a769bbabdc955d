import { LockOutlined } from '@ant-design/icons';
import { checkPassword, PASSWORD_MAX_LENGTH } from '@shuzhi/contracts/password';
import { type PasswordStrength, passwordStrength } from '@shuzhi/contracts/validators';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Progress, Space, Typography, theme } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { sessionApi } from '../../platform/session/session.api.ts';

type Fields = { passwordOld: string; passwordNew: string; passwordConfirm: string };

const STRENGTH_PERCENT: Record<PasswordStrength, number> = { weak: 33, medium: 66, strong: 100 };

export function StrengthMeter({ value }: { value: string }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const strength = value ? passwordStrength(value) : null;
  const colors: Record<PasswordStrength, string> = {
    weak: token.colorError,
    medium: token.colorWarning,
    strong: token.colorSuccess,
  };
  return (
    <Space size={12} style={{ width: '100%' }} data-testid="password-strength" data-strength={strength ?? ''}>
      <Typography.Text type="secondary">{t('userCenter.strength')}</Typography.Text>
      <Progress
        percent={strength ? STRENGTH_PERCENT[strength] : 0}
        steps={3}
        showInfo={false}
        strokeColor={strength ? colors[strength] : undefined}
        size={[48, 6]}
      />
      <Typography.Text style={{ color: strength ? colors[strength] : undefined, minWidth: 24 }}>
        {strength ? t(`userCenter.${strength}`) : ''}
      </Typography.Text>
    </Space>
  );
}

export function ChangePasswordForm({
  forced,
  strong,
  onChanged,
}: {
  forced: boolean;
  strong: boolean;
  onChanged: () => Promise<void> | void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const [saving, setSaving] = useState(false);
  const newPassword = Form.useWatch('passwordNew', form) ?? '';
  const config = useQuery({
    queryKey: ['sysAuth', 'loginConfig'],
    queryFn: sessionApi.loginConfig,
    staleTime: 60_000,
  });

  const submit = async (values: Fields) => {
    const publicKey = config.data?.publicKey ?? (await config.refetch()).data?.publicKey;
    if (!publicKey || saving) return;
    setSaving(true);
    try {
      await sessionApi.changePassword({
        passwordOld: encryptPassword(values.passwordOld, publicKey),
        passwordNew: encryptPassword(values.passwordNew, publicKey),
      });
      form.resetFields();
      await onChanged();
    } catch {
      // The HTTP client already showed the server's message.
    } finally {
      setSaving(false);
    }
  };

  return (
    <div style={{ maxWidth: 520 }}>
      {forced ? (
        <Alert
          type="warning"
          showIcon
          title={t('userCenter.forcedHint')}
          style={{ marginBottom: 20 }}
          data-testid="password-forced-hint"
        />
      ) : null}
      <Form<Fields>
        form={form}
        layout="vertical"
        onFinish={submit}
        requiredMark
        autoComplete="off"
        data-testid="password-form"
      >
        <Form.Item
          name="passwordOld"
          label={t('userCenter.passwordOld')}
          rules={[{ required: true, message: t('userCenter.oldRequired') }]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('userCenter.passwordOldPlaceholder')}
            autoComplete="current-password"
            data-testid="password-old"
          />
        </Form.Item>
        <Form.Item
          name="passwordNew"
          label={t('userCenter.passwordNew')}
          extra={t('userCenter.tips')}
          dependencies={['passwordOld']}
          rules={[
            { required: true, message: t('userCenter.newRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) => {
                if (!value) return Promise.resolve();
                const problem = checkPassword(value, strong);
                if (problem === 'length') return Promise.reject(new Error(t('userCenter.lengthRule')));
                if (problem === 'strong') return Promise.reject(new Error(t('userCenter.strongRule')));
                if (value === getFieldValue('passwordOld'))
                  return Promise.reject(new Error(t('userCenter.sameAsOld')));
                return Promise.resolve();
              },
            }),
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('userCenter.passwordNewPlaceholder')}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            data-testid="password-new"
          />
        </Form.Item>
        <div style={{ marginTop: -8, marginBottom: 16 }}>
          <StrengthMeter value={newPassword} />
        </div>
        <Form.Item
          name="passwordConfirm"
          label={t('userCenter.passwordConfirm')}
          dependencies={['passwordNew']}
          rules={[
            { required: true, message: t('userCenter.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_, value: string | undefined) =>
                !value || value === getFieldValue('passwordNew')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('userCenter.mismatch'))),
            }),
          ]}
        >
          <Input.Password
            prefix={<LockOutlined />}
            placeholder={t('userCenter.passwordConfirmPlaceholder')}
            autoComplete="new-password"
            maxLength={PASSWORD_MAX_LENGTH}
            data-testid="password-confirm"
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="password-submit">
            {t('userCenter.submit')}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
