import {
  DownOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  LockOutlined,
  LogoutOutlined,
  SettingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { App, Avatar, Button, type ButtonProps, Dropdown, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useFileUrl } from '../../components/file-image/use-file-url.ts';
import { LanguageSwitch } from '../../components/language-switch.tsx';
import { MyTaskBadge } from '../../features/diy-task/my-task-badge.tsx';
import { NoticeBell } from '../../features/notice/notice-bell.tsx';
import { feedback } from '../../platform/feedback/feedback.ts';
import { useLockScreen } from '../../platform/session/lock-screen.ts';
import { logout } from '../../platform/session/logout.ts';
import { useSessionStore } from '../../platform/session/session.store.ts';
import { useTagsStore } from '../tags/tags.store.ts';
import styles from './layout.module.css';

function FullscreenToggle({ color }: { color: string }) {
  const { t } = useTranslation();
  const [active, setActive] = useState(Boolean(document.fullscreenElement));
  useEffect(() => {
    const sync = () => setActive(Boolean(document.fullscreenElement));
    document.addEventListener('fullscreenchange', sync);
    return () => document.removeEventListener('fullscreenchange', sync);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  };
  const label = t(active ? 'layout.exitFullscreen' : 'layout.fullscreen');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        style={{ color }}
        icon={active ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
        onClick={toggle}
        aria-label={label}
        data-testid="fullscreen-toggle"
      />
    </Tooltip>
  );
}

export function TopTools({ color, onOpenSettings }: { color: string; onOpenSettings: () => void }) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const userInfo = useSessionStore((state) => state.userInfo);
  const resetTags = useTagsStore((state) => state.reset);

  const confirmLogout = () => {
    modal.confirm({
      title: t('layout.logoutTitle'),
      content: t('layout.logoutConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { 'data-testid': 'logout-confirm-ok' } as ButtonProps,
      onOk: async () => {
        await logout();
        resetTags();
        feedback.success(t('layout.logoutDone'));
        navigate('/login', { replace: true });
      },
    });
  };

  const name = userInfo?.realName || userInfo?.account || '';
  // A relative path gets a leading slash (SPEC §3); files served by the API are fetched with the token.
  const avatar = useFileUrl(userInfo?.avatar);

  return (
    <div className={styles.tools}>
      <MyTaskBadge color={color} />
      <NoticeBell color={color} />
      <LanguageSwitch color={color} />
      <FullscreenToggle color={color} />
      <Tooltip title={t('layout.settings')}>
        <Button
          type="text"
          style={{ color }}
          icon={<SettingOutlined />}
          onClick={onOpenSettings}
          aria-label={t('layout.settings')}
          data-testid="settings-button"
        />
      </Tooltip>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            {
              key: 'userCenter',
              icon: <UserOutlined />,
              label: <span data-testid="user-menu-center">{t('layout.userCenter')}</span>,
            },
            {
              key: 'lockScreen',
              icon: <LockOutlined />,
              label: <span data-testid="user-menu-lock">{t('lockScreen.lock')}</span>,
            },
            { type: 'divider' },
            {
              key: 'logout',
              icon: <LogoutOutlined />,
              danger: true,
              label: <span data-testid="user-menu-logout">{t('layout.logout')}</span>,
            },
          ],
          onClick: ({ key }) => {
            if (key === 'userCenter') navigate('/system/userCenter');
            if (key === 'lockScreen') useLockScreen.getState().lock();
            if (key === 'logout') confirmLogout();
          },
        }}
      >
        <button type="button" className={styles.user} style={{ color }} data-testid="user-menu">
          <Avatar
            size={30}
            src={avatar}
            data-testid="header-avatar"
            icon={<UserOutlined />}
            style={{ flex: 'none' }}
          >
            {name.slice(0, 1)}
          </Avatar>
          <span className={styles.userName}>{name}</span>
          <DownOutlined style={{ fontSize: 10 }} />
        </button>
      </Dropdown>
    </div>
  );
}
