import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { PageLoading } from '../../components/page-loading.tsx';
import { autoLoginRequest } from '../../features/auth/auto-login.ts';
import { AutoLoginGate } from '../../features/auth/auto-login-gate.tsx';
import {
  hasValidSession,
  sessionAccountType,
  sessionLoginType,
} from '../../platform/session/session-state.ts';
import { homeTarget, loginTarget } from '../navigation.ts';

// Only signed-in users boot a session (and may see its failure page): not part of the login page's scripts.
const SessionBoot = lazy(() =>
  import('./session-boot.tsx').then((module) => ({ default: module.SessionBoot })),
);

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
  return (
    <Suspense fallback={<PageLoading fullscreen />}>
      <SessionBoot>{children}</SessionBoot>
    </Suspense>
  );
}

/** A signed-in user opening /login goes home (SPEC §2; an enterprise account to its portal). Checked once, so the login flow can finish its dialog. */
export function GuestOnly({ children }: { children: ReactNode }) {
  const [params] = useSearchParams();
  const location = useLocation();
  const [signedIn] = useState(hasValidSession);
  const autoLogin = location.key === 'default' ? autoLoginRequest(params) : null;
  if (autoLogin) return <AutoLoginGate request={autoLogin} />;
  if (signedIn)
    return (
      <Navigate
        to={homeTarget(
          sessionLoginType() ?? numberOrNull(params.get('type')),
          params.get('openType'),
          sessionAccountType(),
        )}
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
