import type { AutoLoginInput } from '@shuzhi/contracts/login-modes';
import { Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { loginTarget } from '../../app/navigation.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { clearSession } from '../../platform/http/http.ts';
import { applySingleSignOnExpire } from '../../platform/session/sso-session.ts';
import { withoutAutoLoginParams } from './auto-login.ts';
import { loginApi } from './login.api.ts';
import { useLoginFlow } from './use-login-flow.ts';

/** Landing pages after which the user goes home (SPEC §2) rather than back to the same URL. */
const HOME_PATHS = new Set(['/', '/login', '/dashboard']);

/**
 * One call per URL: a credential from a third-party system is usually single-use, and React may mount the
 * gate twice (strict mode, a guard re-rendering) before the URL loses its parameters.
 */
const attempts = new Map<string, Promise<unknown>>();

/**
 * Runs the automatic login a URL asks for (SPEC §4): success stores the tokens, loads the menus and goes to
 * the target; failure warns (the call itself is silent) and goes to /login.
 */
export function AutoLoginGate({ request }: { request: AutoLoginInput }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [params] = useSearchParams();
  const completeLogin = useLoginFlow();
  const key = `${location.pathname}${location.search}`;

  useEffect(() => {
    if (attempts.has(key)) return;
    const openType = params.get('openType');
    const target = withoutAutoLoginParams(location.pathname, location.search);
    const run = (async () => {
      try {
        // A previous user's session must not survive a sign-in as someone else.
        clearSession();
        const result = await loginApi.autoLogin(request);
        const ok = await completeLogin(result, {
          loginType: request.type,
          openType,
          redirect: HOME_PATHS.has(location.pathname) ? null : target,
        });
        if (!ok) navigate(loginTarget(openType), { replace: true });
        // SingleSignOnExpire (SPEC §4): a single sign-on session may be tied to this page only.
        else await applySingleSignOnExpire().catch(() => undefined);
      } catch {
        clearSession();
        feedback.warning(t('login.autoLoginFailed'));
        navigate(loginTarget(openType), { replace: true });
      } finally {
        // Later visits with the same URL (back button) try again.
        setTimeout(() => attempts.delete(key), 1000);
      }
    })();
    attempts.set(key, run);
  }, [key, request, params, location.pathname, location.search, completeLogin, navigate, t]);

  return (
    <div
      data-testid="auto-login"
      style={{ display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '100vh' }}
    >
      <Spin size="large" description={t('login.autoLoginRunning')} />
    </div>
  );
}
