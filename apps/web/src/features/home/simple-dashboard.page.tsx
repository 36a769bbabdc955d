import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { MyFilingsCard } from './my-filings-card.tsx';
import { WorkSummary } from './work-summary.tsx';

/**
 * 简易控制台 `/simpleDashboard` (SPEC §2, kept alive; issue 20 §1): the home page's work summary and this
 * period's filings in one narrow column for small screens, without the banner, shortcuts and account cards.
 */
export default function SimpleDashboardPage() {
  const { t } = useTranslation();
  const userInfo = useSessionStore((state) => state.userInfo);
  return (
    <Space
      orientation="vertical"
      size={12}
      style={{ width: '100%', maxWidth: 720, margin: '0 auto' }}
      data-testid="simple-dashboard-page"
    >
      <Typography.Title level={4} style={{ margin: 0 }}>
        {t('homeWork.title')}
        {userInfo ? ` · ${userInfo.realName || userInfo.account}` : ''}
      </Typography.Title>
      <WorkSummary compact />
      <MyFilingsCard />
    </Space>
  );
}
