import {
  COCKPIT_HEIGHT,
  COCKPIT_WIDTH,
  type CockpitConfig,
  DEFAULT_COCKPIT_CONFIG,
} from '@shuzhi/contracts/cockpit';
import type { ErrorCode } from '@shuzhi/contracts/errors';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { errorCodeIn } from '../../platform/http/http-client.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { nowInZone } from '../../platform/time/time-zone.ts';
import { zoneDayjs } from '../../platform/time/zone-dayjs.ts';
import { COCKPIT_KEYS, cockpitApi } from './cockpit.api.ts';
import styles from './cockpit.module.css';
import { CockpitPanels } from './cockpit-panels.tsx';

const LINK_ENDINGS: readonly ErrorCode[] = ['B1021', 'B1022', 'B1023', 'B1024'];
const ENDING_TEXT = {
  B1021: 'cockpit.link.invalid',
  B1022: 'cockpit.link.expired',
  B1023: 'cockpit.link.revoked',
  B1024: 'cockpit.link.denied',
} as const;

/** The transform that fits the 1920×1080 design into the window: letterboxed (`fit`) or stretched. */
export function stageTransform(mode: CockpitConfig['scaleMode'], width: number, height: number): string {
  const sx = width / COCKPIT_WIDTH;
  const sy = height / COCKPIT_HEIGHT;
  if (mode === 'stretch') return `scale(${sx}, ${sy})`;
  const s = Math.min(sx, sy);
  const left = (width - COCKPIT_WIDTH * s) / 2;
  const top = (height - COCKPIT_HEIGHT * s) / 2;
  return `translate(${left}px, ${top}px) scale(${s})`;
}

function useWindowSize() {
  const [size, setSize] = useState(() => ({ width: window.innerWidth, height: window.innerHeight }));
  useEffect(() => {
    const onResize = () => setSize({ width: window.innerWidth, height: window.innerHeight });
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return size;
}

/** The design's box, scaled to the window; the page never scrolls. */
function Stage({ mode, children }: { mode: CockpitConfig['scaleMode']; children: ReactNode }) {
  const { width, height } = useWindowSize();
  return (
    <div className={styles.viewport}>
      <div
        className={styles.stage}
        style={{ transform: stageTransform(mode, width, height) }}
        data-testid="cockpit"
      >
        {children}
      </div>
    </div>
  );
}

/** Date, weekday and time in the product's time zone, ticking each second (one timer, cleared on leaving). */
function Clock() {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return (
    <span data-testid="cockpit-clock">
      {nowInZone(now)} {zoneDayjs(now).format('dddd')}
    </span>
  );
}

/**
 * `/jsc` (issue 20 §4, docs/dashboards.md "The cockpit"): the big screen. Signed in, it shows the caller's
 * scope; opened as `/jsc?link=…` (a signed link, no login) it shows what the link's publisher may see. One
 * call answers every configured panel and is repeated every `refreshSeconds`: React Query keeps only the
 * latest answer, the map keeps one chart, the list scrolls by CSS — nothing grows while the screen runs.
 */
export default function CockpitPage() {
  const { t } = useTranslation();
  const { systemName, systemTitle } = useBranding();
  const [params] = useSearchParams();
  const code = params.get('link');
  const [refresh, setRefresh] = useState(DEFAULT_COCKPIT_CONFIG.refreshSeconds);
  const query = useQuery({
    queryKey: COCKPIT_KEYS.data(code),
    queryFn: () => (code === null ? cockpitApi.data() : cockpitApi.dataByLink(code)),
    refetchInterval: refresh * 1000,
    refetchIntervalInBackground: true,
    retry: false,
    gcTime: 0,
  });
  const data = query.data;
  useEffect(() => {
    if (data) setRefresh(data.config.refreshSeconds);
  }, [data]);
  useEffect(() => {
    document.title = `${t('cockpit.title')} - ${systemTitle}`;
  }, [t, systemTitle]);

  const ending = code === null ? undefined : errorCodeIn(query.error, LINK_ENDINGS);
  if (ending) {
    return (
      <div className={styles.ending} role="alert" data-testid="cockpit-ending">
        <div>{t(ENDING_TEXT[ending as keyof typeof ENDING_TEXT])}</div>
        <div className={styles.muted}>{t('cockpit.link.hint')}</div>
      </div>
    );
  }
  return (
    <Stage mode={data?.config.scaleMode ?? DEFAULT_COCKPIT_CONFIG.scaleMode}>
      <header className={styles.header}>
        <div className={styles.updated}>
          {query.isError ? (
            <span role="alert">{t('cockpit.loadFailed')}</span>
          ) : data ? (
            t('cockpit.updated', { time: data.now.slice(11) })
          ) : null}
        </div>
        <h1 className={styles.title}>{systemName}</h1>
        <div className={styles.clock}>
          <Clock />
        </div>
      </header>
      {data ? <CockpitPanels data={data} /> : <div className={styles.empty}>{t('cockpit.loading')}</div>}
    </Stage>
  );
}
