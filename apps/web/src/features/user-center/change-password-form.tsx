import { Alert, Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { sessionApi } from '../../platform/session/session.api.ts';
import { PasswordFields } from './password-fields.tsx';
import { usePasswordSubmit } from './use-password-submit.ts';

type Fields = { passwordOld: string; passwordNew: string; passwordConfirm: string };

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
  const { saving, submit } = usePasswordSubmit<Fields>(async (values, encrypt) => {
    await sessionApi.changePassword({
      passwordOld: encrypt(values.passwordOld),
      passwordNew: encrypt(values.passwordNew),
    });
    form.resetFields();
    await onChanged();
  });

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
        <PasswordFields
          strong={strong}
          current={{
            name: 'passwordOld',
            label: t('userCenter.passwordOld'),
            placeholder: t('userCenter.passwordOldPlaceholder'),
            required: t('userCenter.oldRequired'),
            testId: 'password-old',
          }}
          next={{
            name: 'passwordNew',
            label: t('userCenter.passwordNew'),
            placeholder: t('userCenter.passwordNewPlaceholder'),
            required: t('userCenter.newRequired'),
            extra: t('userCenter.tips'),
            sameAsCurrent: t('userCenter.sameAsOld'),
            testId: 'password-new',
          }}
          confirm={{
            name: 'passwordConfirm',
            label: t('userCenter.passwordConfirm'),
            placeholder: t('userCenter.passwordConfirmPlaceholder'),
            required: t('userCenter.confirmRequired'),
            mismatch: t('userCenter.mismatch'),
            testId: 'password-confirm',
          }}
        />
        <Form.Item style={{ marginBottom: 0 }}>
          <Button type="primary" htmlType="submit" loading={saving} data-testid="password-submit">
            {t('userCenter.submit')}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
