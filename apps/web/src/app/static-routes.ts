import type { TextKey } from '../platform/i18n/text-key.ts';
import type { ViewKey } from './view-keys.ts';

/** Pages that exist without a menu entry, with their title keys and caching rules (SPEC §2). */
export type StaticPage = {
  path: string;
  name: string;
  titleKey: TextKey;
  viewKey: ViewKey;
  isKeepAlive: boolean;
  isAffix: boolean;
};

export const STATIC_PAGES: StaticPage[] = [
  {
    path: '/dashboard',
    name: 'home',
    titleKey: 'routes.home',
    viewKey: '/home/dashboard/index',
    isKeepAlive: false,
    isAffix: true,
  },
  {
    path: '/simpleDashboard',
    name: 'simpleDashboard',
    titleKey: 'homeWork.simpleTitle',
    viewKey: '/home/simpleDashboard/index',
    isKeepAlive: true,
    isAffix: false,
  },
  {
    path: '/about',
    name: 'about',
    titleKey: 'routes.about',
    viewKey: '/about/index',
    isKeepAlive: true,
    isAffix: false,
  },
  {
    path: '/system/userCenter',
    name: 'userCenter',
    titleKey: 'routes.userCenter',
    viewKey: '/system/userCenter/index',
    isKeepAlive: false,
    isAffix: false,
  },
  {
    path: '/notice/inbox',
    name: 'noticeInbox',
    titleKey: 'noticeInbox.title',
    viewKey: '/notice/inbox/index',
    isKeepAlive: false,
    isAffix: false,
  },
  ...(
    [
      ['/enterprise', 'enterprise', 'home', '/enterprise/index'],
      [
        '/enterprise/reportClassify',
        'enterpriseReportClassify',
        'classify',
        '/enterprise/reportClassify/index',
      ],
      ['/enterprise/reportList', 'enterpriseReportList', 'list', '/enterprise/reportList/index'],
      ['/enterprise/search', 'enterpriseSearch', 'search', '/enterprise/search/index'],
      ['/enterprise/detail', 'enterpriseDetail', 'detail', '/enterprise/detail/index'],
    ] as const
  ).map(([path, name, title, viewKey]) => ({
    path,
    name,
    titleKey: `enterprise.routes.${title}` as const,
    viewKey,
    isKeepAlive: false,
    isAffix: false,
  })),
];

export function findStaticPage(pathname: string): StaticPage | undefined {
  return STATIC_PAGES.find((page) => page.path === pathname);
}
