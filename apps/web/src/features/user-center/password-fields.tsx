import { LockOutlined } from '@ant-design/icons';
import { checkPassword, PASSWORD_MAX_LENGTH } from '@shuzhi/contracts/password';
import { type PasswordStrength, passwordStrength } from '@shuzhi/contracts/validators';
import { Form, Input, Progress, Space, Typography, theme } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const STRENGTH_PERCENT: Record<PasswordStrength, number> = { weak: 33, medium: 66, strong: 100 };

function StrengthMeter({ value }: { value: string }) {
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

/** One password input of the block: its form field name, texts and test id. */
type Field = { name: string; label: string; placeholder: string; required: string; testId: string };

export interface PasswordFieldsProps {
  /** The password that confirms the user (the sign-in password). */
  current: Field;
  /** The new password; `sameAsCurrent` is the error when it equals the current one. */
  next: Field & { sameAsCurrent: string; extra?: string };
  /** The new password again; `mismatch` is the error when it differs. */
  confirm: Field & { mismatch: string };
  /** Whether the strong password rule applies. */
  strong: boolean;
  /** Prefix icon of the new and confirmation inputs. */
  icon?: ReactNode;
}

/**
 * The fields of a password change, inside a `Form`: the current password, the new one (length and strong
 * rules, not equal to the current one) with its strength meter, and the confirmation.
 */
export function PasswordFields({
  current,
  next,
  confirm,
  strong,
  icon = <LockOutlined />,
}: PasswordFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const newPassword: string = Form.useWatch(next.name, form) ?? '';
  return (
    <>
      <Form.Item
        name={current.name}
        label={current.label}
        rules={[{ required: true, message: current.required }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={current.placeholder}
          autoComplete="current-password"
          data-testid={current.testId}
        />
      </Form.Item>
      <Form.Item
        name={next.name}
        label={next.label}
        extra={next.extra}
        dependencies={[current.name]}
        rules={[
          { required: true, message: next.required },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) => {
              if (!value) return Promise.resolve();
              const problem = checkPassword(value, strong);
              if (problem === 'length') return Promise.reject(new Error(t('userCenter.lengthRule')));
              if (problem === 'strong') return Promise.reject(new Error(t('userCenter.strongRule')));
              if (value === getFieldValue(current.name)) return Promise.reject(new Error(next.sameAsCurrent));
              return Promise.resolve();
            },
          }),
        ]}
      >
        <Input.Password
          prefix={icon}
          placeholder={next.placeholder}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          data-testid={next.testId}
        />
      </Form.Item>
      <div style={{ marginTop: -8, marginBottom: 16 }}>
        <StrengthMeter value={newPassword} />
      </div>
      <Form.Item
        name={confirm.name}
        label={confirm.label}
        dependencies={[next.name]}
        rules={[
          { required: true, message: confirm.required },
          ({ getFieldValue }) => ({
            validator: (_, value: string | undefined) =>
              !value || value === getFieldValue(next.name)
                ? Promise.resolve()
                : Promise.reject(new Error(confirm.mismatch)),
          }),
        ]}
      >
        <Input.Password
          prefix={icon}
          placeholder={confirm.placeholder}
          autoComplete="new-password"
          maxLength={PASSWORD_MAX_LENGTH}
          data-testid={confirm.testId}
        />
      </Form.Item>
    </>
  );
}
