// The keys of every text the app shows, so that `t('a.key')` with a key no language defines fails
// `npm run check`. zh-CN is the reference: en and zh-TW are held to its shape where they are written
// (platform/i18n/locales/*.ts through `Messages`, each *.locale.ts through `defineLocale`).
//
// It sits at the root of src/, not in platform/i18n, because it names every feature's texts and
// platform/ does not import features/ (docs/architecture.md). A new *.locale.ts is added here too:
// until it is, every t() of its keys fails the check.

import type diyForm from './components/diy-form/diy-form.locale.ts';
import type diyImport from './components/diy-import/diy-import.locale.ts';
import type diyQuery from './components/diy-query/diy-query.locale.ts';
import type diyRecord from './components/diy-record/diy-record.locale.ts';
import type filePreview from './components/file-preview/file-preview.locale.ts';
import type peoplePick from './components/people-pick/people-pick.locale.ts';
import type richText from './components/rich-text/rich-text.locale.ts';
import type cockpit from './features/cockpit/cockpit.locale.ts';
import type dataBoard from './features/data-board/data-board.locale.ts';
import type efficiencyBoard from './features/data-board/efficiency.locale.ts';
import type diyAudit from './features/diy-audit/diy-audit.locale.ts';
import type diyClassify from './features/diy-classify/diy-classify.locale.ts';
import type diyConfirm from './features/diy-confirm/diy-confirm.locale.ts';
import type diyDesigner from './features/diy-designer/diy-designer.locale.ts';
import type diyPeriod from './features/diy-period/diy-period.locale.ts';
import type diyRecycle from './features/diy-recycle/diy-recycle.locale.ts';
import type diyReport from './features/diy-report/diy-report.locale.ts';
import type diyRollup from './features/diy-rollup/diy-rollup.locale.ts';
import type diyTable from './features/diy-table/diy-table.locale.ts';
import type diyTask from './features/diy-task/diy-task.locale.ts';
import type diyTaskLife from './features/diy-task/task-life.locale.ts';
import type taskReview from './features/diy-task/task-review.locale.ts';
import type diyTaskSchedule from './features/diy-task/task-schedule.locale.ts';
import type taskUrge from './features/diy-task/task-urge.locale.ts';
import type diyWord from './features/diy-word/diy-word.locale.ts';
import type enterprise from './features/enterprise/enterprise.locale.ts';
import type file from './features/file/file.locale.ts';
import type home from './features/home/home.locale.ts';
import type job from './features/job/job.locale.ts';
import type menu from './features/menu/menu.locale.ts';
import type noLogin from './features/no-login/no-login.locale.ts';
import type publicPages from './features/no-login/public-pages.locale.ts';
import type notice from './features/notice/notice.locale.ts';
import type onlineUser from './features/online-user/online-user.locale.ts';
import type openAccess from './features/open-access/open-access.locale.ts';
import type org from './features/org/org.locale.ts';
import type pos from './features/pos/pos.locale.ts';
import type role from './features/role/role.locale.ts';
import type tenant from './features/tenant/tenant.locale.ts';
import type user from './features/user/user.locale.ts';
import type userCenter from './features/user-center/user-center.locale.ts';
import type userGroup from './features/user-group/user-group.locale.ts';
import type base from './platform/i18n/locales/zh-cn.ts';

// One object of all top-level keys rather than an intersection of the 30 files' types.
type Flat<T> = { [K in keyof T]: T[K] };
type Texts = Flat<
  typeof base &
    (typeof diyForm)['zh-CN'] &
    (typeof diyImport)['zh-CN'] &
    (typeof diyQuery)['zh-CN'] &
    (typeof diyRecord)['zh-CN'] &
    (typeof filePreview)['zh-CN'] &
    (typeof peoplePick)['zh-CN'] &
    (typeof richText)['zh-CN'] &
    (typeof diyAudit)['zh-CN'] &
    (typeof dataBoard)['zh-CN'] &
    (typeof diyClassify)['zh-CN'] &
    (typeof diyConfirm)['zh-CN'] &
    (typeof diyDesigner)['zh-CN'] &
    (typeof diyPeriod)['zh-CN'] &
    (typeof diyRecycle)['zh-CN'] &
    (typeof diyReport)['zh-CN'] &
    (typeof diyRollup)['zh-CN'] &
    (typeof diyTable)['zh-CN'] &
    (typeof diyTask)['zh-CN'] &
    (typeof diyTaskLife)['zh-CN'] &
    (typeof diyTaskSchedule)['zh-CN'] &
    (typeof taskUrge)['zh-CN'] &
    (typeof taskReview)['zh-CN'] &
    (typeof enterprise)['zh-CN'] &
    (typeof file)['zh-CN'] &
    (typeof home)['zh-CN'] &
    (typeof job)['zh-CN'] &
    (typeof menu)['zh-CN'] &
    (typeof noLogin)['zh-CN'] &
    (typeof notice)['zh-CN'] &
    (typeof onlineUser)['zh-CN'] &
    (typeof openAccess)['zh-CN'] &
    (typeof org)['zh-CN'] &
    (typeof pos)['zh-CN'] &
    (typeof role)['zh-CN'] &
    (typeof tenant)['zh-CN'] &
    (typeof userCenter)['zh-CN'] &
    (typeof userGroup)['zh-CN'] &
    (typeof user)['zh-CN'] &
    (typeof cockpit)['zh-CN'] &
    (typeof efficiencyBoard)['zh-CN'] &
    (typeof publicPages)['zh-CN'] &
    (typeof diyWord)['zh-CN']
>;

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: Texts };
    // As i18n.ts initialises i18next: menu permissions such as `dashboard:view` are keys, not namespaces.
    nsSeparator: false;
    returnNull: false;
    // Texts are typed `string`, not their literal wording: there are no {{variables}} to read from them.
    parseInterpolation: false;
    // A default value does not excuse a wrong key (keys made from server values use serverText).
    strictKeyChecks: true;
  }
}
