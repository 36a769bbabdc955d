import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function PageLoading({ fullscreen = false }: { fullscreen?: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="page-loading"
      style={{
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        minHeight: fullscreen ? '100vh' : 240,
      }}
    >
      <Spin size="large" description={t('app.loading')} />
    </div>
  );
}
