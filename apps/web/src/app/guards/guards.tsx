import { useQuery } from '@tanstack/react-query';
import { Button, Result } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { autoLoginRequest } from '../../features/auth/auto-login.ts';
import { AutoLoginGate } from '../../features/auth/auto-login-gate.tsx';
import { UnauthorizedError } from '../../platform/http/http-client.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { loadSession } from '../../platform/session/session-loader.ts';
import { hasValidSession, sessionLoginType } from '../../platform/session/session-state.ts';
import { homeTarget, loginTarget } from '../navigation.ts';

/** Unknown users go to /login (SPEC §2); signed-in users get their session loaded before the shell renders. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  const [params] = useSearchParams();
  // A credential in the URL the app was opened with (SPEC §4) signs in first, whoever is signed in now.
  // Only the entry URL: in-app links may carry a `code` or `param` of their own.
  const autoLogin = location.key === 'default' ? autoLoginRequest(params) : null;
  if (autoLogin) return <AutoLoginGate request={autoLogin} />;
  if (!hasValidSession()) {
    return <Navigate to={loginTarget(params.get('openType'), location.pathname + location.search)} replace />;
  }
  return <SessionBoot>{children}</SessionBoot>;
}

function SessionBoot({ children }: { children: ReactNode }) {
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

/** A signed-in user opening /login goes home (SPEC §2). Checked once, so the login flow can finish its dialog. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const [signedIn] = useState(hasValidSession);
  const autoLogin = location.key === 'default' ? autoLoginRequest(params) : null;
  if (autoLogin) return <AutoLoginGate request={autoLogin} />;
  if (signedIn)
    return (
      <Navigate
        to={homeTarget(sessionLoginType() ?? numberOrNull(params.get('type')), params.get('openType'))}
        replace
      />
    );
  return children;
}

function numberOrNull(value: string | null): number | null {
  if (value === null) return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
}
