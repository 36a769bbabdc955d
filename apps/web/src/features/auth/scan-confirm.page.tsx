import { DesktopOutlined } from '@ant-design/icons';
import { Button, Result, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { hasErrorCode } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { scanLoginApi } from './login.api.ts';

type Phase = 'scanning' | 'ask' | 'confirmed' | 'cancelled' | 'expired' | 'missing';

/** Ends of the phone-side flow: anything but D1018 (expired) was already toasted by the HTTP client. */
const phaseOfError = (error: unknown): Phase => (hasErrorCode(error, 'D1018') ? 'expired' : 'missing');

/**
 * The phone side of scan login (`/scanLogin?id=…`, signed in): opening it marks the ticket scanned, then the
 * user confirms (the computer gets its own session) or cancels.
 */
export default function ScanConfirmPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = params.get('id')?.trim() ?? '';
  const realName = useSessionStore((state) => state.userInfo?.realName ?? '');
  const { systemName, systemTitle } = useBranding();
  const [phase, setPhase] = useState<Phase>(id ? 'scanning' : 'missing');
  const [busy, setBusy] = useState<'confirm' | 'cancel' | null>(null);

  useEffect(() => {
    document.title = `${t('login.scanConfirm.title')} - ${systemTitle}`;
  }, [t, systemTitle]);

  useEffect(() => {
    if (!id) return;
    let live = true;
    scanLoginApi.scan(id).then(
      () => live && setPhase('ask'),
      (error: unknown) => live && setPhase(phaseOfError(error)),
    );
    return () => {
      live = false;
    };
  }, [id]);

  const act = async (action: 'confirm' | 'cancel') => {
    setBusy(action);
    try {
      await scanLoginApi[action](id);
      setPhase(action === 'confirm' ? 'confirmed' : 'cancelled');
    } catch (error) {
      setPhase(phaseOfError(error));
    } finally {
      setBusy(null);
    }
  };

  const home = (
    <Button onClick={() => navigate('/dashboard', { replace: true })} data-testid="scan-confirm-home">
      {t('login.scanConfirm.home')}
    </Button>
  );
  const body = () => {
    switch (phase) {
      case 'scanning':
        return <Spin size="large" />;
      case 'ask':
        return (
          <Result
            icon={<DesktopOutlined />}
            title={t('login.scanConfirm.question', { name: realName })}
            subTitle={t('login.scanConfirm.system', { name: systemName })}
            extra={
              <Space orientation="vertical" size="middle" style={{ width: 260 }}>
                <Button
                  type="primary"
                  size="large"
                  block
                  loading={busy === 'confirm'}
                  disabled={busy !== null}
                  onClick={() => void act('confirm')}
                  data-testid="scan-confirm-ok"
                >
                  {t('login.scanConfirm.confirm')}
                </Button>
                <Button
                  size="large"
                  block
                  loading={busy === 'cancel'}
                  disabled={busy !== null}
                  onClick={() => void act('cancel')}
                  data-testid="scan-confirm-cancel"
                >
                  {t('login.scanConfirm.cancel')}
                </Button>
              </Space>
            }
          />
        );
      case 'confirmed':
        return <Result status="success" title={t('login.scanConfirm.confirmed')} extra={home} />;
      case 'cancelled':
        return <Result status="info" title={t('login.scanConfirm.cancelled')} extra={home} />;
      case 'expired':
        return <Result status="warning" title={t('login.scanConfirm.expired')} extra={home} />;
      default:
        return <Result status="warning" title={t('login.scanConfirm.missing')} extra={home} />;
    }
  };

  return (
    <div
      data-testid="scan-confirm-page"
      data-phase={phase}
      style={{
        minHeight: '100vh',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        padding: 16,
      }}
    >
      {body()}
    </div>
  );
}
