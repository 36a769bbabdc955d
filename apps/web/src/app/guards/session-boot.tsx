import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../components/page-loading.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { loadSession } from '../../platform/session/session-loader.ts';

/** Loads a signed-in user's session before the shell renders; a failure offers to try again. */
export function SessionBoot({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const loaded = useSessionStore((state) => state.userInfo !== null);
  const query = useQuery({
    queryKey: ['session', 'boot'],
    queryFn: async () => {
      await loadSession();
      return true;
    },
    enabled: !loaded,
    retry: (count, error) => !(error instanceof UnauthorizedError) && count < 1,
    gcTime: 0,
  });
  if (loaded) return children;
  if (query.isError && !(query.error instanceof UnauthorizedError)) {
    return (
      <Result
        status="warning"
        title={query.error.message}
        extra={
          <Button type="primary" onClick={() => void query.refetch()}>
            {t('common.retry')}
          </Button>
        }
      />
    );
  }
  return <PageLoading fullscreen />;
}
