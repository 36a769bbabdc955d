import { theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../platform/profile/profile.ts';
import { wallClockNow } from '../../platform/time/time-zone.ts';
import styles from './layout.module.css';

export function LayoutFooter() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const branding = useBranding();
  const copyright =
    branding.copyright ||
    t('footer.copyright', { year: wallClockNow().year, unit: branding.unitName || branding.systemName });
  const parts = [
    branding.organizer ? t('login.organizer', { name: branding.organizer }) : '',
    branding.phone ? t('login.supportPhone', { phone: branding.phone }) : '',
    copyright,
  ].filter(Boolean);
  return (
    <footer className={styles.footer} style={{ color: token.colorTextTertiary }} data-testid="layout-footer">
      <div>{parts.join(' · ')}</div>
      {branding.icp ? (
        <a href="https://beian.miit.gov.cn/" target="_blank" rel="noreferrer" style={{ color: 'inherit' }}>
          {branding.icp}
        </a>
      ) : null}
    </footer>
  );
}
