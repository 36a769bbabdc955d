import { CheckCircleFilled, ReloadOutlined } from '@ant-design/icons';
import type { LoginResult } from '@shuzhi/contracts/auth';
import { SCAN_LOGIN_POLL_MS } from '@shuzhi/contracts/sign-in';
import { Button, QRCode, type QRCodeProps, Spin, theme } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { scanLoginApi } from './login.api.ts';
import styles from './login.module.css';

type ScanPhase = 'loading' | 'waiting' | 'scanned' | 'confirmed' | 'expired' | 'error';
export type ScanState = { phase: ScanPhase; url?: string; realName?: string };

/** The QR code holds the absolute URL of the phone-side page. */
export function absoluteScanUrl(url: string, origin = window.location.origin): string {
  return new URL(url, origin).toString();
}

/**
 * The desktop side of scan login: creates a ticket, polls its status every 2 s while mounted (the login page
 * mounts it only while the scan tab is open), and hands the tokens over once the phone confirmed.
 */
export function useScanLogin(onTokens: (result: LoginResult) => Promise<unknown>) {
  const [state, setState] = useState<ScanState>({ phase: 'loading' });
  const ticket = useRef<{ id: string; url: string; expiresAt: number } | null>(null);
  const generation = useRef(0);
  const handOver = useRef(onTokens);
  handOver.current = onTokens;

  const refresh = useCallback(async () => {
    const mine = ++generation.current;
    ticket.current = null;
    setState({ phase: 'loading' });
    try {
      const created = await scanLoginApi.create();
      if (mine !== generation.current) return;
      ticket.current = {
        id: created.id,
        url: absoluteScanUrl(created.url),
        expiresAt: Date.now() + created.expireSeconds * 1000,
      };
      setState({ phase: 'waiting', url: ticket.current.url });
    } catch {
      if (mine === generation.current) setState({ phase: 'error' });
    }
  }, []);

  useEffect(() => {
    void refresh();
    // Leaving the tab (unmount) stops polling: later answers belong to a stale generation.
    return () => {
      generation.current++;
    };
  }, [refresh]);

  useEffect(() => {
    if (state.phase !== 'waiting' && state.phase !== 'scanned') return;
    const current = ticket.current;
    if (!current) return;
    const mine = generation.current;
    const timer = setTimeout(async () => {
      if (Date.now() >= current.expiresAt) {
        setState({ phase: 'expired', url: current.url });
        return;
      }
      try {
        const status = await scanLoginApi.status(current.id);
        if (mine !== generation.current) return;
        if (status.status === 'confirmed' && status.accessToken && status.refreshToken) {
          setState({ phase: 'confirmed', url: current.url, realName: status.realName });
          await handOver.current({
            accessToken: status.accessToken,
            refreshToken: status.refreshToken,
            isDefPwd: status.isDefPwd ?? false,
            isUpdatePwd: status.isUpdatePwd ?? false,
          });
        } else if (status.status === 'scanned') {
          setState({ phase: 'scanned', url: current.url, realName: status.realName });
        } else if (status.status === 'waiting') {
          // Poll again: a new object keeps the effect going.
          setState({ phase: 'waiting', url: current.url });
        } else {
          setState({ phase: 'expired', url: current.url });
        }
      } catch {
        // A failed poll is retried on the next tick.
        if (mine === generation.current) setState((s) => ({ ...s }));
      }
    }, SCAN_LOGIN_POLL_MS);
    return () => clearTimeout(timer);
  }, [state]);

  return { state, refresh };
}

const QR_STATUS: Record<ScanPhase, QRCodeProps['status']> = {
  loading: 'loading',
  waiting: 'active',
  scanned: 'scanned',
  confirmed: 'scanned',
  expired: 'expired',
  error: 'expired',
};

/** What the scan tab shows for a state: the QR code and an overlay for scanned, confirmed and expired. */
export function ScanLoginView({ state, onRefresh }: { state: ScanState; onRefresh: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const overlay = () => {
    if (state.phase === 'scanned' || state.phase === 'confirmed') {
      return (
        <div className={styles.scanOverlay} data-testid="scan-scanned">
          <CheckCircleFilled style={{ fontSize: 32, color: token.colorSuccess }} />
          <span>
            {state.phase === 'confirmed'
              ? t('login.scanConfirmed')
              : t('login.scanScanned', { name: state.realName ?? '' })}
          </span>
        </div>
      );
    }
    if (state.phase === 'expired' || state.phase === 'error') {
      return (
        <div className={styles.scanOverlay} data-testid="scan-expired">
          <span>{t(state.phase === 'error' ? 'login.scanFailed' : 'login.scanExpired')}</span>
          <Button type="link" icon={<ReloadOutlined />} onClick={onRefresh} data-testid="scan-refresh">
            {t('login.scanRefresh')}
          </Button>
        </div>
      );
    }
    return null;
  };
  return (
    <div className={styles.scanPanel} data-testid="scan-panel" data-phase={state.phase}>
      <QRCode
        value={state.url ?? '-'}
        type="svg"
        size={200}
        bordered
        status={QR_STATUS[state.phase]}
        statusRender={(info) => (info.status === 'loading' ? <Spin /> : overlay())}
        data-testid="scan-qrcode"
        data-url={state.url ?? ''}
      />
      <p className={styles.scanHint} style={{ color: token.colorTextSecondary }}>
        {t('login.scanHint')}
      </p>
    </div>
  );
}

export function ScanLoginPanel({ onTokens }: { onTokens: (result: LoginResult) => Promise<unknown> }) {
  const { state, refresh } = useScanLogin(onTokens);
  return <ScanLoginView state={state} onRefresh={() => void refresh()} />;
}
