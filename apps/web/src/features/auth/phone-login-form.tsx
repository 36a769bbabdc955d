import { MessageOutlined, MobileOutlined } from '@ant-design/icons';
import type { LoginResult } from '@shuzhi/contracts/auth';
import { SMS_CODE_LENGTH, SMS_RESEND_SECONDS } from '@shuzhi/contracts/sign-in';
import { MOBILE_PATTERN } from '@shuzhi/contracts/validators';
import { Button, Form, Input } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReclickGuard } from '../../components/use-reclick-guard.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { loginApi } from './login.api.ts';
import styles from './login.module.css';
import type { LoginContext } from './use-login-flow.ts';

type PhoneFields = { phone: string; code: string };

/** Seconds left before another code may be asked for; ticks down once a second. */
function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

/** 手机号登录: phone number, SMS code with a 60 s resend countdown. */
export function PhoneLoginForm({
  context,
  onLoggedIn,
}: {
  context: LoginContext;
  onLoggedIn: (result: LoginResult, context: LoginContext) => Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PhoneFields>();
  const [sending, setSending] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [countdown, startCountdown] = useCountdown();
  const inFlight = useRef(false);

  const sendCode = useCallback(async () => {
    let phone: string;
    try {
      phone = (await form.validateFields(['phone'])).phone.trim();
    } catch {
      return;
    }
    setSending(true);
    try {
      await loginApi.sendSmsCode(phone);
      feedback.success(t('login.codeSent'));
      startCountdown(SMS_RESEND_SECONDS);
    } catch {
      // The HTTP client showed the server's message (too frequent, gateway down).
    } finally {
      setSending(false);
    }
  }, [form, t, startCountdown]);

  const submit = useCallback(
    async (values: PhoneFields) => {
      if (inFlight.current) return;
      inFlight.current = true;
      setSubmitting(true);
      try {
        const result = await loginApi.loginPhone(values.phone.trim(), values.code.trim());
        await onLoggedIn(result, context);
      } catch {
        // Shown by the HTTP client.
      } finally {
        inFlight.current = false;
        setSubmitting(false);
      }
    },
    [context, onLoggedIn],
  );
  const guardedSubmit = useReclickGuard(() => form.submit());

  return (
    <Form<PhoneFields>
      form={form}
      size="large"
      onFinish={submit}
      requiredMark={false}
      data-testid="phone-form"
    >
      <Form.Item
        name="phone"
        rules={[
          { required: true, whitespace: true, message: t('login.phoneRequired') },
          { pattern: MOBILE_PATTERN, message: t('login.phoneInvalid') },
        ]}
      >
        <Input
          prefix={<MobileOutlined />}
          placeholder={t('login.phonePlaceholder')}
          autoComplete="tel"
          inputMode="numeric"
          maxLength={11}
          allowClear
          data-testid="phone-number"
        />
      </Form.Item>
      <Form.Item required>
        <div className={styles.captchaRow}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, whitespace: true, message: t('login.smsCodeRequired') },
              { pattern: new RegExp(`^\\d{${SMS_CODE_LENGTH}}$`), message: t('login.smsCodeInvalid') },
            ]}
          >
            <Input
              prefix={<MessageOutlined />}
              placeholder={t('login.smsCodePlaceholder')}
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={SMS_CODE_LENGTH}
              data-testid="phone-code"
            />
          </Form.Item>
          <Button
            className={styles.smsButton}
            onClick={() => void sendCode()}
            loading={sending}
            disabled={countdown > 0}
            data-testid="phone-send-code"
          >
            {countdown > 0 ? t('login.resendIn', { seconds: countdown }) : t('login.sendCode')}
          </Button>
        </div>
      </Form.Item>
      <Form.Item style={{ marginBottom: 0, marginTop: 8 }}>
        <Button
          type="primary"
          htmlType="button"
          block
          loading={submitting}
          onClick={guardedSubmit}
          data-testid="phone-submit"
        >
          {t('login.submit')}
        </Button>
      </Form.Item>
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </Form>
  );
}
