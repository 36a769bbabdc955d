import { LockOutlined, LogoutOutlined, UnlockOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Form, Input, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { encryptPassword } from '../../platform/crypto/password-cipher.ts';
import { http } from '../../platform/http/http.ts';
import { HttpError, UnauthorizedError } from '../../platform/http/http-client.ts';
import { recordActivity } from '../../platform/session/activity.ts';
import { useLockScreen } from '../../platform/session/lock-screen.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { formatInZone } from '../../platform/time/time-zone.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import styles from './lock-screen.module.css';

/** A relative avatar path gets a leading slash (SPEC §3). */
function avatarSrc(avatar: string | null | undefined): string | undefined {
  if (!avatar) return undefined;
  return /^(https?:|data:|\/)/.test(avatar) ? avatar : `/${avatar}`;
}

function useNow(intervalMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

async function unlockScreen(password: string): Promise<void> {
  const { publicKey } = await sessionApi.loginConfig();
  await http.post<null>(
    '/api/sysAuth/unLockScreen',
    { password: encryptPassword(password, publicKey) },
    { silent: true },
  );
}

/** Marks the app's own element inert while locked: no focus, clicks or screen reader reach it. */
function useInertApp(locked: boolean) {
  useEffect(() => {
    if (!locked) return;
    const app = document.querySelector<HTMLElement>('[data-testid="layout-shell"]');
    app?.setAttribute('inert', '');
    app?.setAttribute('aria-hidden', 'true');
    return () => {
      app?.removeAttribute('inert');
      app?.removeAttribute('aria-hidden');
    };
  }, [locked]);
}

/**
 * The full-screen lock (SPEC §3): hides the open pages (they stay mounted, so nothing is lost), shows the
 * user, the time and a password box. The password is checked by the server (SM2 like at login).
 */
export function LockScreen({ onLogout }: { onLogout: () => void }) {
  const { t } = useTranslation();
  const locked = useLockScreen((state) => state.locked);
  const userInfo = useSessionStore((state) => state.userInfo);
  useInertApp(locked);
  if (!locked) return null;
  const name = userInfo?.realName || userInfo?.account || '';
  return (
    <div
      className={styles.overlay}
      role="dialog"
      aria-modal="true"
      aria-label={t('lockScreen.locked')}
      data-testid="lock-screen"
    >
      <LockClock />
      <div className={styles.card}>
        <Avatar size={72} src={avatarSrc(userInfo?.avatar)} icon={<UserOutlined />}>
          {name.slice(0, 1)}
        </Avatar>
        <div className={styles.name} data-testid="lock-screen-name">
          {name}
        </div>
        <div className={styles.hint}>
          <LockOutlined />
          {t('lockScreen.locked')}
        </div>
        <UnlockForm />
        <Button
          type="link"
          size="small"
          icon={<LogoutOutlined />}
          style={{ color: 'rgba(255, 255, 255, 0.75)' }}
          onClick={onLogout}
          data-testid="lock-screen-logout"
        >
          {t('lockScreen.logout')}
        </Button>
      </div>
    </div>
  );
}

function LockClock() {
  const { i18n } = useTranslation();
  const now = useNow(1_000);
  return (
    <div>
      <div className={styles.clock} data-testid="lock-screen-clock">
        {zoneDayjs(now).format('HH:mm')}
      </div>
      <div className={styles.date}>{formatInZone(now, i18n.language, { dateStyle: 'full' })}</div>
    </div>
  );
}

function UnlockForm() {
  const { t } = useTranslation();
  const unlock = useLockScreen((state) => state.unlock);
  const [form] = Form.useForm<{ password: string }>();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<InputRef>(null);
  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = async ({ password }: { password: string }) => {
    if (pending) return;
    setPending(true);
    setError(null);
    try {
      await unlockScreen(password);
      recordActivity();
      unlock();
    } catch (failure) {
      if (failure instanceof UnauthorizedError) return;
      setError(failure instanceof HttpError && failure.message ? failure.message : t('crud.failed'));
      // Selected rather than cleared, so the next keystroke replaces it.
      input.current?.focus({ cursor: 'all' });
    } finally {
      setPending(false);
    }
  };

  return (
    <Form form={form} className={styles.form} onFinish={submit}>
      <Form.Item
        name="password"
        rules={[{ required: true, message: t('lockScreen.passwordRequired') }]}
        style={{ marginBottom: 12 }}
      >
        <Input.Password
          ref={input}
          size="large"
          autoComplete="current-password"
          placeholder={t('lockScreen.passwordPlaceholder')}
          aria-label={t('lockScreen.password')}
          status={error ? 'error' : undefined}
          onChange={() => setError(null)}
          data-testid="lock-screen-password"
        />
      </Form.Item>
      {error ? (
        <div role="alert" className={styles.error} data-testid="lock-screen-error">
          {error}
        </div>
      ) : null}
      <Button
        type="primary"
        htmlType="submit"
        size="large"
        block
        icon={<UnlockOutlined />}
        loading={pending}
        data-testid="lock-screen-unlock"
      >
        {t('lockScreen.unlock')}
      </Button>
    </Form>
  );
}
