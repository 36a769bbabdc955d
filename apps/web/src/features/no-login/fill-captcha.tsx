import { Button, Flex, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export type NoLoginCaptcha = { id: number; img: string };
/** What a submission carries once the server asked for a captcha (N1040, N1041). */
export type CaptchaAnswer = { codeId: number; code: string };

/** The server's PNG as bare base64 (`GET /api/sysAuth/captcha`, the login page's captcha). */
const srcOf = (img: string) => (img.startsWith('data:') ? img : `data:image/png;base64,${img}`);

/**
 * The captcha a login-free fill page shows after repeated submissions (docs/no-login.md, "Abuse limits"):
 * the image (a click draws a new one) and the text typed. The form's values stay where they are.
 */
export function FillCaptcha({
  captcha,
  value,
  onChange,
  onRefresh,
  disabled,
}: {
  captcha: NoLoginCaptcha | null;
  value: string;
  onChange: (value: string) => void;
  onRefresh: () => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Flex vertical gap={6} style={{ marginBottom: 8 }} data-testid="scancode-captcha">
      <Typography.Text type="warning">{t('noLogin.scan.captchaHint')}</Typography.Text>
      <Flex gap={12} align="center">
        <Input
          size="large"
          value={value}
          onChange={(event) => onChange(event.target.value)}
          maxLength={8}
          autoComplete="off"
          placeholder={t('noLogin.scan.captchaPlaceholder')}
          aria-label={t('noLogin.scan.captchaPlaceholder')}
          disabled={disabled}
          style={{ flex: 1, minWidth: 0 }}
          data-testid="scancode-captcha-input"
        />
        <Button
          onClick={onRefresh}
          disabled={disabled}
          title={t('noLogin.scan.captchaRefresh')}
          aria-label={t('noLogin.scan.captchaRefresh')}
          style={{ flex: 'none', width: 120, height: 40, padding: 0, overflow: 'hidden' }}
          data-testid="scancode-captcha-image"
        >
          {captcha ? (
            <img
              src={srcOf(captcha.img)}
              alt={t('noLogin.scan.captchaAlt')}
              style={{ width: '100%', height: '100%', objectFit: 'cover', display: 'block' }}
            />
          ) : null}
        </Button>
      </Flex>
    </Flex>
  );
}
