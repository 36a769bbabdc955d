import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, ConfigProvider, Layout, theme, Watermark } from 'antd';
import { type ReactNode, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { DictSync } from '../../platform/dict/dict.store.ts';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useBranding } from '../../platform/profile/profile.ts';
import { useSecurityConfig } from '../../platform/security/use-security-config.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { useThemeStore } from '../../platform/theme/theme.store.ts';
import { todayInZone } from '../../platform/time/time-zone.ts';
import { useHomePath } from '../home-route.tsx';
import { isNoHeaderMode } from '../navigation.ts';
import { useRouteTable } from '../route-table.ts';
import { tagKey, useTagsStore } from '../tags/tags.store.ts';
import { AppMenu } from './app-menu.tsx';
import { Breadcrumbs } from './breadcrumbs.tsx';
import { KeepAliveOutlet } from './keep-alive-outlet.tsx';
import styles from './layout.module.css';
import { LayoutFooter } from './layout-footer.tsx';
import { SessionGuards } from './session-guards.tsx';
import { SettingsDrawer } from './settings-drawer.tsx';
import { TagsView } from './tags-view.tsx';
import { TopTools } from './top-tools.tsx';

const HEADER_HEIGHT = 56;

/** Light text on a dark top bar, dark text on a light one. */
function isDarkColor(hex: string): boolean {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex);
  if (!match) return false;
  const n = Number.parseInt(match[1], 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return (r * 299 + g * 587 + b * 114) / 1000 < 150;
}

function useCopyPasteBlock(blocked: boolean, text: string) {
  useEffect(() => {
    if (!blocked) return;
    let last = 0;
    const block = (event: Event) => {
      event.preventDefault();
      const now = Date.now();
      if (now - last > 1500) feedback.warning(text);
      last = now;
    };
    const events = ['copy', 'paste', 'cut'] as const;
    for (const name of events) document.addEventListener(name, block, true);
    return () => {
      for (const name of events) document.removeEventListener(name, block, true);
    };
  }, [blocked, text]);
}

function WatermarkLayer({ enabled, children }: { enabled: boolean; children: ReactNode }) {
  const { systemTitle } = useBranding();
  const realName = useSessionStore((state) => state.userInfo?.realName ?? '');
  const security = useSecurityConfig(enabled);
  const dark = useThemeStore((state) => state.isIsDark);
  useCopyPasteBlock(security.pasteCopyBlocked, useTranslation().t('layout.copyBlocked'));
  const mark = security.watermark;
  const content = mark && mark.content.length > 0 ? mark.content : [systemTitle, realName, todayInZone()];
  // An overlay beside the page rather than a wrapper around it: switching the watermark on or off (an
  // admin saving sys_watermark) must not remount the open pages and lose their state.
  return (
    <>
      {children}
      {mark ? (
        <Watermark
          content={content}
          width={mark.width || 200}
          height={mark.height || 70}
          gap={mark.gap ?? [80, 80]}
          zIndex={mark.zIndex || 9999}
          font={{ color: dark ? 'rgba(255,255,255,0.10)' : 'rgba(0,0,0,0.10)' }}
          style={{ position: 'fixed', inset: 0, pointerEvents: 'none', zIndex: mark.zIndex || 9999 }}
          data-testid="watermark"
        />
      ) : null}
    </>
  );
}

export function LayoutShell() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const location = useLocation();
  const config = useThemeStore();
  const branding = useBranding();
  const { resolve } = useRouteTable();
  const openTag = useTagsStore((state) => state.open);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const page = resolve(location.pathname);
  const pageId = new URLSearchParams(location.search).get('id');
  const ownTitle = useTagsStore(
    (state) => state.titles[tagKey({ path: location.pathname, query: pageId ? { id: pageId } : {} })],
  );
  const title = ownTitle ?? page?.title ?? t('routes.notFound');

  useEffect(() => {
    document.title = `${title} - ${branding.systemTitle}`;
  }, [title, branding.systemTitle]);

  // Every page visited becomes a tab; the home tab (the portal of an enterprise account) is pinned (affix).
  const home = useHomePath();
  const homeTitle = resolve(home)?.title ?? t('routes.home');
  useEffect(() => {
    openTag({ path: home, name: 'home', query: {}, meta: { title: homeTitle, isAffix: true } });
  }, [home, homeTitle, openTag]);
  const { pathname, search } = location;
  const pageName = page?.name;
  const pageAffix = page?.isAffix ?? false;
  useEffect(() => {
    if (!pageName) return;
    const id = new URLSearchParams(search).get('id');
    openTag({
      path: pathname,
      name: pageName,
      query: id ? { id } : {},
      meta: { title, ...(pageAffix ? { isAffix: true } : {}) },
    });
  }, [pageName, pageAffix, title, pathname, search, openTag]);

  const isKeepAlive = useMemo(() => (pathname: string) => Boolean(resolve(pathname)?.isKeepAlive), [resolve]);

  const classic = config.layout === 'classic';
  const barColor = config.isIsDark ? token.colorBgContainer : config.topBarColor;
  const barDark = config.isIsDark || isDarkColor(barColor);
  const barText = barDark ? 'rgba(255,255,255,0.92)' : token.colorText;

  const brand = (
    <Link to={home} className={styles.brand}>
      <BrandLogo src={branding.logo} text={branding.profile?.shortName ?? t('app.name')} size={30} />
      <span className={styles.brandName} style={{ color: barText }} data-testid="layout-system-name">
        {branding.systemTitle}
      </span>
    </Link>
  );

  const menuTheme = barDark ? 'dark' : 'light';
  const topMenuTokens = {
    components: {
      Menu: {
        darkItemBg: 'transparent',
        darkPopupBg: token.colorBgElevated === '#ffffff' ? '#001529' : token.colorBgElevated,
        darkItemSelectedBg: 'rgba(255,255,255,0.18)',
        horizontalLineHeight: `${HEADER_HEIGHT - 2}px`,
        itemBg: 'transparent',
      },
    },
  };

  const header = (
    <Layout.Header
      className={styles.header}
      style={{ background: barColor, color: barText }}
      data-testid="layout-header"
    >
      {classic ? (
        <Button
          type="text"
          style={{ color: barText }}
          icon={config.isCollapse ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
          onClick={() => config.update({ isCollapse: !config.isCollapse })}
          aria-label={t(config.isCollapse ? 'layout.expand' : 'layout.collapse')}
          data-testid="sider-toggle"
        />
      ) : (
        brand
      )}
      {classic ? (
        <div className={styles.spacer} style={{ display: 'flex', alignItems: 'center' }}>
          {config.isBreadcrumb ? <Breadcrumbs page={page} inHeader /> : null}
        </div>
      ) : (
        <ConfigProvider theme={topMenuTokens}>
          <AppMenu mode="horizontal" theme={menuTheme} />
        </ConfigProvider>
      )}
      <TopTools color={barText} onOpenSettings={() => setSettingsOpen(true)} />
    </Layout.Header>
  );

  // Embedded without a header (SPEC §2 iframenoheader): the page alone, no menus, tabs, breadcrumbs or footer.
  const noHeader = isNoHeaderMode(search);
  const main = (
    <Layout style={{ minWidth: 0 }}>
      {noHeader ? null : header}
      {config.isTagsview && !noHeader ? <TagsView resolve={resolve} top={HEADER_HEIGHT} /> : null}
      <Layout.Content className={styles.content}>
        {!classic && config.isBreadcrumb && !noHeader ? <Breadcrumbs page={page} /> : null}
        <div className={styles.page} data-testid="page-content">
          <KeepAliveOutlet isKeepAlive={isKeepAlive} />
        </div>
        {noHeader ? null : <LayoutFooter />}
      </Layout.Content>
    </Layout>
  );

  return (
    <WatermarkLayer enabled>
      <Layout className={styles.shell} data-testid="layout-shell" data-layout={config.layout}>
        {classic && !noHeader ? (
          <Layout.Sider
            className={styles.sider}
            collapsible
            collapsed={config.isCollapse}
            trigger={null}
            width={220}
            theme="dark"
            style={{ position: 'sticky', top: 0, height: '100vh', overflow: 'auto' }}
            data-testid="layout-sider"
          >
            <div className={styles.siderBrand}>
              <BrandLogo src={branding.logo} text={branding.profile?.shortName ?? t('app.name')} size={30} />
              {config.isCollapse ? null : <span className={styles.brandName}>{branding.systemTitle}</span>}
            </div>
            <AppMenu mode="inline" theme="dark" />
          </Layout.Sider>
        ) : null}
        {main}
      </Layout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <DictSync />
      <SessionGuards />
    </WatermarkLayer>
  );
}
