import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

type View = LazyExoticComponent<ComponentType>;

/**
 * Views a menu's `component` may name (SPEC §2). Keys are component paths as the menu tree carries them;
 * matching (normalised, equality or suffix, exactly one hit) lives in platform/views.
 */
export const VIEWS: Record<string, View> = {
  '/home/dashboard/index': lazy(() => import('../features/home/dashboard.page.tsx')),
  '/about/index': lazy(() => import('../features/about/about.page.tsx')),
  '/system/userCenter/index': lazy(() => import('../features/user-center/user-center.page.tsx')),
  '/system/user/opPassword/index': lazy(() => import('../features/user-center/op-password.page.tsx')),
  '/system/user/index': lazy(() => import('../features/user/user.page.tsx')),
  '/system/role/index': lazy(() => import('../features/role/role.page.tsx')),
  '/system/org/index': lazy(() => import('../features/org/org.page.tsx')),
  '/system/pos/index': lazy(() => import('../features/pos/pos.page.tsx')),
  '/system/userGroup/index': lazy(() => import('../features/user-group/user-group.page.tsx')),
  '/system/tenant/index': lazy(() => import('../features/tenant/tenant.page.tsx')),
  '/system/menu/index': lazy(() => import('../features/menu/menu.page.tsx')),
  '/system/onlineUser/index': lazy(() => import('../features/online-user/online-user.page.tsx')),
  '/system/openAccess/index': lazy(() => import('../features/open-access/open-access.page.tsx')),
  '/platform/config/index': lazy(() => import('../features/config/config.page.tsx')),
  '/platform/sysInfo/index': lazy(() => import('../features/config/sys-info.page.tsx')),
  '/platform/dict/index': lazy(() => import('../features/dict/dict.page.tsx')),
  '/platform/region/index': lazy(() => import('../features/region/region.page.tsx')),
  '/platform/file/index': lazy(() => import('../features/file/file.page.tsx')),
  '/platform/cache/index': lazy(() => import('../features/cache/cache.page.tsx')),
  '/platform/server/index': lazy(() => import('../features/server/server.page.tsx')),
  '/platform/log/vislog/index': lazy(() => import('../features/log/vis-log.page.tsx')),
  '/platform/log/oplog/index': lazy(() => import('../features/log/op-log.page.tsx')),
  '/platform/log/exlog/index': lazy(() => import('../features/log/ex-log.page.tsx')),
  '/platform/log/difflog/index': lazy(() => import('../features/log/diff-log.page.tsx')),
  '/platform/job/index': lazy(() => import('../features/job/job.page.tsx')),
  '/platform/notice/index': lazy(() => import('../features/notice/notice.page.tsx')),
  '/notice/inbox/index': lazy(() => import('../features/notice/notice-inbox.page.tsx')),
  '/enterprise/index': lazy(() => import('../features/enterprise/enterprise-home.page.tsx')),
  '/enterprise/reportClassify/index': lazy(() => import('../features/enterprise/report-classify.page.tsx')),
  '/enterprise/reportList/index': lazy(() => import('../features/enterprise/report-list.page.tsx')),
  '/enterprise/search/index': lazy(() => import('../features/enterprise/search.page.tsx')),
  '/enterprise/detail/index': lazy(() => import('../features/enterprise/detail.page.tsx')),
  '/diyTable/design/index': lazy(() => import('../features/diy-designer/designer.page.tsx')),
  '/diyReport/formTable/index': lazy(() => import('../features/diy-report/form-table/form-table.page.tsx')),
  '/diyTable/index': lazy(() => import('../features/diy-table/diy-table.page.tsx')),
  '/diyTable/classify/index': lazy(() => import('../features/diy-classify/diy-classify.page.tsx')),
  '/diyReport/audit/index': lazy(() => import('../features/diy-audit/diy-audit.page.tsx')),
  '/diyReport/recycle/index': lazy(() => import('../features/diy-recycle/diy-recycle.page.tsx')),
  '/diyReport/period/index': lazy(() => import('../features/diy-period/diy-period.page.tsx')),
  '/diyLoad/loadTable/index': lazy(() => import('../features/diy-rollup/load-table.page.tsx')),
  '/diyReport/index': lazy(() => import('../features/diy-report/diy-report.page.tsx')),
};

export const VIEW_KEYS = Object.keys(VIEWS);
