import type { ErrorCode } from '@shuzhi/contracts/errors';
import { type ForceOfflinePayload, REALTIME_EVENTS } from '@shuzhi/contracts/realtime';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { feedback } from '../../platform/feedback/feedback.ts';
import { clearSession } from '../../platform/http/http.ts';
import {
  connectRealtime,
  disconnectRealtime,
  reportActivity,
  useRealtimeEvent,
} from '../../platform/realtime/realtime.ts';
import { onActivity, trackActivity, watchIdle } from '../../platform/session/activity.ts';
import { useLockScreen } from '../../platform/session/lock-screen.ts';
import { logout } from '../../platform/session/logout.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { pageSessionClosed } from '../../platform/session/sso-session.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { useTagsStore } from '../tags/tags.store.ts';
import { LockScreen } from './lock-screen.tsx';

/** The message a browser shows when the server ended its session (reasons as sessions.ts records them). */
export function forceOfflineMessageKey(payload: ForceOfflinePayload | undefined) {
  switch (payload?.reason) {
    case 'logout':
      // This browser signed out itself (another tab of it, or this one): nothing to tell.
      return null;
    case 'single_login':
      return 'sessionGuard.signedInElsewhere';
    case 'force_offline':
      return 'sessionGuard.forcedOffline';
    case 'user_disabled':
    case 'user_deleted':
      return 'sessionGuard.accountDisabled';
    case 'password_changed':
    case 'password reset':
      return 'sessionGuard.passwordChanged';
    default:
      return payload?.code === ('D1025' satisfies ErrorCode)
        ? 'sessionGuard.signedInElsewhere'
        : 'sessionGuard.sessionEnded';
  }
}

/** Minutes from a config value; anything not a positive number means off. */
function minutesOf(value: unknown): number {
  const n = Number(value);
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Leaves the signed-in app for the login page, with an optional warning. */
function useLeave() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const resetTags = useTagsStore((state) => state.reset);
  return useCallback(
    (message: string | null) => {
      disconnectRealtime();
      useLockScreen.getState().unlock();
      clearSession();
      resetTags();
      client.clear();
      navigate('/login', { replace: true });
      if (message) feedback.warning(message);
    },
    [navigate, client, resetTags],
  );
}

/**
 * What keeps a signed-in browser in step with its session (issue 3 §5): the realtime connection and its
 * forceOffline, auto logout (AutoLogoutTime), the automatic and manual lock screen. Mounted once by the
 * layout.
 */
export function SessionGuards() {
  const { t } = useTranslation();
  const leave = useLeave();

  // SingleSignOnExpire ≤ 0: a single sign-on session bound to a page that was closed ends here.
  useEffect(() => {
    if (pageSessionClosed()) void logout().finally(() => leave(t('sessionGuard.sessionEnded')));
  }, [leave, t]);

  // Realtime: connected while the layout is shown; activity is reported for the online-user list.
  useEffect(() => {
    connectRealtime();
    const stopTracking = trackActivity();
    const stopReporting = onActivity((at) => reportActivity(at));
    return () => {
      stopReporting();
      stopTracking();
      disconnectRealtime();
    };
  }, []);
  useRealtimeEvent<ForceOfflinePayload>(REALTIME_EVENTS.forceOffline, (payload) => {
    const key = forceOfflineMessageKey(payload);
    leave(key ? t(key) : null);
  });

  // Lock screen: another tab or a reload may have locked it; after lockScreenTime idle minutes when on.
  useEffect(() => useLockScreen.getState().sync(), []);
  const autoLock = useThemeStore((state) => state.isLockScreen);
  const lockMinutes = minutesOf(useThemeStore((state) => state.lockScreenTime));
  const locked = useLockScreen((state) => state.locked);
  useEffect(() => {
    if (!autoLock || lockMinutes <= 0 || locked) return;
    return watchIdle({ timeoutMs: lockMinutes * 60_000, onIdle: () => useLockScreen.getState().lock() });
  }, [autoLock, lockMinutes, locked]);

  // Auto logout: AutoLogoutTime minutes (0 = off) from the client config every signed-in user may read.
  const clientConfig = useQuery({
    queryKey: ['sysConfig', 'clientList'],
    queryFn: sessionApi.clientConfig,
    staleTime: 5 * 60_000,
  });
  const logoutMinutes = minutesOf(clientConfig.data?.find((item) => item.code === 'AutoLogoutTime')?.value);
  useEffect(() => {
    if (logoutMinutes <= 0) return;
    return watchIdle({
      timeoutMs: logoutMinutes * 60_000,
      onIdle: () => {
        void logout().finally(() => leave(t('sessionGuard.autoLoggedOut')));
      },
    });
  }, [logoutMinutes, leave, t]);

  const signOut = useCallback(() => {
    void logout().finally(() => leave(null));
  }, [leave]);

  return <LockScreen onLogout={signOut} />;
}
