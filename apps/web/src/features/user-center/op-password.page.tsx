import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { OpPasswordForm } from './op-password-form.tsx';

/** The 操作密码 menu (`/system/user/opPassword/index`): the user centre's operation-password form on its own. */
export default function OpPasswordPage() {
  const { t } = useTranslation();
  return (
    <Card title={t('opPassword.title')} data-testid="op-password-page">
      <OpPasswordForm />
    </Card>
  );
}
