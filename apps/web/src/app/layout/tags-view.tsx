import { CloseCircleOutlined, CloseOutlined, ColumnWidthOutlined, ReloadOutlined } from '@ant-design/icons';
import { cutTabTitle } from '@shuzhi/contracts/formatters';
import { Dropdown, type MenuProps, Tabs, Tooltip, theme } from 'antd';
import type { KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import type { PageInfo } from '../route-table.ts';
import { type TagEntry, tagKey, useTagsStore } from '../tags/tags.store.ts';
import styles from './layout.module.css';

function tagUrl(tag: TagEntry): string {
  return tagKey(tag);
}

export function TagsView({ resolve, top }: { resolve: (path: string) => PageInfo | undefined; top: number }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const { tags, titles, close, closeOthers, closeAll, refresh } = useTagsStore();

  const active = tags.find((tag) => tag.path === location.pathname);
  const activeKey = active ? tagKey(active) : undefined;

  const closeTag = (key: string) => {
    const index = tags.findIndex((tag) => tagKey(tag) === key);
    const remaining = close(key);
    if (key !== activeKey) return;
    const next = remaining[Math.min(index, remaining.length - 1)] ?? remaining[remaining.length - 1];
    navigate(next ? tagUrl(next) : '/dashboard');
  };

  const onMenu = (tag: TagEntry, action: string) => {
    const key = tagKey(tag);
    if (action === 'refresh') {
      refresh(tag.path);
      if (key !== activeKey) navigate(tagUrl(tag));
    } else if (action === 'close') {
      closeTag(key);
    } else if (action === 'closeOthers') {
      closeOthers(key);
      if (key !== activeKey) navigate(tagUrl(tag));
    } else if (action === 'closeAll') {
      closeAll();
      const affix = useTagsStore.getState().tags[0];
      navigate(affix ? tagUrl(affix) : '/dashboard');
    }
  };

  const menuFor = (tag: TagEntry): MenuProps => ({
    items: [
      {
        key: 'refresh',
        icon: <ReloadOutlined />,
        label: <span data-testid="tags-menu-refresh">{t('tags.refresh')}</span>,
      },
      {
        key: 'close',
        icon: <CloseOutlined />,
        disabled: tag.meta.isAffix,
        label: <span data-testid="tags-menu-close">{t('tags.close')}</span>,
      },
      {
        key: 'closeOthers',
        icon: <ColumnWidthOutlined />,
        label: <span data-testid="tags-menu-close-others">{t('tags.closeOthers')}</span>,
      },
      {
        key: 'closeAll',
        icon: <CloseCircleOutlined />,
        label: <span data-testid="tags-menu-close-all">{t('tags.closeAll')}</span>,
      },
    ],
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      onMenu(tag, key);
    },
  });

  const items = tags.map((tag) => {
    const title = titles[tagKey(tag)] ?? resolve(tag.path)?.title ?? tag.meta.title;
    const short = cutTabTitle(title);
    const key = tagKey(tag);
    return {
      key,
      // antd's own close button would sit beside the role="tab" element inside the role="tablist", which
      // WCAG 4.1.2 (axe's aria-required-children) forbids: the cross is drawn inside the tab, the pointer
      // closes with it and the keyboard with Delete on the focused tab (closeFocused below).
      closable: false,
      label: (
        <span className={styles.tagLabel}>
          <Dropdown trigger={['contextMenu']} menu={menuFor(tag)}>
            <Tooltip title={short === title ? undefined : title} mouseEnterDelay={0.6}>
              <span data-testid="tags-view-tab" data-path={tag.path} data-title={title}>
                {short}
              </span>
            </Tooltip>
          </Dropdown>
          {tag.meta.isAffix ? null : (
            <CloseOutlined
              aria-hidden
              className={styles.tagClose}
              data-testid="tags-view-close"
              onClick={(event) => {
                event.stopPropagation();
                closeTag(key);
              }}
            />
          )}
        </span>
      ),
    };
  });

  const closeFocused = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Delete' && event.key !== 'Backspace') return;
    const target = event.target as HTMLElement;
    if (target.getAttribute('role') !== 'tab') return;
    const key = target.closest('[data-node-key]')?.getAttribute('data-node-key');
    const tag = tags.find((item) => tagKey(item) === key);
    if (!key || !tag || tag.meta.isAffix) return;
    // Taken before antd's own handler, which would stop the key on a tab it has no focus record of.
    event.preventDefault();
    event.stopPropagation();
    closeTag(key);
  };

  return (
    <div className={styles.tags} style={{ top, background: token.colorBgContainer }} data-testid="tags-view">
      <Tabs
        type="editable-card"
        hideAdd
        size="small"
        activeKey={activeKey}
        items={items}
        tabBarStyle={{ margin: 0 }}
        onKeyDownCapture={closeFocused}
        onChange={(key) => {
          const tag = tags.find((item) => tagKey(item) === key);
          if (tag) navigate(tagUrl(tag));
        }}
      />
    </div>
  );
}
