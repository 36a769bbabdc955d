import {
  FileDoneOutlined,
  LockOutlined,
  NodeIndexOutlined,
  SafetyCertificateOutlined,
  SafetyOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Skeleton, Spin, Tabs, theme } from 'antd';
// The two inputs the form shows, without the rest of antd's Input family (text area, OTP, search).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import {
  type CSSProperties,
  type KeyboardEvent,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { hasErrorCode } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { sessionApi } from '../../platform/session/session.api.ts';
import { captchaSrc, loginApi } from './login.api.ts';
import styles from './login.module.css';
import { type LoginContext, useLoginFlow } from './use-login-flow.ts';

// The other sign-in modes load when their tab is opened; most users sign in with account and password.
const PhoneLoginForm = lazy(() =>
  import('./phone-login-form.tsx').then((module) => ({ default: module.PhoneLoginForm })),
);
const ScanLoginPanel = lazy(() =>
  import('./scan-login-panel.tsx').then((module) => ({ default: module.ScanLoginPanel })),
);

/** SM2 for the password (sm-crypto): fetched while the password is typed, not with the page. */
const loadCipher = () => import('../../platform/crypto/password-cipher.ts');

type LoginMode = 'account' | 'phone' | 'scan';

type LoginFields = { account: string; password: string; code?: string };

function numberParam(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const n = Number(value);
  return Number.isInteger(n) ? n : null;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const branding = useBranding();
  const [params] = useSearchParams();
  const [form] = Form.useForm<LoginFields>();
  const [submitting, setSubmitting] = useState(false);
  const inFlight = useRef(false);
  const [capsLock, setCapsLock] = useState(false);
  const completeLogin = useLoginFlow();
  const [mode, setMode] = useState<LoginMode>('account');
  const loginContext = useMemo<LoginContext>(
    () => ({
      loginType: numberParam(params.get('type') ?? params.get('systemType')),
      openType: params.get('openType'),
      redirect: params.get('redirect'),
    }),
    [params],
  );
  const onScanTokens = useCallback(
    (result: Parameters<typeof completeLogin>[0]) => completeLogin(result, loginContext),
    [completeLogin, loginContext],
  );

  const config = useQuery({
    queryKey: ['sysAuth', 'loginConfig'],
    queryFn: sessionApi.loginConfig,
    staleTime: 60_000,
  });
  // The server may ask for a captcha although it is switched off (sign-in throttling: D0008 after wrong
  // passwords); from then on the form shows one.
  const [captchaDemanded, setCaptchaDemanded] = useState(false);
  const captchaEnabled = (config.data?.captchaEnabled ?? false) || captchaDemanded;
  const captcha = useQuery({
    queryKey: ['sysAuth', 'captcha'],
    queryFn: loginApi.captcha,
    enabled: captchaEnabled,
    staleTime: 55_000,
    refetchInterval: 55_000,
  });
  const refreshCaptcha = useCallback(() => {
    form.setFieldValue('code', '');
    void captcha.refetch();
  }, [captcha, form]);

  useEffect(() => {
    document.title = `${t('routes.login')} - ${branding.systemTitle}`;
  }, [t, branding.systemTitle]);

  const submit = useCallback(
    async (values: LoginFields) => {
      if (inFlight.current) return;
      if (!config.data?.publicKey) {
        void config.refetch();
        return;
      }
      inFlight.current = true;
      setSubmitting(true);
      try {
        const loginType = numberParam(params.get('type') ?? params.get('systemType'));
        const { encryptPassword } = await loadCipher();
        const result = await loginApi.login({
          account: values.account.trim(),
          password: encryptPassword(values.password, config.data.publicKey),
          codeId: captchaEnabled ? captcha.data?.id : undefined,
          code: captchaEnabled ? values.code?.trim() : undefined,
          ...(loginType !== null ? { loginType } : {}),
        });
        await completeLogin(result, {
          loginType,
          openType: params.get('openType'),
          redirect: params.get('redirect'),
        });
      } catch (error) {
        // The HTTP client already showed the server's message; a used captcha must be replaced.
        if (captchaEnabled) refreshCaptcha();
        else if (hasErrorCode(error, 'D0008')) setCaptchaDemanded(true);
      } finally {
        inFlight.current = false;
        setSubmitting(false);
      }
    },
    [config, captchaEnabled, captcha.data?.id, params, completeLogin, refreshCaptcha],
  );

  const guardedSubmit = useReclickGuard(() => form.submit());

  const onPasswordKey = (event: KeyboardEvent<HTMLInputElement>) => {
    setCapsLock(event.getModifierState?.('CapsLock') ?? false);
  };

  const cssVars = {
    '--login-primary': token.colorPrimary,
    '--login-primary-deep': token.colorPrimaryActive,
    '--login-page-bg': token.colorBgLayout,
    '--login-panel-bg': token.colorBgContainer,
    '--login-border': token.colorBorder,
  } as CSSProperties;

  const highlights = [
    {
      icon: <FileDoneOutlined />,
      title: 'login.highlights.collectTitle',
      desc: 'login.highlights.collectDesc',
    },
    { icon: <NodeIndexOutlined />, title: 'login.highlights.flowTitle', desc: 'login.highlights.flowDesc' },
    {
      icon: <SafetyCertificateOutlined />,
      title: 'login.highlights.secureTitle',
      desc: 'login.highlights.secureDesc',
    },
  ] as const;

  const accountForm = (
    <Form<LoginFields>
      form={form}
      size="large"
      onFinish={submit}
      autoComplete="on"
      requiredMark={false}
      data-testid="login-form"
    >
      <Form.Item
        name="account"
        rules={[{ required: true, whitespace: true, message: t('login.accountRequired') }]}
      >
        <Input
          prefix={<UserOutlined />}
          placeholder={t('login.accountPlaceholder')}
          autoComplete="username"
          maxLength={64}
          allowClear
          data-testid="login-account"
        />
      </Form.Item>
      <Form.Item
        name="password"
        rules={[{ required: true, message: t('login.passwordRequired') }]}
        extra={
          capsLock ? <span style={{ color: token.colorWarningText }}>{t('login.capsLock')}</span> : undefined
        }
      >
        <Password
          prefix={<LockOutlined />}
          placeholder={t('login.passwordPlaceholder')}
          autoComplete="current-password"
          maxLength={64}
          onKeyUp={onPasswordKey}
          onFocus={() => void loadCipher()}
          data-testid="login-password"
        />
      </Form.Item>
      {captchaEnabled ? (
        <Form.Item required>
          <div className={styles.captchaRow}>
            <Form.Item
              name="code"
              noStyle
              rules={[{ required: true, whitespace: true, message: t('login.captchaRequired') }]}
            >
              <Input
                prefix={<SafetyOutlined />}
                placeholder={t('login.captchaPlaceholder')}
                autoComplete="off"
                maxLength={8}
                data-testid="login-captcha"
              />
            </Form.Item>
            <button
              type="button"
              className={styles.captchaImage}
              onClick={refreshCaptcha}
              title={t('login.captchaRefresh')}
              aria-label={t('login.captchaRefresh')}
              data-testid="login-captcha-image"
            >
              {captcha.data ? (
                <img src={captchaSrc(captcha.data.img)} alt={t('login.captchaAlt')} />
              ) : (
                <Skeleton.Button active block style={{ height: 38 }} />
              )}
            </button>
          </div>
        </Form.Item>
      ) : null}
      <Form.Item style={{ marginBottom: 0, marginTop: 8 }}>
        <Button
          type="primary"
          htmlType="button"
          block
          loading={submitting}
          onClick={guardedSubmit}
          disabled={config.isLoading}
          data-testid="login-submit"
        >
          {t('login.submit')}
        </Button>
      </Form.Item>
      {/* A hidden submit button lets Enter in any field submit the form. */}
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </Form>
  );

  const year = new Date().getFullYear();
  const copyright =
    branding.copyright || t('footer.copyright', { year, unit: branding.unitName || branding.systemName });

  return (
    <div className={styles.page} style={cssVars} data-testid="login-page">
      <section className={styles.brandPanel}>
        <div className={styles.brandHeader}>
          <span className={styles.brandLogo}>
            <BrandLogo src={branding.logo} text={branding.profile?.shortName ?? t('app.name')} size={32} />
          </span>
          <span>{branding.unitName || t('app.name')}</span>
        </div>
        <div className={styles.brandBody}>
          {branding.areaName ? <span className={styles.area}>{branding.areaName}</span> : null}
          <h1 className={styles.systemName} data-testid="login-system-name">
            {branding.systemTitle}
          </h1>
          <p className={styles.slogan}>{t('app.slogan')}</p>
          <ul className={styles.highlights}>
            {highlights.map((item) => (
              <li key={item.title} className={styles.highlight}>
                <span className={styles.highlightIcon}>{item.icon}</span>
                <div>
                  <div className={styles.highlightTitle}>{t(item.title)}</div>
                  <div className={styles.highlightDesc}>{t(item.desc)}</div>
                </div>
              </li>
            ))}
          </ul>
        </div>
        <div className={styles.brandFooter}>
          {branding.organizer ? t('login.organizer', { name: branding.organizer }) : null}
        </div>
      </section>

      <section className={styles.formPanel}>
        <div className={styles.toolbar}>
          <LanguageSwitch />
        </div>
        <div className={styles.formCard}>
          <h2 className={styles.welcome} style={{ color: token.colorTextHeading }}>
            {t('login.welcome')}
          </h2>
          <p className={styles.welcomeSub} style={{ color: token.colorTextSecondary }}>
            {branding.systemTitle}
          </p>
          <Tabs
            className={styles.tabs}
            activeKey={mode}
            onChange={(key) => setMode(key as LoginMode)}
            data-testid="login-tabs"
            items={[
              { key: 'account', label: t('login.tabAccount'), children: accountForm },
              {
                key: 'phone',
                label: t('login.tabPhone'),
                children: (
                  <Suspense fallback={<Spin className={styles.modeLoading} />}>
                    <PhoneLoginForm context={loginContext} onLoggedIn={completeLogin} />
                  </Suspense>
                ),
              },
              {
                key: 'scan',
                label: t('login.tabScan'),
                // Mounted only while open: leaving the tab stops the polling.
                children:
                  mode === 'scan' ? (
                    <Suspense fallback={<Spin className={styles.modeLoading} />}>
                      <ScanLoginPanel onTokens={onScanTokens} />
                    </Suspense>
                  ) : null,
              },
            ]}
          />
        </div>
        <footer
          className={styles.formFooter}
          style={{ color: token.colorTextTertiary }}
          data-testid="login-footer"
        >
          {branding.organizer ? <div>{t('login.organizer', { name: branding.organizer })}</div> : null}
          <div>
            {branding.phone ? <span>{t('login.supportPhone', { phone: branding.phone })} · </span> : null}
            <span>{copyright}</span>
            {branding.icp ? (
              <span>
                {' · '}
                <a
                  href="https://beian.miit.gov.cn/"
                  target="_blank"
                  rel="noreferrer"
                  style={{ color: 'inherit' }}
                >
                  {branding.icp}
                </a>
              </span>
            ) : null}
          </div>
        </footer>
      </section>
    </div>
  );
}
