import { SafetyOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useSecurityConfig } from '../../platform/security/use-security-config.ts';
import { PasswordFields } from './password-fields.tsx';
import { usePasswordSubmit } from './use-password-submit.ts';
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
  const client = useQueryClient();
  const security = useSecurityConfig(true);
  const info = useQuery({ queryKey: BASE_INFO_KEY, queryFn: userCenterApi.baseInfo });
  const isSet = info.data?.hasOpPassword ?? false;

  const { saving, submit } = usePasswordSubmit<Fields>(async (values, encrypt) => {
    await userCenterApi.setOpPassword({
      password: encrypt(values.password),
      opPassword: encrypt(values.opPassword),
    });
    form.resetFields();
    feedback.success(t('opPassword.saved'));
    await client.invalidateQueries({ queryKey: BASE_INFO_KEY });
  });

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
        <PasswordFields
          strong={security.strongPassword}
          icon={<SafetyOutlined />}
          current={{
            name: 'password',
            label: t('opPassword.loginPassword'),
            placeholder: t('opPassword.loginPasswordPlaceholder'),
            required: t('opPassword.loginRequired'),
            testId: 'op-login-password',
          }}
          next={{
            name: 'opPassword',
            label: t('opPassword.newOp'),
            placeholder: t('opPassword.newOpPlaceholder'),
            required: t('opPassword.newRequired'),
            sameAsCurrent: t('opPassword.sameAsLogin'),
            testId: 'op-new-password',
          }}
          confirm={{
            name: 'opPasswordConfirm',
            label: t('opPassword.confirm'),
            placeholder: t('opPassword.confirmPlaceholder'),
            required: t('opPassword.confirmRequired'),
            mismatch: t('opPassword.mismatch'),
            testId: 'op-confirm-password',
          }}
        />
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="op-password-submit">
            {isSet ? t('opPassword.submitChange') : t('opPassword.submitSet')}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
