import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

export default function NoPermissionPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Result
      status="403"
      title="401"
      subTitle={t('errors.noPermission')}
      data-testid="no-permission-page"
      extra={
        <Button type="primary" onClick={() => navigate('/dashboard')} data-testid="back-home">
          {t('common.backHome')}
        </Button>
      }
    />
  );
}
