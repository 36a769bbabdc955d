import { ApartmentOutlined, LockOutlined, SafetyCertificateOutlined, TeamOutlined } from '@ant-design/icons';
import { greetingBand, maskPhone } from '@shuzhi/contracts/formatters';
import {
  Alert,
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Row,
  Space,
  Statistic,
  Tag,
  Typography,
  theme,
} from 'antd';
import type { CSSProperties } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MenuIcon } from '../../components/menu-icon.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { accountTypeKey } from '../../platform/session/account-type.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { formatInZone, wallClockNow } from '../../platform/time/time-zone.ts';
import { buildMenuRoutes, type MenuRoute } from '../../platform/views/menu-routes.ts';
import { useMenuTree } from '../../platform/views/use-menu-tree.ts';
import styles from './dashboard.module.css';
import { MyFilingsCard } from './my-filings-card.tsx';
import { WorkSummary } from './work-summary.tsx';

const SHORTCUT_LIMIT = 12;

/** The warning of a session still on its default password, with the way to change it. */
function DefaultPasswordAlert() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Alert
      type="warning"
      showIcon
      icon={<LockOutlined />}
      title={t('dashboard.defaultPasswordWarning')}
      action={
        <Button size="small" type="primary" onClick={() => navigate('/system/userCenter?isPassword=true')}>
          {t('dashboard.changePassword')}
        </Button>
      }
    />
  );
}

export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const branding = useBranding();
  const userInfo = useSessionStore((state) => state.userInfo);
  const menuTree = useMenuTree();
  const buttons = useSessionStore((state) => state.buttons);

  const pages = useMemo(
    () =>
      buildMenuRoutes(menuTree, []).filter(
        (route) => !route.isHide && !route.isDynamic && route.path !== '/dashboard',
      ),
    [menuTree],
  );

  if (!userInfo) return null;

  const band = greetingBand(wallClockNow().hour);
  const today = formatInZone(Date.now(), i18n.language, { dateStyle: 'full' });
  const orgPath = (userInfo.fullOrgNames || userInfo.orgName || '').split(/[,，/]/).filter(Boolean);

  const openPage = (route: MenuRoute) => {
    if (route.link && !route.isIframe) {
      window.open(route.link, '_blank', 'noopener,noreferrer');
      feedback.info(t('layout.linkOpened', { title: route.title }));
      return;
    }
    navigate(route.path);
  };

  const bannerVars = {
    '--dash-primary': token.colorPrimary,
    '--dash-primary-deep': token.colorPrimaryActive,
  } as CSSProperties;

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="dashboard-page">
      <div className={styles.banner} style={bannerVars}>
        <h2 className={styles.hello} data-testid="dashboard-greeting">
          {t('dashboard.hello', {
            greeting: t(`hello.${band}`),
            name: userInfo.realName || userInfo.account,
          })}
        </h2>
        <p className={styles.sub}>
          {t('dashboard.todayIs', { date: today })} ·{' '}
          {t('dashboard.welcome', { system: branding.systemTitle })}
        </p>
        <div className={styles.slogan}>{t('app.slogan')}</div>
        <div className={styles.profileLine} data-testid="dashboard-profile">
          {branding.areaName ? <span>{branding.areaName}</span> : null}
          {branding.unitName ? <span>{branding.unitName}</span> : null}
          <span>{branding.systemName}</span>
        </div>
      </div>

      {userInfo.isDefPwd ? <DefaultPasswordAlert /> : null}

      <WorkSummary />

      <MyFilingsCard />

      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Card title={t('dashboard.shortcuts')} data-testid="dashboard-shortcuts" style={{ height: '100%' }}>
            {pages.length === 0 ? (
              <Empty description={t('dashboard.shortcutsEmpty')} />
            ) : (
              <Row gutter={[12, 12]}>
                {pages.slice(0, SHORTCUT_LIMIT).map((route) => (
                  <Col key={route.id} xs={12} sm={8} md={6} xxl={4}>
                    <button
                      type="button"
                      className={styles.shortcut}
                      onClick={() => openPage(route)}
                      data-testid="dashboard-shortcut"
                      data-path={route.path}
                      style={{ background: token.colorFillQuaternary }}
                    >
                      <span
                        className={styles.shortcutIcon}
                        style={{ color: token.colorPrimary, background: token.colorPrimaryBg }}
                      >
                        <MenuIcon name={route.icon ?? route.name} />
                      </span>
                      <span className={styles.shortcutTitle} title={route.title}>
                        {route.title}
                      </span>
                    </button>
                  </Col>
                ))}
              </Row>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={8}>
          <Card title={t('dashboard.account')} style={{ height: '100%' }} data-testid="dashboard-account">
            <Row gutter={16} style={{ marginBottom: 16 }}>
              <Col span={12}>
                <Statistic title={t('dashboard.menuCount')} value={pages.length} />
              </Col>
              <Col span={12}>
                <Statistic title={t('dashboard.permissionCount')} value={buttons.length} />
              </Col>
            </Row>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('dashboard.accountName')}>{userInfo.account}</Descriptions.Item>
              <Descriptions.Item label={t('dashboard.accountType')}>
                {t(accountTypeKey(userInfo.accountType))}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.position')}>
                {userInfo.posName || t('common.notSet')}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.region')}>
                {userInfo.fullRegionName || userInfo.regionName || t('common.notSet')}
              </Descriptions.Item>
              <Descriptions.Item label={t('dashboard.phone')}>
                {userInfo.phone ? maskPhone(userInfo.phone) : t('common.notSet')}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card
            title={
              <Space>
                <ApartmentOutlined />
                {t('dashboard.org')}
              </Space>
            }
            data-testid="dashboard-org"
          >
            {orgPath.length > 0 ? (
              <Typography.Paragraph style={{ marginBottom: 0, fontSize: 15 }}>
                {orgPath.join(' / ')}
              </Typography.Paragraph>
            ) : (
              <Typography.Text type="secondary">{t('common.notSet')}</Typography.Text>
            )}
          </Card>
        </Col>
        <Col xs={24} md={12}>
          <Card
            title={
              <Space>
                <TeamOutlined />
                {t('dashboard.roles')}
              </Space>
            }
            extra={
              userInfo.isDefPwd ? null : (
                <SafetyCertificateOutlined
                  style={{ color: token.colorSuccess }}
                  title={t('dashboard.passwordOk')}
                />
              )
            }
            data-testid="dashboard-roles"
          >
            {userInfo.roles.length > 0 ? (
              <Space wrap>
                {userInfo.roles.map((role) => (
                  <Tag key={role} color="processing">
                    {role}
                  </Tag>
                ))}
              </Space>
            ) : (
              <Typography.Text type="secondary">{t('dashboard.noRoles')}</Typography.Text>
            )}
          </Card>
        </Col>
      </Row>
    </Space>
  );
}
