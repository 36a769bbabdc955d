import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * A list that could not be loaded: the reason (the request's error message) and a 重试 button, above the
 * table it belongs to. `title` defaults to 数据加载失败.
 */
export function LoadFailedAlert({
  error,
  onRetry,
  title,
  testId,
  retryTestId,
}: {
  error: unknown;
  onRetry: () => void;
  title?: string;
  testId?: string;
  retryTestId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      title={title ?? t('crud.loadFailed')}
      description={error instanceof Error ? error.message : undefined}
      action={
        <Button size="small" onClick={onRetry} data-testid={retryTestId}>
          {t('common.retry')}
        </Button>
      }
      data-testid={testId}
    />
  );
}
