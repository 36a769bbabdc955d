import type { LoginResult } from '@shuzhi/contracts/auth';
import { greetingBand } from '@shuzhi/contracts/formatters';
import { App, type ButtonProps } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FORCED_PASSWORD_PATH, homeTarget, safeRedirect } from '../../app/navigation.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { logout } from '../../platform/session/logout.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { loadSession } from '../../platform/session/session-loader.ts';
import { tokens } from '../../platform/storage/storage.ts';
import { wallClockNow } from '../../platform/time/time-zone.ts';

export type LoginContext = { loginType: number | null; openType: string | null; redirect: string | null };

/** What happens after the server accepted the credentials (SPEC §4 and §8). */
export function useLoginFlow() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();

  return useCallback(
    async (result: LoginResult, context: LoginContext): Promise<boolean> => {
      tokens.save(result.accessToken, result.refreshToken);
      // Remembered for this session: reopening /login later sends a type-9 user back to the portal (SPEC §2).
      tokens.saveLoginType(context.loginType);
      const { menuCount } = await loadSession();
      if (menuCount === 0) {
        feedback.warning(t('login.noPermission'));
        await logout();
        return false;
      }
      const band = greetingBand(wallClockNow().hour);
      feedback.success(t('greeting.loginSuccess', { greeting: t(`greeting.${band}`) }));

      if (result.isDefPwd || result.isUpdatePwd) {
        useSessionStore.getState().setPasswordChange(result.isDefPwd ? 'default' : 'expired');
        modal.confirm({
          title: t('forcePassword.title'),
          content: t(result.isDefPwd ? 'forcePassword.defaultPassword' : 'forcePassword.expiredPassword'),
          okText: t('forcePassword.ok'),
          okCancel: false,
          closable: false,
          keyboard: false,
          mask: { closable: false },
          okButtonProps: { 'data-testid': 'force-password-ok' } as ButtonProps,
          rootClassName: 'force-password-dialog',
          onOk: () => navigate(FORCED_PASSWORD_PATH, { replace: true }),
        });
        return true;
      }
      const accountType = useSessionStore.getState().userInfo?.accountType;
      navigate(
        safeRedirect(context.redirect) ?? homeTarget(context.loginType, context.openType, accountType),
        { replace: true },
      );
      return true;
    },
    [t, modal, navigate],
  );
}
